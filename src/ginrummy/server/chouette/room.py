"""The chouette room (docs/protocol.md, "Chouette rooms") as a kind of room on the table core.

A kind of room on the table core (``room.base.RoomBase``), as the two-player ``Room``:
the master's commands decide (``master``) and the core's one write path (``run``) writes
the events, then takes the snapshots in and applies the effects (history, duties,
notices). Presence, chat, the move timer and grace periods, the lease and the computer
driver are the core's, counted per position. Advice and team chat are told to the
team's sockets only.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from ginrummy.bots.chouette import decision_view
from ginrummy.engine import ForfeitReason, Rules
from ginrummy.engine.chouette import TablePhase, draw_seat_cards
from ginrummy.engine.chouette_record import ChouetteRecord, record_of_table
from ginrummy.engine.chouette_views import view_for_player
from ginrummy.server.chouette import master, presenter
from ginrummy.server.chouette.duties import ChouetteDuties
from ginrummy.server.chouette.log import Snap, fold_all, replay
from ginrummy.server.chouette.master import Board, Change
from ginrummy.server.chouette.team import TeamChat, advice_notice, for_team
from ginrummy.server.computer import computer_move
from ginrummy.server.room.base import RoomBase
from ginrummy.server.room.context import Rebuild, RoomContext
from ginrummy.server.room.errors import RoomError
from ginrummy.server.room.log import REPLAY_ERRORS
from ginrummy.server.room.seats import SeatInfo
from ginrummy.server.store import Event, RoomRow, SeatRow, StoredRoom

if TYPE_CHECKING:
    from ginrummy.server.room.registry import RoomManager

log = logging.getLogger("ginrummy.server.chouette")

KIND = "chouette"


def seats_by_position(rows: Sequence[SeatRow]) -> dict[int, SeatInfo]:
    """The stored seats of a chouette room: their labels are the positions' numbers."""
    return {int(r.seat): SeatInfo(r.name, r.identity_hash, r.bot) for r in rows}


