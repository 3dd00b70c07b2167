"""The people of a room as the store knows them (names, ratings): read on load, on a
new seat, and around a match's end."""

from __future__ import annotations

import asyncio
from collections.abc import Hashable, Mapping
from typing import TypeVar

from ginrummy.server.room.context import Owner
from ginrummy.server.room.seats import SeatInfo
from ginrummy.server.store import Player, Store

K = TypeVar("K", bound=Hashable)  # a two-player room's Seat, a chouette room's position


async def players_of(owner: Owner, seats: Mapping[K, SeatInfo]) -> dict[K, Player]:
    """The players of the seats people hold (created on first use), read side by side:
    a room loaded for a reconnecting seat waits for one round trip, not one per seat."""
    people = [(seat, i.identity_hash) for seat, i in seats.items() if i.identity_hash is not None]
    players = await asyncio.gather(*(owner.player(identity) for _, identity in people))
    return {seat: player for (seat, _), player in zip(people, players, strict=True)}


async def reread(store: Store, player_of: Mapping[K, Player]) -> dict[K, Player]:
    """The players as the store has them now (the known record if it has none)."""
    seats = list(player_of)
    now = await asyncio.gather(*(store.player(player_of[seat].id) for seat in seats))
    return {seat: p or player_of[seat] for seat, p in zip(seats, now, strict=True)}
