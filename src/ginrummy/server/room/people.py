"""The people of a room as the store knows them (names, ratings): read on load, on a
new seat, and around a match's end."""

from __future__ import annotations

from collections.abc import Mapping

from ginrummy.engine import Seat
from ginrummy.server.room.context import Owner
from ginrummy.server.room.seats import SeatInfo
from ginrummy.server.store import Player, Store


async def players_of(owner: Owner, seats: Mapping[Seat, SeatInfo]) -> dict[Seat, Player]:
    """The players of the seats people hold (created on first use)."""
    return {
        seat: await owner.player(info.identity_hash)
        for seat, info in seats.items()
        if info.identity_hash is not None
    }


async def reread(store: Store, player_of: Mapping[Seat, Player]) -> dict[Seat, Player]:
    """The players as the store has them now (the known record if it has none)."""
    return {seat: await store.player(p.id) or p for seat, p in player_of.items()}
