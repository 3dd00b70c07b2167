"""The bus interface: publish a small public notice on a room's topic, subscribe to it.

Notices carry no hidden card (they are JSON-ready dicts such as
``{"kind": "action", "version": 7, "seat": "one", "action": "discard 7h"}``: a public
move carries itself, so that other instances need not read the log for it,
server/room/log.py ``notice_of``); each subscriber derives what its socket may see from
the room itself.

Every subscription's queue is bounded. A subscriber that falls ``limit`` notices behind
loses the waiting ones and finds a single ``RESYNC`` notice instead (the same one the
bus hands out after an outage: reload from the store), and its ``on_overflow`` is
called: a socket that cannot keep up closes rather than grow without end.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Protocol

RESYNC: Mapping[str, Any] = {"kind": "resync"}
QUEUE_LIMIT = 10_000
"""Notices a subscription holds at most unless told otherwise (server-internal
followers, which read at once; sockets pass their own, smaller limit)."""


class Subscription(Protocol):
    async def get(self) -> Mapping[str, Any]:
        """The next notice (waits)."""

    def empty(self) -> bool:
        """No notice is waiting (``get`` would wait)."""

    def waiting(self, kind: str) -> int:
        """How many notices of ``kind`` wait (delivered, not yet taken by ``get``)."""

    def close(self) -> None: ...


class Bus(Protocol):
    async def publish(self, topic: str, notice: Mapping[str, Any]) -> None: ...

    def subscribe(
        self,
        topic: str,
        *,
        limit: int | None = None,
        on_overflow: Callable[[], None] | None = None,
    ) -> Subscription:
        """Notices of ``topic`` from now on; at most ``limit`` wait (None: the bus's
        own limit), then ``on_overflow`` is called (see the module's text)."""

    async def close(self) -> None: ...
