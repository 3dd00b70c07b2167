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
import json
import threading
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

import asyncpg  # type: ignore[import-untyped]
import psycopg  # noqa: F401  (SQLAlchemy's driver for the migrations: fail early if missing)
import sqlalchemy as sa
from alembic import command
from alembic.config import Config
from alembic.util import CommandError
from sqlalchemy.pool import NullPool

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

MIGRATIONS = Path(__file__).with_name("migrations")
CONNECT_TIMEOUT = 5.0  # seconds to open a connection (asyncpg's and psycopg's)
ACQUIRE_TIMEOUT = 5.0  # seconds to get a pooled connection, connecting included
COMMAND_TIMEOUT = 15.0  # seconds for one statement
POOL_SIZE = 10
# Alembic keeps its migration context in module globals: one upgrade at a time per
# process (across processes, env.py's advisory lock does the same).
_MIGRATING = threading.Lock()

RESULT_COLUMNS = (
    "room, match_seq, player, seat, opponent, bot, rated, won, rounds, gins,"
    " undercuts_scored, undercuts_suffered, points, margin, forfeit, rating, rd, t"
)
PLAYER_COLUMNS = "id, name, rating, rd, volatility, rated_matches, abandons, created"
CHAT_COLUMNS = "seq, t, seat, player, tag, text, phrase"
QUICK_COLUMNS = "identity_hash, player, rules, since, room, seat"
# Quick-match entries are confirmed on the database's clock, shared by every instance.
NOW = "extract(epoch FROM now())::double precision"
COUNT_WAITING = f"SELECT COUNT(*) FROM quick_queue WHERE room IS NULL AND confirmed > {NOW}"
# Errors that mean "the database is not there or not well": StoreError, never a hang.
_UNAVAILABLE = (asyncpg.PostgresError, asyncpg.InterfaceError, OSError, TimeoutError)


def split_url(url: str) -> tuple[str, str | None]:
    """``postgres[ql]://...?search_path=s`` -> (the URL without it, ``s`` or None)."""
    parts = urlsplit(url)
    if parts.scheme not in ("postgresql", "postgres"):
        raise ValueError(f"a PostgreSQL URL starts with postgresql://, got {url!r}")
    query = parse_qsl(parts.query, keep_blank_values=True)
    search_path = next((v for k, v in query if k == "search_path"), None)
    rest = urlencode([(k, v) for k, v in query if k != "search_path"])
    return urlunsplit(parts._replace(scheme="postgresql", query=rest)), search_path


def _redacted(url: str) -> str:
    parts = urlsplit(url)
    host = parts.hostname or "localhost"
    port = f":{parts.port}" if parts.port else ""
    return f"{host}{port}{parts.path}"


