"""One bus topic heard for the life of an instance: each notice handed to one function.

The parts that act on what other instances tell (``sockets.revoke.Revoker``,
``accounts.erased.Eraser``) share this life: subscribe at start-up (so nothing told after
is missed), hand every notice on in order, log a notice that fails and go on (one bad
notice must not stop the listening), and at shutdown stop and unsubscribe.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from ginrummy.server.pubsub.base import Bus, Subscription

log = logging.getLogger("ginrummy.server.pubsub")

Handler = Callable[[Mapping[str, Any]], Awaitable[object]]


class Listener:
    """Hears ``topic`` and awaits ``handle`` on each notice, one after the other."""

    def __init__(self, topic: str, handle: Handler) -> None:
        self.topic = topic
        self._handle = handle
        self._sub: Subscription | None = None
        self._task: asyncio.Task[None] | None = None

    def start(self, bus: Bus) -> None:
        """Hear the bus from now on (subscribed before this returns)."""
        self._sub = bus.subscribe(self.topic)
        self._task = asyncio.create_task(self._listen(self._sub))

    async def _listen(self, sub: Subscription) -> None:
        while True:
            notice = await sub.get()
            try:
                await self._handle(notice)
            except Exception:  # one bad notice must not stop the listening
                log.exception("a notice on the %s topic failed", self.topic)

    async def close(self) -> None:
        task, sub = self._task, self._sub
        self._task, self._sub = None, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        if sub is not None:
            sub.close()
