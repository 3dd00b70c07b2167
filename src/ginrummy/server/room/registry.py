"""The rooms this process has loaded: load (by replay), create, evict; and the lobby.

A room is loaded on demand and kept while it is in use; one without sockets here and
without due work (no computer move, move timer or grace period this instance must run)
that the lobby does not list is evicted after ``idle_s`` seconds unused, and reloaded
from its log when asked for again. At most ``max_rooms`` are loaded: a new one evicts
the least recently used evictable room, or is refused with ``busy``. Loading one room
never waits for another: there is no global lock, only one load per room id at a time.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import secrets
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ginrummy.engine import Rules, Seat
from ginrummy.server import players as players_
from ginrummy.server.civility.service import Civility
from ginrummy.server.clock import Clock, SystemClock
from ginrummy.server.computer import Thinker
from ginrummy.server.metrics import Metrics
from ginrummy.server.pubsub import Bus
from ginrummy.server.pubsub.memory import MemoryBus
from ginrummy.server.room import master
from ginrummy.server.room.base import RoomBase
from ginrummy.server.room.context import Counters, Loaded, Rebuild, RoomContext, Tuning
from ginrummy.server.room.errors import RoomError
from ginrummy.server.room.lobby import Lobby
from ginrummy.server.room.log import REPLAY_ERRORS, Snapshot, replay
from ginrummy.server.room.presence import PRESENCE_SETTLE
from ginrummy.server.room.room import Room
from ginrummy.server.room.seats import SeatInfo, seat_rows, seats_of
from ginrummy.server.store import (
    Event,
    Player,
    RoomRow,
    SeatRow,
    Store,
    StoredRoom,
    StoreError,
)
from ginrummy.server.tokens import new_room_id

log = logging.getLogger("ginrummy.server.room")

ROOM_IDLE_S = 300.0
MAX_ROOMS = 5000
STOP_WAIT_S = 3.0  # how long a closing registry waits for the rooms' changes under way

TWO_PLAYER: Rebuild[Snapshot] = Rebuild(
    replay,
    lambda ctx, stored, snap, settle: Room(ctx, stored.room, seats_of(stored.seats), snap, settle),
)
"""How a two-player room is rebuilt: a room of any kind without its own ``kinds`` entry."""


class RoomManager:
    """All rooms of this process: creates them, loads them from the store by replay,
    evicts the unused ones."""

    def __init__(
        self,
        store: Store,
        bus: Bus,
        bot_delay: float,
        rng: random.Random | None = None,
        clock: Clock | None = None,
        grace_seconds: float = 60.0,
        instance_id: str | None = None,
        lease_ttl: float = 10.0,
        lease_renew: float = 3.0,
        presence_interval: float = 5.0,
        quick_confirm: float = 5.0,
        idle_s: float = ROOM_IDLE_S,
        max_rooms: int = MAX_ROOMS,
        seed_timeout: float = 0.0,
        metrics: Metrics | None = None,
        leaving: Callable[[], bool] = lambda: False,
        thinker: Thinker | None = None,
    ) -> None:
        """``seed_timeout``: seconds a deal waits for the people's seeds (0: none, their
        default seeds at once; the app passes ``Settings.seed_timeout``); ``metrics``:
        where the rooms tell what they do (None: nowhere); ``leaving``: the instance
        drains for a restart (``RoomContext.leaving``); ``thinker``: where heavy
        computer levels think (``RoomContext.thinker``)."""
        tuning = Tuning(
            bot_delay, grace_seconds, lease_ttl, lease_renew, presence_interval, seed_timeout
        )
        # Room leases name this instance; one instance's rooms share it.
        instance = instance_id or f"i_{secrets.token_urlsafe(9)}"
        rng = rng or secrets.SystemRandom()
        self.ctx = RoomContext(
            store, bus, clock or SystemClock(), rng, instance, self, tuning, Counters(),
            metrics or Metrics(on=False), leaving, thinker,
        )  # fmt: skip
        self.idle_s = idle_s
        self.max_rooms = max_rooms
        self._rooms: dict[str, Loaded] = {}
        self._loading: dict[str, asyncio.Task[Loaded | None]] = {}  # one load per room id
        # How a room of another kind than the two-player ones is rebuilt (by room kind:
        # "chouette", registered by the app); any other kind is a two-player room.
        self.kinds: dict[str, Rebuild[Any]] = {}
        self._presence_task: asyncio.Task[None] | None = None
        self._sweep_task: asyncio.Task[None] | None = None
        self.hall = Lobby(self, store, bus, quick_confirm)
        # civility: blocks, mutes, play bans (server/civility), read by sockets and routes
        self.civility = Civility(store, self.ctx.clock.now)
        self._match_listeners: list[Callable[[Room], None]] = []

    # --- what the rest of the server reads -----------------------------------------

    @property
    def store(self) -> Store:
        return self.ctx.store

    @property
    def bus(self) -> Bus:
        return self.ctx.bus

    @property
    def clock(self) -> Clock:
        return self.ctx.clock

    @property
    def rng(self) -> random.Random:
        return self.ctx.rng

    @property
    def thinker(self) -> Thinker | None:
        """Where heavy computer levels think (None: in threads)."""
        return self.ctx.thinker

    @property
    def instance_id(self) -> str:
        return self.ctx.instance_id

    @property
    def presence_interval(self) -> float:
        """Seconds between renewals of this instance's socket counts."""
        return self.ctx.tuning.presence_interval

    @presence_interval.setter
    def presence_interval(self, seconds: float) -> None:
        self.ctx.tuning.presence_interval = seconds

    @property
    def metrics(self) -> Metrics:
        return self.ctx.metrics

    @property
    def computer_moves(self) -> int:
        return self.ctx.counters.computer_moves

    @property
    def timeouts(self) -> int:
        return self.ctx.counters.timeouts

    @property
    def lobby_news(self) -> MemoryBus:
        return self.hall.news

    async def tell_lobby(self) -> None:
        """This instance's lobby sockets: something they list changed (a tournament)."""
        await self.hall.tell()

    def lobby_message(self, make: Callable[[], str]) -> str:
        """The lobby frame as of the last news, made once for all lobby sockets."""
        return self.hall.message(make)

    @property
    def queue_waiting(self) -> int:
        return self.hall.queue_waiting

    @property
    def quick_confirm(self) -> float:
        return self.hall.quick_confirm

    @property
    def quick_stale_after(self) -> float:
        return self.hall.quick_stale_after

    def loaded(self) -> list[Room]:
        """The two-player rooms loaded now."""
        return [room for room in self._rooms.values() if isinstance(room, Room)]

    def in_play(self) -> dict[str, int]:
        """Games being played with a socket open here, by room kind (the metrics): a
        game whose players are on two instances counts on both."""
        counts: dict[str, int] = {}
        for room in self._rooms.values():
            if room.has_sockets and room.status == "playing":
                counts[room.kind] = counts.get(room.kind, 0) + 1
        return counts

    def resident(self, room_id: str) -> Room | None:
        """The two-player room if it is loaded here now; the store is not asked."""
        room = self._rooms.get(room_id)
        return room if isinstance(room, Room) else None

    # --- players ----------------------------------------------------------------------

    async def player(self, identity_hash: str) -> Player:
        """The identity's player, created with a default name on first use."""
        return await self.store.ensure_player(identity_hash, players_.new_player(self.clock.now()))

    async def known_player(self, token_hash: str) -> Player | None:
        """The player of a known identity (created on first use), None for an unknown
        token: one store round trip."""
        return await self.store.known_player(token_hash, self._new_player)

    def _new_player(self) -> Player:
        return players_.new_player(self.clock.now())

    def on_match_end(self, listener: Callable[[Room], None]) -> None:
        """Call ``listener`` whenever a match of a room loaded here ends (a tournament's
        pairing instance records it at once rather than at its next sweep)."""
        self._match_listeners.append(listener)

    def match_ended(self, room: Room) -> None:
        for listener in self._match_listeners:
            listener(room)

    def player_changed(self, player: Player) -> None:
        """A new name or rating: the loaded rooms show it from now on."""
        for room in self._rooms.values():
            room.renamed(player)

    def identity_erased(self, identity_hash: str, tombstone: str, label: str) -> None:
        """Your data: an erased identity's seats in the rooms loaded here take its
        tombstone and anonymous label (the store has them already; docs/accounts.md)."""
        for room in self._rooms.values():
            if isinstance(room, RoomBase):  # every kind is one
                room.erase_seats(identity_hash, SeatInfo(label, tombstone, None))

    # --- the lobby ----------------------------------------------------------------------

    async def room_changed(self, room: Room) -> None:
        await self.hall.changed(room)

    async def listing_changed(self) -> None:
        await self.hall.tell()  # this instance's only: every instance sees the presence

    async def lobby_changed(
        self, room: Room | None = None, *, player: str | None = None, queue: bool = False
    ) -> None:
        """Tell every instance's lobby: a public room, a player's name or the queue changed."""
        await self.hall.changed(room, player=player, queue=queue)

    async def queue_changed(self) -> None:
        """The quick-match queue changed through this instance: count it, tell every lobby."""
        await self.hall.count_queue()
        await self.hall.changed(queue=True)

    def lobby(self) -> dict[str, Any]:
        """Open public tables, running public matches, the quick-match queue's length."""
        return self.hall.listing()

    async def start(self) -> None:
        """Load the listed rooms, follow the lobby changes made on any instance, renew
        this instance's presence, evict idle rooms."""
        await self.hall.start()
        self._presence_task = asyncio.create_task(self._keep_presence())
        self._sweep_task = asyncio.create_task(self._sweep())

    async def load_listed(self) -> None:
        """Bring back public rooms and rooms with a move timer (their clocks run again)."""
        ids = await self.store.listed_rooms()
        for room_id in ids:
            try:
                await self.get(room_id)
            except RoomError as exc:
                log.error("room %s: not loaded at start: %s", room_id, exc.message)
        log.info("%d listed rooms loaded", len(ids))

    async def _keep_presence(self) -> None:
        """Every presence interval: each room renews this instance's socket counts and
        forgets the counts other instances stopped renewing."""
        while True:
            rooms = list(self._rooms.values())
            if not rooms:
                await asyncio.sleep(self.presence_interval)
                continue
            # Spread over the interval: a thousand renewals at once would queue the
            # moves behind them, here and on every other instance.
            step = self.presence_interval / len(rooms)
            for room in rooms:
                await asyncio.sleep(step)
                if self._rooms.get(room.id) is not room:
                    continue  # evicted meanwhile
                try:
                    await room.renew_presence()
                except Exception:  # one room's failure must not stop the others' presence
                    log.exception("room %s: renewing its presence failed", room.id)

    # --- loading, creating, evicting ------------------------------------------------

    async def get(self, room_id: str) -> Room | None:
        """The two-player room, rebuilt from its event log on first use (or after
        eviction); None for no room, or a room of another kind."""
        room = await self.get_any(room_id)
        return room if isinstance(room, Room) else None

    async def get_any(self, room_id: str) -> Loaded | None:
        """The room of any kind, rebuilt from its event log on first use."""
        room = self._rooms.get(room_id)
        if room is not None:
            room.touch()
            return room
        loading = self._loading.get(room_id)
        if loading is None:
            loading = asyncio.create_task(self._load(room_id))
            self._loading[room_id] = loading
            loading.add_done_callback(lambda task: self._loaded(room_id, task))
        # Shielded: a caller that gives up does not cancel the load for the others.
        return await asyncio.shield(loading)

    def _loaded(self, room_id: str, task: asyncio.Task[Loaded | None]) -> None:
        if self._loading.get(room_id) is task:
            del self._loading[room_id]
        if not task.cancelled() and task.exception() is not None:
            log.debug("room %s: the load failed: %s", room_id, task.exception())

    async def _load(self, room_id: str) -> Loaded | None:
        try:
            stored = await self.store.load_room(room_id)
        except StoreError as exc:
            log.error("room %s: cannot load: %s", room_id, exc)
            raise RoomError("unavailable", "the room cannot be loaded right now") from exc
        if stored is None:
            return None
        return await self._rebuild(stored, self.kinds.get(stored.room.kind, TWO_PLAYER))

    async def _rebuild(self, stored: StoredRoom, kind: Rebuild[Any]) -> Loaded:
        """The room of ``stored`` replayed from its log, kept and started, whatever its kind."""
        room_id = stored.room.id
        try:
            snap = kind.replay(stored.events)
        except REPLAY_ERRORS as exc:
            log.error("room %s: the event log does not replay: %s", room_id, exc)
            raise RoomError("unavailable", "this room's record is damaged") from None
        # Sockets of it may be open on other instances: hear them before any grace.
        room = kind.make(self.ctx, stored, snap, PRESENCE_SETTLE * self.presence_interval)
        await room.load_players()
        self.adopt(room)
        log.info(
            "room %s: %s rebuilt from %d events", room_id, stored.room.kind, len(stored.events)
        )
        clock = stored.clock
        # The timer did not run while the server was down.
        left = clock.remaining_ms if clock is not None and clock.version == snap.version else None
        await room.loaded(left)
        return room

    async def create(
        self,
        *,
        kind: str,
        rules: Rules,
        creator_hash: str,
        name: str,
        opponent_bot: str | None,
        spectators: bool,
        opponent_name: str = "",
        opponent_hash: str | None = None,
        options: Mapping[str, Any] | None = None,
        room_id: str | None = None,
    ) -> Room:
        """A new room with the creator in seat one and, for a computer opponent (or a
        person paired by quick match: ``opponent_hash``), seat two. ``room_id``: an id
        chosen beforehand (a tournament's match id); ``unavailable`` if it exists."""
        opts = {"spectators": spectators, **(options or {})}
        row = RoomRow(room_id or new_room_id(), kind, rules.to_dict(), self.clock.now(), opts)
        seats = {Seat.ONE: SeatInfo(name, creator_hash, None)}
        if opponent_bot is not None:
            seats[Seat.TWO] = SeatInfo(opponent_name, None, opponent_bot)
        elif opponent_hash is not None:
            seats[Seat.TWO] = SeatInfo(opponent_name, opponent_hash, None)
        room = Room(self.ctx, row, seats, Snapshot(0, None))
        await room.load_players()
        change = master.opening(room.table, self.rng)
        await self.open(room, seat_rows(seats), change.events, change.snaps)
        log.info(
            "room %s created: %s, rules %s, opponent %s",
            row.id,
            kind,
            rules.name,
            f"computer ({opponent_bot})" if opponent_bot else "a person",
        )
        return room

    async def open(
        self,
        room: RoomBase[Any, Any, Any],
        seats: Sequence[SeatRow],
        events: Sequence[Event],
        snaps: Sequence[Any],
    ) -> None:
        """Write a new room of any kind (its row, ``seats`` and first ``events``) and
        keep it loaded. ``room`` stands before its first events (their ``snaps``, taken
        in once written) and is followed before the write: whatever is said or written
        in it from then on is heard. ``unavailable`` if the store refuses it."""
        self._make_space()
        room.follow()
        try:
            await self.store.create_room(room.row, seats, events)
        except StoreError as exc:
            room.stop_tasks()
            log.error("room %s: cannot create: %s", room.id, exc)
            raise RoomError("unavailable", "the room could not be saved; try again") from exc
        self._rooms[room.id] = room
        await room.opened(events, snaps)  # new: no instance has a socket of it yet

    def adopt(self, room: Loaded) -> None:
        """Keep ``room`` loaded (a new one, or one just rebuilt), making space first."""
        self._make_space()
        self._rooms[room.id] = room

    def evictable(self, room: Loaded) -> bool:
        """Nothing keeps ``room`` here: no socket, no work, not in the lobby."""
        return room.idle and not room.listed

    def _make_space(self) -> None:
        """Below ``max_rooms`` loaded, evicting the least recently used evictable room
        if need be; ``busy`` if every loaded room is in use."""
        if len(self._rooms) < self.max_rooms:
            return
        candidates = [r for r in self._rooms.values() if self.evictable(r)]
        if not candidates:
            log.warning(
                "%d rooms loaded, none of them idle: a new one is refused", len(self._rooms)
            )
            raise RoomError("busy", "the server has too many games running; try again soon")
        self.evict(min(candidates, key=lambda r: r.last_used), "to make space")

    def evict(self, room: Loaded, why: str) -> None:
        """Unload ``room``: its tasks, subscription and presence renewals stop; the next
        request reloads it from the log."""
        room.unload()
        if self._rooms.get(room.id) is room:
            del self._rooms[room.id]
            log.info("room %s: unloaded (%s)", room.id, why)

    async def _sweep(self) -> None:
        """Evict the rooms unused for ``idle_s`` seconds."""
        while True:
            await asyncio.sleep(max(0.05, min(self.idle_s / 2, 30.0)))
            now = time.monotonic()
            for room in list(self._rooms.values()):
                try:
                    if now - room.last_used >= self.idle_s and self.evictable(room):
                        self.evict(room, f"unused for {self.idle_s:g} s")
                except Exception:  # one room's failure must not keep the others loaded
                    log.exception("room %s: unloading it failed", room.id)

    def forget(self, room: Loaded) -> None:
        """Drop a broken room: the rebuilt room re-arms its own timers."""
        room.stop_tasks()
        if self._rooms.get(room.id) is room:
            del self._rooms[room.id]

    async def _stop_rooms(self, rooms: list[Loaded]) -> list[asyncio.Task[None]]:
        """Stop the rooms' tasks, each once the change it is making is written and told
        (its lock is free): a computer's move or a timer's forfeit is not cut off between
        the store and the bus. At most ``STOP_WAIT_S`` for all (a store that hangs)."""
        tasks: list[asyncio.Task[None]] = []
        stopped = 0
        try:
            async with asyncio.timeout(STOP_WAIT_S):
                for room in rooms:
                    async with room.lock:
                        tasks += room.stop_tasks()
                    stopped += 1
        except TimeoutError:
            log.warning("rooms still writing after %g s: stopped all the same", STOP_WAIT_S)
        for room in rooms[stopped:]:
            tasks += room.stop_tasks()
        return tasks

    async def close(self) -> None:
        """Stop every task; remember the time left on running move timers; give the
        rooms' leases up so that other instances take over at once."""
        for task in (self.hall.task, self._presence_task, self._sweep_task):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
        self.hall.task = self._presence_task = self._sweep_task = None
        rooms = list(self._rooms.values())
        for room in rooms:
            if room.has_sockets:  # the other instances stop counting them now
                await self.bus.publish(room.topic, room.presence_notice(None, gone=True))
        # Every room whose keeper ever asked: a lease taken by a write still in flight
        # when its keeper is cancelled is held without this instance knowing it yet.
        leased = [room.id for room in rooms if room.lease_asked]
        tasks = await self._stop_rooms(rooms)
        for room in rooms:
            left = None if room.broken else room.clock_left()
            if left is not None:
                try:
                    await self.store.save_clock(room.id, left)
                except StoreError as exc:
                    log.error("room %s: cannot save its clock: %s", room.id, exc)
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task
        for room_id in leased:
            try:
                await self.store.release_lease(room_id, self.instance_id)
            except StoreError as exc:  # it runs out by itself
                log.error("room %s: cannot release its lease: %s", room_id, exc)
        if leased:
            log.info("%d room leases released", len(leased))
        self._rooms.clear()
