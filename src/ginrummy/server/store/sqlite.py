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
    Clock,
    Event,
    GameRef,
    Outcome,
    Player,
    ResultRow,
    RoomRow,
    SeatRow,
    StoreConflict,
    StoredRoom,
    StoreError,
)

T = TypeVar("T")

SCHEMA_VERSION = 2
# Version 2 (public play) only adds tables: a version-1 file is upgraded in place by
# the CREATE TABLE IF NOT EXISTS below; its identities get a player on first use.
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
CREATE TABLE IF NOT EXISTS players (
    id TEXT PRIMARY KEY,
    identity_hash TEXT NOT NULL UNIQUE,
    name TEXT NOT NULL,
    rating REAL NOT NULL,
    rd REAL NOT NULL,
    volatility REAL NOT NULL,
    rated_matches INTEGER NOT NULL DEFAULT 0,
    abandons INTEGER NOT NULL DEFAULT 0,
    created REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS players_by_rating ON players(rating) WHERE rated_matches > 0;
CREATE TABLE IF NOT EXISTS results (
    room TEXT NOT NULL REFERENCES rooms(id),
    match_seq INTEGER NOT NULL,
    player TEXT NOT NULL REFERENCES players(id),
    seat TEXT NOT NULL,
    opponent TEXT,
    bot TEXT,
    rated INTEGER NOT NULL,
    won INTEGER NOT NULL,
    rounds INTEGER NOT NULL,
    gins INTEGER NOT NULL,
    undercuts_scored INTEGER NOT NULL,
    undercuts_suffered INTEGER NOT NULL,
    points INTEGER NOT NULL,
    margin INTEGER NOT NULL,
    forfeit TEXT,
    rating REAL,
    rd REAL,
    t REAL NOT NULL,
    PRIMARY KEY (room, match_seq, seat)
);
CREATE INDEX IF NOT EXISTS results_by_player ON results(player, t);
CREATE TABLE IF NOT EXISTS clocks (
    room TEXT PRIMARY KEY REFERENCES rooms(id),
    version INTEGER NOT NULL,
    remaining_ms INTEGER NOT NULL
);
"""
RESULT_COLUMNS = (
    "room, match_seq, player, seat, opponent, bot, rated, won, rounds, gins,"
    " undercuts_scored, undercuts_suffered, points, margin, forfeit, rating, rd, t"
)
PLAYER_COLUMNS = "id, name, rating, rd, volatility, rated_matches, abandons, created"


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

    async def append_events(
        self, room_id: str, events: Sequence[Event], outcome: Outcome | None = None
    ) -> None:
        def write(db: sqlite3.Connection) -> None:
            with _transaction(db):
                _insert_events(db, room_id, events)
                if outcome is not None:
                    _write_outcome(db, outcome)

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
            clock = db.execute(
                "SELECT version, remaining_ms FROM clocks WHERE room = ?", (room_id,)
            ).fetchone()
            return StoredRoom(room, seats, events, None if clock is None else Clock(*clock))

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

    async def listed_rooms(self, limit: int = 500) -> list[str]:
        rows = await self._run(
            lambda db: db.execute(
                "SELECT id FROM rooms WHERE json_extract(options, '$.visibility') = 'public'"
                " OR json_extract(rules, '$.move_timer_seconds') IS NOT NULL"
                " ORDER BY created DESC LIMIT ?",
                (limit,),
            ).fetchall()
        )
        return [r[0] for r in rows]

    async def save_clock(self, room_id: str, clock: Clock) -> None:
        await self._run(
            lambda db: db.execute(
                "INSERT INTO clocks (room, version, remaining_ms) VALUES (?, ?, ?)"
                " ON CONFLICT (room) DO UPDATE SET version = excluded.version,"
                " remaining_ms = excluded.remaining_ms",
                (room_id, clock.version, clock.remaining_ms),
            )
        )

    async def ensure_player(self, identity_hash: str, fresh: Player) -> Player:
        def write(db: sqlite3.Connection) -> Player:
            with _transaction(db):
                db.execute(
                    f"INSERT INTO players (identity_hash, {PLAYER_COLUMNS})"
                    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (identity_hash) DO NOTHING",
                    (identity_hash, *_player_values(fresh)),
                )
                row = db.execute(
                    f"SELECT {PLAYER_COLUMNS} FROM players WHERE identity_hash = ?",
                    (identity_hash,),
                ).fetchone()
            return _player(row)

        return await self._run(write)

    async def player(self, player_id: str) -> Player | None:
        row = await self._run(
            lambda db: db.execute(
                f"SELECT {PLAYER_COLUMNS} FROM players WHERE id = ?", (player_id,)
            ).fetchone()
        )
        return None if row is None else _player(row)

    async def rename_player(self, player_id: str, name: str) -> None:
        await self._run(
            lambda db: db.execute("UPDATE players SET name = ? WHERE id = ?", (name, player_id))
        )

    async def leaderboard(self, limit: int = 50) -> list[Player]:
        rows = await self._run(
            lambda db: db.execute(
                f"SELECT {PLAYER_COLUMNS} FROM players WHERE rated_matches > 0"
                " ORDER BY rating DESC, id LIMIT ?",
                (limit,),
            ).fetchall()
        )
        return [_player(r) for r in rows]

    async def results_of(self, player_id: str) -> list[ResultRow]:
        rows = await self._run(
            lambda db: db.execute(
                f"SELECT {RESULT_COLUMNS} FROM results WHERE player = ? ORDER BY t, room",
                (player_id,),
            ).fetchall()
        )
        return [_result(r) for r in rows]


def _result(r: Sequence[Any]) -> ResultRow:
    return ResultRow(
        room=r[0], match_seq=r[1], player=r[2], seat=r[3], opponent=r[4], bot=r[5],
        rated=bool(r[6]), won=bool(r[7]), rounds=r[8], gins=r[9], undercuts_scored=r[10],
        undercuts_suffered=r[11], points=r[12], margin=r[13], forfeit=r[14], rating=r[15],
        rd=r[16], t=r[17],
    )  # fmt: skip


def _player_values(p: Player) -> tuple[Any, ...]:
    return (p.id, p.name, p.rating, p.rd, p.volatility, p.rated_matches, p.abandons, p.created)


def _player(row: Sequence[Any]) -> Player:
    return Player(*row)


def _write_outcome(db: sqlite3.Connection, outcome: Outcome) -> None:
    for r in outcome.results:
        db.execute(
            f"INSERT INTO results ({RESULT_COLUMNS})"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                r.room, r.match_seq, r.player, r.seat, r.opponent, r.bot, int(r.rated),
                int(r.won), r.rounds, r.gins, r.undercuts_scored, r.undercuts_suffered,
                r.points, r.margin, r.forfeit, r.rating, r.rd, r.t,
            ),
        )  # fmt: skip
    for p in outcome.players:
        db.execute(
            "UPDATE players SET rating = ?, rd = ?, volatility = ?, rated_matches = ? WHERE id = ?",
            (p.rating, p.rd, p.volatility, p.rated_matches, p.id),
        )
    for pid in outcome.abandons:
        db.execute("UPDATE players SET abandons = abandons + 1 WHERE id = ?", (pid,))


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
