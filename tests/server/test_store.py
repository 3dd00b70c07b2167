"""Every store (memory, SQLite, PostgreSQL) keeps the same promises: atomic writes,
conflicts on races, ordered logs."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import replace
from pathlib import Path

import pytest

from ginrummy.server.store import (
    Clock,
    Event,
    Outcome,
    Player,
    ResultRow,
    RoomRow,
    SeatRow,
    Store,
    StoreConflict,
    open_store,
)

from .test_postgres import fresh_schema


@pytest.fixture(params=["memory", "sqlite", "postgres"])
async def store(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Store]:
    if request.param == "postgres":  # a schema of its own on the machine's PostgreSQL
        with fresh_schema() as url:
            s = open_store(url)
            await s.open()
            yield s
            await s.close()
        return
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


async def test_players_results_and_clocks(store: Store) -> None:
    ann = await store.ensure_player("h1", Player("p_ann0000000", "Ann", created=1.0))
    again = await store.ensure_player("h1", Player("p_other00000", "Other"))
    assert again == ann
    bob = await store.ensure_player("h2", Player("p_bob0000000", "Bob"))
    await store.rename_player(bob.id, "Bobby")
    assert (await store.player(bob.id)) == Player("p_bob0000000", "Bobby")
    assert await store.player("p_nobody") is None
    assert await store.leaderboard() == []
    room = RoomRow("r1", "room", {"move_timer_seconds": 30}, 1.0, {"visibility": "public"})
    await store.create_room(room, [SeatRow("one", "h1", "Ann")], [Event(1, "match", {})])
    await store.create_room(RoomRow("r2", "solo", {}, 2.0), [], [])
    assert await store.listed_rooms() == ["r1"]
    row = ResultRow(
        room="r1", match_seq=1, player=ann.id, seat="one", opponent=bob.id, bot=None,
        rated=True, won=True, rounds=3, gins=1, undercuts_scored=0, undercuts_suffered=1,
        points=60, margin=25, forfeit=None, rating=1662.3, rd=290.3, t=5.0,
    )  # fmt: skip
    rated = replace(ann, rating=1662.3, rd=290.3, volatility=0.06, rated_matches=1)
    outcome = Outcome((row,), (rated,), (bob.id,))
    await store.append_events("r1", [Event(2, "forfeit", {})], outcome)
    assert await store.results_of(ann.id) == [row]
    assert await store.results_of(bob.id) == []
    assert [p.id for p in await store.leaderboard()] == [ann.id]
    assert (await store.player(ann.id)) == rated
    bob_now = await store.player(bob.id)
    assert bob_now is not None and bob_now.abandons == 1
    await store.save_clock("r1", Clock(2, 12_000))
    await store.save_clock("r1", Clock(2, 11_000))
    loaded = await store.load_room("r1")
    assert loaded is not None and loaded.clock == Clock(2, 11_000)
