"""A room's people are read from the store side by side: a room loaded for a
reconnecting seat waits for one round trip, not one per seat (server/room/people.py)."""

from __future__ import annotations

import asyncio
from typing import cast

from ginrummy.engine import Seat
from ginrummy.server.room import SeatInfo
from ginrummy.server.room.context import Owner
from ginrummy.server.room.people import players_of, reread
from ginrummy.server.store import Player, Store


class BothAtOnce:
    """Answers a read only once two are under way: reads made one after the other
    never finish."""

    def __init__(self) -> None:
        self.started = 0
        self.both = asyncio.Event()

    async def _read(self, key: str) -> Player:
        self.started += 1
        if self.started == 2:
            self.both.set()
        await self.both.wait()
        return Player(f"p_{key[:10]:0<10}", key)

    async def player(self, key: str) -> Player:  # Owner.player and Store.player alike
        return await self._read(key)


async def test_both_seats_players_are_read_at_once() -> None:
    seats = {
        Seat.ONE: SeatInfo("Ann", "hash-ann", None),
        Seat.TWO: SeatInfo("Bob", "hash-bob", None),
    }
    owner = BothAtOnce()
    players = await asyncio.wait_for(players_of(cast(Owner, owner), seats), 2)
    assert {seat: p.name for seat, p in players.items()} == {
        Seat.ONE: "hash-ann",
        Seat.TWO: "hash-bob",
    }
    store = BothAtOnce()
    again = await asyncio.wait_for(reread(cast(Store, store), players), 2)
    assert [p.name for p in again.values()] == [p.id for p in players.values()]


async def test_a_computer_seat_is_not_read() -> None:
    reads: list[str] = []

    class One:
        async def player(self, key: str) -> Player:
            reads.append(key)
            return Player("p_0123456789", "Ann")

    seats = {Seat.ONE: SeatInfo("Ann", "hash-ann", None), Seat.TWO: SeatInfo("", None, "casual")}
    assert list(await players_of(cast(Owner, One()), seats)) == [Seat.ONE]
    assert reads == ["hash-ann"]
