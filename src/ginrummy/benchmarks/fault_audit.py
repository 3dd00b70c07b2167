"""The audit of a fault test: what the clients of one table sent, were told and saw
(``Game``), checked against the table's stored log replayed through the server's own
fold for its kind (``TableLog``: a two-player room's, a chouette room's) by
``check_log``."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ginrummy.engine import GinRummyError, Seat, view_for_seat
from ginrummy.protocol import encode_seat_view
from ginrummy.server.chouette import log as chouette_log
from ginrummy.server.chouette.presenter import VersionViews
from ginrummy.server.room import Snapshot, fold
from ginrummy.server.store import Event, open_store

if TYPE_CHECKING:
    from ginrummy.benchmarks.fault_client import SeatClient


def _digest(facts: object) -> str:
    return hashlib.blake2b(json.dumps(facts).encode(), digest_size=12).hexdigest()


def view_digest(view: Mapping[str, Any]) -> str:
    """What a seat view says about the log: the hand, the round's moves, the table."""
    table = view["table"]
    facts = [
        view["hand"],
        view["moves"],
        table["discard_pile"],
        table["scores"],
        table["match_phase"],
        len(table["rounds"]),
    ]
    return _digest(facts)


def chouette_digest(view: Mapping[str, Any]) -> str:
    """What a chouette view (a ``view`` frame's ``view``) says about the log: its seat
    view's facts (``view_digest``), the position's role, the table's public facts (box,
    captain, order, turn, ledger, settlements, absent...) and a partner's advice options.
    The frame's ``players``, ``timer`` and ``fair`` are left out: presence and clocks are
    not the log's."""
    facts = [view_digest(view["view"]), view["role"], view["chouette"], view["advice"]]
    return _digest(facts)


def public_text(action: str) -> str:
    """An action as the move list shows it: a knock's or gin's card lies face down.

    >>> public_text("knock 7h"), public_text("discard 7h")
    ('knock', 'discard 7h')
    """
    kind, _, _ = action.partition(" ")
    return kind if kind in ("knock", "gin") else action


@dataclass(frozen=True, slots=True)
class TableLog:
    """How the audit reads one kind of table's log (``ROOM_LOG``, ``CHOUETTE_LOG``)."""

    name: str
    start: Any  # the snapshot before the first event
    fold: Callable[[Any, Event], Any]  # the server's own
    # The seat label of the player an ``action`` event is of (None: no action), and its text.
    actor: Callable[[Event], str | None]
    action: Callable[[Event], str]
    # The digest of what ``seat`` is shown of a snapshot (None: nothing to compare yet).
    digest: Callable[[Any, str], str | None]
    # What an act decides at a snapshot: an act sent on any version with the decision of
    # the version before the action's may be the one logged (a chouette room applies an
    # act sent before a readiness or presence event; a two-player room none but its own).
    decision: Callable[[Any], object]


def _room_digest(snap: Snapshot, seat: str) -> str | None:
    if snap.match is None:
        return None
    return view_digest(encode_seat_view(view_for_seat(snap.match, Seat.parse(seat))))


def _chouette_digest(snap: chouette_log.Snap, seat: str) -> str | None:
    if snap.table is None:
        return None
    return chouette_digest(json.loads(VersionViews(snap.table).text(int(seat))))


def _room_actor(event: Event) -> str | None:
    return str(event.payload.get("seat")) if event.kind == "action" else None


def _chouette_actor(event: Event) -> str | None:
    return str(event.payload.get("position")) if event.kind == "action" else None


ROOM_LOG = TableLog(
    name="room",
    start=Snapshot(0, None),
    fold=fold,
    actor=_room_actor,
    action=lambda event: str(event.payload.get("action")),
    digest=_room_digest,
    decision=lambda snap: snap.version,
)
CHOUETTE_LOG = TableLog(
    name="chouette",
    start=chouette_log.Snap(0, None),
    fold=chouette_log.fold,
    actor=_chouette_actor,
    action=lambda event: str(event.payload.get("event")),
    digest=_chouette_digest,
    decision=lambda snap: snap.decision,
)


@dataclass
class Game:
    """What the clients of one table sent, were told and saw. Seats are labelled as the
    log labels its actions: ``one``/``two`` in a room, the position (``"0"``...) at a
    chouette table."""

    room: str
    # "cross" (seats on two instances), "same" (one instance), "computer", "chouette",
    # "tournament" (a tournament's match)
    kind: str
    people: tuple[str, ...]  # seat labels held by our clients
    log: TableLog = ROOM_LOG
    sent: set[tuple[int, str, str]] = field(default_factory=set)  # (version, seat, action)
    acked: dict[int, tuple[str, str]] = field(default_factory=dict)  # seq -> (seat, action)
    seen: dict[tuple[str, int], str] = field(default_factory=dict)  # (seat, version) -> digest
    clients: list[SeatClient] = field(default_factory=list)
    over: bool = False  # plays no more (a tournament's match once it is over)

    def version(self) -> int:
        return max((c.version for c in self.clients), default=0)


@dataclass(frozen=True, slots=True)
class _Replay:
    """A log replayed: the snapshot after each seq (``snaps[0]`` before the first),
    as far as it replays, and why it stopped (None: to the end)."""

    snaps: tuple[Any, ...]
    failed: str | None


def _replay(log: TableLog, events: Sequence[Event]) -> _Replay:
    snaps = [log.start]
    for event in events:
        try:
            snaps.append(log.fold(snaps[-1], event))
        except (GinRummyError, KeyError, TypeError, ValueError) as exc:
            return _Replay(tuple(snaps), f"event {event.seq} does not replay: {exc}")
    return _Replay(tuple(snaps), None)


