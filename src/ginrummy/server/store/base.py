"""The store interface: identities, rooms, seats and each room's append-only event log.

A room's state is never stored, only derived: replaying its events through the
engine rebuilds it exactly (DESIGN.md principle 4). The interface is narrow and async
so that SQLite, memory and (later) PostgreSQL implement the same few calls.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol


class StoreError(RuntimeError):
    """The store could not do what was asked (I/O, corrupt data)."""


class StoreConflict(StoreError):
    """A write lost a race: the seat is taken or the event sequence number exists."""


@dataclass(frozen=True, slots=True)
class RoomRow:
    id: str
    kind: str  # "solo" | "room"
    rules: Mapping[str, Any]  # Rules.to_dict()
    created: float  # Unix time
    options: Mapping[str, Any] = field(default_factory=dict)  # e.g. {"spectators": true}


@dataclass(frozen=True, slots=True)
class SeatRow:
    seat: str  # "one" | "two"
    identity_hash: str | None  # None for a computer seat
    name: str
    bot: str | None = None  # the computer level, or None for a person


@dataclass(frozen=True, slots=True)
class Event:
    """One entry of a room's log; ``seq`` counts from 1 and is the room's version."""

    seq: int
    kind: str  # "match" | "deal" | "action" | "ready" | "rematch"
    payload: Mapping[str, Any]


@dataclass(frozen=True, slots=True)
class StoredRoom:
    room: RoomRow
    seats: tuple[SeatRow, ...]
    events: tuple[Event, ...]


@dataclass(frozen=True, slots=True)
class GameRef:
    """A seat an identity holds: for "my games" lists."""

    room: str
    seat: str
    kind: str
    created: float


class Store(Protocol):
    async def open(self) -> None:
        """Connect and create the schema if needed."""

    async def close(self) -> None: ...

    async def add_identity(self, token_hash: str) -> None: ...

    async def has_identity(self, token_hash: str) -> bool: ...

    async def create_room(
        self, room: RoomRow, seats: Sequence[SeatRow], events: Sequence[Event]
    ) -> None:
        """Write a new room with its first seats and events in one transaction."""

    async def claim_seat(self, room_id: str, seat: SeatRow, events: Sequence[Event]) -> None:
        """Take a free seat and append ``events`` atomically; ``StoreConflict`` if taken."""

    async def append_events(self, room_id: str, events: Sequence[Event]) -> None:
        """Append to a room's log atomically; ``StoreConflict`` if a ``seq`` exists."""

    async def load_room(self, room_id: str) -> StoredRoom | None:
        """A room with its seats and its whole log in order, or None."""

    async def games_of(self, identity_hash: str, limit: int = 20) -> list[GameRef]:
        """The seats an identity holds, newest room first."""
