"""The PostgreSQL store (``postgresql://user@host:5432/db``): several servers, one database.

The server talks to PostgreSQL through an asyncpg connection pool; each call is one
transaction, so it keeps the SQLite store's promises (write before tell, conflicts
on races, outcome rows with the match's last event). The calls are ``SqlStore``'s;
this module is the connection. ``open`` brings the schema to ``schema.HEAD`` first,
in one transaction under an advisory lock, so that instances starting together take
turns: the later ones find nothing to do.

When the database goes away every call fails promptly with ``StoreError`` (acquiring
a connection and each query have time limits) and the server answers "unavailable";
the pool replaces dead connections, so calls succeed again once it is back.

``?search_path=schema`` in the URL keeps the tables in that schema (it must exist).
Leases and the quick match compare the instances' times (``sql_store.py``): keep
their clocks synchronised (NTP).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any, TypeVar

import asyncpg  # type: ignore[import-untyped]

from ginrummy.server.store import schema
from ginrummy.server.store.base import StoreConflict, StoreError
from ginrummy.server.store.dialect import POSTGRESQL
from ginrummy.server.store.sql import numbered
from ginrummy.server.store.sql_store import SqlStore
from ginrummy.server.store.urls import postgres_parts, redacted
from ginrummy.server.store.work import Many, Op, Work, run_async

T = TypeVar("T")

CONNECT_TIMEOUT = 5.0  # seconds to open a connection
ACQUIRE_TIMEOUT = 5.0  # seconds to get a pooled connection, connecting included
COMMAND_TIMEOUT = 15.0  # seconds for one statement
MIGRATION_TIMEOUT = 120.0  # seconds to wait for another instance's upgrade
POOL_SIZE = 20  # per instance: three instances stay well within max_connections (100)
# What servers that migrated with Alembic find in alembic_version: a revision they do
# not know, so they refuse this database ("Upgrade the server") rather than use it.
ALEMBIC_FENCE = "ginrummy-schema-{version}"

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
    lock is on a connection of their own), so there is nothing to reset."""


class PostgresStore(SqlStore):
    """The SQL store on the PostgreSQL database ``url``."""

    driver: PostgresDriver

    def __init__(self, url: str, now: Callable[[], float] = time.time) -> None:
        super().__init__(PostgresDriver(url), now)

    @property
    def url(self) -> str:
        return self.driver.url

    @property
    def search_path(self) -> str | None:
        return self.driver.search_path


class PostgresDriver:
    dialect = POSTGRESQL

    def __init__(self, url: str) -> None:
        self.url, self.search_path = postgres_parts(url)
        self._where = redacted(self.url)
        self._pool: Any = None  # asyncpg.Pool once open

    async def open(self, now: float) -> None:
        settings = {"search_path": self.search_path} if self.search_path else {}
        try:
            conn = await asyncpg.connect(
                self.url, timeout=CONNECT_TIMEOUT, server_settings=settings
            )
        except _UNAVAILABLE as exc:
            raise StoreError(f"PostgreSQL at {self._where} is unavailable: {exc}") from exc
        try:
            await self._migrate(conn, now)
        except StoreError:
            raise
        except _UNAVAILABLE as exc:
            raise StoreError(f"PostgreSQL at {self._where}: migrations failed: {exc}") from exc
        finally:
            await conn.close()
        try:
            self._pool = await asyncpg.create_pool(self.url, **pool_options(self.search_path))
        except _UNAVAILABLE as exc:
            raise StoreError(f"PostgreSQL at {self._where} is unavailable: {exc}") from exc

    async def _migrate(self, conn: Any, now: float) -> None:
        """Take the schema's pending steps in one transaction, after any other
        instance's upgrade (a transaction-scoped advisory lock, on a connection of its
        own: pooled ones never hold one, see ``keep_session``)."""
        async with conn.transaction():
            await conn.execute(f"SET LOCAL lock_timeout = '{MIGRATION_TIMEOUT:g}s'")
            await conn.execute("SELECT pg_advisory_xact_lock($1)", schema.MIGRATION_LOCK)
            await conn.execute("SET LOCAL lock_timeout TO DEFAULT")
            tables = {
                r[0]
                for r in await conn.fetch(
                    "SELECT tablename FROM pg_tables WHERE schemaname = current_schema()"
                    " AND tablename IN ('schema_version', 'alembic_version')"
                )
            }
            if "schema_version" in tables:
                version = int(await conn.fetchval("SELECT version FROM schema_version"))
            else:
                revision = None
                if "alembic_version" in tables:
                    revision = await conn.fetchval("SELECT version_num FROM alembic_version")
                try:
                    version = schema.legacy_version(revision)
                except ValueError as exc:
                    raise StoreError(f"PostgreSQL at {self._where}: {exc}") from None
            if version > schema.HEAD:
                raise StoreError(
                    f"PostgreSQL at {self._where} has schema version {version}; this server"
                    f" knows {schema.HEAD}. Is the server older than the database?"
                    " Upgrade the server."
                )
            if version == schema.HEAD and "schema_version" in tables:
                return  # (a schema of the Alembic days at its last revision is marked below)
            for step in schema.pending(version):
                for statement in schema.statements(step, "postgresql", now):
                    await conn.execute(statement)
            await conn.execute(
                "CREATE TABLE IF NOT EXISTS schema_version (version bigint NOT NULL)"
            )
            await conn.execute("DELETE FROM schema_version")
            await conn.execute("INSERT INTO schema_version VALUES ($1)", schema.HEAD)
            await conn.execute(
                "CREATE TABLE IF NOT EXISTS alembic_version"
                " (version_num varchar(32) NOT NULL PRIMARY KEY)"
            )
            await conn.execute("DELETE FROM alembic_version")
            await conn.execute(
                "INSERT INTO alembic_version VALUES ($1)",
                ALEMBIC_FENCE.format(version=schema.HEAD),
            )

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

    async def write(self, work: Work[T], one: bool = False) -> T:
        """``work`` in one read-write transaction; ``one``: a single statement, sent
        without BEGIN and COMMIT (a statement is a transaction of its own)."""
        async with self._connection() as conn:
            if one:
                return await run_async(work, lambda op: _execute(conn, op))
            async with conn.transaction():
                return await run_async(work, lambda op: _execute(conn, op))

    async def read(self, work: Work[T], one: bool = False) -> T:
        """``work`` in one read-only snapshot; ``one``: a single statement, one round
        trip rather than three (a connection is held for each round trip's wait on a
        busy event loop too, and a burst of reconnections, a rolling restart, is made
        of these reads: docs/operations.md, "Rolling restarts")."""
        async with self._connection() as conn:
            if one:
                return await run_async(work, lambda op: _execute(conn, op))
            async with conn.transaction(isolation="repeatable_read", readonly=True):
                return await run_async(work, lambda op: _execute(conn, op))


async def _execute(conn: Any, op: Op) -> Any:
    """``op``'s answer on the connection (see ``work.Statement``)."""
    if isinstance(op, Many):
        if op.rows:
            await conn.executemany(numbered(op.sql), op.rows)
        return None
    if op.want == "row":
        return await conn.fetchrow(numbered(op.sql), *op.args)
    if op.want == "rows":
        return list(await conn.fetch(numbered(op.sql), *op.args))
    status: str = await conn.execute(numbered(op.sql), *op.args)
    last = status.rsplit(" ", 1)[-1]  # "INSERT 0 1", "UPDATE 2", "LOCK TABLE"
    return int(last) if last.isdigit() else 0
