"""The store and the bus with their calls timed for the metrics (``server/metrics.py``),
wrapped at one place, the app's wiring, rather than in every backend."""

from __future__ import annotations

import functools
import inspect
from collections.abc import Awaitable, Callable, Mapping
from time import perf_counter
from typing import Any, ParamSpec, TypeVar, cast

from ginrummy.server.metrics import Metrics, Observing
from ginrummy.server.pubsub import Bus, Subscription
from ginrummy.server.store import Store

P = ParamSpec("P")
T = TypeVar("T")

STORE_OPS = frozenset(name for name in dir(Store) if not name.startswith("_"))
"""The operations of the store interface: the values of the ``op`` label."""


def timed(call: Callable[P, Awaitable[T]], seconds: Observing) -> Callable[P, Awaitable[T]]:
    """``call``, its every run (failed ones too) observed in ``seconds``."""

    @functools.wraps(call)
    async def run(*args: P.args, **kwargs: P.kwargs) -> T:
        start = perf_counter()
        try:
            return await call(*args, **kwargs)
        finally:
            seconds.observe(perf_counter() - start)

    return run


class TimedStore:
    """A store whose calls of the ``Store`` interface are timed by operation; anything
    else of the backend passes through untouched."""

    def __init__(self, store: Store, metrics: Metrics) -> None:
        self.inner = store
        self._metrics = metrics

    def __getattr__(self, name: str) -> Any:
        # Only reached for what this object lacks; a timed operation is kept on it, so
        # it is made once and found directly from then on.
        attr = getattr(self.inner, name)
        if name not in STORE_OPS or not inspect.iscoroutinefunction(attr):
            return attr
        op = timed(attr, self._metrics.store_op(name))
        setattr(self, name, op)
        return op


def timed_store(store: Store, metrics: Metrics) -> Store:
    """``store`` with its calls timed (itself with metrics off)."""
    if not metrics.on:
        return store
    # The proxy has every operation of ``Store``, made on first use: mypy cannot see it.
    return cast(Store, TimedStore(store, metrics))


class TimedBus:
    """A bus whose publishes are timed; subscriptions are the inner bus's own."""

    def __init__(self, bus: Bus, seconds: Observing) -> None:
        self.inner = bus
        self._seconds = seconds

    @property
    def connected(self) -> Any:
        """The inner bus's connection flag, if it has one (the Redis bus: readiness)."""
        return getattr(self.inner, "connected", None)

    async def publish(self, topic: str, notice: Mapping[str, Any]) -> None:
        start = perf_counter()
        try:
            await self.inner.publish(topic, notice)
        finally:
            self._seconds.observe(perf_counter() - start)

    def subscribe(
        self,
        topic: str,
        *,
        limit: int | None = None,
        on_overflow: Callable[[], None] | None = None,
    ) -> Subscription:
        return self.inner.subscribe(topic, limit=limit, on_overflow=on_overflow)

    async def close(self) -> None:
        await self.inner.close()


def timed_bus(bus: Bus, metrics: Metrics) -> Bus:
    """``bus`` with its publishes timed (itself with metrics off)."""
    return TimedBus(bus, metrics.bus_publish) if metrics.on else bus
