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
import logging
import sqlite3
import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

from ginrummy.server.store import sql
from ginrummy.server.store.base import (
    ROOM_CHAT,
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
    StoredTournament,
    StoreError,
    TournamentRow,
)
from ginrummy.server.store.outcomes import settle
from ginrummy.server.store.sqlite_schema import (
    CHAT_AND_QUEUE,
    CHAT_CHANNEL,
    LEASES_OF_ANY_KEY,
    QUEUE_CONFIRMED,
    SCHEMA,
    SCHEMA_VERSION,
    TOURNAMENTS,
)
from ginrummy.server.store.sqlite_tx import Write, in_savepoint, transaction

T = TypeVar("T")
log = logging.getLogger("ginrummy.server.store.sqlite")

__all__ = ["SCHEMA", "SCHEMA_VERSION", "SQLiteStore"]

# SQLite's spelling where the dialects differ (sql.py has the statements they share).
SELECT_SEATS = "SELECT seat, identity_hash, name, bot FROM seats WHERE room = ? ORDER BY seat"
LISTED_ROOMS = (
    "SELECT id FROM rooms WHERE json_extract(options, '$.visibility') = 'public'"
    " OR json_extract(rules, '$.move_timer_seconds') IS NOT NULL ORDER BY created DESC LIMIT ?"
)
LIVE_TOURNAMENTS = (
    f"SELECT {sql.TOURNAMENT_COLUMNS} FROM tournaments WHERE phase <> 'finished'"
    " ORDER BY created DESC, id DESC LIMIT ?"
)
PLAYER_TOURNAMENTS = (
    f"SELECT {sql.TOURNAMENT_COLUMNS} FROM tournaments WHERE id IN"
    " (SELECT tournament FROM tournament_identities WHERE player = ?)"
    " ORDER BY created DESC, id DESC LIMIT ?"
)
LEADERBOARD = (
    f"SELECT {sql.PLAYER_COLUMNS} FROM players WHERE rated_matches > 0"
    " ORDER BY rating DESC, id LIMIT ?"
)
RESULTS_OF = f"SELECT {sql.RESULT_COLUMNS} FROM results WHERE player = ? ORDER BY t, room"
QUICK_ENTRY = (
    f"SELECT {sql.QUICK_COLUMNS} FROM quick_queue WHERE identity_hash = ?"
    " AND (room IS NOT NULL OR confirmed > ?)"
)


