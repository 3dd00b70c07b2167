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
from ginrummy.server.room.duties import DutiesBase
from ginrummy.server.room.errors import RoomError
from ginrummy.server.room.seats import SeatInfo

if TYPE_CHECKING:
    from ginrummy.server.chouette.room import ChouetteRoom

log = logging.getLogger("ginrummy.server.chouette")


class ChouetteDuties(DutiesBase):
    def __init__(self, room: ChouetteRoom, ctx: RoomContext) -> None:
        self._room = room
        super().__init__(room.id, ctx, lambda: room.current, self._computer_act, room.catch_up)
        self.auto: asyncio.Task[None] | None = None  # a deal or next match nobody waits for
        self._decision: tuple[int, int] | None = None  # the one the move clock runs for

    def rearm(self, remaining_ms: int | None = None) -> None:
        """After a change: the clock of the person to move, the grace periods, the
        computer's move, and a deal or match that waits for nobody."""
        room = self._room
        mover = self._mover()
        seat = None if mover is None or mover[1].bot is not None else mover[0]  # a person's
        decision = None if seat is None else room.current.decision
        if decision is not None and decision == self._decision and remaining_ms is None:
            # A partner left or came back meanwhile: the same decision keeps its time.
            left = self.move_clock.left()
            remaining_ms = None if left is None else left.remaining_ms
        self._decision = decision
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
        seat is taken and when another person sits at the table (alone with computers,
        a person is waited for, as in a two-player game against the computer); ended
        on return."""
        room = self._room
        people = room.people()
        absent = [p for p in people if room.presence.anywhere(p) == 0]
        if not room.full or room.broken or len(people) < 2:
            absent = []
        self.run_graces(absent, room.presence.settled)

    def _mover(self) -> tuple[Seat, SeatInfo] | None:
        """The match seat to move now and who holds it; None between rounds and
        matches, at a table not full yet, or in a broken room."""
        room = self._room
        table = room.current.table
        turn = None if table is None or room.broken else table.turn
        if table is None or turn is None or not room.full:
            return None
        info = room.seats.get(turn)
        seat = seat_of(table, turn)
        return None if info is None or seat is None else (seat, info)

    def bot_to_move(self) -> tuple[Seat, str | None] | None:
        """The match seat of the computer to move and its level, if a computer moves."""
        mover = self._mover()
        if mover is None or mover[1].bot is None:
            return None
        return mover[0], mover[1].bot

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
        await self.under_lease("automatic deal", self._room.run_auto)

    async def _timed_out(self, seat: Seat, version: int) -> None:
        async def forfeit() -> None:
            table = self._room.current.table
            if table is not None and version == self._room.current.version:
                self._ctx.counters.timeouts += 1
                await self._room.forfeit(position_of(table, seat), ForfeitReason.TIMEOUT, version)

        await self.under_lease("move timer", forfeit)

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

    def more_tasks(self) -> Iterable[asyncio.Task[None] | None]:
        return (self.auto,)
