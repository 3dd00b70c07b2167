"""The room's commands: check a request against the room's state, answer the events it
writes and the snapshots they fold to (boardgame.io's master, without the transport).

Every command is a plain function of a ``Table`` (state, seats, rules) and the request;
it knows no socket, bus or store. A refusal raises ``RoomError``; an accepted request
returns a ``Change`` (possibly empty: asked twice), whose snapshots the room commits as
they are: each event is folded through the engine once, here.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ginrummy.engine import (
    ActionKind,
    ForfeitReason,
    GinRummyError,
    MatchPhase,
    Rules,
    Seat,
    cards_text,
    draw_first_dealer,
    shuffled_deck,
)
from ginrummy.protocol import ProtocolError, decode_action
from ginrummy.server.room.errors import RoomError
from ginrummy.server.room.log import Snapshot, fold, fold_action
from ginrummy.server.room.seats import SeatInfo, free_seat, waiting_people
from ginrummy.server.store import Event


@dataclass(frozen=True, slots=True)
class Table:
    """What a command decides on: the current snapshot, the seats, the rules."""

    snapshot: Snapshot
    seats: Mapping[Seat, SeatInfo]
    rules: Rules


@dataclass(frozen=True, slots=True)
class Change:
    """Events to write and the snapshot after each; ``note`` says what happened (for
    the log, never a hidden card)."""

    events: tuple[Event, ...] = ()
    snaps: tuple[Snapshot, ...] = ()
    note: str = ""

    def ends_match(self, before: Snapshot) -> bool:
        """The change ends the match that ``before`` runs (results are written with it)."""
        return bool(self.snaps) and self.snaps[-1].over and not before.over


class _Builder:
    """Events appended one by one, each folded once onto the last snapshot."""

    def __init__(self, snap: Snapshot) -> None:
        self.events: list[Event] = []
        self.snaps: list[Snapshot] = []
        self.last = snap

    def add(self, kind: str, payload: Mapping[str, Any]) -> None:
        event = Event(self.last.version + 1, kind, payload)
        self.last = fold(self.last, event)
        self.events.append(event)
        self.snaps.append(self.last)

    def change(self, note: str = "") -> Change:
        return Change(tuple(self.events), tuple(self.snaps), note)


def deal_payload(rng: random.Random) -> dict[str, Any]:
    return {"deck": cards_text(shuffled_deck(rng))}


def match_payload(rules: Rules, rng: random.Random) -> dict[str, Any]:
    return {"rules": rules.to_dict(), "first_dealer": draw_first_dealer(rng).label}


def opening(table: Table, rng: random.Random) -> Change:
    """A new room's first events: the match, and the deal once both seats are taken."""
    b = _Builder(table.snapshot)
    b.add("match", match_payload(table.rules, rng))
    if free_seat(table.seats) is None:
        b.add("deal", deal_payload(rng))
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


def ready(table: Table, seat: Seat, rng: random.Random) -> Change:
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
    b.add("deal", deal_payload(rng))
    return b.change(f"round {len(match.rounds) + 1} dealt")


def rematch(table: Table, seat: Seat, rng: random.Random) -> Change:
    """``seat`` wants a rematch; a new match starts when every person does."""
    snap = table.snapshot
    if not snap.over:
        raise RoomError("match_running", "a new match can start once this one is over")
    b = _Builder(snap)
    if seat not in snap.rematch:
        b.add("rematch", {"seat": seat.label})
    if waiting_people(table.seats, snap.rematch | {seat}):
        return b.change()
    b.add("match", match_payload(table.rules, rng))
    b.add("deal", deal_payload(rng))
    return b.change("new match started")


def take_seat(table: Table, seat: Seat, rng: random.Random) -> Change:
    """The events of ``seat`` being taken: the first deal once both seats are."""
    match = table.snapshot.match
    b = _Builder(table.snapshot)
    full = all(s in table.seats for s in Seat if s is not seat)
    if full and match is not None and match.phase is MatchPhase.DEAL and not match.rounds:
        b.add("deal", deal_payload(rng))
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
