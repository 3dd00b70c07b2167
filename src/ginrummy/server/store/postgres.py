"""The PostgreSQL store (``postgresql://user@host:5432/db``): several servers, one database.

The server talks to PostgreSQL through an asyncpg connection pool; each call is one
transaction, so it keeps the SQLite store's promises (write before tell, conflicts
on races, outcome rows with the match's last event). The schema is Alembic's
(``migrations/``): ``open`` upgrades it to head first, under an advisory lock so that
instances starting together don't trip over each other.

When the database goes away every call fails promptly with ``StoreError`` (acquiring
a connection and each query have time limits) and the server answers "unavailable";
the pool replaces dead connections, so calls succeed again once it is back.

``?search_path=schema`` in the URL keeps the tables in that schema (it must exist).
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, TypeVar

import asyncpg  # type: ignore[import-untyped]
import psycopg  # noqa: F401  (SQLAlchemy's driver for the migrations: fail early if missing)
import sqlalchemy as sa
from alembic import command
from alembic.config import Config
from alembic.util import CommandError
from sqlalchemy.pool import NullPool

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
from ginrummy.server.store.sql import numbered as pg
from ginrummy.server.store.urls import postgres_parts, redacted

T = TypeVar("T")

MIGRATIONS = Path(__file__).with_name("migrations")
CONNECT_TIMEOUT = 5.0  # seconds to open a connection (asyncpg's and psycopg's)
ACQUIRE_TIMEOUT = 5.0  # seconds to get a pooled connection, connecting included
COMMAND_TIMEOUT = 15.0  # seconds for one statement
POOL_SIZE = 20  # per instance: three instances stay well within max_connections (100)
# Alembic keeps its migration context in module globals: one upgrade at a time per
# process (across processes, env.py's advisory lock does the same).
_MIGRATING = threading.Lock()


# Quick-match entries are confirmed on the database's clock, shared by every instance.
NOW = "extract(epoch FROM now())::double precision"
COUNT_WAITING = f"SELECT COUNT(*) FROM quick_queue WHERE room IS NULL AND confirmed > {NOW}"
# PostgreSQL's spelling where the dialects differ (sql.py has the statements they share):
# text is ordered byte by byte (COLLATE "C"), as SQLite and the memory store order it.
# A room with its seats, its events after $2 and its clock, in one statement (rows as
# anonymous records, which asyncpg reads as tuples).
LOAD_ROOM = (
    "SELECT r.id, r.kind, r.rules, r.created, r.options,"
    " ARRAY(SELECT ROW(s.seat, s.identity_hash, s.name, s.bot) FROM seats s"
    ' WHERE s.room = r.id ORDER BY s.seat COLLATE "C"),'
    " ARRAY(SELECT ROW(e.seq, e.kind, e.payload) FROM events e"
    " WHERE e.room = r.id AND e.seq > $2 ORDER BY e.seq),"
    " (SELECT ROW(k.version, k.remaining_ms) FROM clocks k WHERE k.room = r.id)"
    " FROM rooms r WHERE r.id = $1"
)
# ->> gives SQL NULL for a missing key and for JSON null, like SQLite's json_extract.
LISTED_ROOMS = (
    "SELECT id FROM rooms WHERE (options::jsonb ->> 'visibility') = 'public'"
    " OR (rules::jsonb ->> 'move_timer_seconds') IS NOT NULL ORDER BY created DESC LIMIT $1"
)
LEADERBOARD = (
    f"SELECT {sql.PLAYER_COLUMNS} FROM players WHERE rated_matches > 0"
    ' ORDER BY rating DESC, id COLLATE "C" LIMIT $1'
)
RESULTS_OF = (
    f'SELECT {sql.RESULT_COLUMNS} FROM results WHERE player = $1 ORDER BY t, room COLLATE "C"'
)
QUICK_ENTRY = (
    f"SELECT {sql.QUICK_COLUMNS} FROM quick_queue WHERE identity_hash = $1"
    f" AND (room IS NOT NULL OR confirmed > {NOW} - $2)"
)
LIVE_TOURNAMENTS = (
    f"SELECT {sql.TOURNAMENT_COLUMNS} FROM tournaments WHERE phase <> 'finished'"
    ' ORDER BY created DESC, id COLLATE "C" DESC LIMIT $1'
)
PLAYER_TOURNAMENTS = (
    f"SELECT {sql.TOURNAMENT_COLUMNS} FROM tournaments WHERE id IN"
    " (SELECT tournament FROM tournament_identities WHERE player = $1)"
    ' ORDER BY created DESC, id COLLATE "C" DESC LIMIT $2'
)
# Errors that mean "the database is not there or not well": StoreError, never a hang.
_UNAVAILABLE = (asyncpg.PostgresError, asyncpg.InterfaceError, OSError, TimeoutError)


def pool_options(search_path: str | None) -> dict[str, Any]:
    """How the store's asyncpg pool is made: its size, timeouts, the schema, and what a
    connection gets on its way back to the pool (``keep_session``)."""
    settings = {"search_path": search_path} if search_path else {}
    return {
        "min_size": 1,
        "max_size": POOL_SIZE,
        "timeout": CONNECT_TIMEOUT,
        "command_timeout": COMMAND_TIMEOUT,
        "server_settings": settings,
        "reset": keep_session,
    }


async def keep_session(conn: Any) -> None:
    """What a pooled connection needs on its way back to the pool: nothing beyond what
    asyncpg always does first (a transaction left open is rolled back). asyncpg's
    default reset sends one more statement on every release (``RESET ALL``,
    ``UNLISTEN *``, releasing advisory locks): a second round trip for each
    one-statement store call, which under a burst of reconnections (a rolling restart,
    docs/operations.md) doubles the queue for the pool. This store never sets a session
    variable, listens, or takes an advisory lock on a pooled connection (the migrations'
    lock is on Alembic's own connection), so there is nothing to reset."""


class PostgresStore:
    def __init__(self, url: str) -> None:
        self.url, self.search_path = postgres_parts(url)
        self._where = redacted(self.url)
        self._pool: Any = None  # asyncpg.Pool once open

    # -- plumbing ------------------------------------------------------------------

    async def open(self) -> None:
        try:
            await asyncio.to_thread(self._migrate)
        except StoreError:
            raise
        except Exception as exc:
            raise StoreError(f"PostgreSQL at {self._where}: migrations failed: {exc}") from exc
        try:
            self._pool = await asyncpg.create_pool(self.url, **pool_options(self.search_path))
        except _UNAVAILABLE as exc:
            raise StoreError(f"PostgreSQL at {self._where} is unavailable: {exc}") from exc

    def _migrate(self) -> None:
        """Upgrade the schema to Alembic's head (blocking: runs in a thread)."""
        sa_url = sa.engine.make_url(self.url).set(drivername="postgresql+psycopg")
        connect_args: dict[str, Any] = {"connect_timeout": int(CONNECT_TIMEOUT)}
        if self.search_path:
            connect_args["options"] = f"-csearch_path={self.search_path}"
        engine = sa.create_engine(sa_url, poolclass=NullPool, connect_args=connect_args)
        config = Config()
        config.set_main_option("script_location", str(MIGRATIONS))
        try:
            with _MIGRATING, engine.connect() as connection:
                config.attributes["connection"] = connection
                command.upgrade(config, "head")
        except CommandError as exc:  # e.g. a revision newer than this server knows
            raise StoreError(
                f"PostgreSQL at {self._where}: {exc}; is the server older than the"
                " database? Upgrade the server."
            ) from exc
        except sa.exc.OperationalError as exc:
            raise StoreError(
                f"PostgreSQL at {self._where} is unavailable: {exc.orig or exc}"
            ) from exc
        finally:
            engine.dispose()

    async def close(self) -> None:
        pool, self._pool = self._pool, None
        if pool is None:
            return
        try:
            await asyncio.wait_for(pool.close(), ACQUIRE_TIMEOUT)
        except (TimeoutError, *_UNAVAILABLE):
            pool.terminate()

    @asynccontextmanager
    async def _connection(self) -> AsyncIterator[Any]:
        if self._pool is None:
            raise StoreError("the PostgreSQL store is not open")
        try:
            async with self._pool.acquire(timeout=ACQUIRE_TIMEOUT) as conn:
                yield conn
        except asyncpg.IntegrityConstraintViolationError as exc:
            raise StoreConflict(str(exc)) from None
        except _UNAVAILABLE as exc:
            what = "timed out" if isinstance(exc, TimeoutError) else str(exc) or type(exc).__name__
            raise StoreError(f"PostgreSQL at {self._where}: {what}") from exc

    async def _write(self, fn: Callable[[Any], Awaitable[T]]) -> T:
        """``fn(connection)`` in one read-write transaction."""
        async with self._connection() as conn, conn.transaction():
            return await fn(conn)

    async def _one(self, fn: Callable[[Any], Awaitable[T]]) -> T:
        """``fn(connection)`` making ONE statement, without BEGIN and COMMIT: a single
        statement is a transaction of its own (atomic, one snapshot). One round trip
        rather than three: a connection is held for each round trip's wait on a busy
        event loop too, and a burst of reconnections (a rolling restart) is made of
        these reads (docs/operations.md, "Rolling restarts")."""
        async with self._connection() as conn:
            return await fn(conn)

    async def _read(self, fn: Callable[[Any], Awaitable[T]]) -> T:
        """``fn(connection)`` in one read-only snapshot."""
        async with (
            self._connection() as conn,
            conn.transaction(isolation="repeatable_read", readonly=True),
        ):
            return await fn(conn)

    async def _rows(self, query: str, *args: Any) -> list[Any]:
        return list(await self._one(lambda c: c.fetch(query, *args)))

    async def _row(self, query: str, *args: Any) -> Any:
        """The first row of ``query``'s answer, or None."""
        return await self._one(lambda c: c.fetchrow(query, *args))

    # -- the Store calls -------------------------------------------------------------

    async def add_identity(self, token_hash: str) -> None:
        await self._one(lambda c: c.execute(pg(sql.INSERT_IDENTITY), token_hash, time.time()))

    async def has_identity(self, token_hash: str) -> bool:
        return await self._row(pg(sql.HAS_IDENTITY), token_hash) is not None

    async def known_player(self, token_hash: str, fresh: Callable[[], Player]) -> Player | None:
        row = await self._row(pg(sql.KNOWN_PLAYER), token_hash)
        if row is None or row[0] is not None:
            return None if row is None else sql.player_of(row)
        return await self.ensure_player(token_hash, fresh())  # its first use

    async def create_room(
        self, room: RoomRow, seats: Sequence[SeatRow], events: Sequence[Event]
    ) -> None:
        async def write(c: Any) -> None:
            await c.execute(pg(sql.INSERT_ROOM), *sql.room_values(room))
            for seat in seats:
                await c.execute(pg(sql.INSERT_SEAT), *sql.seat_values(room.id, seat))
            await _insert_events(c, room.id, events)

        await self._write(write)

    async def claim_seat(self, room_id: str, seat: SeatRow, events: Sequence[Event]) -> None:
        async def write(c: Any) -> None:
            await c.execute(pg(sql.INSERT_SEAT), *sql.seat_values(room_id, seat))
            await _insert_events(c, room_id, events)

        await self._write(write)

    async def append_events(
        self, room_id: str, events: Sequence[Event], outcome: Outcome | None = None
    ) -> None:
        if len(events) == 1 and outcome is None:  # a move: one INSERT, one round trip
            values = sql.event_values(room_id, events, time.time())[0]
            await self._one(lambda c: c.execute(pg(sql.INSERT_EVENT), *values))
            return

        async def write(c: Any) -> None:
            await _insert_events(c, room_id, events)
            if outcome is not None:
                await _settle(c, outcome)

        await self._write(write)

    async def load_room(self, room_id: str, after: int = 0) -> StoredRoom | None:
        # One statement, one snapshot: every hello and catch-up reads this.
        row = await self._one(lambda c: c.fetchrow(LOAD_ROOM, room_id, after))
        if row is None:
            return None
        return sql.stored_room(row[:5], row[5], row[6], row[7])

    async def games_of(self, identity_hash: str, limit: int = 20) -> list[GameRef]:
        rows = await self._rows(pg(sql.GAMES_OF), identity_hash, limit)
        return [GameRef(*r) for r in rows]

    async def listed_rooms(self, limit: int = 500) -> list[str]:
        return [r[0] for r in await self._rows(LISTED_ROOMS, limit)]

    async def save_clock(self, room_id: str, clock: Clock) -> None:
        await self._write(
            lambda c: c.execute(pg(sql.SAVE_CLOCK), room_id, clock.version, clock.remaining_ms)
        )

    async def ensure_player(self, identity_hash: str, fresh: Player) -> Player:
        async def write(c: Any) -> Player:
            await c.execute(pg(sql.INSERT_PLAYER), identity_hash, *sql.player_values(fresh))
            return sql.player_of(await c.fetchrow(pg(sql.PLAYER_OF_IDENTITY), identity_hash))

        return await self._write(write)

    async def player(self, player_id: str) -> Player | None:
        row = await self._row(pg(sql.PLAYER), player_id)
        return None if row is None else sql.player_of(row)

    async def rename_player(self, player_id: str, name: str) -> None:
        await self._write(lambda c: c.execute(pg(sql.RENAME_PLAYER), name, player_id))

    async def leaderboard(self, limit: int = 50) -> list[Player]:
        return [sql.player_of(r) for r in await self._rows(LEADERBOARD, limit)]

    async def results_of(self, player_id: str) -> list[ResultRow]:
        return [sql.result_of(r) for r in await self._rows(RESULTS_OF, player_id)]

    async def acquire_lease(self, room_id: str, holder: str, ttl_s: float) -> bool:
        # One statement: the upsert's WHERE lets only a free, expired or own lease change
        # hands (a concurrent upsert waits for the row lock and then sees the winner).
        row = await self._one(
            lambda c: c.fetchrow(
                "INSERT INTO leases (room, holder, expires)"
                " VALUES ($1, $2, now() + make_interval(secs => $3))"
                " ON CONFLICT (room) DO UPDATE SET holder = excluded.holder,"
                " expires = excluded.expires"
                " WHERE leases.expires < now() OR leases.holder = excluded.holder"
                " RETURNING holder",
                room_id,
                holder,
                float(ttl_s),
            )
        )
        return row is not None

    async def release_lease(self, room_id: str, holder: str) -> None:
        await self._one(lambda c: c.execute(pg(sql.RELEASE_LEASE), room_id, holder))

    async def add_chat(
        self, room_id: str, line: ChatLine, keep: int, channel: str = ROOM_CHAT
    ) -> int:
        async def write(c: Any) -> int:
            # Lock the room's row against other chat writers only (a move's insert into
            # events takes FOR KEY SHARE, which this lock lets through).
            await c.execute("SELECT 1 FROM rooms WHERE id = $1 FOR NO KEY UPDATE", room_id)
            seq: int = await c.fetchval(pg(sql.NEXT_CHAT_SEQ), room_id)
            await c.execute(pg(sql.INSERT_CHAT), *sql.chat_values(room_id, channel, seq, line))
            await c.execute(pg(sql.TRIM_CHAT), *sql.trim_chat_values(room_id, channel, keep))
            return seq

        return await self._write(write)

    async def recent_chat(
        self, room_id: str, limit: int, channel: str = ROOM_CHAT
    ) -> list[ChatLine]:
        rows = await self._rows(pg(sql.RECENT_CHAT), room_id, channel, limit)
        return [sql.chat_of(r) for r in reversed(rows)]

    async def quick_enter(self, entry: QuickEntry, stale_after: float) -> QuickEntry | None:
        async def write(c: Any) -> QuickEntry | None:
            # One enter at a time (plain reads go on): two instances never take the same
            # waiting entry, and two people entering at once see each other.
            await c.execute("LOCK TABLE quick_queue IN EXCLUSIVE MODE")
            await c.execute(pg(sql.DROP_QUICK), entry.identity_hash)
            await _sweep_quick(c, 2 * stale_after)
            row = await c.fetchrow(
                f"DELETE FROM quick_queue WHERE identity_hash = (SELECT identity_hash"
                " FROM quick_queue WHERE room IS NULL AND rules = $1 AND player <> $2"
                f" AND confirmed > {NOW} - $3"
                ' ORDER BY since, identity_hash COLLATE "C" LIMIT 1)'
                f" RETURNING {sql.QUICK_COLUMNS}",
                sql.json_text(entry.rules),
                entry.player,
                stale_after,
            )
            if row is None:
                await _put_quick(c, entry)
                return None
            return sql.quick_of(row)

        return await self._write(write)

    async def quick_save(self, entries: Sequence[QuickEntry], forget_before: float) -> None:
        async def write(c: Any) -> None:
            await c.execute(pg(sql.FORGET_PAIRINGS), forget_before)
            for entry in entries:
                await _put_quick(c, entry)

        await self._write(write)

    async def quick_confirm(self, identity_hashes: Sequence[str], stale_after: float) -> int:
        async def write(c: Any) -> int:
            await _sweep_quick(c, 2 * stale_after)  # first: what is deleted stays deleted
            await c.execute(
                f"UPDATE quick_queue SET confirmed = {NOW}"
                " WHERE identity_hash = ANY($1::text[]) AND room IS NULL",
                list(identity_hashes),
            )
            return int(await c.fetchval(f"{COUNT_WAITING} - $1", stale_after))

        return await self._write(write)

    async def quick_release(self, identity_hash: str, stale_after: float) -> bool:
        row = await self._write(
            lambda c: c.fetchrow(
                f"UPDATE quick_queue SET confirmed = {NOW} - $2 WHERE identity_hash = $1"
                f" AND room IS NULL AND confirmed > {NOW} - $2 RETURNING identity_hash",
                identity_hash,
                stale_after,
            )
        )
        return row is not None

    async def quick_leave(self, identity_hash: str) -> bool:
        row = await self._write(
            lambda c: c.fetchrow(
                "DELETE FROM quick_queue WHERE identity_hash = $1 AND room IS NULL"
                " RETURNING identity_hash",
                identity_hash,
            )
        )
        return row is not None

    async def quick_entry(self, identity_hash: str, stale_after: float) -> QuickEntry | None:
        row = await self._row(QUICK_ENTRY, identity_hash, stale_after)
        return None if row is None else sql.quick_of(row)

    async def quick_waiting(self, stale_after: float) -> int:
        count = await self._read(lambda c: c.fetchval(f"{COUNT_WAITING} - $1", stale_after))
        return int(count)

    async def create_tournament(
        self, row: TournamentRow, events: Sequence[Event], identities: Mapping[str, str]
    ) -> None:
        async def write(c: Any) -> None:
            await c.execute(pg(sql.INSERT_TOURNAMENT), *sql.tournament_values(row))
            await _insert_tournament(c, row.id, events, identities)

        await self._write(write)

    async def append_tournament(
        self,
        tournament_id: str,
        events: Sequence[Event],
        phase: str,
        identities: Mapping[str, str] | None = None,
    ) -> None:
        async def write(c: Any) -> None:
            status = await c.execute(pg(sql.SET_TOURNAMENT_PHASE), phase, tournament_id)
            if status != "UPDATE 1":
                raise StoreConflict(f"tournament {tournament_id} does not exist")
            await _insert_tournament(c, tournament_id, events, identities or {})

        await self._write(write)

    async def load_tournament(self, tournament_id: str, after: int = 0) -> StoredTournament | None:
        async def read(c: Any) -> StoredTournament | None:
            row = await c.fetchrow(pg(sql.SELECT_TOURNAMENT), tournament_id)
            if row is None:
                return None
            return sql.stored_tournament(
                row,
                await c.fetch(pg(sql.SELECT_TOURNAMENT_EVENTS), tournament_id, after),
                await c.fetch(pg(sql.SELECT_TOURNAMENT_IDENTITIES), tournament_id),
            )

        return await self._read(read)

    async def live_tournaments(self, limit: int = 500) -> list[TournamentRow]:
        return [sql.tournament_of(r) for r in await self._rows(LIVE_TOURNAMENTS, limit)]

    async def player_tournaments(self, player: str, limit: int = 50) -> list[TournamentRow]:
        rows = await self._rows(PLAYER_TOURNAMENTS, player, limit)
        return [sql.tournament_of(r) for r in rows]


async def _sweep_quick(c: Any, unconfirmed_for: float) -> None:
    """Delete the waiting entries unconfirmed for ``unconfirmed_for`` seconds."""
    await c.execute(
        f"DELETE FROM quick_queue WHERE room IS NULL AND confirmed < {NOW} - $1",
        unconfirmed_for,
    )


async def _put_quick(c: Any, e: QuickEntry) -> None:
    await c.execute(pg(sql.PUT_QUICK.format(NOW)), *sql.quick_values(e))


async def _settle(c: Any, outcome: Outcome) -> None:
    """Write a match's outcome, rated from the players' rows as committed: each row is
    locked (FOR UPDATE, in ``Outcome.player_ids`` order, so two transactions never
    wait for each other in a circle) until the commit, so a match ending at the same
    time on another instance waits and then rates from what this one wrote."""
    current = {}
    for pid in outcome.player_ids:
        row = await c.fetchrow(pg(sql.PLAYER + " FOR UPDATE"), pid)
        if row is not None:
            current[pid] = sql.player_of(row)
    settled = settle(outcome, current)
    if settled.players:
        await c.executemany(pg(sql.SETTLE_PLAYER), [sql.settled_values(p) for p in settled.players])
    if settled.results:
        await c.executemany(pg(sql.INSERT_RESULT), [sql.result_values(r) for r in settled.results])


async def _insert_tournament(
    c: Any, tournament_id: str, events: Sequence[Event], identities: Mapping[str, str]
) -> None:
    if events:
        values = sql.event_values(tournament_id, events, time.time())
        await c.executemany(pg(sql.INSERT_TOURNAMENT_EVENT), values)
    if identities:
        values = sql.identity_values(tournament_id, identities)
        await c.executemany(pg(sql.INSERT_TOURNAMENT_IDENTITY), values)


async def _insert_events(c: Any, room_id: str, events: Sequence[Event]) -> None:
    if events:
        await c.executemany(pg(sql.INSERT_EVENT), sql.event_values(room_id, events, time.time()))
