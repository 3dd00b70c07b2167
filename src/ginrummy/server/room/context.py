"""What every room of an instance shares: store, bus, clock, settings, counters, the
metrics, where heavy computer levels think, and the registry that owns the rooms (the
only way a room reaches it)."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar

from ginrummy.server.clock import Clock
from ginrummy.server.computer import Thinker
from ginrummy.server.metrics import Metrics
from ginrummy.server.pubsub import Bus
from ginrummy.server.room.log import Versioned
from ginrummy.server.store import Clock as StoredClock
from ginrummy.server.store import Event, Player, Store, StoredRoom

if TYPE_CHECKING:
    from ginrummy.server.room.room import Room


def room_topic(room_id: str) -> str:
    """The bus topic of a room's notices."""
    return f"room:{room_id}"


@dataclass(slots=True)
class Tuning:
    """Timings of the rooms (seconds); ``presence_interval`` may change while running."""

    bot_delay: float = 0.8
    grace_seconds: float = 60.0
    lease_ttl: float = 10.0
    lease_renew: float = 3.0
    presence_interval: float = 5.0
    seed_timeout: float = 0.0  # wait for people's seeds (0: their default seeds at once)


@dataclass(slots=True)
class Counters:
    computer_moves: int = 0  # computer moves this instance made (tried to write)
    timeouts: int = 0  # move timers that ran out here (forfeits tried)


class Loaded(Protocol):
    """A loaded room as the registry keeps it, of any kind (``room.base.RoomBase``). The
    registry loads, evicts and stops it by these."""

    @property
    def id(self) -> str: ...

    @property
    def kind(self) -> str: ...

    @property
    def status(self) -> str:
        """``waiting``, ``playing`` or done (``over``, ``settled``)."""

    @property
    def topic(self) -> str: ...

    @property
    def last_used(self) -> float: ...

    @property
    def broken(self) -> bool: ...

    @property
    def idle(self) -> bool: ...

    @property
    def listed(self) -> bool: ...

    @property
    def has_sockets(self) -> bool: ...

    @property
    def lease_asked(self) -> bool: ...

    @property
    def lock(self) -> asyncio.Lock:
        """Held while the room makes a change (decides, writes, tells)."""

    def touch(self) -> None: ...

    def unload(self) -> None: ...

    def renamed(self, player: Player) -> None:
        """A player's new name or rating: show it from now on."""

    async def renew_presence(self) -> None: ...

    def presence_notice(
        self, seat: Hashable | None, *, renew: bool = False, gone: bool = False
    ) -> dict[str, Any]: ...

    def clock_left(self) -> StoredClock | None: ...

    async def load_players(self) -> None:
        """Read the seated people's players from the store."""

    async def loaded(self, remaining_ms: int | None) -> None:
        """Follow the room and run its clocks (the move timer with ``remaining_ms``)."""

    def stop_tasks(self) -> list[asyncio.Task[None]]: ...


S = TypeVar("S", bound=Versioned)


@dataclass(frozen=True, slots=True)
class Rebuild(Generic[S]):
    """How a room of one kind is rebuilt from its stored log: ``replay`` folds its
    events to a snapshot (raising one of ``log.REPLAY_ERRORS`` if they do not fold),
    ``make`` builds the room on it (``settle``: seconds to listen to other instances
    before any grace period). The registry's ``kinds``, by room kind; the registry
    does the rest alike for every kind (players, adoption, ``loaded``)."""

    replay: Callable[[Sequence[Event]], S]
    make: Callable[[RoomContext, StoredRoom, S, float], Loaded]


class Owner(Protocol):
    """The registry as a room sees it."""

    def forget(self, room: Loaded) -> None:
        """Drop a broken room: the next request rebuilds it from the log."""

    async def room_changed(self, room: Room) -> None:
        """The room's state or audience changed (the lobby may list it)."""

    async def listing_changed(self) -> None:
        """What this instance's lobby lists changed without a write (a host came or
        left): its lobby sockets get the lobby again."""

    def player_changed(self, player: Player) -> None:
        """A player's new name or rating: every loaded room shows it."""

    def match_ended(self, room: Room) -> None:
        """A match of the room ended (written here or by another instance)."""

    async def player(self, identity_hash: str) -> Player:
        """The identity's player."""


@dataclass(frozen=True, slots=True)
class RoomContext:
    store: Store
    bus: Bus
    clock: Clock
    rng: random.Random
    instance_id: str
    owner: Owner
    tuning: Tuning = field(default_factory=Tuning)
    counters: Counters = field(default_factory=Counters)
    metrics: Metrics = field(default_factory=lambda: Metrics(on=False))
    # The instance drains for a restart (server/drain.py): it will be gone before any
    # grace period it could start ends, so it takes no lease for one.
    leaving: Callable[[], bool] = lambda: False
    # Where heavy computer levels think (server/thinking.py); None: in a thread like the rest.
    thinker: Thinker | None = None
