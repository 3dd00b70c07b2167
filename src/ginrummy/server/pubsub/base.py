"""The bus interface: publish a small public notice on a room's topic, subscribe to it.

Notices carry no hidden card (they are JSON-ready dicts such as
``{"kind": "action", "version": 7, "seat": "one"}``); each subscriber derives what its
socket may see from the room itself.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol


class Subscription(Protocol):
    async def get(self) -> Mapping[str, Any]:
        """The next notice (waits)."""

    def empty(self) -> bool:
        """No notice is waiting (``get`` would wait)."""

    def close(self) -> None: ...


class Bus(Protocol):
    async def publish(self, topic: str, notice: Mapping[str, Any]) -> None: ...

    def subscribe(self, topic: str) -> Subscription: ...

    async def close(self) -> None: ...
