"""The PostgreSQL store: migrations, concurrent starts, conflicts, outages, a restart.

Runs against the machine's PostgreSQL (``DATABASE_URL``, default
postgresql://postgres@127.0.0.1:5432/test); with ``CI=true`` a missing server fails
the run instead of skipping. Every test works in a schema of its own (``search_path``
in the store URL), dropped afterwards: other schemas and databases are not touched.
The behaviour tests shared with memory and SQLite are in test_store.py.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import socket
import sys
import time
import uuid
from collections.abc import AsyncIterator, Iterator
from urllib.parse import urlsplit

import pytest

from ginrummy.server.store import (
    Clock,
    Event,
    Player,
    RoomRow,
    SeatRow,
    Store,
    StoreConflict,
    StoreError,
    open_store,
)
from ginrummy.server.store.schema import HEAD

from .helpers import auth, client, create, hello, receive, simple_choice
from .old_schemas import postgres_statements
from .test_restart import _play_until_my_turn

# A server, a service or a bench: the system layer (tests/conftest.py).
pytestmark = pytest.mark.system

_env_url = os.environ.get("DATABASE_URL", "")
PG_URL = (
    _env_url
    if _env_url.startswith(("postgresql://", "postgres://"))
    else "postgresql://postgres@127.0.0.1:5432/test"
)
TABLES = {"identities", "rooms", "seats", "events", "players", "results", "clocks", "leases"}
TABLES |= {"chat", "quick_queue", "tournaments", "tournament_events", "tournament_identities"}
TABLES |= {"accounts", "devices", "passkeys", "challenges", "sign_in_codes"}
TABLES |= {"reports", "blocks", "sanctions", "audit"}
TABLES |= {"follows", "social_settings", "match_challenges", "whereabouts"}  # step 10
TABLES |= {"sign_in_code_failures"}  # step 11
INDEXES = {"seats_by_identity", "players_by_rating", "results_by_player"}
INDEXES |= {"devices_by_identity", "passkeys_by_identity"}
INDEXES |= {"follows_by_followee", "match_challenges_by_receiver"}  # step 9


def need_postgres() -> None:
    """Skip (or, with ``CI=true``, fail) when PostgreSQL is not reachable."""
    import psycopg

    try:
        with psycopg.connect(
            PG_URL.replace("postgres://", "postgresql://", 1), connect_timeout=2
        ) as db:
            db.execute("SELECT 1")
    except psycopg.Error as exc:
        if os.environ.get("CI") == "true":
            pytest.fail(f"PostgreSQL is required in CI and not reachable at {PG_URL}: {exc}")
        pytest.skip(f"no PostgreSQL at {PG_URL}")


def _with_search_path(url: str, schema: str) -> str:
    return f"{url}{'&' if '?' in url else '?'}search_path={schema}"


@contextlib.contextmanager
def fresh_schema() -> Iterator[str]:
    """A store URL on an empty schema of its own, dropped afterwards."""
    import psycopg

    need_postgres()
    schema = f"ginrummy_test_{uuid.uuid4().hex[:12]}"
    url = PG_URL.replace("postgres://", "postgresql://", 1)
    with psycopg.connect(url, autocommit=True) as db:
        db.execute(f'CREATE SCHEMA "{schema}"')
    try:
        yield _with_search_path(PG_URL, schema)
    finally:
        with psycopg.connect(url, autocommit=True) as db:
            db.execute(f'DROP SCHEMA "{schema}" CASCADE')


def _query(url: str, sql: str) -> list[tuple[object, ...]]:
    import psycopg

    schema = url.rsplit("search_path=", 1)[1]
    with psycopg.connect(PG_URL.replace("postgres://", "postgresql://", 1), autocommit=True) as db:
        db.execute(f'SET search_path TO "{schema}"')
        cursor = db.execute(sql.encode())
        return list(cursor.fetchall()) if cursor.description else []


@pytest.fixture
async def pg_url() -> AsyncIterator[str]:
    with fresh_schema() as url:
        yield url


@contextlib.asynccontextmanager
async def opened(url: str) -> AsyncIterator[Store]:
    store = open_store(url)
    await store.open()
    try:
        yield store
    finally:
        await store.close()


async def test_a_pooled_connection_goes_back_without_a_reset_statement() -> None:
    """One store call, one round trip: the pool's connections go back without asyncpg's
    reset statement (server/store/postgres.py, ``keep_session``), and a transaction a
    call left open is still rolled back."""
    need_postgres()
    import asyncpg

    from ginrummy.server.store.postgres import pool_options

    sent: list[str] = []
    pool = await asyncpg.create_pool(PG_URL, **{**pool_options(None), "max_size": 1})
    try:
        async with pool.acquire() as conn:
            conn.add_query_logger(lambda q: sent.append(q.query))
            assert await conn.fetchval("SELECT 1") == 1
        async with pool.acquire() as conn:  # the same connection (max_size 1)
            await conn.execute("BEGIN")  # left open, as a failed call could
        async with pool.acquire() as conn:
            assert not conn.is_in_transaction()
    finally:
        await pool.close()
    assert sent == ["SELECT 1", "BEGIN", "ROLLBACK"], sent


def test_urls_select_the_postgres_store() -> None:
    from ginrummy.server.store.postgres import PostgresStore

    assert isinstance(open_store("postgresql://u@h/db"), PostgresStore)
    store = open_store("postgres://u:pw@h:5433/db?search_path=s&sslmode=disable")
    assert isinstance(store, PostgresStore)
    assert store.search_path == "s"
    assert store.url == "postgresql://u:pw@h:5433/db?sslmode=disable"


def test_a_missing_driver_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delitem(sys.modules, "ginrummy.server.store.postgres", raising=False)
    monkeypatch.setitem(sys.modules, "asyncpg", None)
    with pytest.raises(ImportError, match=r"pip install 'ginrummy\[postgres\]'"):
        open_store("postgresql://u@h/db")


async def test_migrations_create_the_schema_and_are_idempotent(pg_url: str) -> None:
    tables_sql = "SELECT tablename FROM pg_tables WHERE schemaname = current_schema()"
    assert _query(pg_url, tables_sql) == []
    async with opened(pg_url) as store:
        await store.create_room(RoomRow("r1", "solo", {}, 1.0), [], [Event(1, "match", {})])
    tables = {r[0] for r in _query(pg_url, tables_sql)}
    # alembic_version fences off servers of the Alembic days (they refuse the database)
    assert tables == {*TABLES, "schema_version", "alembic_version"}
    indexes = {r[0] for r in _query(pg_url, "SELECT indexname FROM pg_indexes"
                                    " WHERE schemaname = current_schema()")}  # fmt: skip
    assert indexes >= INDEXES
    pk = _query(
        pg_url,
        "SELECT a.attname FROM pg_index i JOIN pg_attribute a ON a.attrelid = i.indrelid"
        " AND a.attnum = ANY(i.indkey) WHERE i.indrelid = 'events'::regclass AND i.indisprimary"
        " ORDER BY array_position(i.indkey, a.attnum)",
    )
    assert [r[0] for r in pk] == ["room", "seq"]
    assert _query(pg_url, "SELECT version FROM schema_version") == [(HEAD,)]
    async with opened(pg_url) as store:  # a second start changes nothing, keeps the data
        loaded = await store.load_room("r1")
        assert loaded is not None and [e.seq for e in loaded.events] == [1]
    assert _query(pg_url, "SELECT version FROM schema_version") == [(HEAD,)]


async def test_a_database_newer_than_the_server_is_refused(pg_url: str) -> None:
    async with opened(pg_url):
        pass
    _query(pg_url, "UPDATE schema_version SET version = 9999")
    with pytest.raises(StoreError, match="Upgrade the server"):
        await open_store(pg_url).open()


_OPEN_AND_CLOSE = """
import asyncio, sys
from ginrummy.server.store import open_store

