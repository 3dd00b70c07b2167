"""Giving memory back after a burst of sockets (docs/operations.md, "Memory").

A closed WebSocket's objects go with it by reference counting (``server/protocols.py``
breaks the cycles uvicorn's protocols leave), but what a burst freed mostly stays with
the C allocator unless it is told to hand it back, and whatever reference cycles remain
wait for a full garbage collection, which comes late with the server's high
thresholds (``main.tune_gc``), at a moment nobody chose.

So the server counts the sockets that close (refused ones leave nothing) and, after ``burst`` of
them, collects at once, in the first quiet moment (no socket ended for ``quiet``
seconds), then asks glibc to return its free memory to the system (``malloc_trim``;
nothing elsewhere). A burst that goes on is collected every ``latest`` seconds, and once
more when it is over.
"""

from __future__ import annotations

import asyncio
import ctypes
import ctypes.util
import gc
import logging
import time
from collections.abc import Callable

from starlette.applications import Starlette

log = logging.getLogger("ginrummy.server.heap")

BURST = 1000  # sockets ended since the last collection that call for one
QUIET_S = 1.0
LATEST_S = 30.0


def glibc_trim() -> Callable[[], object] | None:
    """glibc's ``malloc_trim(0)``, or None where the C library has none (musl, macOS)."""
    name = ctypes.util.find_library("c")
    if name is None:
        return None
    try:
        libc = ctypes.CDLL(name)
        trim: Callable[[int], int] = libc.malloc_trim
    except (OSError, AttributeError):
        return None
    return lambda: trim(0)


class HeapKeeper:
    """Counts ended sockets; after a burst of them, collects garbage and trims the heap
    once the burst is over."""

    def __init__(
        self,
        burst: int = BURST,
        quiet: float = QUIET_S,
        latest: float = LATEST_S,
        trim: Callable[[], object] | None = None,
    ) -> None:
        self.burst, self.quiet, self.latest = burst, quiet, latest
        self.trim = trim
        self.ended = 0  # since the last collection
        self.last_end = 0.0
        self.due_since: float | None = None  # when ``ended`` reached ``burst``
        self.timer: asyncio.TimerHandle | None = None
        self.collections = 0

    def socket_ended(self) -> None:
        """One socket closed (call on the event loop)."""
        self.ended += 1
        self.last_end = time.monotonic()
        if self.ended >= self.burst and self.due_since is None:
            self.due_since = self.last_end
            self._check_later(self.quiet)

    def _check_later(self, delay: float) -> None:
        self.timer = asyncio.get_running_loop().call_later(delay, self._check)

    def _check(self) -> None:
        now = time.monotonic()
        assert self.due_since is not None
        quiet_for = now - self.last_end
        if quiet_for >= self.quiet:
            self.collect()
        elif now - self.due_since >= self.latest:
            # The burst goes on: collect what it has left so far, and again once it is
            # over, whatever its count by then.
            self.collect()
            self.due_since = now
            self._check_later(self.quiet)
        else:
            self._check_later(self.quiet - quiet_for)

    def collect(self) -> None:
        """Collect garbage (all generations) and trim the heap, now; logs what it did."""
        t0 = time.perf_counter()
        freed = gc.collect()
        t1 = time.perf_counter()
        if self.trim is not None:
            self.trim()
        t2 = time.perf_counter()
        log.info(
            "after %d sockets ended: %d objects collected in %.0f ms, heap trimmed in %.0f ms",
            self.ended,
            freed,
            1000 * (t1 - t0),
            1000 * (t2 - t1),
        )
        self.ended, self.due_since, self.timer = 0, None, None
        self.collections += 1


def keeper_of(app: Starlette) -> HeapKeeper:
    """The app's keeper, made on first use (glibc's trim where there is one)."""
    keeper: HeapKeeper | None = getattr(app.state, "heap_keeper", None)
    if keeper is None:
        keeper = HeapKeeper(trim=glibc_trim())
        app.state.heap_keeper = keeper
    return keeper
