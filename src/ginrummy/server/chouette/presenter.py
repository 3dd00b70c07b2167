"""What a chouette room shows (docs/protocol.md, "Chouette rooms"): room info, the
players, the view frames. Reads the room's public surface; builds JSON-ready values."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ginrummy.engine.chouette_views import view_for_player, view_for_table_spectator
from ginrummy.protocol.chouette import encode_chouette_spectator_view, encode_player_view
from ginrummy.server.chouette.log import Snap

if TYPE_CHECKING:
    from ginrummy.server.chouette.room import ChouetteRoom


def invite_path(room_id: str) -> str:
    return f"/c/{room_id}"


def info(room: ChouetteRoom, position: int | None) -> dict[str, Any]:
    """Room info as HTTP and ``welcome`` send it."""
    seats: list[dict[str, Any] | None] = []
    for p in range(room.players):
        i = room.seats.get(p)
        seat = None if i is None else {"name": i.name, "bot": i.bot, "connected": room.connected(p)}
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
                "grace_remaining_ms": room.grace_remaining_ms(p),
            }
        )
    return out


def view(snap: Snap, position: int | None) -> dict[str, Any]:
    """The encoded chouette view of ``position`` (a spectator's for None)."""
    table = snap.table
    assert table is not None, "a chouette room's log starts with its table"
    if position is None:
        return encode_chouette_spectator_view(view_for_table_spectator(table))
    return encode_player_view(view_for_player(table, position))


def view_message(room: ChouetteRoom, snap: Snap, position: int | None) -> dict[str, Any]:
    """The ``view`` frame of ``snap`` for one socket."""
    return {
        "type": "view",
        "version": snap.version,
        "view": view(snap, position),
        "players": players(room, snap),
        "timer": room.timer(snap),
        "watchers": room.watching,
    }


def public_action(snap: Snap) -> str | None:
    """The last move as the public move list shows it (a knock without its card)."""
    table = snap.table
    if table is None:
        return None
    moves = view_for_table_spectator(table).match.moves
    return str(moves[-1]) if moves else None
