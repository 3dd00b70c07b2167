"""What a chouette room shows (docs/protocol.md, "Chouette rooms"): room info, the
players, the view frames. Reads the room's public surface; builds JSON-ready values.

The parts of a version's view frames that are the same for every socket (the table's
public facts, the public part of the seat view, the last public move) are encoded once
per version (``SharedViews``), and a seat's own part once per match seat: the box's,
and the captain's, which every partner watches."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

from ginrummy.engine import Seat
from ginrummy.engine.chouette import BOX, TEAM, ChouetteTable, check_position, seat_of
from ginrummy.engine.chouette_views import view_for_player, view_for_table_spectator
from ginrummy.engine.record import record_of, round_record_dict
from ginrummy.protocol import (
    encode_chouette_info,
    encode_own_view,
    encode_public_view,
    encode_view_text,
    joined_view,
    to_json,
    with_json,
)
from ginrummy.server import players as players_
from ginrummy.server.chouette.log import Snap
from ginrummy.server.room import fair
from ginrummy.server.room.errors import RoomError

if TYPE_CHECKING:
    from ginrummy.server.chouette.room import ChouetteRoom


def invite_path(room_id: str) -> str:
    return f"/c/{room_id}"


def summary(room: ChouetteRoom, position: int) -> dict[str, Any] | None:
    """The public player-summary of the person at ``position`` (its player id, never its
    identity): None for a computer or a free seat."""
    player = room.player_of.get(position)
    return None if player is None else players_.summary(player)


def info(room: ChouetteRoom, position: int | None) -> dict[str, Any]:
    """Room info as HTTP and ``welcome`` send it."""
    seats: list[dict[str, Any] | None] = []
    for p in range(room.players):
        i = room.seats.get(p)
        seat = None
        if i is not None:
            seat = {
                "name": i.name,
                "bot": i.bot,
                "connected": room.connected(p),
                "player": summary(room, p),
            }
        seats.append(seat)
    return {
        "room": room.id,
        "kind": room.kind,
        "players": room.players,
        "rules": room.rules.to_dict(),
        "status": room.status,
        "seats": seats,
        "spectators": room.spectators,
        "timer": room.rules.move_timer_seconds,
        "watchers": room.watching,
        "version": room.current.version,
        "your_position": position,
        "invite_path": invite_path(room.id),
    }


def game(room: ChouetteRoom, position: int) -> dict[str, Any]:
    """The entry of ``GET /api/me``'s ``games`` for the seat at ``position``: as a
    two-player room's, with the other seats' names and the page's path."""
    others = [room.seats.get(p) for p in range(room.players) if p != position]
    return {
        "room": room.id,
        "seat": str(position),
        "kind": room.kind,
        "status": room.status,
        "opponent": None,
        "opponent_bot": None,
        "rules": room.rules.name,
        "path": invite_path(room.id),
        "position": position,
        "players": room.players,
        "others": [None if i is None else i.name for i in others],  # null: a free seat
        "others_bots": [None if i is None else i.bot for i in others],  # a computer's level
    }


def players(room: ChouetteRoom, snap: Snap) -> list[dict[str, Any] | None]:
    """Each position's name, computer level, presence, readiness and grace period."""
    table = snap.table
    absent = frozenset() if table is None else table.absent
    out: list[dict[str, Any] | None] = []
    for p in range(room.players):
        i = room.seats.get(p)
        if i is None:
            out.append(None)
            continue
        bot = i.bot is not None
        out.append(
            {
                "name": i.name,
                "bot": i.bot,
                "connected": room.connected(p),
                "ready": bot or p in snap.ready,
                "next_match": bot or p in snap.wishes,
                "absent": p in absent,
                "player": summary(room, p),
                "grace_remaining_ms": room.grace_remaining_ms(p),
            }
        )
    return out


