"""A room's event log and the state derived from it: ``Snapshot``, ``fold``, ``History``.

A room's state is a ``Snapshot`` derived by folding its event log through the engine;
the live path uses the same ``fold`` as the replay after a restart, so a rebuilt room
is the room that was. Each accepted action is applied by the engine once: the master
folds it while checking it (``fold_action``) and the room commits that snapshot.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Generic, Protocol, TypeVar

from ginrummy.engine import (
    Action,
    ActionKind,
    FairBlock,
    ForfeitReason,
    GinRummyError,
    MatchState,
    Rules,
    Seat,
    apply_match,
    deal,
    forfeit,
    new_match,
    parse_action,
    parse_cards,
)
from ginrummy.protocol import decode_action
from ginrummy.server.room.fair import Pending, pending_of, with_seed_event
from ginrummy.server.room.seats import SeatInfo, seats_of
from ginrummy.server.store import Event, StoredRoom

REPLAY_ERRORS = (GinRummyError, KeyError, TypeError, ValueError)  # a log that does not fold
# Moves whose event a notice carries: every card in them is face up. A knock's or gin's
# card is laid face down, so its notice does not carry it (docs/protocol.md; the bus's
# notices carry no hidden card: server/pubsub/base.py).
CARRIED = frozenset(
    {
        ActionKind.TAKE,
        ActionKind.PASS,
        ActionKind.DRAW_STOCK,
        ActionKind.DRAW_DISCARD,
        ActionKind.DISCARD,
    }
)


def notice_of(event: Event) -> dict[str, Any]:
    """The bus notice of an event written to the log: its kind, version and seat. A
    public move's notice carries the move too (``action``), so that an instance that
    has the version before it takes it in without reading the log (``carried``)."""
    seat = event.payload.get("seat")
    notice: dict[str, Any] = {"kind": event.kind, "version": event.seq, "seat": seat}
    text = event.payload.get("action")
    if event.kind == "action" and isinstance(text, str) and _public(text):
        notice["action"] = text
    return notice


def carried(notice: Mapping[str, Any]) -> Event | None:
    """The event a notice carries (a public move), None if it carries none."""
    version, seat, text = notice.get("version"), notice.get("seat"), notice.get("action")
    if notice.get("kind") != "action" or not isinstance(version, int):
        return None
    if not isinstance(seat, str) or not isinstance(text, str) or not _public(text):
        return None
    return Event(version, "action", {"seat": seat, "action": text})


def _public(text: str) -> bool:
    try:
        return parse_action(text).kind in CARRIED
    except GinRummyError:
        return False


class Versioned(Protocol):
    """A snapshot: the state after the event with seq ``version``."""

    @property
    def version(self) -> int: ...


T = TypeVar("T")
V = TypeVar("V", bound=Versioned)
HISTORY = 16
"""Recent snapshots kept, so that a socket a few notices behind (a round's start is four
events at once) renders exactly the version it is told; one further behind gets the
current one and skips the notices it covers. Each costs about 1 kB: with 200 games, 64
of them took 9 MB more than 16 (bench/RESULTS.md, "Abuse")."""


@dataclass(frozen=True, slots=True)
class Snapshot:
    """A room's match state after the event with seq ``version``."""

    version: int
    match: MatchState | None  # None only before the first "match" event
    ready: frozenset[Seat] = frozenset()  # people ready for the next round
    rematch: frozenset[Seat] = frozenset()  # people who want a new match
    match_seq: int = 0  # seq of the event that set up the current match
    match_number: int = 0  # the current match's number in the room, from 1
    pending: Pending | None = None  # the round due: committed, waiting for seat seeds
    fair: tuple[FairBlock | None, ...] = ()  # each dealt round's (None: dealt before fairness)

    @property
    def over(self) -> bool:
        """The match is over (a result is in)."""
        return self.match is not None and self.match.is_over


def fold_action(snap: Snapshot, seq: int, seat: Seat, action: Action) -> Snapshot:
    """The snapshot after ``seat`` plays ``action`` as event ``seq``; raises
    ``GinRummyError`` if it is not that seat's turn or the engine refuses it."""
    match = snap.match
    if match is None:
        raise GinRummyError(f"event {seq} (action) before the match was set up")
    if match.turn is not seat:
        raise GinRummyError(f"event {seq}: it is not seat {seat.label}'s turn")
    return replace(snap, version=seq, match=apply_match(match, action))


def following(snap: V, event: Event) -> V:
    """``snap`` at the version of ``event``, which must follow it (any room's fold)."""
    if event.seq != snap.version + 1:
        raise GinRummyError(f"event {event.seq} follows version {snap.version}")
    return replace(snap, version=event.seq)  # type: ignore[type-var]


