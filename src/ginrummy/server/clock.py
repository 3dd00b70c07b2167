"""The server's clock for move timers and grace periods: the real one, or one the
tests (and ``GINRUMMY_TEST_CLOCK=1``) move forward by hand."""

from __future__ import annotations

import asyncio
import time
from typing import Protocol


class Clock(Protocol):
    def now(self) -> float:
        """Unix time in seconds."""

    async def sleep_until(self, deadline: float) -> None:
        """Return once ``now() >= deadline``."""


class SystemClock:
    def now(self) -> float:
        return time.time()

    async def sleep_until(self, deadline: float) -> None:
        while (left := deadline - time.time()) > 0:
            await asyncio.sleep(left)


class ManualClock:
    """Time stands still until ``advance``; sleepers wake when their deadline passes."""

    def __init__(self, start: float | None = None) -> None:
        self._now = time.time() if start is None else start
        self._waiters: set[asyncio.Future[None]] = set()

    def now(self) -> float:
        return self._now

    async def sleep_until(self, deadline: float) -> None:
        while self._now < deadline:
            waiter: asyncio.Future[None] = asyncio.get_running_loop().create_future()
            self._waiters.add(waiter)
            try:
                await waiter
            finally:
                self._waiters.discard(waiter)

    def advance(self, seconds: float) -> None:
        """Move time forward (call on the event loop's thread)."""
        if seconds < 0:
            raise ValueError("time does not go back")
        self._now += seconds
        for waiter in tuple(self._waiters):
            if not waiter.done():
                waiter.set_result(None)
