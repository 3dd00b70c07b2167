"""Room event fan-out by URL scheme; in-process by default (``memory://``)."""

from __future__ import annotations

from ginrummy.server.pubsub.base import Bus, Subscription


def open_bus(url: str = "memory://") -> Bus:
    scheme = url.split(":", 1)[0].lower()
    if scheme == "memory":
        from ginrummy.server.pubsub.memory import MemoryBus

        return MemoryBus()
    if scheme in ("redis", "rediss"):
        try:
            from ginrummy.server.pubsub.redis import RedisBus
        except ImportError as exc:  # the optional driver is missing
            raise ValueError(
                f"REDIS_URL needs the redis package: pip install 'ginrummy[redis]' ({exc})"
            ) from None
        return RedisBus(url)
    raise ValueError(f"unsupported bus URL {scheme!r}: use memory:// or redis://")


__all__ = ["Bus", "Subscription", "open_bus"]
