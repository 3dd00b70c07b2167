"""In-process fan-out: one bounded queue per subscriber."""

from __future__ import annotations

import asyncio
import logging
from collections import Counter
from collections.abc import Callable, Mapping
from typing import Any

from ginrummy.server.pubsub.base import QUEUE_LIMIT, RESYNC

log = logging.getLogger("ginrummy.bus")


class MemorySubscription:
    def __init__(
        self,
        bus: MemoryBus,
        topic: str,
        limit: int,
        on_overflow: Callable[[], None] | None = None,
    ) -> None:
        if limit < 1:
            raise ValueError(f"a subscription holds at least one notice, not {limit}")
        self._bus = bus
        self.topic = topic
        self.limit = limit
        self.queue: asyncio.Queue[Mapping[str, Any]] = asyncio.Queue(maxsize=limit)
        self.overflows = 0  # how often this subscriber fell ``limit`` notices behind
        self._on_overflow = on_overflow
        self._kinds: Counter[object] = Counter()  # the waiting notices by kind

    async def get(self) -> Mapping[str, Any]:
        notice = await self.queue.get()
        self._kinds[notice.get("kind")] -= 1
        return notice

    def empty(self) -> bool:
        return self.queue.empty()

    def waiting(self, kind: str) -> int:
        return self._kinds[kind]

    def close(self) -> None:
        self._bus._unsubscribe(self)

    def deliver(self, notice: Mapping[str, Any]) -> None:
        """Queue ``notice``; when full, swap what waits for one resync (module base)."""
        try:
            self.queue.put_nowait(notice)
            self._kinds[notice.get("kind")] += 1
            return
        except asyncio.QueueFull:
            pass
        while not self.queue.empty():
            self.queue.get_nowait()
        self.queue.put_nowait(RESYNC)
        self._kinds = Counter({RESYNC["kind"]: 1})
        self.overflows += 1
        log.warning(
            "a subscriber of %s fell %d notices behind; they were dropped",
            self.topic,
            self.limit,
        )
        if self._on_overflow is not None:
            self._on_overflow()


class MemoryBus:
    def __init__(self, queue_limit: int = QUEUE_LIMIT) -> None:
        self._topics: dict[str, set[MemorySubscription]] = {}
        self.queue_limit = queue_limit

    async def publish(self, topic: str, notice: Mapping[str, Any]) -> None:
        for sub in tuple(self._topics.get(topic, ())):
            sub.deliver(notice)

    def subscribe(
        self,
        topic: str,
        *,
        limit: int | None = None,
        on_overflow: Callable[[], None] | None = None,
    ) -> MemorySubscription:
        sub = MemorySubscription(
            self, topic, self.queue_limit if limit is None else limit, on_overflow
        )
        self._topics.setdefault(topic, set()).add(sub)
        return sub

    def _unsubscribe(self, sub: MemorySubscription) -> None:
        subs = self._topics.get(sub.topic)
        if subs is not None:
            subs.discard(sub)
            if not subs:
                del self._topics[sub.topic]

    def topics(self) -> tuple[str, ...]:
        """The topics that have subscribers now."""
        return tuple(self._topics)

    def subscriptions(self, topic: str) -> tuple[MemorySubscription, ...]:
        """The subscriptions of ``topic`` now."""
        return tuple(self._topics.get(topic, ()))

    async def close(self) -> None:
        self._topics.clear()
