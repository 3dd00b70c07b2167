"""Stores by URL scheme: ``sqlite:///path`` (default), ``postgresql://...`` or ``memory://``.

Drivers load lazily: PostgreSQL's (asyncpg, Alembic) come with ``ginrummy[postgres]``."""

from __future__ import annotations

from ginrummy.server.store.base import (
    ChatLine,
    Clock,
    Event,
    GameRef,
    Outcome,
    Player,
    QuickEntry,
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
    if scheme in ("postgresql", "postgres"):
        try:
            from ginrummy.server.store.postgres import PostgresStore
        except ImportError as exc:
            raise ImportError(
                f"a PostgreSQL store needs its driver ({exc.name or exc}):"
                " pip install 'ginrummy[postgres]'"
            ) from exc
        return PostgresStore(url)
    raise ValueError(
        f"unsupported store URL {url.split(':', 1)[0]!r}:"
        " use sqlite:///, postgresql:// or memory://"
    )


__all__ = [
    "ChatLine",
    "Clock",
    "Event",
    "GameRef",
    "Outcome",
    "Player",
    "QuickEntry",
    "ResultRow",
    "RoomRow",
    "SeatRow",
    "Store",
    "StoreConflict",
    "StoreError",
    "StoredRoom",
    "open_store",
]
