"""Every store (memory, SQLite, PostgreSQL) keeps a tournament's log like a room's:
ordered, atomic appends, a conflict when two writers take the same seq."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import pytest

from ginrummy.server.store import Event, Store, StoreConflict, TournamentRow

from . import test_store

store = test_store.store  # the same fixture
clock = test_store.clock  # which it takes


def _row(tid: str, created: float, public: bool = True) -> TournamentRow:
    return TournamentRow(tid, f"Cup {tid}", "open", public, created)


async def test_a_log_round_trips_with_its_identities(store: Store) -> None:
    await store.create_tournament(
        _row("t1", 1.0), [Event(1, "created", {"creator": "p_a"})], {"p_a": "ha"}
    )
    await store.append_tournament("t1", [Event(2, "joined", {"id": "p_b"})], "open", {"p_b": "hb"})
    await store.append_tournament("t1", [Event(3, "started", {}), Event(4, "x", {})], "running")
    loaded = await store.load_tournament("t1")
    assert loaded is not None
    assert loaded.row == TournamentRow("t1", "Cup t1", "running", True, 1.0)
    assert [(e.seq, e.kind) for e in loaded.events] == [
        (1, "created"), (2, "joined"), (3, "started"), (4, "x"),
    ]  # fmt: skip
    assert loaded.events[1].payload == {"id": "p_b"}
    assert dict(loaded.identities) == {"p_a": "ha", "p_b": "hb"}
    assert await store.load_tournament("nope") is None


async def test_a_load_after_a_seq_holds_only_the_newer_events(store: Store) -> None:
    """A reader that has folded the log up to ``after`` reads only what came since
    (the tournament server's catch-up), with the row and identities as they are now."""
    await store.create_tournament(
        _row("t1", 1.0), [Event(1, "created", {"creator": "p_a"})], {"p_a": "ha"}
    )
    await store.append_tournament("t1", [Event(2, "joined", {"id": "p_b"})], "open", {"p_b": "hb"})
    await store.append_tournament("t1", [Event(3, "started", {})], "running")
    newer = await store.load_tournament("t1", after=1)
    assert newer is not None
    assert [e.seq for e in newer.events] == [2, 3]
    assert newer.row.phase == "running"
    assert dict(newer.identities) == {"p_a": "ha", "p_b": "hb"}
    caught_up = await store.load_tournament("t1", after=3)
    assert caught_up is not None and caught_up.events == ()
    assert await store.load_tournament("nope", after=1) is None


async def test_the_same_seq_conflicts_and_writes_nothing(store: Store) -> None:
    await store.create_tournament(_row("t1", 1.0), [Event(1, "created", {})], {})
    with pytest.raises(StoreConflict):
        await store.create_tournament(_row("t1", 2.0), [Event(1, "created", {})], {})
    await store.append_tournament("t1", [Event(2, "joined", {"n": 1})], "open")
    with pytest.raises(StoreConflict):  # the second writer of seq 2 loses, its seq 3 too
        await store.append_tournament(
            "t1", [Event(2, "joined", {"n": 2}), Event(3, "x", {})], "running", {"p": "h"}
        )
    loaded = await store.load_tournament("t1")
    assert loaded is not None
    assert [e.payload for e in loaded.events] == [{}, {"n": 1}]
    assert loaded.row.phase == "open" and dict(loaded.identities) == {}
    with pytest.raises(StoreConflict):
        await store.append_tournament("missing", [Event(1, "created", {})], "open")


async def test_two_writers_at_once_one_wins(store: Store) -> None:
    await store.create_tournament(_row("t1", 1.0), [Event(1, "created", {})], {})
    results = await asyncio.gather(
        *(store.append_tournament("t1", [Event(2, "w", {"by": i})], "open") for i in range(2)),
        return_exceptions=True,
    )
    assert sum(isinstance(r, StoreConflict) for r in results) == 1
    loaded = await store.load_tournament("t1")
    assert loaded is not None and len(loaded.events) == 2


async def test_live_tournaments_are_open_or_running_newest_first(store: Store) -> None:
    for tid, created in (("a", 1.0), ("b", 3.0), ("c", 2.0), ("d", 4.0)):
        await store.create_tournament(
            _row(tid, created, public=tid != "c"), [Event(1, "created", {})], {}
        )
    await store.append_tournament("b", [Event(2, "started", {})], "running")
    await store.append_tournament("d", [Event(2, "finished", {})], "finished")
    assert [t.id for t in await store.live_tournaments()] == ["b", "c", "a"]
    assert [t.public for t in await store.live_tournaments(limit=2)] == [True, False]


async def test_a_players_tournaments_are_those_they_joined_newest_first(store: Store) -> None:
    for tid, created, people in (("a", 1.0, {"p_a": "ha"}), ("b", 3.0, {}), ("c", 2.0, {})):
        await store.create_tournament(_row(tid, created), [Event(1, "created", {})], people)
    await store.append_tournament("b", [Event(2, "joined", {})], "open", {"p_a": "ha"})
    await store.append_tournament("c", [Event(2, "finished", {})], "finished", {"p_b": "hb"})
    assert [t.id for t in await store.player_tournaments("p_a")] == ["b", "a"]
    assert [t.id for t in await store.player_tournaments("p_a", limit=1)] == ["b"]
    assert [(t.id, t.phase) for t in await store.player_tournaments("p_b")] == [("c", "finished")]
    assert await store.player_tournaments("p_c") == []


async def test_a_lease_of_a_tournament_is_exclusive(store: Store) -> None:
    await store.create_tournament(_row("t1", 1.0), [Event(1, "created", {})], {})
    assert await store.acquire_lease("t:t1", "i_one", 30.0)
    assert not await store.acquire_lease("t:t1", "i_two", 30.0)
    await store.release_lease("t:t1", "i_one")
    assert await store.acquire_lease("t:t1", "i_two", 30.0)


async def test_a_version_5_sqlite_file_keeps_its_leases_of_rooms(tmp_path: Path) -> None:
    from ginrummy.server.store.sqlite import SQLiteStore

    from .old_schemas import SQLITE_BASE, SQLITE_CHAT_AND_QUEUE

    path = tmp_path / "v5.sqlite3"
    db = sqlite3.connect(path)
    chat_of_v5 = SQLITE_CHAT_AND_QUEUE.replace("    channel TEXT NOT NULL DEFAULT '',\n", "")
    db.executescript(SQLITE_BASE + chat_of_v5 + "PRAGMA user_version=5;")
    db.execute("INSERT INTO rooms VALUES ('r1', 'room', '{}', 1.0, '{}')")
    db.execute("INSERT INTO leases VALUES ('r1', 'i_old', 9e12)")  # held far ahead
    db.commit()
    db.close()
    opened = SQLiteStore(path)
    await opened.open()
    try:
        assert not await opened.acquire_lease("r1", "i_new", 30.0)  # still the old holder's
        assert await opened.acquire_lease("t:cup", "i_new", 30.0)  # no room of that name
    finally:
        await opened.close()
