"""The move timer and the grace periods of one room: when they end, not what follows.

Each runs as a task that sleeps on the server's ``Clock`` and then calls back; the room
decides what an expiry does (a forfeit, a presence notice) and under which lease.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Hashable, Iterable
from typing import Any

from ginrummy.engine import Seat
from ginrummy.server.clock import Clock
from ginrummy.server.store import Clock as StoredClock


def _cancel(task: asyncio.Task[None] | None) -> None:
    if task is not None and task is not asyncio.current_task():
        task.cancel()


class MoveClock:
    """The clock of the person to move: each decision gets the full time."""

    def __init__(self, clock: Clock, expired: Callable[[Seat, int], Awaitable[None]]) -> None:
        self._clock = clock
        self._expired = expired
        self.deadline: tuple[Seat, int, float] | None = None  # seat, version, when
        self.task: asyncio.Task[None] | None = None

    def arm(
        self, seat: Seat | None, version: int, total_s: int | None, remaining_ms: int | None = None
    ) -> bool:
        """Stop the running clock; start ``seat``'s for ``version`` (``remaining_ms``
        when the room comes back after a stop). False if none runs (no seat, no timer)."""
        task, self.task, self.deadline = self.task, None, None
        _cancel(task)
        if total_s is None or seat is None:
            return False
        left = total_s * 1000 if remaining_ms is None else min(remaining_ms, total_s * 1000)
        at = self._clock.now() + left / 1000
        self.deadline = (seat, version, at)
        self.task = asyncio.create_task(self._run(seat, version, at))
        return True

    async def _run(self, seat: Seat, version: int, at: float) -> None:
        await self._clock.sleep_until(at)
        await self._expired(seat, version)

    @property
    def running(self) -> bool:
        return self.task is not None and not self.task.done()

    def frame(self, version: int, total_s: int | None) -> dict[str, Any] | None:
        """The ``timer`` of a view of ``version``: whose, time left, total."""
        if self.deadline is None or total_s is None:
            return None
        seat, armed, at = self.deadline
        if armed != version:
            return None
        left = max(0, round((at - self._clock.now()) * 1000))
        return {"seat": seat.label, "remaining_ms": left, "total_ms": total_s * 1000}

    def left(self) -> StoredClock | None:
        """The time left, to save on an orderly stop."""
        if self.deadline is None:
            return None
        _, version, at = self.deadline
        return StoredClock(version, max(0, round((at - self._clock.now()) * 1000)))

    def tasks(self) -> Iterable[asyncio.Task[None] | None]:
        return (self.task,)


class Grace:
    """A grace period per person without a socket: the opponent may claim once it is
    over (unless the person came back). Kept per seat, or per chouette position."""

    def __init__(
        self, clock: Clock, seconds: float, over: Callable[[Any, float], Awaitable[None]]
    ) -> None:
        self._clock = clock
        self.seconds = seconds
        self._over = over
        self.ends: dict[Any, float] = {}  # seat -> end of its grace period
        self._tasks: dict[Any, asyncio.Task[None]] = {}

    def update(self, absent: Iterable[Hashable], may_start: bool) -> bool:
        """Run a grace period for each seat in ``absent`` (starting new ones only if
        ``may_start``); end the others. True if one started."""
        gone = set(absent)
        started = False
        for seat in sorted({*gone, *self.ends}, key=str):
            if seat in gone:
                if seat not in self.ends and may_start:
                    end = self._clock.now() + self.seconds
                    self.ends[seat] = end
                    self._tasks[seat] = asyncio.create_task(self._run(seat, end))
                    started = True
            else:
                self.ends.pop(seat, None)
                _cancel(self._tasks.pop(seat, None))
        return started

    async def _run(self, seat: Hashable, end: float) -> None:
        await self._clock.sleep_until(end)
        await self._over(seat, end)

    def is_current(self, seat: Hashable, end: float) -> bool:
        """The grace period of ``seat`` that ends at ``end`` still runs (not ended by
        a return meanwhile)."""
        return self.ends.get(seat) == end

    def remaining_ms(self, seat: Hashable) -> int | None:
        """Time left of ``seat``'s grace period (0: over), None if none runs."""
        end = self.ends.get(seat)
        if end is None:
            return None
        return max(0, round((end - self._clock.now()) * 1000))

    @property
    def running(self) -> bool:
        return any(not t.done() for t in self._tasks.values())

    def tasks(self) -> Iterable[asyncio.Task[None] | None]:
        return tuple(self._tasks.values())


class SeedClock:
    """The seed timeout of the deal due (docs/fairness.md): it runs from the
    commitment; when it runs out, the silent people get their default seeds."""

    def __init__(self, clock: Clock, expired: Callable[[str], Awaitable[None]]) -> None:
        self._clock = clock
        self._expired = expired
        self.commitment: str | None = None  # of the deal it runs for
        self.task: asyncio.Task[None] | None = None

    def arm(self, committed: str | None, seconds: float) -> bool:
        """Run for the deal under ``committed`` (keeping its deadline if it already
        runs for it); stop for None. False if none runs."""
        if committed is not None and committed == self.commitment and self.running:
            return True
        task, self.task, self.commitment = self.task, None, committed
        _cancel(task)
        if committed is None:
            return False
        self.task = asyncio.create_task(self._run(committed, self._clock.now() + seconds))
        return True

    async def _run(self, committed: str, at: float) -> None:
        await self._clock.sleep_until(at)
        await self._expired(committed)

    @property
    def running(self) -> bool:
        return self.task is not None and not self.task.done()