def fold(snap: Snapshot, event: Event) -> Snapshot:
    """The snapshot after ``event``; raises ``GinRummyError`` if the engine refuses it."""
    after = following(snap, event)
    p = event.payload
    if event.kind == "match":
        rules = Rules.from_dict(dict(p["rules"]))
        first = Seat.parse(str(p["first_dealer"]))
        fresh = new_match(rules, first)
        return Snapshot(event.seq, fresh, match_seq=event.seq, match_number=snap.match_number + 1)
    match = snap.match
    if match is None:
        raise GinRummyError(f"event {event.seq} ({event.kind}) before the match was set up")
    if event.kind == "deal":
        # The stored deck is dealt (older logs have no fair block); the master made it
        # from the seeds when it wrote the event.
        block = FairBlock.from_dict(p["fair"]) if "fair" in p else None
        dealt = deal(match, parse_cards(str(p["deck"])))
        fair = (*snap.fair, block)
        return replace(after, match=dealt, ready=frozenset(), pending=None, fair=fair)
    if event.kind == "commit":
        return replace(after, pending=pending_of(p))
    if event.kind == "seed":
        if snap.pending is None:
            raise GinRummyError(f"event {event.seq}: a seed without a commitment")
        return replace(after, pending=with_seed_event(snap.pending, p))
    seat = Seat.parse(str(p["seat"]))
    if event.kind == "action":
        return fold_action(snap, event.seq, seat, decode_action(p["action"]))
    if event.kind == "ready":
        return replace(after, ready=snap.ready | {seat})
    if event.kind == "rematch":
        return replace(after, rematch=snap.rematch | {seat})
    if event.kind == "forfeit":
        # A deal still waiting for seeds is never dealt: the match is over.
        lost = forfeit(match, seat, ForfeitReason(str(p["reason"])))
        return replace(after, match=lost, pending=None)
    raise GinRummyError(f"unknown event kind {event.kind!r}")


def fold_each(fold_one: Callable[[T, Event], T], snap: T, events: Iterable[Event]) -> tuple[T, ...]:
    """The snapshot after each of ``events`` in turn, from ``snap``, by ``fold_one``
    (a two-player room's ``fold``, or a chouette room's)."""
    out = []
    for event in events:
        snap = fold_one(snap, event)
        out.append(snap)
    return tuple(out)


def fold_all(snap: Snapshot, events: Iterable[Event]) -> tuple[Snapshot, ...]:
    """The snapshot after each of ``events`` in turn, from ``snap``."""
    return fold_each(fold, snap, events)


def replay(events: Sequence[Event]) -> Snapshot:
    """The snapshot a whole log folds to."""
    snaps = fold_all(Snapshot(0, None), events)
    return snaps[-1] if snaps else Snapshot(0, None)


@dataclass(frozen=True, slots=True)
class News:
    """What the store holds beyond a snapshot: the seats as stored (one may have been
    taken through another instance), the newer events and the snapshot after each."""

    seats: dict[Seat, SeatInfo]
    events: tuple[Event, ...]
    snaps: tuple[Snapshot, ...]

    @property
    def more_than_moves(self) -> bool:
        """More than plain moves: a match set up or over, a deal, a readiness."""
        last = self.snaps[-1] if self.snaps else None
        return last is None or last.match is None or last.over or self.events[-1].kind != "action"


def news(current: Snapshot, stored: StoredRoom) -> News:
    """Catch-up: fold what ``stored`` (read after ``current``) holds beyond ``current``;
    raises what ``fold`` raises if it does not replay."""
    newer = tuple(e for e in stored.events if e.seq > current.version)
    return News(seats_of(stored.seats), newer, fold_all(current, newer))


def moved(current: Snapshot, seats: Mapping[Seat, SeatInfo], event: Event) -> News:
    """Catch-up by a notice: the move it carried (``carried``), the next version after
    ``current``; the seats as they are (a move seats nobody)."""
    return News(dict(seats), (event,), fold_all(current, (event,)))


S = TypeVar("S", bound=Versioned)


class History(Generic[S]):
    """The current snapshot and the last ``HISTORY`` ones before it."""

    def __init__(self, snapshot: S) -> None:
        self._kept: deque[S] = deque([snapshot], maxlen=HISTORY)

    @property
    def current(self) -> S:
        return self._kept[-1]

    def extend(self, snaps: Sequence[S]) -> None:
        """Take in the snapshots after the current one, in order."""
        if snaps and snaps[0].version != self.current.version + 1:
            raise ValueError(
                f"snapshot {snaps[0].version} does not follow version {self.current.version}"
            )
        self._kept.extend(snaps)

    def at(self, version: int) -> S:
        """The snapshot of ``version`` if still kept, else the current one."""
        for snap in reversed(self._kept):
            if snap.version == version:
                return snap
        return self.current
