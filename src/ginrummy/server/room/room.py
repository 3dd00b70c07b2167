"""The two-player match as a kind of room on the table core (``base.RoomBase``).

A command of the master (``master``) decides on the current ``Table`` and answers events
with their snapshots; the core's one write path (``run``) writes them, here with the
match's results when it ends (``outcome``), then takes them in: history, move timer,
grace periods, computer, notices, lobby. Nothing is published (nor the in-memory state
changed) before the store has the events.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from contextlib import AbstractContextManager
from dataclasses import replace
from typing import Any

from ginrummy.engine import ForfeitReason, MatchRecord, Seat, SeatView, SpectatorView
from ginrummy.server import players as players_
from ginrummy.server.logcontext import log_context
from ginrummy.server.room import master, people, presenter
from ginrummy.server.room.base import Changed, RoomBase
from ginrummy.server.room.context import RoomContext
from ginrummy.server.room.duties import Duties
from ginrummy.server.room.errors import RoomError
from ginrummy.server.room.log import (
    REPLAY_ERRORS,
    News,
    Snapshot,
    carried,
    moved,
    news,
    notice_of,
)
from ginrummy.server.room.master import Change, Table
from ginrummy.server.room.outcome import outcome
from ginrummy.server.room.presence import PRESENCE_LIFETIME
from ginrummy.server.room.seats import SeatInfo, free_seat, is_person
from ginrummy.server.store import Event, Outcome, RoomRow, StoredRoom

log = logging.getLogger("ginrummy.server.room")


class Room(RoomBase[Snapshot, Seat, Duties]):
    """The master of one two-player room. Create and load with ``RoomManager``."""

    def __init__(
        self,
        ctx: RoomContext,
        row: RoomRow,
        seats: Mapping[Seat, SeatInfo],
        snapshot: Snapshot,
        settle_s: float = 0.0,
    ) -> None:
        """``settle_s``: seconds to listen to other instances before any grace period."""
        super().__init__(ctx, row, tuple(Seat), snapshot, seats, settle_s)
        self.visibility = str(row.options.get("visibility", "private"))
        self.rated = bool(row.options.get("rated", False))
        self.tournament: str | None = row.options.get("tournament")  # its match's tournament
        # the tournament's name and the match's round, for the table (None: not a
        # tournament's room, or one opened before rooms kept them)
        self.tournament_name: str | None = row.options.get("tournament_name")
        self.tournament_round: int | None = row.options.get("tournament_round")
        dealer = row.options.get("first_dealer")  # chosen by the tournament, else drawn
        self.first_dealer = None if dealer is None else Seat.parse(str(dealer))
        self._public = presenter.PublicPart(self.rules)
        self.duties = Duties(self, ctx)
        self._offered: bool | None = None  # open_to_join as this instance's lobby last saw

    # --- reading --------------------------------------------------------------------

    def snapshot_at(self, version: int) -> Snapshot:
        """The snapshot of ``version`` if still kept, else the current one."""
        return self.history.at(version)

    @property
    def table(self) -> Table:
        wait = self.ctx.tuning.seed_timeout > 0
        one_match = self.tournament is not None
        return Table(
            self.current, self.seats, self.rules, self.id, wait, self.first_dealer, one_match
        )

    @property
    def status(self) -> str:
        if free_seat(self.seats) is not None:
            return "waiting"
        return "over" if self.current.over else "playing"

    @property
    def public(self) -> bool:
        return self.visibility == "public"

    @property
    def listed(self) -> bool:
        """The lobby lists it: a public room, waiting or playing (kept loaded then)."""
        return self.public and not self.broken and self.status != "over"

    @property
    def open_to_join(self) -> bool:
        """The lobby offers its free seat: a listed table waiting for an opponent while
        its host is there. A new table counts as hosted for as long as the other
        instances need to hear of its host's socket; one whose host left is not
        offered (whoever took the seat would play someone who is gone) until the host
        is back."""
        if not self.listed or self.status != "waiting":
            return False
        settle = PRESENCE_LIFETIME * self.ctx.tuning.presence_interval
        return self.connected(Seat.ONE) or self.ctx.clock.now() - self.created < settle

    async def presence_changed(self) -> None:
        offered = self.open_to_join
        if offered != self._offered:
            self._offered = offered
            log.info("room %s: the lobby %s its table", self.id, "offers" if offered else "hides")
            await self.ctx.owner.listing_changed()

    def person(self, seat: Seat) -> bool:
        return is_person(self.seats, seat)

    def summary(self, seat: Seat) -> dict[str, Any] | None:
        player = self.player_of.get(seat)
        return None if player is None else players_.summary(player)

    @property
    def online(self) -> dict[Seat, int]:  # this instance's sockets per seat
        return self.presence.online

    def players(self, snap: Snapshot | None = None) -> dict[str, Any]:
        return presenter.players(self, snap or self.current)

    def info(self, your_seat: Seat | None = None) -> dict[str, Any]:
        return presenter.info(self, your_seat)

    def view(self, seat: Seat | None, snap: Snapshot | None = None) -> SeatView | SpectatorView:
        return presenter.view(self.rules, seat, snap or self.current)

    def public_part(self, snap: Snapshot) -> tuple[str, str | None]:
        return self._public.of(snap)

    def record(self) -> MatchRecord:
        """The current match's record (decks included): only once it is over."""
        return presenter.record(self.current)

    # --- commands (each under the lock) ---------------------------------------------

    def logged(self, seat: Seat | None = None) -> AbstractContextManager[None]:
        """Log lines of a command name this room (and the seat it is for)."""
        return log_context(room=self.id, seat=None if seat is None else seat.label)

    def move(self, key: Seat, version: int, text: str) -> Change:
        return master.act(self.table, key, version, text)

    async def next_round(self, seat: Seat) -> None:
        """``seat`` is ready for the next round; deal when every person is."""
        with self.logged(seat):
            await self._ask(lambda t: master.ready(t, seat), "not_between_rounds")

    async def new_match(self, seat: Seat) -> None:
        """``seat`` wants a rematch; a new match starts when every person does."""
        with self.logged(seat):
            await self._ask(lambda t: master.rematch(t, seat, self.ctx.rng), "match_running")

    async def seed(self, seat: Seat, text: str, committed: str | None = None) -> None:
        """``seat``'s seed for the deal due (docs/fairness.md); the deal once both are in.
        Asked again after a lost write race: the seed may still be due."""
        with self.logged(seat):
            await self._ask(lambda t: master.seed(t, seat, text, committed), "seed_already_sent")

    async def seeds_timed_out(self, committed: str) -> None:
        """The seed timeout of the deal under ``committed`` ran out: default seeds, deal."""
        await self.run(lambda: master.default_seeds(self.table, committed))

    async def end_by_forfeit(
        self, seat: Seat, reason: ForfeitReason, version: int | None = None
    ) -> None:
        """``seat`` loses the match (timer, abandonment, resignation), logged as an event.
        With ``version``: only if the room is still there (a timer of that decision)."""

        with self.logged(seat):
            await self.run_unless_moved(
                version, lambda: master.end_by_forfeit(self.table, seat, reason)
            )

    async def claim(self, seat: Seat) -> None:
        """``seat`` claims the match: the opponent left and its grace period is over.
        Decided under the lock: an opponent back meanwhile is not forfeited."""
        other = seat.other

        def claim() -> Change:
            left, back = self.grace_remaining_ms(other), self.presence.anywhere(other) > 0
            return master.claim(self.table, seat, left, back)

        with self.logged(seat):
            await self.run(claim)

    # --- taking a seat (the core's ``join``) ---------------------------------------------

    full_message = "both seats are taken"

    def label(self, key: Seat) -> str:
        return key.label

    def seat_change(self, key: Seat, info: SeatInfo) -> Change:
        # The seat's identity is in the table: a deal due now may give its default seed.
        return master.take_seat(replace(self.table, seats={**self.seats, key: info}), key)

    async def seated(self, key: Seat) -> None:
        await self.announce(key)

    async def _ask(self, command: Callable[[Table], Change], done_code: str) -> None:
        """Run an idempotent ask (ready, rematch). If it lost a write race to another
        server instance, the room has caught up: ask again on the new state; if the
        other instance already did what was asked, that is success."""
        for attempt in range(3):
            try:
                await self.run(lambda: command(self.table))
                return
            except RoomError as exc:
                if attempt and exc.code == done_code:
                    return
                if exc.code != "stale_version" or attempt == 2:
                    raise

    # --- what a written change does here ---------------------------------------------

    def outcome(self, change: Changed[Snapshot]) -> Outcome | None:
        """The end of a match writes its results (and rating changes) in the same
        transaction as its last event."""
        if not master.ends_match(change.snaps, self.current):
            return None
        end = change.snaps[-1]
        assert end.match is not None
        bots = {seat: info.bot for seat, info in self.seats.items()}
        now = self.ctx.clock.now()
        return outcome(self.id, end.match, end.match_seq, self.player_of, bots, self.rated, now)

    async def written(self, change: Changed[Snapshot], before: Snapshot) -> None:
        ends = master.ends_match(change.snaps, before)
        if ends:  # new ratings: every loaded room shows them
            for player in (await people.reread(self.ctx.store, self.player_of)).values():
                self.ctx.owner.player_changed(player)
        await self.settle(change.snaps, change.events, tell=True)
        if ends:
            self.ctx.owner.match_ended(self)

    def notice(self, event: Event) -> dict[str, Any]:
        return notice_of(event)

    def carried(self, notice: Mapping[str, Any]) -> Event | None:
        return carried(notice)

    async def told_registry(self) -> None:
        await self.ctx.owner.room_changed(self)

    # --- life: opened, loaded, caught up --------------------------------------------

    async def take_in(self, stored: StoredRoom) -> bool:
        try:
            new = news(self.current, stored)
        except REPLAY_ERRORS as exc:
            self.damaged(exc)
        return await self._take(new)

    async def take_carried(self, event: Event) -> bool:
        try:
            new = moved(self.current, self.seats, event)
        except REPLAY_ERRORS as exc:
            self.damaged(exc)
        return await self._take(new)

    async def _take(self, new: News) -> bool:
        """Settle what another instance wrote (read from the log, or carried)."""
        seated, self.seats = new.seats != self.seats, new.seats
        if not new.events:
            return False
        was_over = self.current.over
        persons = {seat for seat, info in self.seats.items() if info.identity_hash is not None}
        if seated or new.more_than_moves or persons != set(self.player_of):
            # New people, or ratings changed with a match's end: ask the store. Plain
            # moves change no player (a store write per seat per move otherwise).
            await self.load_players()
        await self.settle(new.snaps)
        log.info("room %s: caught up to version %d", self.id, self.current.version)
        if self.current.over and not was_over:
            self.ctx.owner.match_ended(self)
        return True

    # --- the duties in time (see duties.py) ------------------------------------------

    @property
    def grace(self) -> Mapping[Seat, float]:
        """The running grace periods: seat -> when it ends."""
        return self.duties.graces.ends

    def timer(self, snap: Snapshot | None = None) -> dict[str, Any] | None:
        """The move timer of ``snap`` (the current one): whose, time left, total."""
        return self.duties.timer((snap or self.current).version)

    @property
    def holds_lease(self) -> bool:
        """This instance holds the room's lease: it alone makes the computer's moves and
        ends the move timer and grace periods (docs/operations.md, several instances)."""
        return self.duties.lease.holds

    def work_due(self) -> bool:
        """A computer to move, a move timer or a grace period running."""
        return self.duties.work_due()

    def schedule_bot(self) -> None:
        """Start the computer's move if it is its turn and it is not already thinking."""
        self.duties.schedule_computer()
