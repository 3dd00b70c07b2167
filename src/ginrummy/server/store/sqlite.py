"""The SQLite store (the default): one file, WAL journal, one writer thread.

The stdlib ``sqlite3`` driver is blocking, so every call runs on a single dedicated
thread that owns the connection; the event loop only awaits it. Each write is one
transaction with ``synchronous=FULL``: once ``append_events`` returns, the events
survive a crash of the process or the machine.
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

from ginrummy.server.store.base import (
    Event,
    GameRef,
    RoomRow,
    SeatRow,
    StoreConflict,
    StoredRoom,
    StoreError,
)

T = TypeVar("T")

SCHEMA_VERSION = 1
SCHEMA = """
CREATE TABLE IF NOT EXISTS identities (
    token_hash TEXT PRIMARY KEY,
    created REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS rooms (
    id TEXT PRIMARY KEY,
    kind TEXT NOT NULL,
    rules TEXT NOT NULL,
    created REAL NOT NULL,
    options TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS seats (
    room TEXT NOT NULL REFERENCES rooms(id),
    seat TEXT NOT NULL,
    identity_hash TEXT,
    name TEXT NOT NULL,
    bot TEXT,
    PRIMARY KEY (room, seat)
);
CREATE INDEX IF NOT EXISTS seats_by_identity ON seats(identity_hash);
CREATE TABLE IF NOT EXISTS events (
    room TEXT NOT NULL REFERENCES rooms(id),
    seq INTEGER NOT NULL,
    kind TEXT NOT NULL,
    payload TEXT NOT NULL,
    created REAL NOT NULL,
    PRIMARY KEY (room, seq)
);
"""


def path_of_url(url: str) -> Path:
    """``sqlite:///relative/file.db`` or ``sqlite:////absolute/file.db`` -> a path."""
    prefix = "sqlite:///"
    if not url.startswith(prefix) or len(url) == len(prefix):
        raise ValueError(f"a SQLite URL looks like sqlite:///data/ginrummy.sqlite3, got {url!r}")
    return Path(url[len(prefix) :])


class SQLiteStore:
    def __init__(self, path: Path) -> None:
        self.path = path
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="sqlite")
        self._db: sqlite3.Connection | None = None

    async def _run(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        def call() -> T:
            if self._db is None:
                raise StoreError("the SQLite store is not open")
            try:
                return fn(self._db)
            except sqlite3.IntegrityError as exc:
                raise StoreConflict(str(exc)) from None
            except sqlite3.Error as exc:
                raise StoreError(f"SQLite: {exc}") from exc

        return await asyncio.get_running_loop().run_in_executor(self._executor, call)

    async def open(self) -> None:
        def connect() -> None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=FULL")
            db.execute("PRAGMA foreign_keys=ON")
            db.execute("PRAGMA busy_timeout=5000")
            version = db.execute("PRAGMA user_version").fetchone()[0]
            if version > SCHEMA_VERSION:
                db.close()
                raise StoreError(
                    f"{self.path} has schema version {version}; this server knows "
                    f"{SCHEMA_VERSION}. Upgrade the server."
                )
            db.executescript(SCHEMA)
            db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
            self._db = db

        await asyncio.get_running_loop().run_in_executor(self._executor, connect)

    async def close(self) -> None:
        def disconnect() -> None:
            if self._db is not None:
                self._db.close()
                self._db = None

        await asyncio.get_running_loop().run_in_executor(self._executor, disconnect)
        self._executor.shutdown(wait=True)

    async def add_identity(self, token_hash: str) -> None:
        await self._run(
            lambda db: db.execute(
                "INSERT INTO identities (token_hash, created) VALUES (?, ?)",
                (token_hash, time.time()),
            )
        )

    async def has_identity(self, token_hash: str) -> bool:
        row = await self._run(
            lambda db: db.execute(
                "SELECT 1 FROM identities WHERE token_hash = ?", (token_hash,)
            ).fetchone()
        )
        return row is not None

    async def create_room(
        self, room: RoomRow, seats: Sequence[SeatRow], events: Sequence[Event]
    ) -> None:
        def write(db: sqlite3.Connection) -> None:
            with _transaction(db):
                db.execute(
                    "INSERT INTO rooms (id, kind, rules, created, options) VALUES (?, ?, ?, ?, ?)",
                    (room.id, room.kind, _json(room.rules), room.created, _json(room.options)),
                )
                for seat in seats:
                    _insert_seat(db, room.id, seat)
                _insert_events(db, room.id, events)

        await self._run(write)

    async def claim_seat(self, room_id: str, seat: SeatRow, events: Sequence[Event]) -> None:
        def write(db: sqlite3.Connection) -> None:
            with _transaction(db):
                _insert_seat(db, room_id, seat)
                _insert_events(db, room_id, events)

        await self._run(write)

    async def append_events(self, room_id: str, events: Sequence[Event]) -> None:
        def write(db: sqlite3.Connection) -> None:
            with _transaction(db):
                _insert_events(db, room_id, events)

        await self._run(write)

    async def load_room(self, room_id: str) -> StoredRoom | None:
        def read(db: sqlite3.Connection) -> StoredRoom | None:
            row = db.execute(
                "SELECT id, kind, rules, created, options FROM rooms WHERE id = ?", (room_id,)
            ).fetchone()
            if row is None:
                return None
            room = RoomRow(row[0], row[1], json.loads(row[2]), row[3], json.loads(row[4]))
            seats = tuple(
                SeatRow(s[0], s[1], s[2], s[3])
                for s in db.execute(
                    "SELECT seat, identity_hash, name, bot FROM seats WHERE room = ? ORDER BY seat",
                    (room_id,),
                )
            )
            events = tuple(
                Event(e[0], e[1], json.loads(e[2]))
                for e in db.execute(
                    "SELECT seq, kind, payload FROM events WHERE room = ? ORDER BY seq",
                    (room_id,),
                )
            )
            return StoredRoom(room, seats, events)

        return await self._run(read)

    async def games_of(self, identity_hash: str, limit: int = 20) -> list[GameRef]:
        rows = await self._run(
            lambda db: db.execute(
                "SELECT r.id, s.seat, r.kind, r.created FROM seats s JOIN rooms r ON r.id = s.room"
                " WHERE s.identity_hash = ? ORDER BY r.created DESC LIMIT ?",
                (identity_hash, limit),
            ).fetchall()
        )
        return [GameRef(r[0], r[1], r[2], r[3]) for r in rows]


class _transaction:
    """``BEGIN IMMEDIATE`` ... ``COMMIT`` (or ``ROLLBACK`` on any error)."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db

    def __enter__(self) -> None:
        self.db.execute("BEGIN IMMEDIATE")

    def __exit__(self, exc_type: object, exc: object, tb: object) -> None:
        self.db.execute("COMMIT" if exc_type is None else "ROLLBACK")


def _json(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), sort_keys=True)


def _insert_seat(db: sqlite3.Connection, room_id: str, seat: SeatRow) -> None:
    db.execute(
        "INSERT INTO seats (room, seat, identity_hash, name, bot) VALUES (?, ?, ?, ?, ?)",
        (room_id, seat.seat, seat.identity_hash, seat.name, seat.bot),
    )


def _insert_events(db: sqlite3.Connection, room_id: str, events: Sequence[Event]) -> None:
    now = time.time()
    db.executemany(
        "INSERT INTO events (room, seq, kind, payload, created) VALUES (?, ?, ?, ?, ?)",
        [(room_id, e.seq, e.kind, _json(e.payload), now) for e in events],
    )
