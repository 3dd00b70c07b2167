"""The SQLite store (the default): one file, WAL journal, one writer thread.

The stdlib ``sqlite3`` driver is blocking, so every call runs on a single dedicated
thread that owns the connection; the event loop only awaits it. Writes are group
committed: the writes that arrive while a commit is in flight go together into the
next transaction, each in its own savepoint (a conflict undoes only its own write),
with one fsync for all (``synchronous=FULL``). No caller is answered before the
commit holding its write is durable: once ``append_events`` returns, the events
survive a crash of the process or the machine.

This module is only the connection: the calls are ``SqlStore``'s, the schema is
``schema.py``'s. Several processes may share the file (each a store): their clock
is the machine's.
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

from ginrummy.server.store import schema
from ginrummy.server.store.base import StoreConflict, StoreError
from ginrummy.server.store.dialect import SQLITE
from ginrummy.server.store.sql_store import SqlStore
from ginrummy.server.store.sqlite_tx import Write, in_savepoint
from ginrummy.server.store.work import Many, Op, Work, run

T = TypeVar("T")
log = logging.getLogger("ginrummy.server.store.sqlite")

__all__ = ["SQLiteDriver", "SQLiteStore"]


class SQLiteStore(SqlStore):
    """The SQL store on the SQLite file ``path``."""

    driver: SQLiteDriver

    def __init__(self, path: Path, now: Callable[[], float] = time.time) -> None:
        super().__init__(SQLiteDriver(path), now)
        self.path = path

    @property
    def commits(self) -> int:
        """Write transactions committed (a group commit counts once)."""
        return self.driver.commits


class SQLiteDriver:
    dialect = SQLITE

    def __init__(self, path: Path) -> None:
        self.path = path
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="sqlite")
        self._db: sqlite3.Connection | None = None
        self._pending: list[Write[Any]] = []  # writes waiting for the next commit
        self._flusher: asyncio.Task[None] | None = None
        self.commits = 0  # write transactions committed (a group commit counts once)

    async def read(self, work: Work[T], one: bool = False) -> T:
        """``work`` on the store's thread, at once (not in a group commit)."""
        return await self._run(lambda db: run(work, lambda op: _execute(db, op)))

    async def write(self, work: Work[T], one: bool = False) -> T:
        return await self._write(lambda db: run(work, lambda op: _execute(db, op)))

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

    async def open(self, now: float) -> None:
        def connect() -> None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
            try:
                db.execute("PRAGMA journal_mode=WAL")
                db.execute("PRAGMA synchronous=FULL")
                db.execute("PRAGMA foreign_keys=ON")
                db.execute("PRAGMA busy_timeout=5000")
                self._migrate(db, now)
            except BaseException:
                db.close()
                raise
            self._db = db

        try:
            await asyncio.get_running_loop().run_in_executor(self._executor, connect)
        except sqlite3.Error as exc:
            raise StoreError(f"SQLite at {self.path}: {exc}") from exc

    def _migrate(self, db: sqlite3.Connection, now: float) -> None:
        """Take the schema's pending steps in one write transaction: another process
        opening the file at once waits for it, then finds nothing to do. The version is
        also ``user_version``, where servers before ``schema_version`` read it (and
        refuse a file newer than they know)."""
        db.execute("BEGIN IMMEDIATE")
        try:
            has_table = db.execute(
                "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_version'"
            ).fetchone()
            if has_table:
                version = int(db.execute("SELECT version FROM schema_version").fetchone()[0])
            else:
                user_version = int(db.execute("PRAGMA user_version").fetchone()[0])
                version = schema.legacy_version(None, user_version)
            if version > schema.HEAD:
                raise StoreError(
                    f"{self.path} has schema version {version}; this server knows "
                    f"{schema.HEAD}. Upgrade the server."
                )
            for step in schema.pending(version):
                for statement in schema.statements(step, "sqlite", now):
                    db.execute(statement)
            if not has_table:
                db.execute("CREATE TABLE schema_version (version bigint NOT NULL)")
                db.execute("INSERT INTO schema_version VALUES (?)", (schema.HEAD,))
            elif version < schema.HEAD:
                db.execute("UPDATE schema_version SET version = ?", (schema.HEAD,))
            db.execute(f"PRAGMA user_version={schema.HEAD}")
            db.execute("COMMIT")
        except BaseException:
            if db.in_transaction:
                db.execute("ROLLBACK")
            raise

    async def close(self) -> None:
        if self._flusher is not None:
            await self._flusher  # answer the writes already asked for

        def disconnect() -> None:
            if self._db is not None:
                self._db.close()
                self._db = None

        await asyncio.get_running_loop().run_in_executor(self._executor, disconnect)
        self._executor.shutdown(wait=True)


def _execute(db: sqlite3.Connection, op: Op) -> Any:
    """``op``'s answer on the connection (see ``work.Statement``)."""
    if isinstance(op, Many):
        db.executemany(op.sql, op.rows)
        return None
    cursor = db.execute(op.sql, op.args)
    if op.want == "count":
        return cursor.rowcount
    return cursor.fetchone() if op.want == "row" else cursor.fetchall()
