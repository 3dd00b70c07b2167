"""A claim is checked under the room's lock: an opponent who comes back while the
claim waits for the lock is not forfeited."""

from __future__ import annotations

import asyncio

import pytest

from ginrummy.engine import Seat
from ginrummy.server.clock import ManualClock
from ginrummy.server.room import RoomError

from .helpers import manager, two_people


async def test_an_opponent_back_while_the_claim_waits_is_not_forfeited() -> None:
    clock = ManualClock(0.0)
    async with manager(clock=clock, grace_seconds=60.0) as rooms:
        room = await two_people(rooms)
        await room.connect(Seat.ONE)
        clock.advance(61)  # seat two never came: its grace period is over
        assert room.grace_remaining_ms(Seat.TWO) == 0
        async with room.lock:  # a move being saved, say
            claim = asyncio.create_task(room.claim(Seat.ONE))
            await asyncio.sleep(0.01)
            assert not claim.done()
            await room.connect(Seat.TWO)  # back before the claim gets the lock
        with pytest.raises(RoomError) as info:
            await claim
        assert info.value.code == "nothing_to_claim"
        assert not room.current.over


async def test_a_claim_after_the_grace_period_wins() -> None:
    clock = ManualClock(0.0)
    async with manager(clock=clock, grace_seconds=60.0) as rooms:
        room = await two_people(rooms)
        await room.connect(Seat.ONE)
        with pytest.raises(RoomError, match="may still come back"):
            await room.claim(Seat.ONE)
        clock.advance(61)
        await room.claim(Seat.ONE)
        result = room.current.match.result  # type: ignore[union-attr]
        assert result is not None and result.winner is Seat.ONE
        assert result.forfeit is not None and result.forfeit.value == "abandoned"