async def main():
    store = open_store(sys.argv[1])
    print("ready", flush=True)
    sys.stdin.readline()
    await store.open()
    await store.close()

asyncio.run(main())
"""


async def test_servers_starting_together_migrate_once(pg_url: str) -> None:
    # Another server process and two stores in this one open the same empty schema at
    # the same moment (the process first loads its modules, then waits for "go").
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        "-c",
        _OPEN_AND_CLOSE,
        pg_url,
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
    )
    assert proc.stdin is not None and proc.stdout is not None
    assert await asyncio.wait_for(proc.stdout.readline(), 20) == b"ready\n"
    stores = [open_store(pg_url) for _ in range(2)]
    proc.stdin.write(b"go\n")
    await proc.stdin.drain()
    await asyncio.gather(*(s.open() for s in stores))
    assert await asyncio.wait_for(proc.wait(), 20) == 0
    try:
        await stores[0].create_room(RoomRow("r1", "room", {}, 1.0), [], [Event(1, "match", {})])
        for s in stores:
            loaded = await s.load_room("r1")
            assert loaded is not None and len(loaded.events) == 1
    finally:
        await asyncio.gather(*(s.close() for s in stores))
    assert _query(pg_url, "SELECT version FROM schema_version") == [(HEAD,)]


async def test_an_upgrade_waits_for_the_one_under_way(pg_url: str) -> None:
    import psycopg

    from ginrummy.server.store.schema import MIGRATION_LOCK

    # Another instance is migrating: it holds the lock.
    with psycopg.connect(PG_URL.replace("postgres://", "postgresql://", 1)) as other:
        other.execute("SELECT pg_advisory_xact_lock(%s)", (MIGRATION_LOCK,))
        store = open_store(pg_url)
        opening = asyncio.create_task(store.open())
        await asyncio.sleep(0.5)
        assert not opening.done()
        other.commit()
        await asyncio.wait_for(opening, 10)
    await store.close()


async def test_conflicts(pg_url: str) -> None:
    async with opened(pg_url) as a, opened(pg_url) as b:
        await a.create_room(RoomRow("r1", "room", {}, 1.0), [SeatRow("one", "h1", "A")], [])
        await a.append_events("r1", [Event(1, "match", {})])
        with pytest.raises(StoreConflict):  # another server instance wrote seq 1 already
            await b.append_events("r1", [Event(1, "deal", {"other": True})])
        with pytest.raises(StoreConflict):
            await b.claim_seat("r1", SeatRow("one", "h2", "B"), [Event(2, "deal", {})])
        with pytest.raises(StoreConflict):
            await b.create_room(RoomRow("r1", "solo", {}, 2.0), [], [])
        with pytest.raises(StoreConflict):  # no such room: a foreign key, as in SQLite
            await b.append_events("nope", [Event(1, "match", {})])
        await a.ensure_player("h1", Player("p_same000000", "A"))
        with pytest.raises(StoreConflict):  # a player id that exists
            await b.ensure_player("h2", Player("p_same000000", "B"))
        loaded = await b.load_room("r1")
        assert loaded is not None
        assert [(e.seq, e.kind) for e in loaded.events] == [(1, "match")]
        assert [s.identity_hash for s in loaded.seats] == ["h1"]
        # Two writers racing for the same next seq: exactly one wins.
        outcomes = await asyncio.gather(
            a.append_events("r1", [Event(2, "deal", {"by": "a"})]),
            b.append_events("r1", [Event(2, "deal", {"by": "b"})]),
            return_exceptions=True,
        )
        assert sorted(type(o).__name__ for o in outcomes) == ["NoneType", "StoreConflict"]


async def _every_call(store: Store) -> list[object]:
    """Call each method of the store once; return what each raised (or None)."""
    room = RoomRow("r9", "room", {}, 1.0)
    calls = [
        store.add_identity("h"),
        store.has_identity("h"),
        store.create_room(room, [], []),
        store.claim_seat("r9", SeatRow("two", "h", "B"), []),
        store.append_events("r9", [Event(1, "match", {})]),
        store.load_room("r9"),
        store.games_of("h"),
        store.listed_rooms(),
        store.save_clock("r9", Clock(1, 5)),
        store.ensure_player("h", Player("p_x000000000", "X")),
        store.player("p_x000000000"),
        store.rename_player("p_x000000000", "Y"),
        store.leaderboard(),
        store.results_of("p_x000000000"),
    ]
    results: list[object] = []
    for call in calls:
        try:
            await asyncio.wait_for(call, 10)
            results.append(None)
        except Exception as exc:
            results.append(exc)
    return results


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def test_no_database_is_a_prompt_store_error() -> None:
    url = f"postgresql://postgres@127.0.0.1:{_free_port()}/test"
    store = open_store(url)
    start = time.monotonic()
    with pytest.raises(StoreError, match="unavailable"):
        await store.open()
    results = await _every_call(store)
    assert all(isinstance(r, StoreError) for r in results), results
    assert time.monotonic() - start < 5
    await store.close()


class _Proxy:
    """A TCP relay to PostgreSQL that the test can cut (an outage) and bring back."""

    def __init__(self, host: str, port: int) -> None:
        self.target = (host, port)
        self.port = 0
        self._server: asyncio.Server | None = None
        self._writers: set[asyncio.StreamWriter] = set()
        self._tasks: set[asyncio.Task[None]] = set()

    async def start(self) -> None:
        self._server = await asyncio.start_server(self._handle, "127.0.0.1", self.port)
        self.port = self._server.sockets[0].getsockname()[1]

    async def stop(self) -> None:
        assert self._server is not None
        self._server.close()
        for w in self._writers:
            w.transport.abort()
        await self._server.wait_closed()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        self._writers.clear()

    async def _handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        up_reader, up_writer = await asyncio.open_connection(*self.target)
        self._writers |= {writer, up_writer}
        for src, dst in ((reader, up_writer), (up_reader, writer)):
            task = asyncio.create_task(self._pipe(src, dst))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    @staticmethod
    async def _pipe(src: asyncio.StreamReader, dst: asyncio.StreamWriter) -> None:
        try:
            while data := await src.read(65536):
                dst.write(data)
                await dst.drain()
        except (ConnectionError, OSError):
            pass
        finally:
            dst.transport.abort()


async def test_an_outage_fails_calls_promptly_and_the_store_recovers(pg_url: str) -> None:
    parts = urlsplit(pg_url)
    proxy = _Proxy(parts.hostname or "127.0.0.1", parts.port or 5432)
    await proxy.start()
    via_proxy = pg_url.replace(parts.netloc, f"{parts.username}@127.0.0.1:{proxy.port}")
    async with opened(via_proxy) as store:
        await store.create_room(RoomRow("r1", "room", {}, 1.0), [], [Event(1, "match", {})])
        await proxy.stop()  # the database goes away: every pooled connection dies
        start = time.monotonic()
        results = await _every_call(store)
        assert all(isinstance(r, StoreError) for r in results), results
        assert time.monotonic() - start < 5
        await proxy.start()  # it comes back on the same address
        await store.append_events("r1", [Event(2, "deal", {})])
        loaded = await store.load_room("r1")
        assert loaded is not None and [e.seq for e in loaded.events] == [1, 2]
        assert await store.listed_rooms() == []
    await proxy.stop()


def test_a_server_on_postgres_comes_back_with_the_same_view() -> None:
    with fresh_schema() as db:
        with client(db) as c:
            r = c.post("/api/identity", json={})
            token = r.json()["token"]
            room = create(c, token, kind="solo")
            with c.websocket_connect("/ws") as ws:
                _, view = hello(ws, room, token)
                before = _play_until_my_turn(ws, view, moves=4)
        with client(db) as c:
            info = c.get(f"/api/rooms/{room}", headers=auth(token)).json()
            assert info["your_seat"] == "one"
            assert info["version"] == before["version"]
            with c.websocket_connect("/ws") as ws:
                _, after = hello(ws, room, token)
                assert after["version"] == before["version"]
                assert after["view"] == before["view"]
                if after["view"]["legal_actions"]:
                    action = simple_choice(after["view"])
                    ws.send_json({"type": "act", "version": after["version"], "action": action})
                    msg = receive(ws)
                    assert msg["type"] == "event"
                    assert msg["version"] == after["version"] + 1


async def test_an_upgrade_from_0003_keeps_the_waiting_entries_live(pg_url: str) -> None:
    from ginrummy.server.store import QuickEntry

    # A schema as the release before Alembic's revision 0004 left it.
    for statement in postgres_statements("0003"):
        _query(pg_url, statement)
    _query(pg_url, "INSERT INTO quick_queue VALUES ('h_ann', 'p_ann', '{}', 1.0, NULL, NULL)")
    async with opened(pg_url) as store:  # upgraded: Ann counts as confirmed at the upgrade
        assert await store.quick_entry("h_ann", 60.0) == QuickEntry("h_ann", "p_ann", {}, 1.0)
        assert await store.quick_confirm([], 60.0) == 1
    assert _query(pg_url, "SELECT version FROM schema_version") == [(HEAD,)]


async def test_a_move_a_hello_and_the_leases_are_one_statement_each(pg_url: str) -> None:
    """What every move, hello and lease renewal costs: one statement, no BEGIN/COMMIT
    (asyncpg's first use of a statement on a connection may add type look-ups: the
    calls run once before they are counted)."""
    async with opened(pg_url) as store:
        await store.create_room(RoomRow("r1", "room", {}, 1.0), [], [Event(1, "match", {})])
        pool = store.driver._pool  # type: ignore[attr-defined]
        sent: list[str] = []
        async with pool.acquire() as conn:  # the pool's one connection (sequential calls)
            conn.add_query_logger(lambda q: sent.append(q.query.split()[0]))
        for seq in (2, 3):
            sent.clear()
            await store.append_events("r1", [Event(seq, "deal", {})])
            await store.load_room("r1", after=1)
            await store.acquire_lease("r1", "i_one", 30.0)
            await store.release_lease("r1", "i_one")
        assert sent == ["INSERT", "SELECT", "INSERT", "DELETE"], sent
