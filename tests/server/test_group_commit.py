"""The SQLite store's group commit: concurrent writes share one transaction (one
fsync), each in a savepoint of its own; nobody is answered before the commit."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from ginrummy.server.store import Event, RoomRow, SeatRow, StoreConflict, StoreError
from ginrummy.server.store.sqlite import SQLiteStore


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[SQLiteStore]:
    s = SQLiteStore(tmp_path / "g.sqlite3")
    await s.open()
    yield s
    await s.close()


async def make_rooms(store: SQLiteStore, n: int) -> list[str]:
    ids = [f"r{i}" for i in range(n)]
    await asyncio.gather(
        *(
            store.create_room(RoomRow(r, "room", {}, 1.0), [SeatRow("one", None, "A")], [])
            for r in ids
        )
    )
    return ids


def event(seq: int, tag: str = "x") -> Event:
    return Event(seq, "action", {"seat": "one", "action": tag})


async def seqs(store: SQLiteStore, room: str) -> list[int]:
    loaded = await store.load_room(room)
    assert loaded is not None
    return [e.seq for e in loaded.events]


async def test_concurrent_writes_share_transactions(store: SQLiteStore) -> None:
    rooms = await make_rooms(store, 40)
    before = store.commits
    await asyncio.gather(*(store.append_events(r, [event(1)]) for r in rooms))
    assert 1 <= store.commits - before < len(rooms)
    for r in rooms:
        assert await seqs(store, r) == [1]


async def test_a_stream_of_writes_keeps_batching_while_a_commit_is_in_flight(
    store: SQLiteStore,
) -> None:
    rooms = await make_rooms(store, 10)
    before = store.commits

    async def play(room: str) -> None:
        for seq in range(1, 21):
            await store.append_events(room, [event(seq)])

    await asyncio.gather(*(play(r) for r in rooms))
    assert store.commits - before < 10 * 20  # batched, not one commit per write
    for r in rooms:
        assert await seqs(store, r) == list(range(1, 21))  # each room's order kept


async def test_a_conflict_fails_alone_and_its_batch_mates_are_durable(
    store: SQLiteStore, tmp_path: Path
) -> None:
    a, b, c = await make_rooms(store, 3)
    await store.append_events(b, [event(1, "first")])
    before = store.commits
    results = await asyncio.gather(
        store.append_events(a, [event(1)]),
        store.append_events(b, [event(1, "again"), event(2)]),  # (b, 1) is taken
        store.append_events(c, [event(1)]),
        return_exceptions=True,
    )
    assert store.commits - before == 1  # one transaction for the three
    assert results[0] is None and results[2] is None
    assert isinstance(results[1], StoreConflict)
    assert await seqs(store, b) == [1]  # neither of its two events was written
    loaded = await store.load_room(b)
    assert loaded is not None and loaded.events[0].payload["action"] == "first"
    other = sqlite3.connect(tmp_path / "g.sqlite3")  # committed: another connection sees it
    try:
        rows = other.execute("SELECT room, seq FROM events ORDER BY room, seq").fetchall()
    finally:
        other.close()
    assert rows == [(a, 1), (b, 1), (c, 1)]


class FailingCommit:
    """A connection whose COMMIT fails as a disk would."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db

    def execute(self, sql: str, *args: Any) -> sqlite3.Cursor:
        if sql == "COMMIT":
            raise sqlite3.OperationalError("disk I/O error")
        return self.db.execute(sql, *args)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.db, name)


async def test_a_failing_commit_fails_every_write_of_its_batch(store: SQLiteStore) -> None:
    a, b = await make_rooms(store, 2)
    real = store.driver._db
    assert real is not None
    store.driver._db = FailingCommit(real)  # type: ignore[assignment]
    results = await asyncio.gather(
        store.append_events(a, [event(1)]),
        store.append_events(b, [event(1)]),
        return_exceptions=True,
    )
    assert all(isinstance(r, StoreError) and "commit failed" in str(r) for r in results)
    store.driver._db = real
    assert not real.in_transaction
    assert await seqs(store, a) == [] and await seqs(store, b) == []  # none applied
    await store.append_events(a, [event(1)])  # the store works again afterwards
    assert await seqs(store, a) == [1]


async def test_callers_are_answered_only_after_the_commit(store: SQLiteStore) -> None:
    (a,) = await make_rooms(store, 1)
    seen: list[bool] = []
    real = store.driver._db
    assert real is not None

    class Watching(FailingCommit):
        def execute(self, sql: str, *args: Any) -> sqlite3.Cursor:
            if sql == "COMMIT":
                seen.append(write.done())  # the caller must still be waiting
            return self.db.execute(sql, *args)

    store.driver._db = Watching(real)  # type: ignore[assignment]
    write = asyncio.ensure_future(store.append_events(a, [event(1)]))
    await write
    store.driver._db = real
    assert seen == [False]


async def test_writes_fail_instead_of_waiting_when_the_store_thread_is_gone(
    tmp_path: Path,
) -> None:
    store = SQLiteStore(tmp_path / "gone.sqlite3")
    await store.open()
    (a,) = await make_rooms(store, 1)
    db = store.driver._db
    assert db is not None
    store.driver._executor.shutdown(wait=True)
    results = await asyncio.gather(
        store.append_events(a, [event(1)]),
        store.append_events(a, [event(2)]),
        return_exceptions=True,
    )
    assert all(isinstance(r, StoreError) and "lost" in str(r) for r in results)
    assert store.driver._flusher is None  # a later write starts a new flush
    db.close()