class PostgresStore:
    def __init__(self, url: str) -> None:
        self.url, self.search_path = split_url(url)
        self._where = _redacted(self.url)
        self._pool: Any = None  # asyncpg.Pool once open

    # -- plumbing ------------------------------------------------------------------

    async def open(self) -> None:
        try:
            await asyncio.to_thread(self._migrate)
        except StoreError:
            raise
        except Exception as exc:
            raise StoreError(f"PostgreSQL at {self._where}: migrations failed: {exc}") from exc
        settings = {"search_path": self.search_path} if self.search_path else {}
        try:
            self._pool = await asyncpg.create_pool(
                self.url,
                min_size=1,
                max_size=POOL_SIZE,
                timeout=CONNECT_TIMEOUT,
                command_timeout=COMMAND_TIMEOUT,
                server_settings=settings,
            )
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

    async def _read(self, fn: Callable[[Any], Awaitable[T]]) -> T:
        """``fn(connection)`` in one read-only snapshot."""
        async with (
            self._connection() as conn,
            conn.transaction(isolation="repeatable_read", readonly=True),
        ):
            return await fn(conn)

    # -- the Store calls -------------------------------------------------------------

    async def add_identity(self, token_hash: str) -> None:
        await self._write(
            lambda c: c.execute(
                "INSERT INTO identities (token_hash, created) VALUES ($1, $2)",
                token_hash,
                time.time(),
            )
        )

    async def has_identity(self, token_hash: str) -> bool:
        row = await self._read(
            lambda c: c.fetchval("SELECT 1 FROM identities WHERE token_hash = $1", token_hash)
        )
        return row is not None

    async def create_room(
        self, room: RoomRow, seats: Sequence[SeatRow], events: Sequence[Event]
    ) -> None:
        async def write(c: Any) -> None:
            await c.execute(
                "INSERT INTO rooms (id, kind, rules, created, options) VALUES ($1, $2, $3, $4, $5)",
                room.id,
                room.kind,
                _json(room.rules),
                room.created,
                _json(room.options),
            )
            for seat in seats:
                await _insert_seat(c, room.id, seat)
            await _insert_events(c, room.id, events)

        await self._write(write)

    async def claim_seat(self, room_id: str, seat: SeatRow, events: Sequence[Event]) -> None:
        async def write(c: Any) -> None:
            await _insert_seat(c, room_id, seat)
            await _insert_events(c, room_id, events)

        await self._write(write)

    async def append_events(
        self, room_id: str, events: Sequence[Event], outcome: Outcome | None = None
    ) -> None:
        async def write(c: Any) -> None:
            await _insert_events(c, room_id, events)
            if outcome is not None:
                await _write_outcome(c, outcome)

        await self._write(write)

    async def load_room(self, room_id: str, after: int = 0) -> StoredRoom | None:
        async def read(c: Any) -> StoredRoom | None:
            row = await c.fetchrow(
                "SELECT id, kind, rules, created, options FROM rooms WHERE id = $1", room_id
            )
            if row is None:
                return None
            room = RoomRow(row[0], row[1], json.loads(row[2]), row[3], json.loads(row[4]))
            seats = tuple(
                SeatRow(s[0], s[1], s[2], s[3])
                for s in await c.fetch(
                    "SELECT seat, identity_hash, name, bot FROM seats WHERE room = $1"
                    ' ORDER BY seat COLLATE "C"',
                    room_id,
                )
            )
            events = tuple(
                Event(e[0], e[1], json.loads(e[2]))
                for e in await c.fetch(
                    "SELECT seq, kind, payload FROM events WHERE room = $1 AND seq > $2"
                    " ORDER BY seq",
                    room_id,
                    after,
                )
            )
            clock = await c.fetchrow(
                "SELECT version, remaining_ms FROM clocks WHERE room = $1", room_id
            )
            return StoredRoom(room, seats, events, None if clock is None else Clock(*clock))

        return await self._read(read)

    async def games_of(self, identity_hash: str, limit: int = 20) -> list[GameRef]:
        rows = await self._read(
            lambda c: c.fetch(
                "SELECT r.id, s.seat, r.kind, r.created FROM seats s JOIN rooms r ON r.id = s.room"
                " WHERE s.identity_hash = $1 ORDER BY r.created DESC LIMIT $2",
                identity_hash,
                limit,
            )
        )
        return [GameRef(r[0], r[1], r[2], r[3]) for r in rows]

    async def listed_rooms(self, limit: int = 500) -> list[str]:
        # ->> gives SQL NULL for a missing key and for JSON null, like SQLite's json_extract.
        rows = await self._read(
            lambda c: c.fetch(
                "SELECT id FROM rooms WHERE (options::jsonb ->> 'visibility') = 'public'"
                " OR (rules::jsonb ->> 'move_timer_seconds') IS NOT NULL"
                " ORDER BY created DESC LIMIT $1",
                limit,
            )
        )
        return [r[0] for r in rows]

    async def save_clock(self, room_id: str, clock: Clock) -> None:
        await self._write(
            lambda c: c.execute(
                "INSERT INTO clocks (room, version, remaining_ms) VALUES ($1, $2, $3)"
                " ON CONFLICT (room) DO UPDATE SET version = excluded.version,"
                " remaining_ms = excluded.remaining_ms",
                room_id,
                clock.version,
                clock.remaining_ms,
            )
        )

    async def ensure_player(self, identity_hash: str, fresh: Player) -> Player:
        async def write(c: Any) -> Player:
            await c.execute(
                f"INSERT INTO players (identity_hash, {PLAYER_COLUMNS})"
                " VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)"
                " ON CONFLICT (identity_hash) DO NOTHING",
                identity_hash,
                *_player_values(fresh),
            )
            row = await c.fetchrow(
                f"SELECT {PLAYER_COLUMNS} FROM players WHERE identity_hash = $1", identity_hash
            )
            return _player(row)

        return await self._write(write)

    async def player(self, player_id: str) -> Player | None:
        row = await self._read(
            lambda c: c.fetchrow(f"SELECT {PLAYER_COLUMNS} FROM players WHERE id = $1", player_id)
        )
        return None if row is None else _player(row)

    async def rename_player(self, player_id: str, name: str) -> None:
        await self._write(
            lambda c: c.execute("UPDATE players SET name = $1 WHERE id = $2", name, player_id)
        )

    async def leaderboard(self, limit: int = 50) -> list[Player]:
        rows = await self._read(
            lambda c: c.fetch(
                f"SELECT {PLAYER_COLUMNS} FROM players WHERE rated_matches > 0"
                ' ORDER BY rating DESC, id COLLATE "C" LIMIT $1',
                limit,
            )
        )
        return [_player(r) for r in rows]

    async def results_of(self, player_id: str) -> list[ResultRow]:
        rows = await self._read(
            lambda c: c.fetch(
                f"SELECT {RESULT_COLUMNS} FROM results WHERE player = $1"
                ' ORDER BY t, room COLLATE "C"',
                player_id,
            )
        )
        return [_result(r) for r in rows]

    async def acquire_lease(self, room_id: str, holder: str, ttl_s: float) -> bool:
        # One statement: the upsert's WHERE lets only a free, expired or own lease change
        # hands (a concurrent upsert waits for the row lock and then sees the winner).
        row = await self._write(
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
        await self._write(
            lambda c: c.execute(
                "DELETE FROM leases WHERE room = $1 AND holder = $2", room_id, holder
            )
        )

    async def add_chat(self, room_id: str, line: ChatLine, keep: int) -> int:
        async def write(c: Any) -> int:
            # Lock the room's row against other chat writers only (a move's insert into
            # events takes FOR KEY SHARE, which this lock lets through).
            await c.execute("SELECT 1 FROM rooms WHERE id = $1 FOR NO KEY UPDATE", room_id)
            seq: int = await c.fetchval(
                "SELECT COALESCE(MAX(seq), 0) + 1 FROM chat WHERE room = $1", room_id
            )
            await c.execute(
                f"INSERT INTO chat (room, {CHAT_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
                room_id,
                seq,
                line.t,
                line.seat,
                line.player,
                line.tag,
                line.text,
                line.phrase,
            )
            await c.execute("DELETE FROM chat WHERE room = $1 AND seq <= $2", room_id, seq - keep)
            return seq

        return await self._write(write)

    async def recent_chat(self, room_id: str, limit: int) -> list[ChatLine]:
        rows = await self._read(
            lambda c: c.fetch(
                f"SELECT {CHAT_COLUMNS} FROM chat WHERE room = $1 ORDER BY seq DESC LIMIT $2",
                room_id,
                limit,
            )
        )
        return [ChatLine(*r) for r in reversed(rows)]

    async def quick_enter(self, entry: QuickEntry, stale_after: float) -> QuickEntry | None:
        async def write(c: Any) -> QuickEntry | None:
            # One enter at a time (plain reads go on): two instances never take the same
            # waiting entry, and two people entering at once see each other.
            await c.execute("LOCK TABLE quick_queue IN EXCLUSIVE MODE")
            await c.execute("DELETE FROM quick_queue WHERE identity_hash = $1", entry.identity_hash)
            await _sweep_quick(c, 2 * stale_after)
            row = await c.fetchrow(
                f"DELETE FROM quick_queue WHERE identity_hash = (SELECT identity_hash"
                " FROM quick_queue WHERE room IS NULL AND rules = $1 AND player <> $2"
                f" AND confirmed > {NOW} - $3"
                ' ORDER BY since, identity_hash COLLATE "C" LIMIT 1)'
                f" RETURNING {QUICK_COLUMNS}",
                _json(entry.rules),
                entry.player,
                stale_after,
            )
            if row is None:
                await _put_quick(c, entry)
                return None
            return _quick(row)

        return await self._write(write)

    async def quick_save(self, entries: Sequence[QuickEntry], forget_before: float) -> None:
        async def write(c: Any) -> None:
            await c.execute(
                "DELETE FROM quick_queue WHERE room IS NOT NULL AND since < $1", forget_before
            )
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
        row = await self._read(
            lambda c: c.fetchrow(
                f"SELECT {QUICK_COLUMNS} FROM quick_queue WHERE identity_hash = $1"
                f" AND (room IS NOT NULL OR confirmed > {NOW} - $2)",
                identity_hash,
                stale_after,
            )
        )
        return None if row is None else _quick(row)

    async def quick_waiting(self, stale_after: float) -> int:
        count = await self._read(lambda c: c.fetchval(f"{COUNT_WAITING} - $1", stale_after))
        return int(count)


async def _sweep_quick(c: Any, unconfirmed_for: float) -> None:
    """Delete the waiting entries unconfirmed for ``unconfirmed_for`` seconds."""
    await c.execute(
        f"DELETE FROM quick_queue WHERE room IS NULL AND confirmed < {NOW} - $1",
        unconfirmed_for,
    )


def _quick(row: Sequence[Any]) -> QuickEntry:
    return QuickEntry(row[0], row[1], json.loads(row[2]), row[3], row[4], row[5])


async def _put_quick(c: Any, e: QuickEntry) -> None:
    await c.execute(
        f"INSERT INTO quick_queue ({QUICK_COLUMNS}, confirmed)"
        f" VALUES ($1, $2, $3, $4, $5, $6, {NOW})"
        " ON CONFLICT (identity_hash) DO UPDATE SET player = excluded.player,"
        " rules = excluded.rules, since = excluded.since, room = excluded.room,"
        " seat = excluded.seat, confirmed = excluded.confirmed",
        e.identity_hash,
        e.player,
        _json(e.rules),
        e.since,
        e.room,
        e.seat,
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


async def _write_outcome(c: Any, outcome: Outcome) -> None:
    if outcome.results:
        await c.executemany(
            f"INSERT INTO results ({RESULT_COLUMNS}) VALUES"
            " ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18)",
            [
                (
                    r.room, r.match_seq, r.player, r.seat, r.opponent, r.bot, r.rated, r.won,
                    r.rounds, r.gins, r.undercuts_scored, r.undercuts_suffered, r.points,
                    r.margin, r.forfeit, r.rating, r.rd, r.t,
                )
                for r in outcome.results
            ],
        )  # fmt: skip
    for p in outcome.players:
        await c.execute(
            "UPDATE players SET rating = $1, rd = $2, volatility = $3, rated_matches = $4"
            " WHERE id = $5",
            p.rating,
            p.rd,
            p.volatility,
            p.rated_matches,
            p.id,
        )
    for pid in outcome.abandons:
        await c.execute("UPDATE players SET abandons = abandons + 1 WHERE id = $1", pid)


def _json(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), sort_keys=True)


async def _insert_seat(c: Any, room_id: str, seat: SeatRow) -> None:
    await c.execute(
        "INSERT INTO seats (room, seat, identity_hash, name, bot) VALUES ($1, $2, $3, $4, $5)",
        room_id,
        seat.seat,
        seat.identity_hash,
        seat.name,
        seat.bot,
    )


async def _insert_events(c: Any, room_id: str, events: Sequence[Event]) -> None:
    if not events:
        return
    now = time.time()
    await c.executemany(
        "INSERT INTO events (room, seq, kind, payload, created) VALUES ($1, $2, $3, $4, $5)",
        [(room_id, e.seq, e.kind, _json(e.payload), now) for e in events],
    )
