"""A room's duties in time: the move timer, the grace periods and the computer's
moves, run by whichever instance holds the room's lease.

``Duties.rearm`` is called after every change the room takes in (the room's one place
of effects); the duties act back on the room through its commands only.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Hashable, Iterable
from typing import TYPE_CHECKING, Any

from ginrummy.engine import ForfeitReason, Seat
from ginrummy.server.room.context import RoomContext
from ginrummy.server.room.driver import ComputerDriver, Moving
from ginrummy.server.room.errors import RoomError
from ginrummy.server.room.lease import LeaseKeeper
from ginrummy.server.room.timers import Grace, MoveClock, SeedClock

if TYPE_CHECKING:
    from ginrummy.server.room.room import Room

log = logging.getLogger("ginrummy.server.room")


class DutiesBase:
    """What every room's duties share: the move timer, the grace periods, the lease
    and the computer driver, made from the room's own answers (``bot_to_move``, what
    an expiry does) by a subclass."""

    def __init__(
        self,
        room_id: str,
        ctx: RoomContext,
        current: Callable[[], Moving],
        act: Callable[[Seat, int, str], Awaitable[None]],
        catch_up: Callable[[], Awaitable[bool]],
    ) -> None:
        """``current``: the room's state the computer reads; ``act``: how the computer
        plays a match seat's move; ``catch_up``: read what other instances wrote."""
        self._room_id = room_id
        self._ctx = ctx
        self._catch_up = catch_up
        t = ctx.tuning
        self.move_clock = MoveClock(ctx.clock, self._timed_out)
        self.graces = Grace(ctx.clock, t.grace_seconds, self._grace_over)
        self.lease = LeaseKeeper(
            room_id, ctx.store, ctx.instance_id, t.lease_ttl, t.lease_renew,
            self.work_due, self._lease_taken,
        )  # fmt: skip
        self.computer = ComputerDriver(
            room_id, t.bot_delay, ctx.rng, to_move=self.bot_to_move, current=current,
            lease=self.lease.wait, act=act, moved=self._count_move, metrics=ctx.metrics,
            thinker=ctx.thinker,
        )  # fmt: skip

    def run_graces(self, absent: Iterable[Hashable], settled: bool) -> None:
        """A grace period for each of ``absent`` (once the room's presence has
        ``settled``), ended for whoever is back; the lease is wanted to end them, but
        not by an instance that drains for a restart: it is gone before any ends, and
        the instances its sockets come back to run them without waiting for its lease."""
        if self.graces.update(absent, settled) and not self._ctx.leaving():
            self.lease.want()

    def bot_to_move(self) -> tuple[Seat, str | None] | None:
        """The match seat of the computer to move and its level, if a computer moves."""
        raise NotImplementedError

    def work_due(self) -> bool:
        raise NotImplementedError

    async def _timed_out(self, seat: Seat, version: int) -> None:
        raise NotImplementedError

    async def _grace_over(self, key: Any, end: float) -> None:
        raise NotImplementedError

    async def under_lease(self, what: str, run: Callable[[], Awaitable[None]]) -> None:
        """Run a duty's command once this instance holds the lease; a refusal or a
        failure is logged (nobody waits for an answer)."""
        await self.lease.wait()
        try:
            await run()
        except RoomError as exc:
            log.warning("room %s: %s not applied: %s", self._room_id, what, exc.message)
        except Exception:
            log.exception("room %s: the %s failed", self._room_id, what)

    def _count_move(self) -> None:
        self._ctx.counters.computer_moves += 1

    async def _lease_taken(self) -> bool:
        """A new holder first reads the log: the last one may have written what this
        instance has not seen."""
        try:
            await self._catch_up()
        except RoomError as exc:
            log.warning("room %s: cannot catch up under the lease: %s", self._room_id, exc.message)
            return False
        return True

    def more_tasks(self) -> Iterable[asyncio.Task[None] | None]:
        return ()

    def tasks(self) -> Iterable[asyncio.Task[None] | None]:
        own = (self.computer.task, self.lease.task, *self.more_tasks())
        return (*own, *self.move_clock.tasks(), *self.graces.tasks())


class Duties(DutiesBase):
    def __init__(self, room: Room, ctx: RoomContext) -> None:
        self._room = room
        super().__init__(room.id, ctx, lambda: room.current, room.act, room.catch_up)
        self.seed_clock = SeedClock(ctx.clock, self._seeds_timed_out)

    def rearm(self, remaining_ms: int | None = None) -> None:
        """After a change: the clock of the person to move (each decision gets the
        full time, or ``remaining_ms`` when the room comes back after a stop), the seed
        timeout of a deal due, the grace periods, the computer's move."""
        room = self._room
        match = room.current.match
        seat = None if match is None or room.broken else match.turn
        if seat is not None and not room.person(seat):
            seat = None
        total = room.rules.move_timer_seconds
        if self.move_clock.arm(seat, room.current.version, total, remaining_ms):
            self.lease.want()
        pending = None if room.broken else room.current.pending
        committed = None if pending is None else pending.commitment
        if self.seed_clock.arm(committed, self._ctx.tuning.seed_timeout):
            self.lease.want()
        self.update_grace()
        self.schedule_computer()

    def update_grace(self) -> None:
        """A grace period for each person without a socket on any live instance, ended
        on return. A room just loaded starts none until it has listened to its topic for
        a while: by then every instance with a socket of the room has told its counts."""
        room = self._room
        match = room.current.match
        applies = (
            all(room.person(s) for s in Seat)
            and match is not None
            and not match.is_over
            and not room.broken
        )
        absent = [s for s in Seat if applies and room.presence.anywhere(s) == 0]
        self.run_graces(absent, room.presence.settled)

    def schedule_computer(self) -> None:
        """Start the computer's move if it is its turn and it is not already thinking."""
        if self.computer.schedule():
            self.lease.want()

    def bot_to_move(self) -> tuple[Seat, str | None] | None:
        """The computer seat to move and its level, if a computer is to move."""
        room = self._room
        match = room.current.match
        seat = match.turn if match is not None else None
        if seat is None or room.broken:
            return None
        info = room.seats.get(seat)
        return (seat, info.bot) if info is not None and info.bot is not None else None

    def work_due(self) -> bool:
        """A computer to move, a move timer, a seed timeout or a grace period running."""
        if self._room.broken:
            return False
        clocks = self.move_clock.running or self.graces.running or self.seed_clock.running
        return self.bot_to_move() is not None or clocks

    def timer(self, version: int) -> dict[str, Any] | None:
        return self.move_clock.frame(version, self._room.rules.move_timer_seconds)

    async def _timed_out(self, seat: Seat, version: int) -> None:
        async def forfeit() -> None:
            self._ctx.counters.timeouts += 1
            await self._room.end_by_forfeit(seat, ForfeitReason.TIMEOUT, version=version)

        await self.under_lease("move timer", forfeit)

    async def _seeds_timed_out(self, committed: str) -> None:
        await self.under_lease("seed timeout", lambda: self._room.seeds_timed_out(committed))

    async def _grace_over(self, seat: Seat, end: float) -> None:
        await self.lease.wait()
        if self.graces.is_current(seat, end):
            log.info("room %s: seat %s's grace period is over", self._room.id, seat.label)
            await self._room.announce(seat)

    def more_tasks(self) -> Iterable[asyncio.Task[None] | None]:
        return (self.seed_clock.task,)
