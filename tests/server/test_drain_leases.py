"""A draining instance (server/drain.py) takes no room lease for a grace period: it is
gone before one ends, and the instances the sockets come back to run it without waiting
for its lease. Its sockets' closes would otherwise each start a grace period and a lease
taken only to be given up at exit (server/room/duties.py, ``run_graces``)."""

from __future__ import annotations

import asyncio
import random

from ginrummy.engine import Seat
from ginrummy.server.pubsub.memory import MemoryBus
from ginrummy.server.room import RoomManager
from ginrummy.server.store.memory import MemoryStore

from .room.helpers import two_people


class CountingStore(MemoryStore):
    def __init__(self) -> None:
        super().__init__()
        self.leases_asked = 0

    async def acquire_lease(self, room_id: str, holder: str, ttl: float) -> bool:
        self.leases_asked += 1
        return await super().acquire_lease(room_id, holder, ttl)


async def _grace_and_leases(draining: bool) -> tuple[bool, int]:
    """A room of two people, both connected here, then one socket closes: whether a
    grace period runs, and how many times the lease was asked for."""
    store = CountingStore()
    await store.open()
    rooms = RoomManager(
        store, MemoryBus(), 0.0, rng=random.Random(1), presence_interval=0.0,
        leaving=lambda: draining,
    )  # fmt: skip
    try:
        room = await two_people(rooms)
        for seat in Seat:
            await room.connect(seat)
        await asyncio.sleep(0.01)
        asked = store.leases_asked
        await room.disconnect(Seat.ONE)
        await asyncio.sleep(0.05)
        return Seat.ONE in room.grace, store.leases_asked - asked
    finally:
        await rooms.close()


async def test_a_grace_period_here_takes_the_lease() -> None:
    graced, asked = await _grace_and_leases(draining=False)
    assert graced and asked >= 1


async def test_a_draining_instance_takes_no_lease_for_a_grace_period() -> None:
    graced, asked = await _grace_and_leases(draining=True)
    assert graced and asked == 0  # the grace is known here, its end is for the others
