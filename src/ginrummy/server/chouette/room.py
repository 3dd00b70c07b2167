"""One chouette room (docs/protocol.md, "Chouette rooms"): its state, its lock, and the
one place where accepted changes take effect.

Built like the two-player ``Room`` from the same parts: the master's commands decide
(``master``), the store writes the events first, then ``_settle`` takes the snapshots in
and applies the effects (history, duties, notices). Presence, chat, the move timer and
grace periods, the lease and the computer driver are the two-player room's parts,
counted per position. Advice and team chat are told to the team's sockets only.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from ginrummy.bots.chouette import decision_view
from ginrummy.engine import ForfeitReason, Rules
from ginrummy.engine.chouette import MAX_PLAYERS, TablePhase, draw_seat_cards
from ginrummy.engine.chouette_record import ChouetteRecord, record_of_table
from ginrummy.engine.chouette_views import view_for_player
from ginrummy.server.chouette import master, presenter
from ginrummy.server.chouette.duties import ChouetteDuties
from ginrummy.server.chouette.log import Snap, fold_all, replay
from ginrummy.server.chouette.master import Board, Change
from ginrummy.server.chouette.team import TeamChat, advice_notice, for_team
from ginrummy.server.computer import computer_move
from ginrummy.server.logcontext import log_context
from ginrummy.server.room.base import RoomBase
from ginrummy.server.room.context import Rebuild, RoomContext
from ginrummy.server.room.errors import RoomError
from ginrummy.server.room.log import REPLAY_ERRORS, History
from ginrummy.server.room.seats import SeatInfo, seat_of
from ginrummy.server.store import (
    Player,
    RoomRow,
    SeatRow,
    StoreConflict,
    StoredRoom,
    StoreError,
)

log = logging.getLogger("ginrummy.server.chouette")

KIND = "chouette"


def seats_by_position(rows: Sequence[SeatRow]) -> dict[int, SeatInfo]:
    """The stored seats of a chouette room: their labels are the positions' numbers."""
    return {int(r.seat): SeatInfo(r.name, r.identity_hash, r.bot) for r in rows}