class SQLiteStore:
    def __init__(self, path: Path, now: Callable[[], float] = time.time) -> None:
        self.path = path
        self._now = now  # the clock of leases, the quick match and what is recorded
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="sqlite")
        self._db: sqlite3.Connection | None = None
        self._pending: list[Write[Any]] = []  # writes waiting for the next commit
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

    async def _rows(self, query: str, *args: Any) -> list[Any]:
        return await self._run(lambda db: db.execute(query, args).fetchall())

    async def _row(self, query: str, *args: Any) -> Any:
        """The first row of ``query``'s answer, or None."""
        return await self._run(lambda db: db.execute(query, args).fetchone())

    async def _write(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        """Run ``fn`` in the next group commit; return once that commit is durable.

        ``fn`` must not begin or end a transaction: the batch does, around a savepoint
        of its own. Writes are applied in the order they were asked for."""
        write: Write[T] = Write(fn, asyncio.get_running_loop().create_future())
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
                outcomes.append(in_savepoint(db, fn))
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
            if "channel" not in {row[1] for row in db.execute("PRAGMA table_info(chat)")}:
                db.execute(CHAT_CHANNEL)  # before version 7
            columns = {row[1] for row in db.execute("PRAGMA table_info(quick_queue)")}
            if "confirmed" not in columns:  # a version-4 file
                db.execute(QUEUE_CONFIRMED)
                db.execute("UPDATE quick_queue SET confirmed = ?", (self._now(),))
            db.executescript(TOURNAMENTS)
            if db.execute("PRAGMA foreign_key_list(leases)").fetchall():  # before version 6
                db.executescript(f"BEGIN IMMEDIATE; {LEASES_OF_ANY_KEY} COMMIT;")
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
        await self._write(lambda db: db.execute(sql.INSERT_IDENTITY, (token_hash, self._now())))

    async def has_identity(self, token_hash: str) -> bool:
        return await self._row(sql.HAS_IDENTITY, token_hash) is not None

    async def known_player(self, token_hash: str, fresh: Callable[[], Player]) -> Player | None:
        row = await self._row(sql.KNOWN_PLAYER, token_hash)
        if row is None or row[0] is not None:
            return None if row is None else sql.player_of(row)
        return await self.ensure_player(token_hash, fresh())  # its first use

    async def create_room(
        self, room: RoomRow, seats: Sequence[SeatRow], events: Sequence[Event]
    ) -> None:
        def write(db: sqlite3.Connection) -> None:
            db.execute(sql.INSERT_ROOM, sql.room_values(room))
            db.executemany(sql.INSERT_SEAT, [sql.seat_values(room.id, s) for s in seats])
            _insert_events(db, room.id, events)

        await self._write(write)

    async def claim_seat(self, room_id: str, seat: SeatRow, events: Sequence[Event]) -> None:
        def write(db: sqlite3.Connection) -> None:
            db.execute(sql.INSERT_SEAT, sql.seat_values(room_id, seat))
            _insert_events(db, room_id, events)

        await self._write(write)

    async def append_events(
        self, room_id: str, events: Sequence[Event], outcome: Outcome | None = None
    ) -> None:
        def write(db: sqlite3.Connection) -> None:
            _insert_events(db, room_id, events)
            if outcome is not None:
                _settle(db, outcome)

        await self._write(write)

    async def load_room(self, room_id: str, after: int = 0) -> StoredRoom | None:
        def read(db: sqlite3.Connection) -> StoredRoom | None:
            row = db.execute(sql.SELECT_ROOM, (room_id,)).fetchone()
            if row is None:
                return None
            return sql.stored_room(
                row,
                db.execute(SELECT_SEATS, (room_id,)),
                db.execute(sql.SELECT_EVENTS, (room_id, after)),
                db.execute(sql.SELECT_CLOCK, (room_id,)).fetchone(),
            )

        return await self._run(read)

    async def games_of(self, identity_hash: str, limit: int = 20) -> list[GameRef]:
        return [GameRef(*r) for r in await self._rows(sql.GAMES_OF, identity_hash, limit)]

    async def listed_rooms(self, limit: int = 500) -> list[str]:
        return [r[0] for r in await self._rows(LISTED_ROOMS, limit)]

    async def save_clock(self, room_id: str, clock: Clock) -> None:
        await self._run(
            lambda db: db.execute(sql.SAVE_CLOCK, (room_id, clock.version, clock.remaining_ms))
        )

    async def ensure_player(self, identity_hash: str, fresh: Player) -> Player:
        def write(db: sqlite3.Connection) -> Player:
            with transaction(db):
                db.execute(sql.INSERT_PLAYER, (identity_hash, *sql.player_values(fresh)))
                row = db.execute(sql.PLAYER_OF_IDENTITY, (identity_hash,)).fetchone()
            return sql.player_of(row)

        return await self._run(write)

    async def player(self, player_id: str) -> Player | None:
        row = await self._row(sql.PLAYER, player_id)
        return None if row is None else sql.player_of(row)

    async def rename_player(self, player_id: str, name: str) -> None:
        await self._run(lambda db: db.execute(sql.RENAME_PLAYER, (name, player_id)))

    async def leaderboard(self, limit: int = 50) -> list[Player]:
        return [sql.player_of(r) for r in await self._rows(LEADERBOARD, limit)]

    async def results_of(self, player_id: str) -> list[ResultRow]:
        return [sql.result_of(r) for r in await self._rows(RESULTS_OF, player_id)]

    async def acquire_lease(self, room_id: str, holder: str, ttl_s: float) -> bool:
        # One statement: the upsert's WHERE lets only a free, expired or own lease change
        # hands; instances sharing the file share the machine's clock.
        def write(db: sqlite3.Connection) -> bool:
            now = self._now()
            cursor = db.execute(
                "INSERT INTO leases (room, holder, expires) VALUES (?, ?, ?)"
                " ON CONFLICT (room) DO UPDATE SET holder = excluded.holder,"
                " expires = excluded.expires WHERE leases.expires < ? OR leases.holder = ?",
                (room_id, holder, now + ttl_s, now, holder),
            )
            return cursor.rowcount == 1

        return await self._write(write)  # renewals share the group commit's fsync

    async def release_lease(self, room_id: str, holder: str) -> None:
        await self._write(lambda db: db.execute(sql.RELEASE_LEASE, (room_id, holder)))

    async def add_chat(
        self, room_id: str, line: ChatLine, keep: int, channel: str = ROOM_CHAT
    ) -> int:
        # The write transaction (BEGIN IMMEDIATE) holds the file's lock: no other
        # process numbers a line of this room meanwhile.
        def write(db: sqlite3.Connection) -> int:
            seq: int = db.execute(sql.NEXT_CHAT_SEQ, (room_id,)).fetchone()[0]
            db.execute(sql.INSERT_CHAT, sql.chat_values(room_id, channel, seq, line))
            db.execute(sql.TRIM_CHAT, sql.trim_chat_values(room_id, channel, keep))
            return seq

        return await self._write(write)

    async def recent_chat(
        self, room_id: str, limit: int, channel: str = ROOM_CHAT
    ) -> list[ChatLine]:
        rows = await self._rows(sql.RECENT_CHAT, room_id, channel, limit)
        return [sql.chat_of(r) for r in reversed(rows)]

    async def quick_enter(self, entry: QuickEntry, stale_after: float) -> QuickEntry | None:
        # One write transaction: two instances never take the same waiting entry, and
        # two people entering at once see each other (the second pairs with the first).
        def write(db: sqlite3.Connection) -> QuickEntry | None:
            now = self._now()
            db.execute(sql.DROP_QUICK, (entry.identity_hash,))
            _sweep_quick(db, now - 2 * stale_after)
            row = db.execute(
                f"SELECT {sql.QUICK_COLUMNS} FROM quick_queue WHERE room IS NULL AND rules = ?"
                " AND player <> ? AND confirmed > ? ORDER BY since, identity_hash LIMIT 1",
                (sql.json_text(entry.rules), entry.player, now - stale_after),
            ).fetchone()
            if row is None:
                _put_quick(db, entry, now)
                return None
            db.execute(sql.DROP_QUICK, (row[0],))
            return sql.quick_of(row)

        return await self._write(write)

    async def quick_save(self, entries: Sequence[QuickEntry], forget_before: float) -> None:
        def write(db: sqlite3.Connection) -> None:
            db.execute(sql.FORGET_PAIRINGS, (forget_before,))
            now = self._now()
            for entry in entries:
                _put_quick(db, entry, now)

        await self._write(write)

    async def quick_confirm(self, identity_hashes: Sequence[str], stale_after: float) -> int:
        def write(db: sqlite3.Connection) -> int:
            now = self._now()
            _sweep_quick(db, now - 2 * stale_after)  # first: what is deleted stays deleted
            db.executemany(
                "UPDATE quick_queue SET confirmed = ? WHERE identity_hash = ? AND room IS NULL",
                [(now, h) for h in identity_hashes],
            )
            return _count_waiting(db, now - stale_after)

        return await self._write(write)

    async def quick_release(self, identity_hash: str, stale_after: float) -> bool:
        def write(db: sqlite3.Connection) -> bool:
            now = self._now()
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
        row = await self._row(QUICK_ENTRY, identity_hash, self._now() - stale_after)
        return None if row is None else sql.quick_of(row)

    async def quick_waiting(self, stale_after: float) -> int:
        return await self._run(lambda db: _count_waiting(db, self._now() - stale_after))

    async def create_tournament(
        self, row: TournamentRow, events: Sequence[Event], identities: Mapping[str, str]
    ) -> None:
        def write(db: sqlite3.Connection) -> None:
            db.execute(sql.INSERT_TOURNAMENT, sql.tournament_values(row))
            _insert_tournament(db, row.id, events, identities)

        await self._write(write)

    async def append_tournament(
        self,
        tournament_id: str,
        events: Sequence[Event],
        phase: str,
        identities: Mapping[str, str] | None = None,
    ) -> None:
        def write(db: sqlite3.Connection) -> None:
            if db.execute(sql.SET_TOURNAMENT_PHASE, (phase, tournament_id)).rowcount != 1:
                raise StoreConflict(f"tournament {tournament_id} does not exist")
            _insert_tournament(db, tournament_id, events, identities or {})

        await self._write(write)

    async def load_tournament(self, tournament_id: str, after: int = 0) -> StoredTournament | None:
        def read(db: sqlite3.Connection) -> StoredTournament | None:
            row = db.execute(sql.SELECT_TOURNAMENT, (tournament_id,)).fetchone()
            if row is None:
                return None
            return sql.stored_tournament(
                row,
                db.execute(sql.SELECT_TOURNAMENT_EVENTS, (tournament_id, after)),
                db.execute(sql.SELECT_TOURNAMENT_IDENTITIES, (tournament_id,)),
            )

        return await self._run(read)

    async def live_tournaments(self, limit: int = 500) -> list[TournamentRow]:
        return [sql.tournament_of(r) for r in await self._rows(LIVE_TOURNAMENTS, limit)]

    async def player_tournaments(self, player: str, limit: int = 50) -> list[TournamentRow]:
        rows = await self._rows(PLAYER_TOURNAMENTS, player, limit)
        return [sql.tournament_of(r) for r in rows]


def _insert_tournament(
    db: sqlite3.Connection,
    tournament_id: str,
    events: Sequence[Event],
    identities: Mapping[str, str],
) -> None:
    db.executemany(
        sql.INSERT_TOURNAMENT_EVENT, sql.event_values(tournament_id, events, time.time())
    )
    db.executemany(sql.INSERT_TOURNAMENT_IDENTITY, sql.identity_values(tournament_id, identities))


def _sweep_quick(db: sqlite3.Connection, before: float) -> None:
    """Delete the waiting entries last confirmed before ``before``."""
    db.execute("DELETE FROM quick_queue WHERE room IS NULL AND confirmed < ?", (before,))


def _count_waiting(db: sqlite3.Connection, live_after: float) -> int:
    row = db.execute(
        "SELECT COUNT(*) FROM quick_queue WHERE room IS NULL AND confirmed > ?", (live_after,)
    ).fetchone()
    return int(row[0])


def _put_quick(db: sqlite3.Connection, e: QuickEntry, confirmed: float) -> None:
    db.execute(sql.PUT_QUICK.format("?"), (*sql.quick_values(e), confirmed))


def _settle(db: sqlite3.Connection, outcome: Outcome) -> None:
    """Write a match's outcome, rated from the players' rows as committed: the write
    transaction (BEGIN IMMEDIATE) holds the file's lock from the read to the commit,
    so no other process changes a rating in between."""
    rows = (db.execute(sql.PLAYER, (pid,)).fetchone() for pid in outcome.player_ids)
    settled = settle(outcome, {r[0]: sql.player_of(r) for r in rows if r is not None})
    db.executemany(sql.SETTLE_PLAYER, [sql.settled_values(p) for p in settled.players])
    db.executemany(sql.INSERT_RESULT, [sql.result_values(r) for r in settled.results])


def _insert_events(db: sqlite3.Connection, room_id: str, events: Sequence[Event]) -> None:
    db.executemany(sql.INSERT_EVENT, sql.event_values(room_id, events, time.time()))
