"""A chouette room's duties in time, run under the room's lease like a two-player
room's (``ginrummy.server.room.duties``): the computer's moves as box or captain, the
move timer of the person to move, the grace periods, and the deals and next matches
nobody has to wait for (computers are always ready).

A grace period that runs out acts at once (docs/protocol.md, "Chouette rooms"): the box
or the captain forfeits the match (reason ``abandoned``) and is marked absent; a
partner is marked absent, skipped in the captain order until back.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from ginrummy.engine import ForfeitReason, Seat
from ginrummy.engine.chouette import TablePhase, position_of, seat_of
from ginrummy.server.room.context import RoomContext
from ginrummy.server.room.driver import ComputerDriver
from ginrummy.server.room.errors import RoomError
from ginrummy.server.room.lease import LeaseKeeper
from ginrummy.server.room.timers import Grace, MoveClock

if TYPE_CHECKING:
    from ginrummy.server.chouette.room import ChouetteRoom

log = logging.getLogger("ginrummy.server.chouette")


class ChouetteDuties:
    def __init__(self, room: ChouetteRoom, ctx: RoomContext) -> None:
        self._room = room
        self._ctx = ctx
        t = ctx.tuning
        self.move_clock = MoveClock(ctx.clock, self._timed_out)
        self.graces = Grace(ctx.clock, t.grace_seconds, self._grace_over)
        self.lease = LeaseKeeper(
            room.id, ctx.store, ctx.instance_id, t.lease_ttl, t.lease_renew,
            self.work_due, self._lease_taken,
        )  # fmt: skip
        self.computer = ComputerDriver(
            room.id, t.bot_delay, ctx.rng, to_move=self.bot_to_move,
            current=lambda: room.current, lease=self.lease.wait, act=self._computer_act,
            moved=self._count_move,
        )  # fmt: skip
        self.auto: asyncio.Task[None] | None = None  # a deal or next match nobody waits for

    def rearm(self, remaining_ms: int | None = None) -> None:
        """After a change: the clock of the person to move, the grace periods, the
        computer's move, and a deal or match that waits for nobody."""
        room = self._room
        table = room.current.table
        turn = None if table is None or room.broken else table.turn
        seat = None
        if table is not None and turn is not None and room.person(turn):
            seat = seat_of(table, turn)
        total = room.rules.move_timer_seconds
        if self.move_clock.arm(seat, room.current.version, total, remaining_ms):
            self.lease.want()
        self.update_grace()
        if self.computer.schedule():
            self.lease.want()
        if room.auto_due() and (self.auto is None or self.auto.done()):
            self.auto = asyncio.create_task(self._auto())
            self.lease.want()

    def update_grace(self) -> None:
        """A grace period for each seated person without a socket anywhere, once every
        seat is taken; ended on return."""
        room = self._room
        absent = [p for p in room.people() if room.presence.anywhere(p) == 0]
        if not room.full or room.broken:
            absent = []
        if self.graces.update(absent, room.presence.settled):
            self.lease.want()

    def bot_to_move(self) -> tuple[Seat, str | None] | None:
        """The match seat of the computer to move and its level, if a computer moves."""
        room = self._room
        table = room.current.table
        turn = None if table is None or room.broken else table.turn
        if table is None or turn is None or not room.full:
            return None
        info = room.seats.get(turn)
        if info is None or info.bot is None:
            return None
        seat = seat_of(table, turn)
        return None if seat is None else (seat, info.bot)

    def work_due(self) -> bool:
        if self._room.broken:
            return False
        clocks = self.move_clock.running or self.graces.running
        auto = self.auto is not None and not self.auto.done()
        return self.bot_to_move() is not None or clocks or auto

    def timer(self, version: int) -> dict[str, Any] | None:
        """The ``timer`` of a view: the position to move, time left, total."""
        frame = self.move_clock.frame(version, self._room.rules.move_timer_seconds)
        table = self._room.current.table
        if frame is None or table is None:
            return None
        seat = Seat.parse(frame.pop("seat"))
        return {"position": position_of(table, seat), **frame}

    async def _computer_act(self, seat: Seat, version: int, text: str) -> None:
        table = self._room.current.table
        assert table is not None
        await self._room.act(position_of(table, seat), version, text)

    async def _auto(self) -> None:
        await self.lease.wait()
        try:
            await self._room.run_auto()
        except RoomError as exc:
            log.warning("room %s: no automatic deal: %s", self._room.id, exc.message)
        except Exception:
            log.exception("room %s: the automatic deal failed", self._room.id)

    async def _timed_out(self, seat: Seat, version: int) -> None:
        await self.lease.wait()
        self._ctx.counters.timeouts += 1
        table = self._room.current.table
        if table is None or version != self._room.current.version:
            return
        try:
            await self._room.forfeit(position_of(table, seat), ForfeitReason.TIMEOUT, version)
        except RoomError as exc:
            log.warning("room %s: timeout not applied: %s", self._room.id, exc.message)

    async def _grace_over(self, position: int, end: float) -> None:
        await self.lease.wait()
        if not self.graces.is_current(position, end):
            return
        room = self._room
        table = room.current.table
        log.info("room %s: position %d's grace period is over", room.id, position)
        try:
            playing = table is not None and seat_of(table, position) is not None
            if playing and table is not None and table.phase is TablePhase.MATCH:
                await room.forfeit(position, ForfeitReason.ABANDONED)
            await room.away(position, gone=True)
        except RoomError as exc:
            log.warning("room %s: grace period not applied: %s", room.id, exc.message)
        await room.announce(position)

    def _count_move(self) -> None:
        self._ctx.counters.computer_moves += 1

    async def _lease_taken(self) -> bool:
        try:
            await self._room.catch_up()
        except RoomError as exc:
            log.warning("room %s: cannot catch up under the lease: %s", self._room.id, exc.message)
            return False
        return True

    def tasks(self) -> Iterable[asyncio.Task[None] | None]:
        own = (self.computer.task, self.lease.task, self.auto)
        return (*own, *self.move_clock.tasks(), *self.graces.tasks())