def _was_sent(game: Game, snaps: Sequence[Any], event: Event) -> bool:
    """A client sent the action of ``event`` on a version of the decision it took."""
    seat, action = game.log.actor(event), game.log.action(event)
    decision = game.log.decision(snaps[event.seq - 1])
    version = event.seq - 1
    while version >= 1 and game.log.decision(snaps[version]) == decision:
        if (version, seat, action) in game.sent:
            return True
        version -= 1
    return False


def _persons_actions(game: Game, events: Sequence[Event], replayed: _Replay) -> list[Event]:
    """The actions of our clients' seats among the events that replayed."""
    done = len(replayed.snaps) - 1
    return [e for e in events[:done] if game.log.actor(e) in game.people]


def _logged_as_acked(game: Game, event: Event | None, seat: str, action: str) -> bool | None:
    """Whether ``event`` is the acknowledged ``action`` of ``seat``: None if it is no
    action of that seat at all (lost), False if another action (changed)."""
    if event is None or game.log.actor(event) != seat:
        return None
    return game.log.action(event) == action


def check_log(game: Game, events: Sequence[Event]) -> list[str]:
    """Everything wrong with one table's log given what its clients saw; [] if sound."""
    where = f"room {game.room}"
    seqs = [e.seq for e in events]
    if seqs != list(range(1, len(events) + 1)):
        return [f"{where}: seq not contiguous from 1: {seqs[:5]}...{seqs[-5:]}"]
    out: list[str] = []
    replayed = _replay(game.log, events)
    for (seat, version), told in sorted(game.seen.items(), key=lambda kv: kv[0][1]):
        if version > len(events):
            continue
        if version >= len(replayed.snaps):
            continue  # the log does not replay that far: said below
        logged = game.log.digest(replayed.snaps[version], seat)
        if logged is not None and told != logged:
            out.append(f"{where}: seat {seat} saw version {version} unlike the log's")
    if replayed.failed is not None:
        return [*out, f"{where}: {replayed.failed}"]
    late: dict[int, list[str]] = {}
    for seat, version in sorted(game.seen):
        if version > len(events):
            late.setdefault(version, []).append(seat)
    for version, seats in sorted(late.items()):
        out.append(f"{where}: seat(s) {seats} saw version {version}, the log ends at {len(events)}")
    by_seq = {e.seq: e for e in events}
    for seq, (seat, action) in sorted(game.acked.items()):
        logged_at = by_seq.get(seq)
        same = _logged_as_acked(game, logged_at, seat, action)
        if same is None:
            out.append(f"{where}: acknowledged {seat} {action!r} at {seq} is not in the log")
        elif not same:
            assert logged_at is not None
            out.append(f"{where}: acknowledged {action!r} at {seq}, logged {logged_at.payload}")
    for event in _persons_actions(game, events, replayed):
        if not _was_sent(game, replayed.snaps, event):
            out.append(f"{where}: logged {event.payload} at {event.seq} that no client sent")
    return out


def tally(game: Game, events: Sequence[Event]) -> tuple[int, int]:
    """How many acknowledged actions the log lacks (lost) and how many persons' actions
    it holds that no client sent on a version of their decision (applied twice, or made
    up)."""
    by_seq = {e.seq: e for e in events}
    lost = sum(
        not _logged_as_acked(game, by_seq.get(seq), seat, action)
        for seq, (seat, action) in game.acked.items()
    )
    replayed = _replay(game.log, events)
    extra = sum(
        not _was_sent(game, replayed.snaps, e) for e in _persons_actions(game, events, replayed)
    )
    return lost, extra


def log_tail(events: Sequence[Event], last: int = 8) -> str:
    """The end of a stored log in short, said of a game that stopped moving: whether
    the store is ahead of what its clients were shown, and what it waits after.

    >>> log_tail([Event(1, "deal", {}), Event(2, "ready", {"position": 0})], last=1)
    'the store holds version 2, ending 2 ready {"position": 0}'
    """
    said = ", ".join(
        f"{e.seq} {e.kind} {json.dumps(e.payload, sort_keys=True)}" for e in events[-last:]
    )
    return f"the store holds version {len(events)}, ending {said}"


async def audit_logs(
    store_url: str,
    games: Sequence[Game],
    violation: Callable[[str], None],
    stuck: Collection[str] = (),
) -> dict[str, int]:
    """Read every game's table log from the store and check it against its clients
    (each problem to ``violation``); the counts of what was read. For a room of
    ``stuck`` (one that stopped moving), the end of its log is said too."""
    store = open_store(store_url)
    await store.open()
    counts = {"events": 0, "actions": 0, "computer_moves": 0, "lost": 0, "duplicated": 0}
    try:
        for game in games:
            stored = await store.load_room(game.room)
            if stored is None:
                violation(f"room {game.room}: not in the store")
                continue
            if game.room in stuck:
                violation(f"room {game.room} ({game.kind}): {log_tail(stored.events)}")
            for problem in check_log(game, stored.events):
                violation(problem)
            lost, duplicated = tally(game, stored.events)
            counts["lost"] += lost
            counts["duplicated"] += duplicated
            actors = [game.log.actor(e) for e in stored.events]
            actions = [a for a in actors if a is not None]
            counts["events"] += len(stored.events)
            counts["actions"] += len(actions)
            counts["computer_moves"] += sum(a not in game.people for a in actions)
    finally:
        await store.close()
    return counts