class VersionViews:
    """The chouette views of one table for every socket: what all share is encoded once
    (the spectator's view: no hidden card), the own part of each match seat once."""

    def __init__(self, table: ChouetteTable) -> None:
        self._table = table
        spectator = view_for_table_spectator(table)
        self.info = to_json(encode_chouette_info(spectator.chouette))
        self.public = to_json(encode_public_view(spectator.match))
        moves = spectator.match.moves
        self.last_move = None if not moves else str(moves[-1])  # a knock without its card
        # By match seat (None: a partner, who watches the captain's): role, seat view, advice.
        self._own: dict[Seat | None, tuple[str, str, list[str]]] = {}
        self._watching: str | None = None

    def text(self, position: int | None) -> str:
        """The encoded chouette view of ``position`` (a spectator's for None), as JSON."""
        if position is None:
            if self._watching is None:
                seat = joined_view(encode_own_view(None), self.public)
                self._watching = encode_view_text(None, None, self.info, seat, ())
            return self._watching
        check_position(self._table, position)
        key = seat_of(self._table, position)  # partners' views differ in their position only
        own = self._own.get(key)
        if own is None:
            v = view_for_player(self._table, position)
            seat = joined_view(encode_own_view(v.seat), self.public)
            own = self._own[key] = (v.role.value, seat, [str(a) for a in v.advice])
        role, seat, advice = own
        return encode_view_text(position, role, self.info, seat, advice)


class SharedViews:
    """A room's ``VersionViews`` of its latest few snapshots (a socket a notice behind
    renders the version it is told)."""

    KEEP = 4

    def __init__(self) -> None:
        self._by_version: dict[int, tuple[Snap, VersionViews]] = {}

    def of(self, snap: Snap) -> VersionViews:
        kept = self._by_version.get(snap.version)
        if kept is not None and kept[0] is snap:
            return kept[1]
        table = snap.table
        assert table is not None, "a chouette room's log starts with its table"
        views = VersionViews(table)
        self._by_version[snap.version] = (snap, views)
        while len(self._by_version) > self.KEEP:
            del self._by_version[min(self._by_version)]
        return views


def fair_frame(snap: Snap, position: int | None) -> dict[str, Any] | None:
    """The ``fair`` entry of a view frame (``fair.frame``): the last deal's, ``dealt``
    while its round runs (the commitment; the box's and that round's captain's own
    seed), ``revealed`` once it is over; null before the match's first deal."""
    table = snap.table
    assert table is not None, "a chouette room's log starts with its table"
    number = len(snap.fair)
    block = snap.fair[-1] if snap.fair else None
    match = table.match
    over = fair.round_over(match, number, number)
    captain = table.captains[number - 1] if 1 <= number <= len(table.captains) else None
    seat = BOX if position == table.box else TEAM if position == captain else None
    return fair.frame(None, block, over, None if position is None else seat)


def view_message(room: ChouetteRoom, snap: Snap, position: int | None) -> str:
    """The ``view`` frame of ``snap`` for one socket, as JSON text: the view from the
    parts the room encoded once for the version."""
    message = {
        "type": "view",
        "version": snap.version,
        "fair": fair_frame(snap, position),
        "players": players(room, snap),
        "timer": room.timer(snap),
        "watchers": room.watching,
    }
    return with_json(message, "view", room.views.of(snap).text(position))


def round_record(room: ChouetteRoom, number: int) -> dict[str, Any]:
    """Round ``number`` (from 1) of the current match as a stand-alone round record with
    its revealed fair block (docs/fairness.md, "In chouette rooms"), once it is over;
    ``round_running`` before, or for a round never dealt."""
    snap = room.current
    table = snap.table
    assert table is not None, "a chouette room's log starts with its table"
    match = table.match
    if not fair.round_over(match, len(snap.fair), number):
        raise RoomError("round_running", f"round {number} is not over (or was never dealt)")
    rnd = record_of(match).rounds[number - 1]
    return round_record_dict(match.rules, replace(rnd, fair=snap.fair[number - 1]))


def public_action(room: ChouetteRoom, snap: Snap) -> str | None:
    """The last move as the public move list shows it (a knock without its card)."""
    return None if snap.table is None else room.views.of(snap).last_move
