"""SQLite's transactions as the store writes them: one group commit of many writes, each
in a savepoint of its own so that one write's conflict undoes only that write."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from ginrummy.server.store.base import StoreConflict, StoreError

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Write(Generic[T]):
    """A write waiting for its group commit, and its caller's answer."""

    fn: Callable[[sqlite3.Connection], T]
    done: asyncio.Future[T]


def in_savepoint(db: sqlite3.Connection, fn: Callable[[sqlite3.Connection], T]) -> Any:
    """``fn``'s result, or (undone alone) its conflict or error. An error that ended
    the whole transaction (disk full, I/O) is raised: it fails the batch."""
    db.execute("SAVEPOINT write")
    try:
        result = fn(db)
    except Exception as exc:
        if not db.in_transaction:
            raise
        db.execute("ROLLBACK TO write")
        db.execute("RELEASE write")
        if isinstance(exc, sqlite3.IntegrityError):
            return StoreConflict(str(exc))
        if isinstance(exc, sqlite3.Error):
            return StoreError(f"SQLite: {exc}")
        return exc
    db.execute("RELEASE write")
    return result
