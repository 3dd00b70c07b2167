"""The move clock and the grace periods on a hand-moved clock."""

from __future__ import annotations

import asyncio

from ginrummy.engine import Seat
from ginrummy.server.clock import ManualClock
from ginrummy.server.room.timers import Grace, MoveClock


async def _settle() -> None:
    for _ in range(5):
        await asyncio.sleep(0)


async def test_the_move_clock_runs_out_once_for_the_version_it_was_armed_for() -> None:
    clock = ManualClock(100.0)
    expired: list[tuple[Seat, int]] = []

    async def expire(seat: Seat, version: int) -> None:
        expired.append((seat, version))

    timer = MoveClock(clock, expire)
    assert timer.arm(Seat.ONE, 7, 30)
    assert timer.frame(7, 30) == {"seat": "one", "remaining_ms": 30_000, "total_ms": 30_000}
    assert timer.frame(6, 30) is None  # a view of another version shows no clock
    clock.advance(10)
    left = timer.left()
    assert left is not None and (left.version, left.remaining_ms) == (7, 20_000)
    assert timer.arm(Seat.TWO, 8, 30)  # the move was made: the old clock stops
    clock.advance(25)
    await _settle()
    assert expired == []
    clock.advance(5)
    await _settle()
    assert expired == [(Seat.TWO, 8)]
    assert not timer.running


async def test_a_clock_comes_back_with_the_time_it_had_left() -> None:
    clock = ManualClock(0.0)

    async def expire(seat: Seat, version: int) -> None:
        return None

    timer = MoveClock(clock, expire)
    assert timer.arm(Seat.ONE, 3, 30, remaining_ms=4_000)
    assert timer.frame(3, 30) == {"seat": "one", "remaining_ms": 4_000, "total_ms": 30_000}
    assert not timer.arm(None, 4, 30)  # nobody to time
    assert not timer.arm(Seat.ONE, 4, None)  # no move timer in these rules
    assert timer.deadline is None


async def test_a_grace_period_ends_on_return_and_runs_out_otherwise() -> None:
    clock = ManualClock(0.0)
    over: list[Seat] = []

    async def ended(seat: Seat, end: float) -> None:
        if grace.is_current(seat, end):
            over.append(seat)

    grace = Grace(clock, 60.0, ended)
    assert not grace.update([Seat.ONE], may_start=False)  # not settled yet: none starts
    assert grace.ends == {}
    assert grace.update([Seat.ONE, Seat.TWO], may_start=True)
    clock.advance(20)
    assert grace.remaining_ms(Seat.ONE) == 40_000
    assert not grace.update([Seat.TWO], may_start=True)  # one came back
    assert grace.remaining_ms(Seat.ONE) is None
    clock.advance(40)
    await _settle()
    assert over == [Seat.TWO]
    assert grace.remaining_ms(Seat.TWO) == 0  # over, not forgotten: the opponent may claim
    assert not grace.running
