"""The table core: what every loaded room is and does, whatever its game (a two-player
``Room``, a chouette room of ``ginrummy.server.chouette``).

Its one write path (``run``: decide under the lock, write, take the change in, publish),
taking a seat, its history of snapshots, its presence on the instances, its duties in
time (``Duties``-like: timers, grace periods, lease, computer), its life in the registry
(touched, idle, unloaded, broken) and the store failure that breaks it. A kind gives what
differs: the state it decides on, what a written change does beyond the common effects
(``outcome``, ``written``), the notice of an event, and its seats.
"""

from __future__ import annotations

import asyncio
import logging
import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, NoReturn, Protocol, TypeVar

from ginrummy.engine import Rules
from ginrummy.server.logcontext import log_context
from ginrummy.server.pubsub import Subscription
from ginrummy.server.room import people
from ginrummy.server.room.chat import Chat
from ginrummy.server.room.context import RoomContext, room_topic
from ginrummy.server.room.errors import RoomError
from ginrummy.server.room.follower import follow
from ginrummy.server.room.lease import LeaseKeeper
from ginrummy.server.room.log import History, Versioned
from ginrummy.server.room.presence import PRESENCE_LIFETIME, Presence
from ginrummy.server.room.seats import SeatInfo, seat_of
from ginrummy.server.room.timers import Grace, MoveClock
from ginrummy.server.store import Clock as StoredClock
from ginrummy.server.store import (
    Event,
    Outcome,
    Player,
    RoomRow,
    SeatRow,
    StoreConflict,
    StoredRoom,
    StoreError,
)

log = logging.getLogger("ginrummy.server.room")


class DutyParts(Protocol):
    """A room's duties as the room's common part uses them (``duties.Duties``)."""

    move_clock: MoveClock
    graces: Grace
    lease: LeaseKeeper

    def rearm(self, remaining_ms: int | None = None) -> None: ...

    def update_grace(self) -> None: ...

    def work_due(self) -> bool: ...

    def tasks(self) -> Iterable[asyncio.Task[None] | None]: ...


S = TypeVar("S", bound=Versioned)
S_co = TypeVar("S_co", bound=Versioned, covariant=True)
D = TypeVar("D", bound=DutyParts)
K = TypeVar("K", bound=Hashable)


class Changed(Protocol[S_co]):
    """What a kind's decision answers: the events to write, the snapshot after each,
    and a note for the log (never a hidden card)."""

    @property
    def events(self) -> tuple[Event, ...]: ...

    @property
    def snaps(self) -> tuple[S_co, ...]: ...

    @property
    def note(self) -> str: ...


STALE = "the game moved on meanwhile; here is the current state"


@dataclass(frozen=True, slots=True)
class _NoChange:
    events: tuple[Event, ...] = ()
    snaps: tuple[Any, ...] = ()
    note: str = ""


NO_CHANGE: Changed[Any] = _NoChange()
"""What a decision answers when there is nothing to do."""


