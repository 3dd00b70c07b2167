"""The SQLite store (the default): one file, WAL journal, one writer thread.

The stdlib ``sqlite3`` driver is blocking, so every call runs on a single dedicated
thread that owns the connection; the event loop only awaits it. Writes are group
committed: the writes that arrive while a commit is in flight go together into the
next transaction, each in its own savepoint (a conflict undoes only its own write),
with one fsync for all (``synchronous=FULL``). No caller is answered before the
commit holding its write is durable: once ``append_events`` returns, the events
survive a crash of the process or the machine.
"""

from __future__ import annotations

import asyncio
import json
import logging
import sqlite3
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Generic, TypeVar

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
    StoreConflict,
    StoredRoom,
    StoreError,
)

T = TypeVar("T")
log = logging.getLogger("ginrummy.server.store.sqlite")

SCHEMA_VERSION = 5
# Version 2 (public play) only adds tables: a version-1 file is upgraded in place by
# the CREATE TABLE IF NOT EXISTS below; its identities get a player on first use.
# Version 3 (several instances) adds the leases table the same way.
# Version 4 (several instances) adds chat and the quick-match queue: CHAT_AND_QUEUE.
# Version 5 adds quick_queue.confirmed (waiting entries live while confirmed): a
# version-4 file gets the column from QUEUE_CONFIRMED, its entries confirmed at upgrade.
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
CREATE TABLE IF NOT EXISTS leases (
    room TEXT PRIMARY KEY REFERENCES rooms(id),
    holder TEXT NOT NULL,
    expires REAL NOT NULL
);
"""
CHAT_AND_QUEUE = """
CREATE TABLE IF NOT EXISTS chat (
    room TEXT NOT NULL REFERENCES rooms(id),
    seq INTEGER NOT NULL,
    t REAL NOT NULL,
    seat TEXT,
    player TEXT NOT NULL,
    tag TEXT NOT NULL,
    text TEXT,
    phrase TEXT,
    PRIMARY KEY (room, seq)
);
CREATE TABLE IF NOT EXISTS quick_queue (
    identity_hash TEXT PRIMARY KEY,
    player TEXT NOT NULL,
    rules TEXT NOT NULL,
    since REAL NOT NULL,
    room TEXT,
    seat TEXT,
    confirmed REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS quick_queue_waiting ON quick_queue(rules, since) WHERE room IS NULL;
"""
CHAT_COLUMNS = "seq, t, seat, player, tag, text, phrase"
QUEUE_CONFIRMED = "ALTER TABLE quick_queue ADD COLUMN confirmed REAL NOT NULL DEFAULT 0"
QUICK_COLUMNS = "identity_hash, player, rules, since, room, seat"
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
        self._pending: list[_Write[Any]] = []  # writes waiting for the next commit
        self._flusher: asyncio.Task[None] | None = None
        self.commits = 0  # write transactions committed (a group commit counts once)

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

    async def _write(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        """Run ``fn`` in the next group commit; return once that commit is durable.

        ``fn`` must not begin or end a transaction: the batch does, around a savepoint
        of its own. Writes are applied in the order they were asked for."""
        write: _Write[T] = _Write(fn, asyncio.get_running_loop().create_future())
        self._pending.append(write)
        if self._flusher is None:
            self._flusher = asyncio.create_task(self._flush())
        return await write.done

    async def _flush(self) -> None:
        """Commit the pending writes batch after batch until none is left."""
        loop = asyncio.get_running_loop()
        try:
            while self._pending:
                batch, self._pending = self._pending, []
                try:
                    outcomes = await loop.run_in_executor(
                        self._executor, self._commit_batch, [w.fn for w in batch]
                    )
                except BaseException as exc:  # the executor is gone, or we are cancelled
                    # Nobody waits for ever: this batch and the writes queued behind it.
                    lost, self._pending = [*batch, *self._pending], []
                    for w in lost:
                        if not w.done.done():
                            w.done.set_exception(
                                StoreError(f"SQLite: the commit was lost: {exc!r}")
                            )
                    if not isinstance(exc, Exception):
                        raise  # cancelled
                    log.error("SQLite: %d write(s) lost, no store thread: %r", len(lost), exc)
                    return
                for w, outcome in zip(batch, outcomes, strict=True):
                    if w.done.done():
                        continue  # its caller is gone; the write stands (or not) anyway
                    if isinstance(outcome, BaseException):
                        w.done.set_exception(outcome)
                    else:
                        w.done.set_result(outcome)
        finally:
            self._flusher = None

    def _commit_batch(self, fns: Sequence[Callable[[sqlite3.Connection], Any]]) -> list[Any]:
        """One transaction for ``fns`` (on the store's thread): each write's result,
        or the exception that undid that write alone, or the commit's error for all."""
        db = self._db
        if db is None:
            return [StoreError("the SQLite store is not open") for _ in fns]
        outcomes: list[Any] = []
        try:
            db.execute("BEGIN IMMEDIATE")
            for fn in fns:
                outcomes.append(_in_savepoint(db, fn))
            db.execute("COMMIT")
        except Exception as exc:  # the transaction as a whole failed: undo it all
            log.error("SQLite: a commit of %d write(s) failed, none applied: %s", len(fns), exc)
            if db.in_transaction:
                try:
                    db.execute("ROLLBACK")
                except sqlite3.Error as undo:
                    log.error("SQLite: the rollback failed too: %s", undo)
            return [StoreError(f"SQLite: the commit failed: {exc}") for _ in fns]
        self.commits += 1
        return outcomes

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
            db.executescript(CHAT_AND_QUEUE)
            columns = {row[1] for row in db.execute("PRAGMA table_info(quick_queue)")}
            if "confirmed" not in columns:  # a version-4 file
                db.execute(QUEUE_CONFIRMED)
                db.execute("UPDATE quick_queue SET confirmed = ?", (time.time(),))
            db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
            self._db = db

        await asyncio.get_running_loop().run_in_executor(self._executor, connect)

    async def close(self) -> None:
        if self._flusher is not None:
            await self._flusher  # answer the writes already asked for

        def disconnect() -> None:
            if self._db is not None:
                self._db.close()
                self._db = None

        await asyncio.get_running_loop().run_in_executor(self._executor, disconnect)
        self._executor.shutdown(wait=True)

    async def add_identity(self, token_hash: str) -> None:
        await self._write(
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
            db.execute(
                "INSERT INTO rooms (id, kind, rules, created, options) VALUES (?, ?, ?, ?, ?)",
                (room.id, room.kind, _json(room.rules), room.created, _json(room.options)),
            )
            for seat in seats:
                _insert_seat(db, room.id, seat)
            _insert_events(db, room.id, events)

        await self._write(write)

    async def claim_seat(self, room_id: str, seat: SeatRow, events: Sequence[Event]) -> None:
        def write(db: sqlite3.Connection) -> None:
            _insert_seat(db, room_id, seat)
            _insert_events(db, room_id, events)

        await self._write(write)

    async def append_events(
        self, room_id: str, events: Sequence[Event], outcome: Outcome | None = None
    ) -> None:
        def write(db: sqlite3.Connection) -> None:
            _insert_events(db, room_id, events)
            if outcome is not None:
                _write_outcome(db, outcome)

        await self._write(write)

    async def load_room(self, room_id: str, after: int = 0) -> StoredRoom | None:
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
                    "SELECT seq, kind, payload FROM events WHERE room = ? AND seq > ? ORDER BY seq",
                    (room_id, after),
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

    async def acquire_lease(self, room_id: str, holder: str, ttl_s: float) -> bool:
        # One statement: the upsert's WHERE lets only a free, expired or own lease change
        # hands; instances sharing the file share the machine's clock.
        def write(db: sqlite3.Connection) -> bool:
            now = time.time()
            cursor = db.execute(
                "INSERT INTO leases (room, holder, expires) VALUES (?, ?, ?)"
                " ON CONFLICT (room) DO UPDATE SET holder = excluded.holder,"
                " expires = excluded.expires WHERE leases.expires < ? OR leases.holder = ?",
                (room_id, holder, now + ttl_s, now, holder),
            )
            return cursor.rowcount == 1

        return await self._write(write)  # renewals share the group commit's fsync

    async def release_lease(self, room_id: str, holder: str) -> None:
        await self._write(
            lambda db: db.execute(
                "DELETE FROM leases WHERE room = ? AND holder = ?", (room_id, holder)
            )
        )

    async def add_chat(self, room_id: str, line: ChatLine, keep: int) -> int:
        # The write transaction (BEGIN IMMEDIATE) holds the file's lock: no other
        # process numbers a line of this room meanwhile.
        def write(db: sqlite3.Connection) -> int:
            seq: int = db.execute(
                "SELECT COALESCE(MAX(seq), 0) + 1 FROM chat WHERE room = ?", (room_id,)
            ).fetchone()[0]
            db.execute(
                f"INSERT INTO chat (room, {CHAT_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (room_id, seq, *_chat_values(line)),
            )
            db.execute("DELETE FROM chat WHERE room = ? AND seq <= ?", (room_id, seq - keep))
            return seq

        return await self._write(write)

    async def recent_chat(self, room_id: str, limit: int) -> list[ChatLine]:
        rows = await self._run(
            lambda db: db.execute(
                f"SELECT {CHAT_COLUMNS} FROM chat WHERE room = ? ORDER BY seq DESC LIMIT ?",
                (room_id, limit),
            ).fetchall()
        )
        return [ChatLine(*r) for r in reversed(rows)]

    async def quick_enter(self, entry: QuickEntry, stale_after: float) -> QuickEntry | None:
        # One write transaction: two instances never take the same waiting entry, and
        # two people entering at once see each other (the second pairs with the first).
        def write(db: sqlite3.Connection) -> QuickEntry | None:
            now = time.time()
            db.execute("DELETE FROM quick_queue WHERE identity_hash = ?", (entry.identity_hash,))
            _sweep_quick(db, now - 2 * stale_after)
            row = db.execute(
                f"SELECT {QUICK_COLUMNS} FROM quick_queue WHERE room IS NULL AND rules = ?"
                " AND player <> ? AND confirmed > ? ORDER BY since, identity_hash LIMIT 1",
                (_json(entry.rules), entry.player, now - stale_after),
            ).fetchone()
            if row is None:
                _put_quick(db, entry, now)
                return None
            db.execute("DELETE FROM quick_queue WHERE identity_hash = ?", (row[0],))
            return _quick(row)

        return await self._write(write)

    async def quick_save(self, entries: Sequence[QuickEntry], forget_before: float) -> None:
        def write(db: sqlite3.Connection) -> None:
            db.execute(
                "DELETE FROM quick_queue WHERE room IS NOT NULL AND since < ?", (forget_before,)
            )
            now = time.time()
            for entry in entries:
                _put_quick(db, entry, now)

        await self._write(write)

    async def quick_confirm(self, identity_hashes: Sequence[str], stale_after: float) -> int:
        def write(db: sqlite3.Connection) -> int:
            now = time.time()
            _sweep_quick(db, now - 2 * stale_after)  # first: what is deleted stays deleted
            db.executemany(
                "UPDATE quick_queue SET confirmed = ? WHERE identity_hash = ? AND room IS NULL",
                [(now, h) for h in identity_hashes],
            )
            return _count_waiting(db, now - stale_after)

        return await self._write(write)

    async def quick_release(self, identity_hash: str, stale_after: float) -> bool:
        def write(db: sqlite3.Connection) -> bool:
            now = time.time()
            cursor = db.execute(
                "UPDATE quick_queue SET confirmed = ? WHERE identity_hash = ? AND room IS NULL"
                " AND confirmed > ?",
                (now - stale_after, identity_hash, now - stale_after),
            )
            return cursor.rowcount == 1

        return await self._write(write)

    async def quick_leave(self, identity_hash: str) -> bool:
        def write(db: sqlite3.Connection) -> bool:
            cursor = db.execute(
                "DELETE FROM quick_queue WHERE identity_hash = ? AND room IS NULL",
                (identity_hash,),
            )
            return cursor.rowcount == 1

        return await self._write(write)

    async def quick_entry(self, identity_hash: str, stale_after: float) -> QuickEntry | None:
        row = await self._run(
            lambda db: db.execute(
                f"SELECT {QUICK_COLUMNS} FROM quick_queue WHERE identity_hash = ?"
                " AND (room IS NOT NULL OR confirmed > ?)",
                (identity_hash, time.time() - stale_after),
            ).fetchone()
        )
        return None if row is None else _quick(row)

    async def quick_waiting(self, stale_after: float) -> int:
        return await self._run(lambda db: _count_waiting(db, time.time() - stale_after))


def _sweep_quick(db: sqlite3.Connection, before: float) -> None:
    """Delete the waiting entries last confirmed before ``before``."""
    db.execute("DELETE FROM quick_queue WHERE room IS NULL AND confirmed < ?", (before,))


def _count_waiting(db: sqlite3.Connection, live_after: float) -> int:
    row = db.execute(
        "SELECT COUNT(*) FROM quick_queue WHERE room IS NULL AND confirmed > ?", (live_after,)
    ).fetchone()
    return int(row[0])


def _chat_values(line: ChatLine) -> tuple[Any, ...]:
    return (line.t, line.seat, line.player, line.tag, line.text, line.phrase)


def _quick(row: Sequence[Any]) -> QuickEntry:
    return QuickEntry(row[0], row[1], json.loads(row[2]), row[3], row[4], row[5])


def _put_quick(db: sqlite3.Connection, e: QuickEntry, confirmed: float) -> None:
    db.execute(
        f"INSERT INTO quick_queue ({QUICK_COLUMNS}, confirmed) VALUES (?, ?, ?, ?, ?, ?, ?)"
        " ON CONFLICT (identity_hash) DO UPDATE SET player = excluded.player,"
        " rules = excluded.rules, since = excluded.since, room = excluded.room,"
        " seat = excluded.seat, confirmed = excluded.confirmed",
        (e.identity_hash, e.player, _json(e.rules), e.since, e.room, e.seat, confirmed),
    )


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


@dataclass(frozen=True, slots=True)
class _Write(Generic[T]):
    """A write waiting for its group commit, and its caller's answer."""

    fn: Callable[[sqlite3.Connection], T]
    done: asyncio.Future[T]


def _in_savepoint(db: sqlite3.Connection, fn: Callable[[sqlite3.Connection], T]) -> Any:
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
