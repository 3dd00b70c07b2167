"""After a burst of ended sockets the server collects its garbage and trims its heap,
once, when the burst is over (server/heap.py)."""

from __future__ import annotations

import asyncio
import gc
import platform
import time
import weakref
from collections.abc import Iterator
from contextlib import ExitStack

import pytest
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect

from ginrummy.server import heap
from ginrummy.server.heap import HeapKeeper

from .live import live

# A server, a service or a bench: the system layer (tests/conftest.py).
pytestmark = pytest.mark.system


class Cycle:
    def __init__(self) -> None:
        self.me = self


@pytest.fixture
def no_automatic_gc() -> Iterator[None]:
    gc.disable()
    yield
    gc.enable()


@pytest.mark.usefixtures("no_automatic_gc")
def test_a_burst_of_ended_sockets_is_collected_and_trimmed_once_it_is_over() -> None:
    trims: list[float] = []

    async def scenario() -> None:
        keeper = HeapKeeper(burst=3, quiet=0.5, latest=10, trim=lambda: trims.append(1))
        garbage = Cycle()
        dead = weakref.ref(garbage)
        del garbage
        for _ in range(3):
            keeper.socket_ended()
        await asyncio.sleep(0.25)
        keeper.socket_ended()  # the burst goes on: not yet
        await asyncio.sleep(0.3)
        assert keeper.collections == 0 and dead() is not None
        await asyncio.sleep(0.5)
        assert keeper.collections == 1 and trims == [1]
        assert dead() is None  # a reference cycle, freed only by a collection
        assert keeper.ended == 0
        keeper.socket_ended()  # one is no burst
        await asyncio.sleep(0.6)
        assert keeper.collections == 1

    asyncio.run(scenario())


def test_a_long_burst_is_collected_at_the_latest_after_its_limit_and_when_over() -> None:
    async def scenario() -> None:
        keeper = HeapKeeper(burst=50, quiet=0.1, latest=0.3)
        t0 = time.monotonic()
        while keeper.collections == 0:
            assert time.monotonic() - t0 < 5, "never collected"
            keeper.socket_ended()
            await asyncio.sleep(0.005)
        assert 0.25 < time.monotonic() - t0 < 4
        keeper.socket_ended()  # the last of the burst, far fewer than 50 since
        await asyncio.sleep(0.3)
        assert keeper.collections == 2 and keeper.ended == 0

    asyncio.run(scenario())


def test_the_server_counts_closed_sockets_not_refused_ones() -> None:
    with live(limit_sockets=1) as server, ExitStack() as stack:
        keeper = HeapKeeper(burst=3, quiet=0.05, latest=10)
        server.app.state.heap_keeper = keeper
        for _ in range(2):
            with connect(server.ws_url, open_timeout=5):
                pass
        stack.enter_context(connect(server.ws_url, open_timeout=5))
        for _ in range(5):
            with pytest.raises(InvalidStatus), connect(server.ws_url, open_timeout=5):
                pass
        deadline = time.monotonic() + 5
        while keeper.ended < 2:
            assert time.monotonic() < deadline, "the closed sockets were not counted"
            time.sleep(0.02)
        time.sleep(0.2)
        assert keeper.ended == 2 and keeper.collections == 0
        stack.close()
        deadline = time.monotonic() + 5
        while keeper.collections == 0:
            assert time.monotonic() < deadline, "three closed sockets were no burst"
            time.sleep(0.02)


@pytest.mark.skipif(platform.libc_ver()[0] != "glibc", reason="malloc_trim is glibc's")
def test_glibc_trim_is_found_and_runs() -> None:
    trim = heap.glibc_trim()
    assert trim is not None
    trim()
