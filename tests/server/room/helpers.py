"""Rooms on a memory store and bus, with a hand-moved clock: no app, no socket."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from ginrummy.engine import Rules, legal_actions
from ginrummy.server.clock import ManualClock
from ginrummy.server.pubsub.memory import MemoryBus
from ginrummy.server.room import Room, RoomManager
from ginrummy.server.store import Store
from ginrummy.server.store.memory import MemoryStore


@asynccontextmanager
async def manager(store: Store | None = None, **changes: Any) -> AsyncIterator[RoomManager]:
    store = store or MemoryStore()
    await store.open()
    bus = changes.pop("bus", None) or MemoryBus()
    options: dict[str, Any] = {"rng": random.Random(3), "clock": ManualClock(1000.0), **changes}
    rooms = RoomManager(store, bus, 0.0, **options)
    try:
        yield rooms
    finally:
        await rooms.close()


async def two_people(rooms: RoomManager, **options: Any) -> Room:
    """A running match between two people (no socket yet)."""
    return await rooms.create(
        kind="room",
        rules=Rules(),
        creator_hash="h1",
        name="Ann",
        opponent_bot=None,
        spectators=True,
        opponent_name="Bob",
        opponent_hash="h2",
        options=options,
    )


async def waiting(rooms: RoomManager, creator: str = "h1") -> Room:
    """A private room waiting for its second player."""
    return await rooms.create(
        kind="room",
        rules=Rules(),
        creator_hash=creator,
        name="Ann",
        opponent_bot=None,
        spectators=True,
    )


async def play_one(room: Room) -> None:
    """The first legal action of the seat to move."""
    match = room.current.match
    assert match is not None and match.round is not None and match.turn is not None
    await room.act(match.turn, room.current.version, str(legal_actions(match.round)[0]))
