"""An instance catching up on moves written by another reads only the events it lacks,
reads nothing once it has them, and writes no player for a plain move."""

from __future__ import annotations

import random

from ginrummy.engine import Rules, legal_actions
from ginrummy.server.pubsub.memory import MemoryBus
from ginrummy.server.room import Room, RoomManager
from ginrummy.server.store import Player, StoredRoom
from ginrummy.server.store.memory import MemoryStore


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
    a = RoomManager(store, MemoryBus(), 0.0, rng=random.Random(1))
    b = RoomManager(store, MemoryBus(), 0.0, rng=random.Random(2))
    try:
        room_a = await a.create(
            kind="room",
            rules=Rules(),
            creator_hash="h1",
            name="Ann",
            opponent_bot=None,
            spectators=True,
            opponent_name="Bob",
            opponent_hash="h2",
        )
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
