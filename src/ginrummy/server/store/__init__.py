"""Stores by URL scheme: ``sqlite:///path`` (default), ``postgresql://...`` or ``memory://``.

Drivers load lazily: PostgreSQL's (asyncpg) comes with ``ginrummy[postgres]``. Every
store reads the time from the clock it is given (the server's), never its own.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from ginrummy.server.store.base import (
    ROOM_CHAT,
    Account,
    Accounts,
    Challenge,
    Chat,
    ChatLine,
    Clock,
    Device,
    Event,
    EventLog,
    GameRef,
    Identities,
    Leases,
    Outcome,
    Passkey,
    Player,
    Players,
    QuickEntry,
    QuickQueue,
    RatedMatch,
    ResultRow,
    RoomRow,
    SeatRow,
    Store,
    StoreConflict,
    StoredRoom,
    StoredTournament,
    StoreError,
    TournamentRow,
    Tournaments,
)
from ginrummy.server.store.civility import AuditEntry, Civility, Report, Sanction
from ginrummy.server.store.friends import (
    Follow,
    Friends,
    MatchChallenge,
    Social,
    Whereabouts,
)
from ginrummy.server.store.urls import POSTGRES_SCHEMES, scheme_of, sqlite_path


def open_store(url: str, now: Callable[[], float] = time.time) -> Store:
    """A store for ``url`` (not yet opened: ``await store.open()``) on the clock ``now``
    (Unix time in seconds)."""
    scheme = scheme_of(url)
    if scheme == "memory":
        from ginrummy.server.store.memory import MemoryStore

        return MemoryStore(now)
    if scheme == "sqlite":
        from ginrummy.server.store.sqlite import SQLiteStore

        return SQLiteStore(sqlite_path(url), now)
    if scheme in POSTGRES_SCHEMES:
        try:
            from ginrummy.server.store.postgres import PostgresStore
        except ImportError as exc:
            raise ImportError(
                f"a PostgreSQL store needs its driver ({exc.name or exc}):"
                " pip install 'ginrummy[postgres]'"
            ) from exc
        return PostgresStore(url, now)
    raise ValueError(
        f"unsupported store URL {scheme!r}: use sqlite:///, postgresql:// or memory://"
    )


__all__ = [
    "ROOM_CHAT",
    "Account",
    "Accounts",
    "AuditEntry",
    "Challenge",
    "Chat",
    "ChatLine",
    "Civility",
    "Clock",
    "Device",
    "Event",
    "EventLog",
    "Follow",
    "Friends",
    "GameRef",
    "Identities",
    "Leases",
    "MatchChallenge",
    "Outcome",
    "Passkey",
    "Player",
    "Players",
    "QuickEntry",
    "QuickQueue",
    "RatedMatch",
    "Report",
    "ResultRow",
    "RoomRow",
    "Sanction",
    "SeatRow",
    "Social",
    "Store",
    "StoreConflict",
    "StoreError",
    "StoredRoom",
    "StoredTournament",
    "TournamentRow",
    "Tournaments",
    "Whereabouts",
    "open_store",
]
