"""Databases written before keep working: SQLite files of every older version and
PostgreSQL schemas of Alembic's days are brought forward by the one schema history,
with nothing lost (old schemas: ``old_schemas.py``)."""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path

import pytest

from ginrummy.server.store import (
    ChatLine,
    Clock,
    Event,
    Follow,
    Player,
    QuickEntry,
    RoomRow,
    SeatRow,
    Social,
    Store,
    StoreConflict,
    TournamentRow,
    open_store,
)
from ginrummy.server.store.schema import HEAD
from ginrummy.server.store.sqlite import SQLiteStore

from .helpers import auth, client, create, identity
from .old_schemas import SQLITE_BASE as SCHEMA
from .old_schemas import SQLITE_CHAT_AND_QUEUE as CHAT_AND_QUEUE
from .old_schemas import SQLITE_V7, postgres_statements
from .test_postgres import _query, fresh_schema

V1_SCHEMA = """
CREATE TABLE identities (token_hash TEXT PRIMARY KEY, created REAL NOT NULL);
CREATE TABLE rooms (id TEXT PRIMARY KEY, kind TEXT NOT NULL, rules TEXT NOT NULL,
    created REAL NOT NULL, options TEXT NOT NULL);
CREATE TABLE seats (room TEXT NOT NULL REFERENCES rooms(id), seat TEXT NOT NULL,
    identity_hash TEXT, name TEXT NOT NULL, bot TEXT, PRIMARY KEY (room, seat));
CREATE TABLE events (room TEXT NOT NULL REFERENCES rooms(id), seq INTEGER NOT NULL,
    kind TEXT NOT NULL, payload TEXT NOT NULL, created REAL NOT NULL,
    PRIMARY KEY (room, seq));
PRAGMA user_version=1;
"""


