"""A room that knows it has no chat sends its history without a store read: one opened
here, or one whose history was read empty, until its follower hears of a line or a
resync. A line said anywhere still reaches every later history."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Sequence

import pytest

from ginrummy.server.pubsub import RESYNC
from ginrummy.server.pubsub.memory import MemoryBus
from ginrummy.server.room import RoomError, RoomManager
from ginrummy.server.store import ChatLine, Event, Player, RoomRow, SeatRow, StoreError
from ginrummy.server.store.memory import MemoryStore

from .room.helpers import two_people

ANN = Player("p_ann0000000", "Ann")


class CountingStore(MemoryStore):
    def __init__(self) -> None:
        super().__init__()
        self.chat_reads = 0
        self.refuse_rooms = False

    async def recent_chat(self, room_id: str, limit: int, channel: str = "") -> list[ChatLine]:
        self.chat_reads += 1
        return await super().recent_chat(room_id, limit, channel)

    async def create_room(
        self, room: RoomRow, seats: Sequence[SeatRow], events: Sequence[Event]
    ) -> None:
        if self.refuse_rooms:
            raise StoreError("the disk is full")
        await super().create_room(room, seats, events)


async def _two(bus_b: MemoryBus | None = None) -> tuple[CountingStore, RoomManager, RoomManager]:
    store = CountingStore()
    await store.open()
    bus = MemoryBus()
    a = RoomManager(store, bus, 0.0, rng=random.Random(1))
    b = RoomManager(store, bus_b or bus, 0.0, rng=random.Random(2))
    return store, a, b


async def test_a_room_opened_here_reads_no_history_until_a_line_is_said_elsewhere() -> None:
    store, a, b = await _two()
    try:
        room_a = await two_people(a)
        assert await room_a.chat.history() == [] and store.chat_reads == 0
        room_b = await b.get(room_a.id)
        assert room_b is not None
        await room_b.chat.say("one", ANN, "hi", None)  # its notice waits at a's follower
        assert [m["text"] for m in await room_a.chat.history()] == ["hi"]
        await asyncio.sleep(0.05)  # a's follower hears it
        assert [m["text"] for m in await room_a.chat.history()] == ["hi"]
        assert store.chat_reads == 2
    finally:
        await a.close()
        await b.close()


async def test_a_history_read_empty_is_known_until_a_resync() -> None:
    store, a, b = await _two(MemoryBus())  # b is never told of a's notices, nor a of b's
    try:
        room_a = await two_people(a)
        room_b = await b.get(room_a.id)
        assert room_b is not None
        assert await room_b.chat.history() == [] and store.chat_reads == 1  # loaded: read
        assert await room_b.chat.history() == [] and store.chat_reads == 1  # known now
        await room_a.chat.say("one", ANN, "hi", None)  # b is not told
        assert await room_a.chat.history() != [] and store.chat_reads == 2  # said here: read
        await b.bus.publish(room_b.topic, RESYNC)  # b's bus lost notices: read again
        await asyncio.sleep(0.05)
        assert [m["text"] for m in await room_b.chat.history()] == ["hi"]
    finally:
        await a.close()
        await b.close()


async def test_a_room_that_cannot_be_written_stops_following() -> None:
    store, a, _ = await _two()
    store.refuse_rooms = True
    try:
        with pytest.raises(RoomError):
            await two_people(a)
        await asyncio.sleep(0)
        assert a.bus.topics() == ()  # type: ignore[attr-defined]
    finally:
        await a.close()
