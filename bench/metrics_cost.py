"""What the metrics add to one move, timed in isolation (bench/RESULTS.md, "Metrics").

A move through a two-person room makes one store call (``append_events``) and one
publish on the bus; with metrics on it also takes the time of its frame, counts its
action and observes its round trip. This times that sequence against the same calls
unwrapped, best of 7 repeats (the least disturbed by other work on the machine).

    PYTHONPATH=src .venv/bin/python bench/metrics_cost.py
"""

from __future__ import annotations

import asyncio
import time
import timeit
from collections.abc import Awaitable, Callable

from ginrummy.server.metrics import Metrics
from ginrummy.server.pubsub.memory import MemoryBus
from ginrummy.server.timed import TimedBus, timed

MOVES = 50_000
NOTICE = {"kind": "action", "version": 1, "seat": "one"}


async def _append(*args: object) -> None:
    return None


def _moves(metrics: Metrics | None) -> Callable[[int], Awaitable[None]]:
    bus = MemoryBus()
    publish = bus.publish
    append = _append
    if metrics is not None:
        publish = TimedBus(bus, metrics.bus_publish).publish
        append = timed(_append, metrics.store_op("append_events"))

    async def moves(n: int) -> None:
        for _ in range(n):
            received = time.perf_counter()
            await append()
            await publish("room:r", NOTICE)
            if metrics is not None:
                metrics.applied("discard 7h")
                metrics.move.observe(time.perf_counter() - received)

    return moves


def per_move(metrics: Metrics | None) -> float:
    """Seconds per move, best of 7 runs of ``MOVES``."""
    moves = _moves(metrics)
    runs = timeit.repeat(lambda: asyncio.run(moves(MOVES)), number=1, repeat=7)
    return min(runs) / MOVES


def main() -> None:
    off, on = per_move(None), per_move(Metrics())
    print(f"a move's store call and publish: {off * 1e6:.2f} µs without metrics")
    print(f"with metrics: {on * 1e6:.2f} µs, {(on - off) * 1e6:.2f} µs more per move")


if __name__ == "__main__":
    main()
