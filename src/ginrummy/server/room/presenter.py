"""What a room shows: room info (HTTP and ``welcome``), the players, the views.

Reads the room through its public surface only; builds JSON-ready values, sends nothing.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

from ginrummy.engine import (
    MatchRecord,
    RoundRecord,
    Rules,
    Seat,
    SeatView,
    SpectatorView,
    new_match,
    record_of,
    view_for_seat,
    view_for_spectator,
)
from ginrummy.engine.record import round_record_dict
from ginrummy.protocol import encode_public_view, to_json
from ginrummy.server.room import fair
from ginrummy.server.room.errors import RoomError
from ginrummy.server.room.log import Snapshot

if TYPE_CHECKING:
    from ginrummy.server.room.room import Room


def view(rules: Rules, seat: Seat | None, snap: Snapshot) -> SeatView | SpectatorView:
    """``seat``'s view of ``snap`` (a spectator's for None)."""
    match = snap.match if snap.match is not None else new_match(rules, Seat.ONE)
    return view_for_spectator(match) if seat is None else view_for_seat(match, seat)


class PublicPart:
    """The part of a snapshot's view every socket shares, as JSON text, and its last
    move: encoded once per version, from the spectator's view (no hidden card)."""

    def __init__(self, rules: Rules) -> None:
        self._rules = rules
        self._cached: tuple[Snapshot, str, str | None] | None = None

    def of(self, snap: Snapshot) -> tuple[str, str | None]:
        cached = self._cached
        if cached is None or cached[0] is not snap:
            public = view(self._rules, None, snap)
            last = str(public.moves[-1]) if public.moves else None
            cached = (snap, to_json(encode_public_view(public)), last)
            self._cached = cached
        return cached[1], cached[2]


def record(snap: Snapshot) -> MatchRecord:
    """The match's record (decks and fair blocks included): only once it is over."""
    if snap.match is None or not snap.match.is_over:
        raise RoomError("match_running", "the record is available once the match is over")
    return _with_fair(snap, record_of(snap.match))


def _with_fair(snap: Snapshot, rec: MatchRecord) -> MatchRecord:
    # One fair entry per deal of the match, in order: round n's is snap.fair[n - 1].
    blocks = (*snap.fair, *([None] * max(0, len(rec.rounds) - len(snap.fair))))
    rounds = zip(rec.rounds, blocks[: len(rec.rounds)], strict=True)
    return replace(rec, rounds=tuple(replace(r, fair=f) for r, f in rounds))


def round_over(snap: Snapshot, number: int) -> bool:
    """Round ``number`` (from 1) of the current match is dealt and over."""
    return fair.round_over(snap.match, len(snap.fair), number)


def round_record(rules: Rules, snap: Snapshot, number: int) -> dict[str, Any]:
    """A finished round of the current match as a stand-alone round record with its
    revealed fair block (what the table's verify link loads)."""
    if not round_over(snap, number):
        raise RoomError("round_running", f"round {number} is not over (or was never dealt)")
    assert snap.match is not None
    rounds = _with_fair(snap, record_of(snap.match)).rounds
    rnd: RoundRecord = rounds[number - 1]
    return round_record_dict(rules, rnd)


def fair_frame(snap: Snapshot, seat: Seat | None) -> dict[str, Any] | None:
    """The ``fair`` entry of a view frame (``fair.frame``): the last deal's."""
    number = len(snap.fair)
    block = snap.fair[-1] if snap.fair else None
    return fair.frame(snap.pending, block, round_over(snap, number), seat)


def players(room: Room, snap: Snapshot) -> dict[str, Any]:
    """Each seat's name, computer level, presence, readiness and grace period."""
    out: dict[str, Any] = {}
    for seat in Seat:
        info = room.seats.get(seat)
        if info is None:
            out[seat.label] = None
            continue
        out[seat.label] = {
            "name": info.name,
            "bot": info.bot,
            "connected": room.connected(seat),
            "ready": info.bot is not None or seat in snap.ready,
            "rematch": info.bot is not None or seat in snap.rematch,
            "player": room.summary(seat),
            "grace_remaining_ms": room.grace_remaining_ms(seat),
        }
    return out


def info(room: Room, your_seat: Seat | None) -> dict[str, Any]:
    """Room info as HTTP and ``welcome`` send it."""
    seats: dict[str, Any] = {}
    for seat in Seat:
        i = room.seats.get(seat)
        seats[seat.label] = (
            None
            if i is None
            else {
                "name": i.name,
                "bot": i.bot,
                "connected": room.connected(seat),
                "player": room.summary(seat),
            }
        )
    return {
        "room": room.id,
        "kind": room.kind,
        "rules": dict(room.rules_data),
        "status": room.status,
        "seats": seats,
        "spectators": room.spectators,
        "visibility": room.visibility,
        "rated": room.rated,
        "timer": room.rules.move_timer_seconds,
        "watchers": room.watching,
        "tournament": room.tournament,
        "tournament_name": room.tournament_name,
        "tournament_round": room.tournament_round,
        "chat": True,
        "spectator_chat": room.spectator_chat,
        "version": room.current.version,
        "your_seat": None if your_seat is None else your_seat.label,
    }


def lobby_table(room: Room) -> dict[str, Any]:
    """An open public table as the lobby lists it."""
    return {
        "room": room.id,
        "host": room.summary(Seat.ONE),
        "rules": dict(room.rules_data),
        "rated": room.rated,
        "timer": room.rules.move_timer_seconds,
        "created": room.created,
    }


def lobby_match(room: Room) -> dict[str, Any] | None:
    """A running public match as the lobby lists it."""
    match = room.current.match
    if match is None:
        return None
    return {
        "room": room.id,
        "players": {
            seat.label: room.summary(seat) or {"bot": room.seats[seat].bot} for seat in Seat
        },
        "scores": {seat.label: match.scores[seat] for seat in Seat},
        "round": match.round_number,
        "watchers": room.watching,
        "spectators": room.spectators,
    }


def game(room: Room, seat: Seat) -> dict[str, Any]:
    """The entry of ``GET /api/me``'s ``games`` for ``seat``: the room, its status and
    the other seat."""
    other = room.seats.get(seat.other)
    return {
        "room": room.id,
        "seat": seat.label,
        "kind": room.kind,
        "status": room.status,
        "opponent": None if other is None else other.name,
        "opponent_bot": None if other is None else other.bot,
        "rules": room.rules.name,
        "path": f"/r/{room.id}",
    }