class ChouetteRoom(RoomBase[ChouetteDuties]):
    """The master of one chouette room. Create with ``open_room``; the registry
    rebuilds one from its log with ``REBUILD`` (its way for rooms of kind ``chouette``)."""

    def __init__(
        self,
        ctx: RoomContext,
        row: RoomRow,
        seats: Mapping[int, SeatInfo],
        snap: Snap,
        settle_s: float = 0.0,
    ) -> None:
        assert snap.table is not None, "a chouette room starts with its table"
        self.players = snap.table.players
        super().__init__(ctx, row, range(self.players), settle_s)
        self.seats: dict[int, SeatInfo] = dict(seats)
        self.player_of: dict[int, Player] = {}
        self.history: History[Snap] = History(snap)
        self.views = presenter.SharedViews()  # the view frames' parts, once per version
        self.team_chat = TeamChat(self.id, ctx.store, ctx.clock)
        self.duties = ChouetteDuties(self, ctx)

    # --- reading --------------------------------------------------------------------

    @property
    def current(self) -> Snap:
        return self.history.current

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
        return seat_of(self.seats, identity_hash)

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

    def connected(self, position: int) -> bool:
        info = self.seats.get(position)
        return info is not None and (info.bot is not None or self.presence.anywhere(position) > 0)

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

    async def act(self, position: int, version: int, text: str) -> None:
        await self._run(lambda b: master.act(b, position, self.same_decision(version), text))
        self.ctx.metrics.applied(text)

    async def ready(self, position: int) -> None:
        await self._run(lambda b: master.ready(b, position))

    async def wish_next(self, position: int) -> None:
        await self._run(lambda b: master.wish_next(b, position))

    async def forfeit(
        self, position: int, reason: ForfeitReason, version: int | None = None
    ) -> None:
        """``position`` (box or captain) loses the match; with ``version``: only if the
        table is still there (a timer of that decision)."""

        def command(board: Board) -> Change:
            if version is not None and version != board.snap.version:
                return Change()
            return master.end_by_forfeit(board, position, reason)

        await self._run(command)

    async def away(self, position: int, *, gone: bool) -> None:
        await self._run(lambda b: master.away(b, position, gone))

    async def run_auto(self) -> None:
        await self._run(master.auto)

    def auto_due(self) -> bool:
        return not self.broken and master.auto_due(self.board)

    async def join(self, identity_hash: str, name: str, player: Player) -> int:
        """Take the first free seat (or return the one this identity holds already).
        A seat taken meanwhile through another instance: the next free one is tried."""
        for _ in range(MAX_PLAYERS):
            async with self.lock:
                self.check_alive()
                taken = await self._take_seat(identity_hash, name, player)
            if taken is not None:
                return taken
        raise RoomError("unavailable", "the seats were taken meanwhile; try again")

    async def _take_seat(self, identity_hash: str, name: str, player: Player) -> int | None:
        """The seat this identity holds now, or None if another instance was faster."""
        mine = self.position_of(identity_hash)
        if mine is not None:
            return mine
        free = [p for p in range(self.players) if p not in self.seats]
        if not free:
            raise RoomError("room_full", "every seat is taken")
        position, info = free[0], SeatInfo(name, identity_hash, None)
        change = master.take_seat(
            replace(self.board, seats={**self.seats, position: info}), position
        )
        try:
            row = SeatRow(str(position), identity_hash, name, None)
            await self.ctx.store.claim_seat(self.id, row, change.events)
        except StoreConflict:
            await self.catch_up_locked()  # the seats as the store has them now
            return None
        except StoreError as exc:
            self.fail(exc)
        self.seats[position] = info
        self.player_of[position] = player
        log.info("room %s: %s", self.id, change.note)
        await self._settle(change.snaps, change.events)
        return position

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
            choice = await computer_move(info.bot, view, self.ctx.rng, self.ctx.metrics)
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

    async def _run(self, command: Callable[[Board], Change]) -> None:
        """Decide on the current board, write, then settle; under the lock."""
        with log_context(room=self.id):
            async with self.lock:
                self.check_alive()
                change = command(self.board)
                if not change.events:
                    return
                try:
                    await self.ctx.store.append_events(self.id, change.events)
                except StoreConflict:
                    await self.catch_up_locked()
                    raise RoomError("stale_version", "the table moved on meanwhile") from None
                except StoreError as exc:
                    self.fail(exc)
                log.info("room %s: %s", self.id, change.note or change.events[-1].kind)
                await self._settle(change.snaps, change.events)

    async def _settle(
        self, snaps: Sequence[Snap], published: Sequence[Any] = (), remaining_ms: int | None = None
    ) -> None:
        """The effects of what the store has, in one place."""
        self.history.extend(snaps)
        self.duties.rearm(remaining_ms)
        for event in published:
            position = event.payload.get("position")
            notice = {"kind": event.kind, "version": event.seq, "position": position}
            await self.ctx.bus.publish(self.topic, notice)

    async def load_players(self) -> None:
        self.player_of = {
            p: await self.ctx.owner.player(i.identity_hash)
            for p, i in self.seats.items()
            if i.identity_hash is not None
        }

    def renamed(self, player: Player) -> None:
        for position, p in list(self.player_of.items()):
            if p.id == player.id:
                self.player_of[position] = player

    # --- life ---------------------------------------------------------------------------

    async def loaded(self, remaining_ms: int | None = None) -> None:
        """Created or rebuilt: run the clocks (the move timer with the time it had left
        when the server stopped), the computer and the deals that wait for nobody;
        follow what other instances write and who is connected there."""
        self.follow()
        await self._settle((), remaining_ms=remaining_ms)

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
        await self._settle(snaps)
        return True

    # --- sockets and presence -------------------------------------------------------

    async def came_back(self, key: Hashable) -> None:
        """A partner marked absent is present again (``return``)."""
        table = self.current.table
        if isinstance(key, int) and table is not None and key in table.absent:
            await self.away(key, gone=False)

    async def watch(self, delta: int) -> None:
        self.touch()
        self.presence.watch(delta)
        await self.announce(None)


async def open_room(
    ctx: RoomContext, row: RoomRow, seats: Mapping[int, SeatInfo], players: int
) -> tuple[ChouetteRoom, Change]:
    """A new room's table (the seat draw) and its first events, written to the store."""
    drawn = " ".join(str(c) for c in draw_seat_cards(ctx.rng, players))
    change = master.opening(
        Board(Snap(0, None), seats, row.id), Rules.from_dict(dict(row.rules)), drawn
    )
    rows = [SeatRow(str(p), i.identity_hash, i.name, i.bot) for p, i in seats.items()]
    try:
        await ctx.store.create_room(row, rows, change.events)
    except StoreError as exc:
        log.error("room %s: cannot create: %s", row.id, exc)
        raise RoomError("unavailable", "the room could not be saved; try again") from exc
    room = ChouetteRoom(ctx, row, seats, change.snaps[-1])
    await room.load_players()
    return room, change


REBUILD: Rebuild[Snap] = Rebuild(
    replay,
    lambda ctx, stored, snap, settle: ChouetteRoom(
        ctx, stored.room, seats_by_position(stored.seats), snap, settle
    ),
)
"""How the registry rebuilds a chouette room from its log (``RoomManager.kinds``)."""
