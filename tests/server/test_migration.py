"""SQLite files of older schema versions keep working (upgraded in place)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from ginrummy.server.store import ChatLine, QuickEntry
from ginrummy.server.store.sqlite import SCHEMA, SCHEMA_VERSION, SQLiteStore
from ginrummy.server.store.sqlite_schema import CHAT_AND_QUEUE

from .helpers import auth, client, create, identity

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
    assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    assert {"players", "results", "clocks", "leases", "chat", "quick_queue"} <= tables
    db.close()
    with client(url) as c:  # listed public rooms come back at start
        assert c.get("/api/lobby").json()["tables"][0]["room"] == room


V4_QUEUE = """
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
    assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 7
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
    assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    db.close()
