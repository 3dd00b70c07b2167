"""Room event fan-out by URL scheme; in-process by default (``memory://``)."""

from __future__ import annotations

from collections.abc import Callable

from ginrummy.server.pubsub.base import QUEUE_LIMIT, RESYNC, Bus, Subscription


def open_bus(
    url: str = "memory://",
    queue_limit: int = QUEUE_LIMIT,
    on_reconnect: Callable[[], None] | None = None,
) -> Bus:
    """The bus for ``url``; subscriptions hold ``queue_limit`` notices unless they say.
    ``on_reconnect`` is called each time a Redis bus is back after an outage."""
    scheme = url.split(":", 1)[0].lower()
    if scheme == "memory":
        from ginrummy.server.pubsub.memory import MemoryBus

        return MemoryBus(queue_limit)
    if scheme in ("redis", "rediss"):
        try:
            from ginrummy.server.pubsub.redis import RedisBus
        except ImportError as exc:  # the optional driver is missing
            raise ValueError(
                f"REDIS_URL needs the redis package: pip install 'ginrummy[redis]' ({exc})"
            ) from None
        return RedisBus(url, queue_limit=queue_limit, on_reconnect=on_reconnect)
    raise ValueError(f"unsupported bus URL {scheme!r}: use memory:// or redis://")


__all__ = ["QUEUE_LIMIT", "RESYNC", "Bus", "Subscription", "open_bus"]
