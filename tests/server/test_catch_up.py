"""An instance catching up on moves written by another reads only the events it lacks,
reads nothing once it has them, takes a public move in from its notice without a read,
and writes no player for a plain move."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable

from ginrummy.engine import legal_actions
from ginrummy.server.pubsub.memory import MemoryBus
from ginrummy.server.room import Room, RoomManager, carried
from ginrummy.server.room.log import notice_of
from ginrummy.server.store import Event, Player, StoredRoom
from ginrummy.server.store.memory import MemoryStore

from .room.helpers import two_people


class CountingStore(MemoryStore):
    def __init__(self) -> None:
        super().__init__()
        self.events_read = 0
        self.loads = 0
        self.players_ensured = 0

    async def load_room(self, room_id: str, after: int = 0) -> StoredRoom | None:
        stored = await super().load_room(room_id, after)
        self.loads += 1
        self.events_read += 0 if stored is None else len(stored.events)
        return stored

    async def ensure_player(self, identity_hash: str, fresh: Player) -> Player:
        self.players_ensured += 1
        return await super().ensure_player(identity_hash, fresh)


async def play_one(room: Room) -> None:
    match = room.current.match
    assert match is not None and match.round is not None and match.turn is not None
    action = legal_actions(match.round)[0]
    await room.act(match.turn, room.current.version, str(action))


async def test_catch_up_reads_only_what_it_lacks() -> None:
    store = CountingStore()
    await store.open()
    a, b, room_a = await _rooms(store, MemoryBus(), MemoryBus())  # b hears nothing of a
    try:
        room_b = await b.get(room_a.id)
        assert room_b is not None and room_b.current.version == room_a.current.version
        for _ in range(3):
            await play_one(room_a)
        loads, read, ensured = store.loads, store.events_read, store.players_ensured
        assert await room_b.catch_up(room_a.current.version)
        assert room_b.current.version == room_a.current.version
        assert store.loads == loads + 1
        assert store.events_read == read + 3  # the three moves, not the whole log
        assert store.players_ensured == ensured  # plain moves: no player written
        # Read once: the room already has this version, so no second read.
        assert not await room_b.catch_up(room_a.current.version)
        assert store.loads == loads + 1
    finally:
        await a.close()
        await b.close()


async def _rooms(
    store: CountingStore, bus_a: MemoryBus, bus_b: MemoryBus
) -> tuple[RoomManager, RoomManager, Room]:
    """Two instances (one bus: each hears the other's notices) and a room made by one."""
    a = RoomManager(store, bus_a, 0.0, rng=random.Random(1))
    b = RoomManager(store, bus_b, 0.0, rng=random.Random(2))
    return a, b, await two_people(a)


async def _until(done: Callable[[], bool]) -> None:
    for _ in range(1000):
        if done():
            return
        await asyncio.sleep(0)
    raise AssertionError("the follower never took the notice in")


async def test_a_public_move_s_notice_carries_it_and_is_taken_in_without_a_read() -> None:
    """Two instances on one bus: the follower of the room on the other instance takes
    each move in from its notice (server/room/log.py, ``notice_of``), not from the log,
    and ends with the same snapshot as the writer."""
    store = CountingStore()
    await store.open()
    bus = MemoryBus()
    a, b, room_a = await _rooms(store, bus, bus)
    try:
        room_b = await b.get(room_a.id)
        assert room_b is not None
        loads = store.loads
        for _ in range(4):
            await play_one(room_a)
            await _until(lambda: room_b.current.version == room_a.current.version)
        assert store.loads == loads  # nothing read
        assert room_b.current == room_a.current
    finally:
        await a.close()
        await b.close()


async def test_a_carried_move_that_is_not_the_next_version_reads_the_log() -> None:
    """A notice missed before this one (the bus dropped it): the carried move does not
    follow the room's version, so the log is read for everything it lacks."""
    store = CountingStore()
    await store.open()
    a, b, room_a = await _rooms(store, MemoryBus(), MemoryBus())  # b hears nothing of a
    try:
        room_b = await b.get(room_a.id)
        assert room_b is not None
        for _ in range(2):
            await play_one(room_a)
        last = (await store.load_room(room_a.id, room_a.current.version - 1)).events[-1]
        loads = store.loads
        assert await room_b.catch_up(last.seq, last)
        assert store.loads == loads + 1 and room_b.current == room_a.current
    finally:
        await a.close()
        await b.close()


def test_only_a_public_move_rides_on_its_notice() -> None:
    draw = Event(7, "action", {"seat": "one", "action": "draw stock"})
    knock = Event(9, "action", {"seat": "two", "action": "knock 7h"})
    deal = Event(3, "deal", {"seat": None})
    assert notice_of(draw) == {
        "kind": "action",
        "version": 7,
        "seat": "one",
        "action": "draw stock",
    }
    assert carried(notice_of(draw)) == draw
    # A knock's card is laid face down: its notice does not name it, the log is read.
    assert notice_of(knock) == {"kind": "action", "version": 9, "seat": "two"}
    assert carried({**notice_of(knock), "action": "knock 7h"}) is None
    assert notice_of(deal) == {"kind": "deal", "version": 3, "seat": None}
    assert carried(notice_of(deal)) is None
    for bad in ({"kind": "action", "version": "7", "seat": "one", "action": "pass"},
                {"kind": "action", "version": 7, "seat": 1, "action": "pass"},
                {"kind": "action", "version": 7, "seat": "one", "action": "fly away"}):  # fmt: skip
        assert carried(bad) is None