class RoomBase(ABC, Generic[S, K, D]):
    """The table core under every kind of room: ``S`` its snapshots, ``K`` its seat keys
    (a two-player room's ``Seat``, a chouette position), ``D`` its duties. A subclass
    sets ``duties`` in its ``__init__`` and gives the hooks below."""

    duties: D

    def __init__(
        self,
        ctx: RoomContext,
        row: RoomRow,
        keys: Sequence[K],
        snap: S,
        seats: Mapping[K, SeatInfo],
        settle_s: float,
    ) -> None:
        """``keys``: the seats (or positions) presence counts; ``snap``: the state it
        starts from; ``seats``: who holds which; ``settle_s``: seconds to listen to
        other instances before any grace period."""
        self.ctx = ctx
        self.row = row  # as the store keeps it
        self.keys: tuple[K, ...] = tuple(keys)
        self.history: History[S] = History(snap)
        self.seats: dict[K, SeatInfo] = dict(seats)
        self.player_of: dict[K, Player] = {}  # the seated people's players (not computers)
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
        self.presence = Presence(
            self.id, ctx.instance_id, settle_s, {key: self.label(key) for key in self.keys}
        )
        # What the room's people say: ``room.chat.say`` and ``room.chat.history``.
        self.chat = Chat(
            self.id, self.topic, ctx.store, ctx.bus, ctx.clock, self.spectator_chat, self.told
        )
        self.follower: asyncio.Task[None] | None = None
        self._followed: Subscription | None = None  # the follower's subscription

    @property
    def current(self) -> S:
        """The latest snapshot."""
        return self.history.current

    @property
    @abstractmethod
    def status(self) -> str:
        """``waiting``, ``playing`` or done (``over``, ``settled``)."""
        raise NotImplementedError

    @property
    def listed(self) -> bool:
        """The lobby lists it (a public two-player room); kept loaded then."""
        return False

    def seat_of(self, identity_hash: str | None) -> K | None:
        """The seat (or position) ``identity_hash`` holds, if any."""
        return seat_of(self.seats, identity_hash)

    def connected(self, key: K) -> bool:
        """``key``'s player is there: a computer, or a person with a socket on any
        live instance."""
        info = self.seats.get(key)
        return info is not None and (info.bot is not None or self.presence.anywhere(key) > 0)

    def renamed(self, player: Player) -> None:
        """A player's new name or rating: the room shows it from now on."""
        for key, p in list(self.player_of.items()):
            if p.id == player.id:
                self.player_of[key] = player

    def erase_seats(self, identity_hash: str, erased: SeatInfo) -> None:
        """Your data: the seats of an erased identity show ``erased`` from now on."""
        for key, info in list(self.seats.items()):
            if info.identity_hash == identity_hash:
                self.seats[key] = erased

    async def load_players(self) -> None:
        """Read the seated people's players (names, ratings) from the store."""
        self.player_of = await people.players_of(self.ctx.owner, self.seats)

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

    # --- the one write path -------------------------------------------------------------

    async def run(self, command: Callable[[], Changed[S]]) -> None:
        """Decide and apply one change: ``command`` decides on the current state (it is
        called under the room's lock, so what it reads cannot change meanwhile); what
        it answers is written, then taken in. A change of no events does nothing."""
        with log_context(room=self.id):
            async with self.lock:
                self.check_alive()
                change = command()
                if change.events:
                    await self.write(change)

    async def write(self, change: Changed[S]) -> None:
        """Write ``change`` and take it in; the caller holds the lock. Another
        instance that wrote this version first wins (the log's (room, seq) key lets
        one writer win): nothing of ours was written, the room catches up and the
        answer is ``stale_version``. A failed write breaks the room (``fail``)."""
        before = self.current
        try:
            await self.ctx.store.append_events(self.id, change.events, self.outcome(change))
        except StoreConflict as exc:
            version = change.snaps[-1].version
            log.info("room %s: version %d was written elsewhere: %s", self.id, version, exc)
            await self.catch_up_locked()
            raise RoomError("stale_version", STALE) from None
        except StoreError as exc:
            self.fail(exc)
        log.info("room %s: %s", self.id, change.note or change.events[-1].kind)
        await self.written(change, before)

    def outcome(self, change: Changed[S]) -> Outcome | None:
        """What the store records with ``change`` beyond its events, in the same
        transaction (a two-player match's results and ratings); None: nothing."""
        return None

    async def written(self, change: Changed[S], before: S) -> None:
        """The store has ``change`` (made on ``before``): take it in and tell it."""
        await self.settle(change.snaps, change.events, tell=True)

    async def settle(
        self,
        snaps: Sequence[S],
        published: Sequence[Event] = (),
        *,
        tell: bool = False,
        remaining_ms: int | None = None,
    ) -> None:
        """The effects of what the store has, in one place: take the snapshots in, run
        the duties again (move timer, grace periods, computer), publish the events and
        (``tell``: written here) let the registry know."""
        self.history.extend(snaps)
        self.duties.rearm(remaining_ms)
        for event in published:
            await self.ctx.bus.publish(self.topic, self.notice(event))
        if tell:
            await self.told_registry()

    @abstractmethod
    def notice(self, event: Event) -> dict[str, Any]:
        """The bus notice of an event this instance wrote."""
        raise NotImplementedError

    def carried(self, notice: Mapping[str, Any]) -> Event | None:
        """The event a notice carries whole (``take_carried`` takes it in without
        reading the log); None: this kind's notices carry none."""
        return None

    async def act(self, key: K, version: int, text: str) -> None:
        """Play ``text`` for the seat ``key`` on its view of ``version`` (a person's
        move or the computer's), counted among the actions applied."""
        with log_context(seat=self.label(key)):
            await self.run(lambda: self.move(key, version, text))
        self.ctx.metrics.applied(text)

    @abstractmethod
    def move(self, key: K, version: int, text: str) -> Changed[S]:
        """The kind's decision on a move (called under the lock, on the current state)."""

    async def run_unless_moved(
        self, version: int | None, command: Callable[[], Changed[S]]
    ) -> None:
        """``run``, unless the table moved past ``version`` meanwhile (a timer's forfeit
        of that decision); with ``version`` None, always."""

        def unless_moved() -> Changed[S]:
            if version is not None and version != self.current.version:
                return NO_CHANGE
            return command()

        await self.run(unless_moved)

    async def told_registry(self) -> None:
        """A change written here is settled (the two-player lobby may list it)."""

    # --- taking a seat ------------------------------------------------------------------

    async def join(self, identity_hash: str, name: str, player: Player) -> K:
        """Take the first free seat (or return the one this identity holds already).
        A seat taken meanwhile through another instance: the next free one is tried."""
        for _ in self.keys:
            async with self.lock:
                self.check_alive()
                taken = await self._take_seat(identity_hash, name, player)
            if taken is not None:
                return taken
        raise RoomError("unavailable", "the seats were taken meanwhile; try again")

    async def _take_seat(self, identity_hash: str, name: str, player: Player) -> K | None:
        """The seat this identity holds now, or None if another instance was faster."""
        mine = self.seat_of(identity_hash)
        if mine is not None:
            return mine
        key = next((k for k in self.keys if k not in self.seats), None)
        if key is None:
            raise RoomError("room_full", self.full_message)
        info = SeatInfo(name, identity_hash, None)
        change = self.seat_change(key, info)
        try:
            row = SeatRow(self.label(key), identity_hash, name, None)
            await self.ctx.store.claim_seat(self.id, row, change.events)
        except StoreConflict:
            await self.catch_up_locked()  # the seats as the store has them now
            return None
        except StoreError as exc:
            self.fail(exc)
        self.seats[key] = info
        self.player_of[key] = player
        log.info("room %s: %s", self.id, change.note)
        await self.settle(change.snaps, change.events, tell=True)
        await self.seated(key)
        return key

    full_message = "every seat is taken"

    def label(self, key: K) -> str:
        """How a seat key is stored and sent."""
        return str(key)

    @abstractmethod
    def seat_change(self, key: K, info: SeatInfo) -> Changed[S]:
        """The events of ``info`` sitting down at ``key`` (the table with them seated)."""
        raise NotImplementedError

    async def seated(self, key: K) -> None:
        """A new person sat down at ``key`` (written and settled; under the lock)."""

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

    @abstractmethod
    async def take_in(self, stored: StoredRoom) -> bool:
        """Fold what ``stored`` holds beyond the current snapshot, and settle it."""
        raise NotImplementedError

    async def opened(self, events: Sequence[Event], snaps: Sequence[S]) -> None:
        """The store has the new room and its first ``events``: take their ``snaps``
        in. It was followed before it was written (``RoomManager.open``), so it knows
        it has no chat yet."""
        self.chat.opened()
        await self.settle(snaps, tell=True)

    async def loaded(self, remaining_ms: int | None = None) -> None:
        """Rebuilt from the log: follow the room (what other instances write and who
        is connected there), run its duties again (the move timer with the time it had
        left when the server stopped, the computer, what waits for nobody)."""
        self.follow()
        await self.settle((), remaining_ms=remaining_ms)

    def damaged(self, exc: Exception) -> NoReturn:
        """Events written elsewhere do not replay: forget the room (rebuilt on demand)."""
        log.error("room %s: events written elsewhere do not replay: %s", self.id, exc)
        self.break_off()
        raise RoomError("unavailable", "this room's record is damaged") from None

    # --- sockets and presence -------------------------------------------------------

    async def connect(self, key: K) -> None:
        """A socket of a seat (or position) opened on this instance."""
        self.touch()
        if self.presence.connect(key):
            log.info("room %s: seat %s connected", self.id, self.label(key))
            self.duties.update_grace()
            try:
                await self.came_back(key)
            except RoomError as exc:  # (its record waits for the next change)
                log.warning("room %s: seat %s back, not recorded: %s", self.id, key, exc.message)
            await self.announce(key)
            await self.presence_changed()

    async def came_back(self, key: K) -> None:
        """The first socket of ``key`` on this instance opened (a chouette partner who
        was away is present again)."""

    async def watch(self, delta: int) -> None:
        """A spectator socket came (+1) or went (-1): the players see how many watch."""
        self.touch()
        self.presence.watch(delta)
        await self.announce(None)
        await self.told_registry()

    async def disconnect(self, key: K) -> None:
        self.touch()
        if self.presence.disconnect(key):
            log.info("room %s: seat %s disconnected", self.id, self.label(key))
            self.duties.update_grace()
            await self.announce(key)
            await self.presence_changed()

    async def presence_changed(self) -> None:
        """Who is connected may have changed (here, on another instance, or by time: a
        count not renewed). A kind the lobby lists by its people's presence looks again."""

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
        await self.presence_changed()  # also the time a new table's host had to come
