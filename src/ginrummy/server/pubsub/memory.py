"""In-process fan-out: one unbounded queue per subscriber."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from typing import Any


class MemorySubscription:
    def __init__(self, bus: MemoryBus, topic: str) -> None:
        self._bus = bus
        self.topic = topic
        self.queue: asyncio.Queue[Mapping[str, Any]] = asyncio.Queue()

    async def get(self) -> Mapping[str, Any]:
        return await self.queue.get()

    def empty(self) -> bool:
        return self.queue.empty()

    def close(self) -> None:
        self._bus._unsubscribe(self)


class MemoryBus:
    def __init__(self) -> None:
        self._topics: dict[str, set[MemorySubscription]] = {}

    async def publish(self, topic: str, notice: Mapping[str, Any]) -> None:
        for sub in tuple(self._topics.get(topic, ())):
            sub.queue.put_nowait(notice)

    def subscribe(self, topic: str) -> MemorySubscription:
        sub = MemorySubscription(self, topic)
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

    async def close(self) -> None:
        self._topics.clear()
