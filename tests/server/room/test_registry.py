"""The registry: rooms without sockets or work are unloaded after an idle time and read
back on demand; a bound on loaded rooms; a slow miss blocks no other room."""

from __future__ import annotations

import asyncio

import pytest

from ginrummy.engine import Seat
from ginrummy.server.pubsub.memory import MemoryBus
from ginrummy.server.room import RoomError
from ginrummy.server.settings import Settings
from ginrummy.server.store import Event, StoredRoom
from ginrummy.server.store.memory import MemoryStore

from ..chouette_table import open_table
from ..helpers import auth, client, create, identity
from .helpers import manager, play_one, two_people, waiting


async def _until(condition: object, seconds: float = 3.0) -> None:
    async with asyncio.timeout(seconds):
        while not condition():  # type: ignore[operator]
            await asyncio.sleep(0.01)


async def test_an_idle_room_is_unloaded_and_read_back_on_demand() -> None:
    async with manager(idle_s=0.2) as rooms:
        await rooms.start()
        room = await waiting(rooms)
        busy = await waiting(rooms, creator="h9")
        await busy.connect(Seat.ONE)  # a socket keeps it here
        await _until(lambda: room.id not in {r.id for r in rooms.loaded()})
        assert room.broken and room.follower is not None
        # Eviction cancels the follower; the task ends when the loop next runs it, so
        # wait for that rather than look in the same step (the sweep and this wait
        # can wake in one loop turn, the sweep first).
        await asyncio.wait([room.follower], timeout=3.0)
        assert room.follower.cancelled()
        assert busy in rooms.loaded()
        again = await rooms.get(room.id)
        assert again is not None and again is not room
        assert (again.current, again.seats, again.info()) == (room.current, room.seats, room.info())


async def test_a_room_with_work_due_stays_loaded() -> None:
    async with manager(idle_s=0.1) as rooms:
        await rooms.start()
        room = await two_people(rooms)  # nobody connected: both grace periods run
        assert room.work_due()
        await asyncio.sleep(0.4)
        assert room in rooms.loaded()


async def test_a_reloaded_room_is_the_room_that_was() -> None:
    async with manager() as rooms:
        room = await two_people(rooms)
        for _ in range(6):
            await play_one(room)
        rooms.evict(room, "test")
        again = await rooms.get(room.id)
        assert again is not None and again is not room
        assert again.current == room.current
        assert again.seats == room.seats and again.player_of == room.player_of
        await play_one(again)  # and it plays on
        assert again.current.version == room.current.version + 1


async def test_loaded_rooms_are_bounded_and_a_full_registry_says_busy() -> None:
    async with manager(max_rooms=2) as rooms:
        first = await waiting(rooms, "h1")
        second = await waiting(rooms, "h2")
        await rooms.get(first.id)  # used last: the second is the least recently used
        third = await waiting(rooms, "h3")
        assert {r.id for r in rooms.loaded()} == {first.id, third.id}
        assert second.broken
        for room in rooms.loaded():
            await room.connect(Seat.ONE)
        with pytest.raises(RoomError) as info:
            await rooms.get(second.id)
        assert info.value.code == "busy"
        with pytest.raises(RoomError):
            await waiting(rooms, "h4")
        assert len(rooms.loaded()) == 2


class SlowStore(MemoryStore):
    """``load_room`` of one id waits until let go; the other ids answer at once."""

    def __init__(self, slow_id: str) -> None:
        super().__init__()
        self.slow_id = slow_id
        self.go = asyncio.Event()
        self.reads: list[str] = []

    async def load_room(self, room_id: str, after: int = 0) -> StoredRoom | None:
        self.reads.append(room_id)
        if room_id == self.slow_id:
            await self.go.wait()
        return await super().load_room(room_id, after)


