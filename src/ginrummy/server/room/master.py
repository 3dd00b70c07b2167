"""The room's commands: check a request against the room's state, answer the events it
writes and the snapshots they fold to (boardgame.io's master, without the transport).

Every command is a plain function of a ``Table`` (state, seats, rules) and the request;
it knows no socket, bus or store. A refusal raises ``RoomError``; an accepted request
returns a ``Change`` (possibly empty: asked twice), whose snapshots the room commits as
they are: each event is folded through the engine once, here.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from ginrummy.engine import (
    ActionKind,
    ForfeitReason,
    GinRummyError,
    MatchPhase,
    Rules,
    Seat,
    draw_first_dealer,
)
from ginrummy.fairness import SeedError, new_seed
from ginrummy.protocol import ProtocolError, decode_action
from ginrummy.server.room import fair
from ginrummy.server.room.errors import RoomError
from ginrummy.server.room.log import Snapshot, Versioned, fold, fold_action
from ginrummy.server.room.seats import SeatInfo, free_seat, waiting_people
from ginrummy.server.store import Event


@dataclass(frozen=True, slots=True)
class Table:
    """What a command decides on: the current snapshot, the seats, the rules; the room's
    id (deals are made for it) and whether a due deal waits for the people's seeds
    (``False``: their default seeds at once, docs/fairness.md). A tournament's room
    (``one_match``) plays the one match of its pairing, whose first dealer the
    tournament chose (``first_dealer``; None: drawn at random)."""

    snapshot: Snapshot
    seats: Mapping[Seat, SeatInfo]
    rules: Rules
    room: str = ""
    seed_wait: bool = False
    first_dealer: Seat | None = None
    one_match: bool = False


@dataclass(frozen=True, slots=True)
class Change:
    """Events to write and the snapshot after each; ``note`` says what happened (for
    the log, never a hidden card)."""

    events: tuple[Event, ...] = ()
    snaps: tuple[Snapshot, ...] = ()
    note: str = ""

    def ends_match(self, before: Snapshot) -> bool:
        """The change ends the match that ``before`` runs (results are written with it)."""
        return ends_match(self.snaps, before)


def ends_match(snaps: Sequence[Snapshot], before: Snapshot) -> bool:
    """The snapshots after ``before`` end the match it runs."""
    return bool(snaps) and snaps[-1].over and not before.over


S = TypeVar("S", bound=Versioned)


class Builder(Generic[S]):
    """Events appended one by one, each folded once onto the last snapshot (``fold``:
    the log's fold, a two-player room's or a chouette room's)."""

    def __init__(self, snap: S, fold: Callable[[S, Event], S]) -> None:
        self.events: list[Event] = []
        self.snaps: list[S] = []
        self.last = snap
        self._fold = fold

    def add(self, kind: str, payload: Mapping[str, Any]) -> None:
        event = Event(self.last.version + 1, kind, payload)
        self.last = self._fold(self.last, event)
        self.events.append(event)
        self.snaps.append(self.last)


class _Builder(Builder[Snapshot]):
    def __init__(self, snap: Snapshot) -> None:
        super().__init__(snap, fold)

    def change(self, note: str = "") -> Change:
        return Change(tuple(self.events), tuple(self.snaps), note)


def _deal_due(b: _Builder, table: Table) -> None:
    """A round is due: the server commits to a fresh seed and draws the computers'
    seeds. With people to wait for, the ``commit`` and computers' ``seed`` events are
    written now and the deal waits for the people's seeds (or the seed timeout);
    otherwise every seed is given at once and the round is dealt."""
    snap = b.last
    p = fair.Pending(new_seed(), table.room, snap.match_number, len(snap.fair) + 1)
    people = [s for s in Seat if table.seats.get(s) is not None and table.seats[s].bot is None]
    for seat in Seat:
        if seat not in people or not table.seed_wait:
            p = p.with_seed(seat, *fair.seat_seed(seat, table.seats.get(seat), p))
    if p.complete:
        b.add("deal", fair.deal_payload(p))
        return
    b.add("commit", fair.commit_payload(p))
    for seat in Seat:
        if p.seeds[seat] is not None:
            b.add("seed", fair.seed_payload(seat, p))


def seed(table: Table, seat: Seat, text: str, committed: str | None = None) -> Change:
    """``seat`` sends its seed for the round due (``committed``: the commitment it saw);
    the deal follows once both seeds are in. Nothing changes on a refusal."""
    try:
        value = fair.read_seed(text)
    except SeedError as exc:
        raise RoomError("bad_seed", str(exc)) from None
    pending = table.snapshot.pending
    if pending is None or (committed is not None and committed != pending.commitment):
        raise RoomError("no_seed_due", "no deal is waiting for a seed now (the round may be dealt)")
    if pending.seeds[seat] is not None:
        raise RoomError("seed_already_sent", "your seed for this deal is in; it cannot change")
    b = _Builder(table.snapshot)
    p = pending.with_seed(seat, value, "sent")
    b.add("seed", fair.seed_payload(seat, p))
    if p.complete:
        b.add("deal", fair.deal_payload(p))
    return b.change(f"seat {seat.label} sent its seed for round {p.round}")


def default_seeds(table: Table, committed: str) -> Change:
    """The seed timeout of the deal under ``committed`` ran out: each silent seat gets
    its default seed, and the round is dealt (nothing if that deal is no longer due)."""
    pending = table.snapshot.pending
    if pending is None or pending.commitment != committed:
        return Change()
    b = _Builder(table.snapshot)
    p = pending
    for seat in p.missing():
        p = p.with_seed(seat, *fair.seat_seed(seat, table.seats.get(seat), p))
        b.add("seed", fair.seed_payload(seat, p))
    b.add("deal", fair.deal_payload(p))
    silent = ", ".join(s.label for s in pending.missing())
    return b.change(f"round {p.round} dealt with the default seed of seat {silent}")


def match_payload(
    rules: Rules, rng: random.Random, first_dealer: Seat | None = None
) -> dict[str, Any]:
    """The ``match`` event: the rules and the first dealer (drawn unless given)."""
    dealer = draw_first_dealer(rng) if first_dealer is None else first_dealer
    return {"rules": rules.to_dict(), "first_dealer": dealer.label}


def opening(table: Table, rng: random.Random) -> Change:
    """A new room's first events: the match, and the deal once both seats are taken."""
    b = _Builder(table.snapshot)
    b.add("match", match_payload(table.rules, rng, table.first_dealer))
    if free_seat(table.seats) is None:
        _deal_due(b, table)
    return b.change("created")


def act(table: Table, seat: Seat, version: int, text: str) -> Change:
    """``seat`` plays ``text`` on the view of ``version``."""
    snap = table.snapshot
    if version != snap.version:
        raise RoomError(
            "stale_version", f"you acted on version {version}, the game is at {snap.version}"
        )
    if snap.match is None or snap.match.turn is not seat:
        raise RoomError("not_your_turn", "it is not your turn")
    try:
        action = decode_action(text)
    except ProtocolError as exc:
        raise RoomError(exc.code, str(exc)) from None
    seq = snap.version + 1
    try:
        after = fold_action(snap, seq, seat, action)
    except GinRummyError as exc:
        raise RoomError("illegal_action", str(exc)) from None
    event = Event(seq, "action", {"seat": seat.label, "action": str(action)})
    # The knock discard lies face down: never log its card.
    shown = action.kind.value if action.kind in (ActionKind.KNOCK, ActionKind.GIN) else action
    return Change((event,), (after,), f"seat {seat.label} plays {shown} (version {seq})")


def ready(table: Table, seat: Seat) -> Change:
    """``seat`` is ready for the next round; deal when every person is."""
    snap = table.snapshot
    match = snap.match
    if match is None or match.phase is not MatchPhase.DEAL or not match.rounds:
        raise RoomError("not_between_rounds", "there is no finished round to go on from")
    b = _Builder(snap)
    if seat not in snap.ready:
        b.add("ready", {"seat": seat.label})
    if waiting_people(table.seats, snap.ready | {seat}):
        return b.change()
    _deal_due(b, table)
    return b.change(f"round {len(match.rounds) + 1} due")


def rematch(table: Table, seat: Seat, rng: random.Random) -> Change:
    """``seat`` wants a rematch; a new match starts when every person does."""
    snap = table.snapshot
    if table.one_match:
        raise RoomError("tournament_match", "a tournament's room plays its one match only")
    if not snap.over:
        raise RoomError("match_running", "a new match can start once this one is over")
    b = _Builder(snap)
    if seat not in snap.rematch:
        b.add("rematch", {"seat": seat.label})
    if waiting_people(table.seats, snap.rematch | {seat}):
        return b.change()
    b.add("match", match_payload(table.rules, rng))
    _deal_due(b, table)
    return b.change("new match started")


def take_seat(table: Table, seat: Seat) -> Change:
    """The events of ``seat`` being taken: the first deal once both seats are."""
    match = table.snapshot.match
    b = _Builder(table.snapshot)
    full = all(s in table.seats for s in Seat if s is not seat)
    if full and match is not None and match.phase is MatchPhase.DEAL and not match.rounds:
        _deal_due(b, table)
    return b.change(f"seat {seat.label} taken")


def end_by_forfeit(table: Table, seat: Seat, reason: ForfeitReason) -> Change:
    """``seat`` loses the match (timer, abandonment, resignation)."""
    snap = table.snapshot
    if snap.match is None or snap.over:
        raise RoomError("match_over", "the match is already over")
    if free_seat(table.seats) is not None:
        raise RoomError("match_over", "the match has not started")
    b = _Builder(snap)
    b.add("forfeit", {"seat": seat.label, "reason": reason.value})
    return b.change(f"seat {seat.label} forfeits ({reason.value})")


def claim(table: Table, seat: Seat, grace_left_ms: int | None, opponent_online: bool) -> Change:
    """``seat`` claims the match: the opponent left and its grace period is over.
    ``grace_left_ms`` is the opponent's grace period (None: none runs)."""
    other = seat.other
    person = table.seats.get(other) is not None and table.seats[other].bot is None
    if grace_left_ms is None or not person or opponent_online:
        raise RoomError("nothing_to_claim", "your opponent has not left")
    if grace_left_ms > 0:
        raise RoomError(
            "nothing_to_claim",
            f"your opponent may still come back for {grace_left_ms // 1000} s",
        )
    return end_by_forfeit(table, other, ForfeitReason.ABANDONED)
