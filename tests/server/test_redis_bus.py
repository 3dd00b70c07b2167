"""The Redis bus: fan-out between instances, no echo, and recovery after an outage.

Runs against the machine's Redis (``REDIS_URL``, default 127.0.0.1:6379); with
``CI=true`` a missing Redis fails the run instead of skipping. The outage test starts
its own ``redis-server`` on a free port so it can stop and restart it.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import socket
import subprocess
import time
from collections.abc import AsyncIterator, Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest

from ginrummy.server.metrics import Metrics
from ginrummy.server.pubsub import open_bus
from ginrummy.server.pubsub.redis import RedisBus

# A server, a service or a bench: the system layer (tests/conftest.py).
pytestmark = pytest.mark.system

REDIS_URL = os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0")


def _reachable(url: str) -> bool:
    host_port = url.split("//", 1)[1].split("/", 1)[0]
    host, _, port = host_port.partition(":")
    try:
        with socket.create_connection((host, int(port or 6379)), timeout=0.5):
            return True
    except OSError:
        return False


def _need_redis() -> None:
    if _reachable(REDIS_URL):
        return
    if os.environ.get("CI") == "true":
        pytest.fail(f"Redis is required in CI and not reachable at {REDIS_URL}")
    pytest.skip(f"no Redis at {REDIS_URL}")


async def _next(sub: Any, timeout: float = 2.0) -> Mapping[str, Any]:
    return await asyncio.wait_for(sub.get(), timeout)


@pytest.fixture
async def two_buses() -> AsyncIterator[tuple[RedisBus, RedisBus]]:
    _need_redis()
    a, b = RedisBus(REDIS_URL), RedisBus(REDIS_URL)
    a.start()
    b.start()
    await asyncio.wait_for(asyncio.gather(a.connected.wait(), b.connected.wait()), 5)
    yield a, b
    await a.close()
    await b.close()


async def test_open_bus_selects_redis_by_url() -> None:
    bus = open_bus("redis://127.0.0.1:1/0")
    assert isinstance(bus, RedisBus)
    await bus.close()


async def test_a_notice_reaches_the_other_instance_once(
    two_buses: tuple[RedisBus, RedisBus],
) -> None:
    a, b = two_buses
    topic = f"room-{time.monotonic_ns()}"
    local, remote = a.subscribe(topic), b.subscribe(topic)
    await a.publish(topic, {"kind": "action", "version": 3, "seat": "one"})
    assert await _next(local) == {"kind": "action", "version": 3, "seat": "one"}
    assert await _next(remote) == {"kind": "action", "version": 3, "seat": "one"}
    # No echo: the publishing instance delivered locally and drops its own Redis copy.
    await b.publish(topic, {"kind": "action", "version": 4, "seat": "two"})
    assert (await _next(local))["version"] == 4
    assert (await _next(remote))["version"] == 4
    with pytest.raises(TimeoutError):
        await _next(local, timeout=0.3)
    local.close()
    remote.close()


async def test_malformed_messages_on_the_channel_are_dropped(
    two_buses: tuple[RedisBus, RedisBus],
) -> None:
    from redis import asyncio as aioredis

    a, _ = two_buses
    topic = f"room-{time.monotonic_ns()}"
    sub = a.subscribe(topic)
    raw = aioredis.Redis.from_url(REDIS_URL)
    await raw.publish(f"ginrummy:room:{topic}", b"not json")
    await raw.publish(f"ginrummy:room:{topic}", b'{"origin": "x", "notice": 5}')
    await raw.publish(f"ginrummy:room:{topic}", b'{"origin": "x", "notice": {"kind": "ok"}}')
    await raw.aclose()
    assert await _next(sub) == {"kind": "ok"}
    sub.close()


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture
def private_redis(tmp_path: Path) -> Iterator[tuple[int, Any]]:
    server = shutil.which("redis-server")
    if server is None:
        if os.environ.get("CI") == "true":
            pytest.fail("redis-server is required in CI for the outage test")
        pytest.skip("redis-server not installed")
    port = _free_port()
    procs: list[subprocess.Popen[bytes]] = []

    def start() -> None:
        args = [server, "--port", str(port), "--bind", "127.0.0.1", "--save", ""]
        args += ["--appendonly", "no", "--dir", str(tmp_path)]
        procs.append(subprocess.Popen(args, stdout=subprocess.DEVNULL))
        deadline = time.monotonic() + 5
        while not _reachable(f"redis://127.0.0.1:{port}/0"):
            assert time.monotonic() < deadline, "private redis-server did not start"
            time.sleep(0.05)

    def stop() -> None:
        procs[-1].kill()
        procs[-1].wait()

    start()
    yield port, (start, stop)
    for proc in procs:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


async def test_an_outage_loses_no_local_notice_and_ends_in_a_resync(
    private_redis: tuple[int, Any],
) -> None:
    port, (start, stop) = private_redis
    url = f"redis://127.0.0.1:{port}/0"
    metrics = Metrics()
    a, b = open_bus(url, on_reconnect=metrics.bus_reconnects.inc), RedisBus(url)
    assert isinstance(a, RedisBus)
    topic = "room-outage"
    local, remote = a.subscribe(topic), b.subscribe(topic)
    await asyncio.wait_for(asyncio.gather(a.connected.wait(), b.connected.wait()), 5)

    stop()
    # Redis is gone: publishing neither raises nor hangs, and local sockets still hear it.
    started = time.monotonic()
    for version in range(1, 4):
        await a.publish(topic, {"kind": "action", "version": version})
    assert time.monotonic() - started < 2.0
    assert [(await _next(local))["version"] for _ in range(3)] == [1, 2, 3]

    await asyncio.sleep(1.0)
    start()
    back = time.monotonic()
    # Within 2 s of Redis coming back both instances tell their sockets to resync.
    assert await _next(remote, timeout=3.0) == {"kind": "resync"}
    assert await _next(local, timeout=3.0) == {"kind": "resync"}
    assert time.monotonic() - back < 2.0
    await asyncio.wait_for(a.connected.wait(), 3)
    assert metrics.registry.get_sample_value("ginrummy_bus_reconnects_total") == 1
    await a.publish(topic, {"kind": "action", "version": 4})
    # (``a`` may also owe ``b`` a resync for the room whose notices it dropped.)
    notice = await _next(remote)
    while notice == {"kind": "resync"}:
        notice = await _next(remote)
    assert notice["version"] == 4
    assert (await _next(local))["version"] == 4
    local.close()
    remote.close()
    await a.close()
    await b.close()


async def test_a_failed_publish_is_followed_by_a_resync_for_its_room(
    private_redis: tuple[int, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Redis stays up but a publish fails: the other instance's sockets may have missed
    the notice and no reconnect will resync them, so the publisher sends one."""
    port, _ = private_redis
    url = f"redis://127.0.0.1:{port}/0"
    a, b = RedisBus(url), RedisBus(url)
    topic = "room-dropped"
    remote = b.subscribe(topic)
    a.start()
    await asyncio.wait_for(asyncio.gather(a.connected.wait(), b.connected.wait()), 5)
    real = a._client.pipeline
    failures = 0

    def broken(*args: Any, **kwargs: Any) -> Any:
        nonlocal failures
        if failures < 2:  # the send and its retry
            failures += 1
            raise ConnectionError("the connection broke")
        return real(*args, **kwargs)

    monkeypatch.setattr(a._client, "pipeline", broken)
    await a.publish(topic, {"kind": "action", "version": 1})
    assert await _next(remote, timeout=3.0) == {"kind": "resync"}
    assert failures == 2
    remote.close()
    await a.close()
    await b.close()


async def test_closing_sends_what_is_still_queued(private_redis: tuple[int, Any]) -> None:
    """An orderly stop's last notices (presence goodbyes) reach the other instances."""
    port, _ = private_redis
    url = f"redis://127.0.0.1:{port}/0"
    a, b = RedisBus(url), RedisBus(url)
    remote = b.subscribe("room-bye")
    a.start()
    await asyncio.wait_for(asyncio.gather(a.connected.wait(), b.connected.wait()), 5)
    for version in range(1, 4):
        await a.publish("room-bye", {"kind": "presence", "version": version})
    await a.close()  # at once: the writer has had no turn yet
    assert [(await _next(remote))["version"] for _ in range(3)] == [1, 2, 3]
    remote.close()
    await b.close()
