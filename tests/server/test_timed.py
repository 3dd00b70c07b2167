"""The store and the bus with their calls timed: by operation, failures too; anything
else passes through; with metrics off they are not wrapped at all."""

from __future__ import annotations

import pytest

from ginrummy.server.metrics import Metrics
from ginrummy.server.pubsub.memory import MemoryBus
from ginrummy.server.store import StoreError
from ginrummy.server.store.memory import MemoryStore
from ginrummy.server.timed import STORE_OPS, TimedBus, timed_bus, timed_store


def _count(metrics: Metrics, name: str, **labels: str) -> float:
    return metrics.registry.get_sample_value(f"{name}_count", labels) or 0.0


async def test_store_calls_are_timed_by_operation() -> None:
    metrics = Metrics()
    inner = MemoryStore()
    store = timed_store(inner, metrics)
    await store.open()
    await store.add_identity("h1")
    assert await store.has_identity("h1")
    assert not await store.has_identity("h2")
    assert _count(metrics, "ginrummy_store_seconds", op="has_identity") == 2
    assert _count(metrics, "ginrummy_store_seconds", op="add_identity") == 1
    assert store.has_identity == store.has_identity  # made once, then found directly
    assert {"append_events", "load_room", "acquire_lease"} <= STORE_OPS


async def test_a_failed_store_call_is_timed_too(monkeypatch: pytest.MonkeyPatch) -> None:
    metrics = Metrics()
    inner = MemoryStore()

    async def broken(room_id: str, after: int = 0) -> None:
        raise StoreError("down")

    monkeypatch.setattr(inner, "load_room", broken)
    store = timed_store(inner, metrics)
    with pytest.raises(StoreError):
        await store.load_room("r1")
    assert _count(metrics, "ginrummy_store_seconds", op="load_room") == 1


def test_with_metrics_off_nothing_is_wrapped() -> None:
    store, bus = MemoryStore(), MemoryBus()
    off = Metrics(on=False)
    assert timed_store(store, off) is store
    assert timed_bus(bus, off) is bus
    assert list(off.registry.collect()) == []


async def test_bus_publishes_are_timed_and_subscriptions_pass_through() -> None:
    metrics = Metrics()
    bus = timed_bus(MemoryBus(), metrics)
    assert isinstance(bus, TimedBus) and bus.connected is None  # a memory bus is never away
    sub = bus.subscribe("room:r1")
    await bus.publish("room:r1", {"kind": "action", "version": 1})
    assert (await sub.get())["version"] == 1
    assert _count(metrics, "ginrummy_bus_publish_seconds") == 1
    sub.close()
    await bus.close()