async def test_a_slow_miss_does_not_block_another_room() -> None:
    store = SlowStore("r_unknown")
    async with manager(store) as rooms:
        other = await waiting(rooms)
        rooms.evict(other, "test")  # in the store, not loaded
        misses = [asyncio.create_task(rooms.get("r_unknown")) for _ in range(2)]
        await asyncio.sleep(0.05)
        async with asyncio.timeout(1.0):
            found = await rooms.get(other.id)
        assert found is not None and found.id == other.id
        assert not any(m.done() for m in misses)
        store.go.set()
        assert await asyncio.gather(*misses) == [None, None]
        assert store.reads.count("r_unknown") == 1  # one read for both askers


def test_eviction_settings_come_from_the_environment() -> None:
    s = Settings.from_env({"GINRUMMY_ROOM_IDLE_S": "45", "GINRUMMY_MAX_ROOMS": "200"})
    assert (s.room_idle_s, s.max_rooms) == (45.0, 200)
    assert (Settings().room_idle_s, Settings().max_rooms) == (300.0, 5000)
    with pytest.raises(ValueError, match="GINRUMMY_MAX_ROOMS"):
        Settings.from_env({"GINRUMMY_MAX_ROOMS": "0"})
    with pytest.raises(ValueError, match="GINRUMMY_ROOM_IDLE_S"):
        Settings.from_env({"GINRUMMY_ROOM_IDLE_S": "soon"})


def test_the_app_passes_the_eviction_settings_to_its_rooms() -> None:
    with client(room_idle_s=12.0, max_rooms=7) as c:
        rooms = c.app.state.rooms  # type: ignore[attr-defined]
        assert (rooms.idle_s, rooms.max_rooms) == (12.0, 7)


async def test_moves_made_elsewhere_do_not_keep_a_room_loaded_here() -> None:
    """B follows a room that A plays (no socket of it on B): B catches up on every
    move but unloads the room once B itself has not used it for the idle time."""
    store, bus = MemoryStore(), MemoryBus()
    async with manager(store, bus=bus) as a, manager(store, bus=bus, idle_s=0.3) as b:
        await b.start()
        room_a = await two_people(a)
        room_b = await b.get(room_a.id)
        assert room_b is not None
        for _ in range(12):
            await play_one(room_a)
            await asyncio.sleep(0.05)
            if room_b.broken:
                break
        assert room_b.broken and room_a.id not in {r.id for r in b.loaded()}
        assert room_b.current.version > 2  # it did follow A's moves until then


@pytest.mark.parametrize("kind", ["room", "chouette"])
def test_either_kind_is_rebuilt_from_its_log_and_a_damaged_log_is_unavailable(kind: str) -> None:
    """One rebuild for every kind: the room of its kind, as it was; a log that does not
    fold answers ``unavailable`` and loads nothing."""
    with client() as c:
        if kind == "chouette":
            room_id, token = open_table(c, ["me", "bot:casual", "bot:casual"])
            path = f"/api/chouette/{room_id}"
        else:
            token = identity(c)
            room_id = create(c, token, kind="room", opponent="bot:casual")
            path = f"/api/rooms/{room_id}"
        rooms = c.app.state.rooms
        room = c.portal.call(rooms.get_any, room_id)
        c.portal.call(lambda: rooms.evict(room, "test"))
        again = c.portal.call(rooms.get_any, room_id)
        assert type(again) is type(room) and again is not room
        assert again.current.version >= room.current.version  # computers may play on
        assert c.get(path, headers=auth(token)).status_code == 200
        c.portal.call(lambda: rooms.evict(again, "test"))
        stored = c.portal.call(rooms.store.load_room, room_id)
        bad = Event(stored.events[-1].seq + 1, "bogus", {})
        c.portal.call(rooms.store.append_events, room_id, [bad])
        r = c.get(path, headers=auth(token))
        assert (r.status_code, r.json()["error"]["code"]) == (503, "unavailable")
        assert "damaged" in r.json()["error"]["message"]
        assert room_id not in {r.id for r in rooms.loaded()}
