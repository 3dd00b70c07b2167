"""A SQLite file from before public play (schema version 1) keeps working."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from ginrummy.server.store.sqlite import SCHEMA_VERSION

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
