"""What every loaded room is made of, whatever its game: a two-player ``Room`` or a
chouette room (``ginrummy.server.chouette``). Its presence on the instances, its duties
in time (``Duties``-like: timers, grace periods, lease, computer), its life in the
registry (touched, idle, unloaded, broken) and the store failure that breaks it.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Hashable, Iterable, Mapping, Sequence
from typing import Any, Generic, NoReturn, Protocol, TypeVar

from ginrummy.engine import Rules
from ginrummy.server.pubsub import Subscription
from ginrummy.server.room.chat import Chat
from ginrummy.server.room.context import RoomContext, room_topic
from ginrummy.server.room.errors import RoomError
from ginrummy.server.room.follower import follow
from ginrummy.server.room.lease import LeaseKeeper
from ginrummy.server.room.log import Versioned
from ginrummy.server.room.presence import PRESENCE_LIFETIME, Presence, key_label
from ginrummy.server.room.timers import Grace, MoveClock
from ginrummy.server.store import Clock as StoredClock
from ginrummy.server.store import Event, Player, RoomRow, StoredRoom, StoreError

log = logging.getLogger("ginrummy.server.room")


class DutyParts(Protocol):
    """A room's duties as the room's common part uses them (``duties.Duties``)."""

    move_clock: MoveClock
    graces: Grace
    lease: LeaseKeeper

    def update_grace(self) -> None: ...

    def work_due(self) -> bool: ...

    def tasks(self) -> Iterable[asyncio.Task[None] | None]: ...


D = TypeVar("D", bound=DutyParts)


class RoomBase(Generic[D]):
    """The common part of every loaded room; a subclass sets the attributes below in
    its ``__init__`` and gives ``current`` (its latest snapshot)."""

    duties: D

    def __init__(
        self, ctx: RoomContext, row: RoomRow, keys: Sequence[Hashable], settle_s: float
    ) -> None:
        """``keys``: the seats (or positions) presence counts; ``settle_s``: seconds to
        listen to other instances before any grace period."""
        self.ctx = ctx
        self.id = row.id
        self.kind = row.kind
        self.rules = Rules.from_dict(dict(row.rules))
        self.rules_data = self.rules.to_dict()  # as info frames carry them (copy to change)
        self.created = row.created
        self.spectators = bool(row.options.get("spectators", True))
        self.spectator_chat = bool(row.options.get("spectator_chat", False))
        self.lock = asyncio.Lock()
        self.broken = False
        self.last_used = time.monotonic()  # by this instance's sockets or requests: touch
        self.presence = Presence(self.id, ctx.instance_id, settle_s, keys)
        # What the room's people say: ``room.chat.say`` and ``room.chat.history``.
        self.chat = Chat(
            self.id, self.topic, ctx.store, ctx.bus, ctx.clock, self.spectator_chat, self.told
        )
        self.follower: asyncio.Task[None] | None = None
        self._followed: Subscription | None = None  # the follower's subscription

    @property
    def current(self) -> Versioned:
        raise NotImplementedError

    @property
    def status(self) -> str:
        """``waiting``, ``playing`` or done (``over``, ``settled``)."""
        raise NotImplementedError

    @property
    def listed(self) -> bool:
        """The lobby lists it (a public two-player room); kept loaded then."""
        return False

    def renamed(self, player: Player) -> None:
        """A player's new name or rating: the room shows it from now on."""
        raise NotImplementedError

    @property
    def topic(self) -> str:
        return room_topic(self.id)

    @property
    def watching(self) -> int:
        return self.presence.watching

    @property
    def has_sockets(self) -> bool:
        return self.presence.has_sockets

    def grace_remaining_ms(self, key: Hashable) -> int | None:
        """Time left of the grace period of a seat (or position; 0: over), None if none."""
        return self.duties.graces.remaining_ms(key)

    # --- in the registry ----------------------------------------------------------------

    def touch(self) -> None:
        """Used now (a request or a socket of this instance): not unloaded for a while."""
        self.last_used = time.monotonic()

    @property
    def idle(self) -> bool:
        """Nothing runs in it on this instance: no socket, no work due, no lease kept,
        no change under way (it may be unloaded)."""
        busy = self.has_sockets or self.duties.work_due() or not self.duties.lease.idle
        return not busy and not self.lock.locked()

    @property
    def lease_asked(self) -> bool:
        """This instance ever asked for the room's lease (it may hold it)."""
        return self.duties.lease.asked

    def clock_left(self) -> StoredClock | None:
        """The running move timer's time left, to save on an orderly stop."""
        return self.duties.move_clock.left()

    def follow(self) -> None:
        """Follow the room's notices while it is loaded, socket or not: the other
        instances' presence (an instance that loads it for the lobby or the lease runs
        its grace periods too) and what they write (it may hold the lease)."""
        sub = self._followed = self.ctx.bus.subscribe(self.topic)
        self.follower = asyncio.create_task(follow(self, sub))

    def told(self) -> bool:
        """The follower has taken in every chat line (and ``resync``) delivered to this
        instance: none waits in its queue (the follower takes one in as soon as it
        takes it from there)."""
        follower, sub = self.follower, self._followed
        if follower is None or follower.done() or sub is None:
            return False
        return sub.waiting("chat") == 0 and sub.waiting("resync") == 0

    def stop_tasks(self) -> list[asyncio.Task[None]]:
        """Cancel the duties' tasks and the follower (not the caller). The lease is not
        released: ``RoomManager`` does that."""
        current = asyncio.current_task()
        running = (*self.duties.tasks(), self.follower)
        tasks = [t for t in running if t is not None and t is not current]
        for task in tasks:
            task.cancel()
        if self._followed is not None and self.follower is not current:
            self._followed.close()  # a follower cancelled before it ran cannot close it
        return tasks

    def unload(self) -> None:
        """No longer the loaded copy (evicted): its tasks stop; a socket or request that
        still holds it sees ``broken`` and asks the registry again."""
        self.broken = True
        self.stop_tasks()

    def check_alive(self) -> None:
        if self.broken:
            raise RoomError("unavailable", "the room is being reloaded; try again")

    def fail(self, exc: StoreError) -> NoReturn:
        """A write failed: the store may or may not hold the events. Forget this room so
        the next request rebuilds it from the log, the only truth."""
        log.error("room %s: store write failed: %s", self.id, exc)
        self.break_off()
        raise RoomError("unavailable", "the game could not be saved; try again") from exc

    def break_off(self) -> None:
        self.broken = True
        self.ctx.owner.forget(self)

    # --- catching up with other instances ----------------------------------------------

    async def catch_up(self, version: int | None = None, move: Event | None = None) -> bool:
        """Take in events another server instance appended; True if the room moved on.
        With ``version``: none to read if the room has it by the time it holds the lock
        (another socket or the follower read it meanwhile). ``move``: the event of
        ``version`` as its notice carried it (``log.carried``): if it is the next
        version, it is taken in without reading the log; otherwise (a notice missed
        before it) the log is read."""
        async with self.lock:
            if version is not None and version <= self.current.version:
                return False
            if move is not None and not self.broken and move.seq == self.current.version + 1:
                taken = await self.take_carried(move)
                if taken is not None:
                    return taken
            return await self.catch_up_locked()

    async def take_carried(self, event: Event) -> bool | None:
        """Take in the next version's event as a notice carried it (True if the room
        moved on); None: this kind of room reads its log instead."""
        return None

    async def catch_up_locked(self) -> bool:
        if self.broken:
            return False
        try:
            stored = await self.ctx.store.load_room(self.id, after=self.current.version)
        except StoreError as exc:
            # Only a read failed: the room is as it was, behind the log at worst, and the
            # next notice, hello or resync reads again. Broken, it would be rebuilt from
            # its whole log by every socket of it: more reads for a store already too
            # slow (a burst of reconnections in a rolling restart).
            log.warning("room %s: cannot read its log: %s", self.id, exc)
            raise RoomError("unavailable", "the game cannot be read right now; try again") from exc
        return stored is not None and await self.take_in(stored)

    async def take_in(self, stored: StoredRoom) -> bool:
        """Fold what ``stored`` holds beyond the current snapshot, and settle it."""
        raise NotImplementedError

    async def load_players(self) -> None:
        """Read the seated people's players from the store."""
        raise NotImplementedError

    async def loaded(self, remaining_ms: int | None) -> None:
        """Rebuilt from the log (or new): follow the room, run its clocks (the move
        timer with the time it had left when the server stopped)."""
        raise NotImplementedError

    def damaged(self, exc: Exception) -> NoReturn:
        """Events written elsewhere do not replay: forget the room (rebuilt on demand)."""
        log.error("room %s: events written elsewhere do not replay: %s", self.id, exc)
        self.break_off()
        raise RoomError("unavailable", "this room's record is damaged") from None

    # --- sockets and presence -------------------------------------------------------

    async def connect(self, key: Hashable) -> None:
        """A socket of a seat (or position) opened on this instance."""
        self.touch()
        if self.presence.connect(key):
            log.info("room %s: seat %s connected", self.id, key_label(key))
            self.duties.update_grace()
            await self.came_back(key)
            await self.announce(key)

    async def came_back(self, key: Hashable) -> None:
        """The first socket of ``key`` on this instance opened (a chouette partner who
        was away is present again)."""

    async def disconnect(self, key: Hashable) -> None:
        self.touch()
        if self.presence.disconnect(key):
            log.info("room %s: seat %s disconnected", self.id, key_label(key))
            self.duties.update_grace()
            await self.announce(key)

    def presence_notice(
        self, seat: Hashable | None, *, renew: bool = False, gone: bool = False
    ) -> dict[str, Any]:
        """A presence notice with this instance's socket counts (zeros if ``gone``)."""
        ttl = PRESENCE_LIFETIME * self.ctx.tuning.presence_interval
        return self.presence.notice(self.current.version, seat, ttl, renew=renew, gone=gone)

    def take_presence(self, notice: Mapping[str, Any]) -> None:
        """Remember another instance's socket counts from a presence notice (every
        follower of the room calls this: taking one twice changes nothing)."""
        if self.presence.take(notice):
            self.duties.update_grace()

    async def announce(self, seat: Hashable | None) -> None:
        """Tell every instance this one's counts (``seat``: whose presence changed)."""
        await self.ctx.bus.publish(self.topic, self.presence_notice(seat))

    async def renew_presence(self) -> None:
        """The periodic step: tell this instance's counts, forget the unrenewed ones."""
        if self.has_sockets:
            await self.ctx.bus.publish(self.topic, self.presence_notice(None, renew=True))
        expired = self.presence.expire()
        self.duties.update_grace()  # also starts those held back while the room settled
        if expired:
            await self.announce(None)