class ChouetteRoom(RoomBase[Snap, int, ChouetteDuties]):
    """The master of one chouette room. Create with ``open_room``; the registry
    rebuilds one from its log with ``REBUILD`` (its way for rooms of kind ``chouette``)."""

    def __init__(
        self,
        ctx: RoomContext,
        row: RoomRow,
        seats: Mapping[int, SeatInfo],
        snap: Snap,
        settle_s: float = 0.0,
        players: int | None = None,
    ) -> None:
        """``players``: the table's size, for a new room standing before its first
        events (``snap`` has no table yet); a rebuilt one's table has it."""
        size = players if snap.table is None else snap.table.players
        assert size is not None, "a chouette room knows its table's size"
        self.players = size
        super().__init__(ctx, row, range(self.players), snap, seats, settle_s)
        self.views = presenter.SharedViews()  # the view frames' parts, once per version
        self.team_chat = TeamChat(self.id, ctx.store, ctx.clock)
        self.duties = ChouetteDuties(self, ctx)

    # --- reading --------------------------------------------------------------------

    @property
    def board(self) -> Board:
        return Board(self.current, self.seats, self.id)

    @property
    def full(self) -> bool:
        return self.board.full

    @property
    def status(self) -> str:
        table = self.current.table
        if not self.full:
            return "waiting"
        return "settled" if table is not None and table.phase is TablePhase.SETTLED else "playing"

    def position_of(self, identity_hash: str | None) -> int | None:
        return self.seat_of(identity_hash)

    def person(self, position: int) -> bool:
        return self.board.person(position)

    def people(self) -> list[int]:
        return [p for p, i in sorted(self.seats.items()) if i.bot is None]

    def team(self) -> tuple[int, ...]:
        """The team members now (captain and partners)."""
        table = self.current.table
        return () if table is None else table.order

    def in_team(self, position: int | None) -> bool:
        """``position`` is a team member now (captain or partner), not the box."""
        table = self.current.table
        return position is not None and table is not None and position != table.box

    def timer(self, snap: Snap | None = None) -> dict[str, Any] | None:
        return self.duties.timer((snap or self.current).version)

    def record(self) -> ChouetteRecord:
        """The table's record (decks included): only while no match runs."""
        table = self.current.table
        if table is None or table.phase is not TablePhase.SETTLED:
            raise RoomError("match_running", "the record is available once the match is over")
        return record_of_table(table)

    # --- commands (each under the lock) ---------------------------------------------

    def same_decision(self, version: int) -> int:
        """The version a move or advice of ``version`` stands for: the current one if
        only presence or readiness was written since (the decision is the same)."""
        then = self.history.at(version)
        now = self.current
        same = then.version == version and then.decision == now.decision
        return now.version if same else version

    def move(self, key: int, version: int, text: str) -> Change:
        return master.act(self.board, key, self.same_decision(version), text)

    async def ready(self, position: int) -> None:
        await self.run(lambda: master.ready(self.board, position))

    async def wish_next(self, position: int) -> None:
        await self.run(lambda: master.wish_next(self.board, position))

    async def forfeit(
        self, position: int, reason: ForfeitReason, version: int | None = None
    ) -> None:
        """``position`` (box or captain) loses the match; with ``version``: only if the
        table is still there (a timer of that decision)."""

        await self.run_unless_moved(
            version, lambda: master.end_by_forfeit(self.board, position, reason)
        )

    async def away(self, position: int, *, gone: bool) -> None:
        await self.run(lambda: master.away(self.board, position, gone))

    async def run_auto(self) -> None:
        await self.run(lambda: master.auto(self.board))

    def auto_due(self) -> bool:
        return not self.broken and master.auto_due(self.board)

    # --- taking a seat (the core's ``join``) ---------------------------------------------

    def seat_change(self, key: int, info: SeatInfo) -> Change:
        return master.take_seat(replace(self.board, seats={**self.seats, key: info}), key)

    async def advise(
        self, position: int, version: int, action: str | None, card: str | None
    ) -> None:
        """A partner's advice, told to the team's sockets (nothing is written)."""
        async with self.lock:
            self.check_alive()
            version = self.same_decision(version)
            named, pointed = master.check_advice(self.board, position, version, action, card)
            name = self.seats[position].name
            notice = advice_notice(version, position, name, False, named, pointed)
            team = self.team()  # the team of this decision, not of whatever comes next
        await self.ctx.bus.publish(self.topic, for_team(notice, team))

    async def ask_advice(self, position: int, version: int) -> None:
        """The captain asks the computer partners: each advises (the level's bot on the
        captain's view)."""
        async with self.lock:
            self.check_alive()
            version = self.same_decision(version)
            helpers = master.check_ask(self.board, position, version)
            table = self.current.table
            assert table is not None
        team = table.order  # the team of this decision: the computers think off the lock
        for helper in helpers:
            info = self.seats[helper]
            assert info.bot is not None
            # The level's bot in the captain's place, on what this partner may see.
            view = decision_view(view_for_player(table, helper))
            choice = await computer_move(
                info.bot, view, self.ctx.rng, self.ctx.metrics, self.ctx.thinker
            )
            notice = advice_notice(version, helper, info.name, True, str(choice), None)
            await self.ctx.bus.publish(self.topic, for_team(notice, team))

    async def team_say(self, position: int, text: str | None, phrase: str | None) -> None:
        """A team member's message to the team (the box gets nothing)."""
        table = self.current.table
        if not self.in_team(position) or table is None:
            raise RoomError("not_in_team", "the box does not talk to the team")
        player = self.player_of.get(position)
        if player is None:
            raise RoomError("chat_closed", "only players with an identity may chat")
        # Write before tell: a socket on any instance reads the history from the store.
        line = await self.team_chat.message(table.number, position, player, text, phrase)
        notice = for_team({"kind": "team_chat", "message": line}, table.order)
        await self.ctx.bus.publish(self.topic, notice)

    def notice(self, event: Event) -> dict[str, Any]:
        position = event.payload.get("position")
        return {"kind": event.kind, "version": event.seq, "position": position}

    # --- life ---------------------------------------------------------------------------

    async def take_in(self, stored: StoredRoom) -> bool:
        self.seats = seats_by_position(stored.seats)
        newer = [e for e in stored.events if e.seq > self.current.version]
        if not newer:
            return False  # nothing to settle: the clocks run on as they are
        try:
            snaps = fold_all(self.current, newer)
        except REPLAY_ERRORS as exc:
            self.damaged(exc)
        await self.load_players()
        await self.settle(snaps)
        return True

    # --- sockets and presence -------------------------------------------------------

    async def came_back(self, key: int) -> None:
        """A partner marked absent is present again (``return``)."""
        table = self.current.table
        if table is not None and key in table.absent:
            await self.away(key, gone=False)


async def open_room(
    rooms: RoomManager, row: RoomRow, seats: Mapping[int, SeatInfo], players: int
) -> ChouetteRoom:
    """A new room: its table (the seat draw) and its first events written to the store,
    the room kept loaded by ``rooms`` (``unavailable`` if the store refuses it)."""
    room = ChouetteRoom(rooms.ctx, row, seats, Snap(0, None), players=players)
    await room.load_players()
    drawn = " ".join(str(c) for c in draw_seat_cards(rooms.ctx.rng, players))
    change = master.opening(room.board, Rules.from_dict(dict(row.rules)), drawn)
    rows = [SeatRow(str(p), i.identity_hash, i.name, i.bot) for p, i in seats.items()]
    await rooms.open(room, rows, change.events, change.snaps)
    return room


REBUILD: Rebuild[Snap] = Rebuild(
    replay,
    lambda ctx, stored, snap, settle: ChouetteRoom(
        ctx, stored.room, seats_by_position(stored.seats), snap, settle
    ),
)
"""How the registry rebuilds a chouette room from its log (``RoomManager.kinds``)."""
