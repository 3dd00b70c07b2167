"""Stores by URL scheme: ``sqlite:///path`` (default) or ``memory://``; drivers load lazily."""

from __future__ import annotations

from ginrummy.server.store.base import (
    Clock,
    Event,
    GameRef,
    Outcome,
    Player,
    ResultRow,
    RoomRow,
    SeatRow,
    Store,
    StoreConflict,
    StoredRoom,
    StoreError,
)


def open_store(url: str) -> Store:
    """A store for ``url`` (not yet opened: ``await store.open()``)."""
    scheme = url.split(":", 1)[0].lower()
    if scheme == "memory":
        from ginrummy.server.store.memory import MemoryStore

        return MemoryStore()
    if scheme == "sqlite":
        from ginrummy.server.store.sqlite import SQLiteStore, path_of_url

        return SQLiteStore(path_of_url(url))
    raise ValueError(f"unsupported store URL {url.split(':', 1)[0]!r}: use sqlite:/// or memory://")


__all__ = [
    "Clock",
    "Event",
    "GameRef",
    "Outcome",
    "Player",
    "ResultRow",
    "RoomRow",
    "SeatRow",
    "Store",
    "StoreConflict",
    "StoreError",
    "StoredRoom",
    "open_store",
]
