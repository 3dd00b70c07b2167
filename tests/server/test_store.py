"""Both stores keep the same promises: atomic writes, conflicts on races, ordered logs."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from ginrummy.server.store import Event, RoomRow, SeatRow, Store, StoreConflict, open_store


@pytest.fixture(params=["memory", "sqlite"])
async def store(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Store]:
    url = "memory://" if request.param == "memory" else f"sqlite:///{tmp_path / 's.sqlite3'}"
    s = open_store(url)
    await s.open()
    yield s
    await s.close()


async def test_rooms_seats_and_events_round_trip(store: Store) -> None:
    room = RoomRow("r1", "room", {"name": "standard"}, 1.0, {"spectators": True})
    await store.create_room(room, [SeatRow("one", "h1", "Ann")], [Event(1, "match", {"a": 1})])
    await store.claim_seat("r1", SeatRow("two", "h2", "Bob"), [Event(2, "deal", {"deck": "x"})])
    await store.append_events("r1", [Event(3, "action", {"seat": "one", "action": "pass"})])
    loaded = await store.load_room("r1")
    assert loaded is not None
    assert loaded.room == room
    assert [s.name for s in loaded.seats] == ["Ann", "Bob"]
    assert [e.seq for e in loaded.events] == [1, 2, 3]
    assert loaded.events[2].payload == {"seat": "one", "action": "pass"}
    assert await store.load_room("nope") is None
    assert [g.room for g in await store.games_of("h2")] == ["r1"]


async def test_races_are_conflicts_and_write_nothing(store: Store) -> None:
    await store.create_room(RoomRow("r1", "room", {}, 1.0), [SeatRow("one", "h1", "A")], [])
    await store.append_events("r1", [Event(1, "match", {})])
    with pytest.raises(StoreConflict):
        await store.append_events("r1", [Event(2, "deal", {}), Event(1, "deal", {})])
    with pytest.raises(StoreConflict):
        await store.claim_seat("r1", SeatRow("one", "h3", "C"), [Event(2, "deal", {})])
    loaded = await store.load_room("r1")
    assert loaded is not None
    assert [e.seq for e in loaded.events] == [1]
    assert [s.identity_hash for s in loaded.seats] == ["h1"]


async def test_identities(store: Store) -> None:
    assert not await store.has_identity("h")
    await store.add_identity("h")
    assert await store.has_identity("h")


def test_unknown_store_urls_are_refused() -> None:
    with pytest.raises(ValueError, match="unsupported"):
        open_store("mysql://x")
    with pytest.raises(ValueError, match="sqlite:///"):
        open_store("sqlite://")