def test_a_version_1_file_is_upgraded_in_place(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    db = sqlite3.connect(path)
    db.executescript(V1_SCHEMA)
    db.close()
    url = f"sqlite:///{path}"
    with client(url) as c:
        token = identity(c)
        room = create(c, token, kind="room", visibility="public")
        me = c.get("/api/me", headers=auth(token)).json()
        assert me["player"]["rating"] == 1500
        assert [g["room"] for g in me["games"]] == [room]
    db = sqlite3.connect(path)
    assert db.execute("PRAGMA user_version").fetchone()[0] == HEAD
    tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    assert {"players", "results", "clocks", "leases", "chat", "quick_queue"} <= tables
    db.close()
    with client(url) as c:  # listed public rooms come back at start
        assert c.get("/api/lobby").json()["tables"][0]["room"] == room


V4_QUEUE = """
CREATE TABLE chat (room TEXT NOT NULL REFERENCES rooms(id), seq INTEGER NOT NULL,
    t REAL NOT NULL, seat TEXT, player TEXT NOT NULL, tag TEXT NOT NULL, text TEXT,
    phrase TEXT, PRIMARY KEY (room, seq));
CREATE TABLE quick_queue (identity_hash TEXT PRIMARY KEY, player TEXT NOT NULL,
    rules TEXT NOT NULL, since REAL NOT NULL, room TEXT, seat TEXT);
INSERT INTO quick_queue VALUES ('h_ann', 'p_ann', '{"target":100}', 1.0, NULL, NULL);
PRAGMA user_version=4;
"""


async def test_a_version_4_file_gets_confirmed_quick_entries(tmp_path: Path) -> None:
    path = tmp_path / "v4.sqlite3"
    db = sqlite3.connect(path)
    db.executescript(SCHEMA + V4_QUEUE)
    db.close()
    store = SQLiteStore(path)
    await store.open()
    try:  # the entry waiting at the upgrade counts as confirmed then
        assert await store.quick_entry("h_ann", 60.0) == QuickEntry(
            "h_ann", "p_ann", {"target": 100}, 1.0
        )
        assert await store.quick_confirm([], 60.0) == 1
    finally:
        await store.close()
    db = sqlite3.connect(path)
    assert db.execute("PRAGMA user_version").fetchone()[0] == HEAD == 11
    assert "confirmed" in {r[1] for r in db.execute("PRAGMA table_info(quick_queue)")}
    db.close()


V6_CHAT = """
INSERT INTO rooms VALUES ('r1', 'room', '{}', 1.0, '{}');
INSERT INTO chat VALUES ('r1', 1, 2.0, 'one', 'p_ann', 'Ann#abcd', 'hi', NULL);
PRAGMA user_version=6;
"""


async def test_a_version_6_file_gets_chat_channels(tmp_path: Path) -> None:
    path = tmp_path / "v6.sqlite3"
    db = sqlite3.connect(path)
    db.executescript(SCHEMA + CHAT_AND_QUEUE.replace("    channel TEXT NOT NULL DEFAULT '',\n", ""))
    db.executescript(V6_CHAT)
    assert "channel" not in {r[1] for r in db.execute("PRAGMA table_info(chat)")}
    db.close()
    store = SQLiteStore(path)
    await store.open()
    try:  # the old lines are the room's; a team's channel starts empty
        assert [line.text for line in await store.recent_chat("r1", 50)] == ["hi"]
        assert await store.recent_chat("r1", 50, "team:1") == []
        assert (
            await store.add_chat("r1", ChatLine(0, 3.0, "0", "p", "P#1", "go", None), 50, "team:1")
            == 2
        )
        assert [line.text for line in await store.recent_chat("r1", 50, "team:1")] == ["go"]
    finally:
        await store.close()
    db = sqlite3.connect(path)
    assert db.execute("PRAGMA user_version").fetchone()[0] == HEAD
    db.close()


# -- a database written by the code before the one schema history, whole ---------------

NOW = 1_700_000_000.0  # the clock of the stores that open the old databases
# Rows as the store of the commit before wrote them (the same literals serve SQLite and
# PostgreSQL: booleans were INTEGER in SQLite, boolean in PostgreSQL).
OLD_ROWS = (
    "INSERT INTO identities (token_hash, created) VALUES ('h1', 1.0), ('h2', 1.0)",
    "INSERT INTO rooms (id, kind, rules, created, options) VALUES ('r1', 'room',"
    ' \'{"move_timer_seconds":30,"name":"standard"}\', 1.0, \'{"visibility":"public"}\')',
    "INSERT INTO seats (room, seat, identity_hash, name, bot) VALUES"
    " ('r1', 'one', 'h1', 'Ann', NULL), ('r1', 'two', 'h2', 'Bob', NULL)",
    "INSERT INTO events (room, seq, kind, payload, created) VALUES"
    " ('r1', 1, 'match', '{\"a\":1}', 1.5), ('r1', 2, 'deal', '{\"deck\":\"x\"}', 1.6)",
    "INSERT INTO players (id, identity_hash, name, rating, rd, volatility, rated_matches,"
    " abandons, created) VALUES ('p_ann0000000', 'h1', 'Ann', 1600.5, 200.0, 0.06, 1, 0, 1.0),"
    " ('p_bob0000000', 'h2', 'Bob', 1399.5, 200.0, 0.06, 1, 1, 1.0)",
    "INSERT INTO results (room, match_seq, player, seat, opponent, bot, rated, won, rounds,"
    " gins, undercuts_scored, undercuts_suffered, points, margin, forfeit, rating, rd, t)"
    " VALUES ('r1', 1, 'p_ann0000000', 'one', 'p_bob0000000', NULL, true, true, 3, 1, 0, 1,"
    " 60, 25, NULL, 1600.5, 200.0, 5.0)",
    "INSERT INTO clocks (room, version, remaining_ms) VALUES ('r1', 2, 11000)",
    "INSERT INTO chat (room, seq, t, seat, player, tag, text, phrase, channel) VALUES"
    " ('r1', 1, 2.0, 'one', 'p_ann0000000', 'Ann#abcd', 'hi', NULL, ''),"
    " ('r1', 2, 2.5, 'one', 'p_ann0000000', 'Ann#abcd', 'psst', NULL, 'team:1')",
    "INSERT INTO quick_queue (identity_hash, player, rules, since, room, seat, confirmed)"
    f" VALUES ('h3', 'p_cid0000000', '{{\"target\":100}}', 4.0, NULL, NULL, {NOW - 1})",
    "INSERT INTO tournaments (id, name, phase, public, created) VALUES"
    " ('t1', 'Cup', 'open', true, 3.0)",
    "INSERT INTO tournament_events (tournament, seq, kind, payload, created) VALUES"
    " ('t1', 1, 'created', '{\"size\":4}', 3.0)",
    "INSERT INTO tournament_identities (tournament, player, identity_hash) VALUES"
    " ('t1', 'p_ann0000000', 'h1')",
)


async def _reads_back_everything(store: Store) -> None:
    """Every row of ``OLD_ROWS`` through the store, and the store writes on."""
    room = await store.load_room("r1")
    assert room is not None
    assert room.room == RoomRow(
        "r1", "room", {"move_timer_seconds": 30, "name": "standard"}, 1.0,
        {"visibility": "public"},
    )  # fmt: skip
    assert room.seats == (SeatRow("one", "h1", "Ann"), SeatRow("two", "h2", "Bob"))
    assert room.events == (Event(1, "match", {"a": 1}), Event(2, "deal", {"deck": "x"}))
    assert room.clock == Clock(2, 11_000)
    assert await store.listed_rooms() == ["r1"]
    assert [g.room for g in await store.games_of("h2")] == ["r1"]
    assert await store.has_identity("h1") and not await store.has_identity("h3")
    # every identity of before is a guest: its token is itself, it has no account
    assert await store.token_identity("h1") == "h1"
    assert await store.token_identity("h3") is None
    assert await store.account_of("h1") is None and await store.devices_of("h1") == []
    ann = Player("p_ann0000000", "Ann", 1600.5, 200.0, 0.06, 1, 0, 1.0)
    assert await store.known_player("h1", lambda: Player("p_new0000000", "New")) == ann
    # their ratings stay theirs, but the leaderboard lists accounts only (issue 22)
    assert await store.leaderboard() == []
    (result,) = await store.results_of("p_ann0000000")
    assert (result.rated, result.won, result.points, result.rating) == (True, True, 60, 1600.5)
    assert [line.text for line in await store.recent_chat("r1", 50)] == ["hi"]
    assert [line.text for line in await store.recent_chat("r1", 50, "team:1")] == ["psst"]
    cid = QuickEntry("h3", "p_cid0000000", {"target": 100}, 4.0)
    assert await store.quick_entry("h3", 60.0) == cid
    assert await store.quick_waiting(60.0) == 1
    cup = await store.load_tournament("t1")
    assert cup is not None
    assert cup.row == TournamentRow("t1", "Cup", "open", True, 3.0)
    assert cup.events == (Event(1, "created", {"size": 4}),)
    assert cup.identities == {"p_ann0000000": "h1"}
    assert [t.id for t in await store.live_tournaments()] == ["t1"]
    assert [t.id for t in await store.player_tournaments("p_ann0000000")] == ["t1"]
    assert not await store.acquire_lease("r1", "i_new", 30.0)  # still the old holder's
    assert await store.acquire_lease("r1", "i_old", 30.0)  # who renews it
    # and it writes on where the old store stopped
    await store.append_events("r1", [Event(3, "action", {"n": 3})])
    assert (
        await store.add_chat("r1", ChatLine(0, 6.0, "two", "p_bob0000000", "B#1", "yo", None), 50)
        == 3
    )
    with pytest.raises(StoreConflict):
        await store.append_events("r1", [Event(2, "action", {})])


async def test_a_version_7_sqlite_file_reads_back_whole(tmp_path: Path) -> None:
    path = tmp_path / "v7.sqlite3"
    db = sqlite3.connect(path)
    db.executescript(SQLITE_V7)
    for statement in OLD_ROWS:
        db.execute(statement)
    db.execute("INSERT INTO leases VALUES ('r1', 'i_old', ?)", (NOW + 3600,))
    db.commit()
    db.close()
    store = SQLiteStore(path, now=lambda: NOW)
    await store.open()
    try:
        await _reads_back_everything(store)
    finally:
        await store.close()
    db = sqlite3.connect(path)
    assert db.execute("SELECT version FROM schema_version").fetchall() == [(HEAD,)]
    assert db.execute("PRAGMA user_version").fetchone()[0] == HEAD  # old servers refuse it
    db.close()


@pytest.mark.system
async def test_an_alembic_0006_postgres_schema_reads_back_whole() -> None:
    with fresh_schema() as url:
        for statement in (*postgres_statements("0006"), *OLD_ROWS):
            _query(url, statement)
        # leases.expires was the database's time then
        _query(url, f"INSERT INTO leases VALUES ('r1', 'i_old', to_timestamp({NOW + 3600}))")
        store = open_store(url, now=lambda: NOW)
        await store.open()
        try:
            await _reads_back_everything(store)
        finally:
            await store.close()
        assert _query(url, "SELECT version FROM schema_version") == [(HEAD,)]
        # Servers of the Alembic days find a revision they do not know: they refuse.
        assert _query(url, "SELECT version_num FROM alembic_version") == [
            (f"ginrummy-schema-{HEAD}",)
        ]


# The lease statement of the servers of the Alembic days, on the database's clock.
OLD_ACQUIRE_LEASE = (
    "INSERT INTO leases (room, holder, expires)"
    " VALUES ('r1', '{holder}', now() + make_interval(secs => 10))"
    " ON CONFLICT (room) DO UPDATE SET holder = excluded.holder, expires = excluded.expires"
    " WHERE leases.expires < now() OR leases.holder = excluded.holder RETURNING holder"
)


@pytest.mark.system
async def test_old_and_new_postgres_servers_share_leases_in_a_rolling_restart() -> None:
    """A server of the Alembic days still running beside a new one (a rolling restart
    from that release): each respects the lease the other holds, the new one on its
    clock passed in (the machine's, as NTP keeps every instance's)."""
    with fresh_schema() as url:
        for statement in (*postgres_statements("0006"), *OLD_ROWS):
            _query(url, statement)
        store = open_store(url, now=time.time)
        await store.open()
        try:
            assert await store.acquire_lease("r1", "i_new", 10.0)
            assert _query(url, OLD_ACQUIRE_LEASE.format(holder="i_old")) == []  # held
            await store.release_lease("r1", "i_new")
            assert _query(url, OLD_ACQUIRE_LEASE.format(holder="i_old")) == [("i_old",)]
            assert not await store.acquire_lease("r1", "i_new", 10.0)  # the old one holds it
        finally:
            await store.close()


async def test_a_version_9_sqlite_file_gets_the_friends_tables(tmp_path: Path) -> None:
    path = tmp_path / "v9.sqlite3"
    store = SQLiteStore(path, now=lambda: NOW)
    await store.open()
    await store.close()
    db = sqlite3.connect(path)  # back to step 9 as a server of parts 1 and 3 left it
    for table in ("follows", "social_settings", "match_challenges", "whereabouts"):
        db.execute(f"DROP TABLE {table}")
    db.execute("DROP TABLE sign_in_code_failures")  # and step 11's
    db.execute("DROP INDEX sign_in_codes_by_identity")
    db.execute("UPDATE schema_version SET version = 9")
    db.execute("PRAGMA user_version = 9")
    db.commit()
    db.close()
    store = SQLiteStore(path, now=lambda: NOW)
    await store.open()
    try:
        assert await store.follows_of("p_ann") == []
        assert await store.follow(Follow("p_ann", "p_bob", NOW))
        assert await store.social("p_ann") == Social()
    finally:
        await store.close()
    db = sqlite3.connect(path)
    assert db.execute("SELECT version FROM schema_version").fetchall() == [(HEAD,)]
    assert db.execute("PRAGMA user_version").fetchone()[0] == HEAD == 11
    db.close()


async def test_a_version_10_sqlite_file_counts_code_failures(tmp_path: Path) -> None:
    path = tmp_path / "v10.sqlite3"
    store = SQLiteStore(path, now=lambda: NOW)
    await store.open()
    await store.close()
    db = sqlite3.connect(path)  # back to step 10 as the friends' server left it
    db.execute("DROP TABLE sign_in_code_failures")
    db.execute("DROP INDEX sign_in_codes_by_identity")
    db.execute("UPDATE schema_version SET version = 10")
    db.execute("PRAGMA user_version = 10")
    db.commit()
    db.close()
    store = SQLiteStore(path, now=lambda: NOW)
    await store.open()
    try:
        assert await store.count_code_failure(7) == 1
        assert await store.code_failures(7) == 1
    finally:
        await store.close()
    db = sqlite3.connect(path)
    assert db.execute("PRAGMA user_version").fetchone()[0] == HEAD == 11
    db.close()
