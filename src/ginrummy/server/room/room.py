"""One room: its state, its parts, and the one place where accepted changes take effect.

Every change runs under the room's lock: a command of the master (``master``) decides
on the current ``Table`` and answers events with their snapshots; the room writes them
(with the match's results when it ends), then ``_settle`` applies the effects in one
place: history, move timer, grace periods, computer, notices, lobby. Nothing is
published (nor the in-memory state changed) before the store has the events.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence
from contextlib import AbstractContextManager
from dataclasses import replace
from typing import Any

from ginrummy.engine import ForfeitReason, MatchRecord, Seat, SeatView, SpectatorView
from ginrummy.server import players as players_
from ginrummy.server.logcontext import log_context
from ginrummy.server.room import master, people, presenter
from ginrummy.server.room.base import RoomBase
from ginrummy.server.room.context import RoomContext
from ginrummy.server.room.duties import Duties
from ginrummy.server.room.errors import RoomError
from ginrummy.server.room.log import REPLAY_ERRORS, History, News, Snapshot, moved, news, notice_of
from ginrummy.server.room.master import Change, Table
from ginrummy.server.room.outcome import outcome
from ginrummy.server.room.seats import SeatInfo, free_seat, is_person, seat_of
from ginrummy.server.store import (
    Event,
    Player,
    RoomRow,
    SeatRow,
    StoreConflict,
    StoredRoom,
    StoreError,
)

log = logging.getLogger("ginrummy.server.room")


class Room(RoomBase[Duties]):
    """The master of one room. Create and load with ``RoomManager``."""

    def __init__(
        self,
        ctx: RoomContext,
        row: RoomRow,
        seats: Mapping[Seat, SeatInfo],
        snapshot: Snapshot,
        settle_s: float = 0.0,
    ) -> None:
        """``settle_s``: seconds to listen to other instances before any grace period."""
        super().__init__(ctx, row, tuple(Seat), settle_s)
        self.visibility = str(row.options.get("visibility", "private"))
        self.rated = bool(row.options.get("rated", False))
        self.tournament: str | None = row.options.get("tournament")  # its match's tournament
        # the tournament's name and the match's round, for the table (None: not a
        # tournament's room, or one opened before rooms kept them)
        self.tournament_name: str | None = row.options.get("tournament_name")
        self.tournament_round: int | None = row.options.get("tournament_round")
        dealer = row.options.get("first_dealer")  # chosen by the tournament, else drawn
        self.first_dealer = None if dealer is None else Seat.parse(str(dealer))
        self.seats: dict[Seat, SeatInfo] = dict(seats)
        self.player_of: dict[Seat, Player] = {}  # people's players (not computers)
        self.history: History[Snapshot] = History(snapshot)
        self._public = presenter.PublicPart(self.rules)
        self.duties = Duties(self, ctx)

    # --- reading --------------------------------------------------------------------

    @property
    def current(self) -> Snapshot:  # the latest snapshot
        return self.history.current

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

    def seat_of(self, identity_hash: str | None) -> Seat | None:
        return seat_of(self.seats, identity_hash)

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
        """The lobby lists it: a public room, waiting or playing."""
        return self.public and not self.broken and self.status != "over"

    def person(self, seat: Seat) -> bool:
        return is_person(self.seats, seat)

    def summary(self, seat: Seat) -> dict[str, Any] | None:
        player = self.player_of.get(seat)
        return None if player is None else players_.summary(player)

    @property
    def online(self) -> dict[Seat, int]:  # this instance's sockets per seat
        return self.presence.online

    def connected(self, seat: Seat) -> bool:
        info = self.seats.get(seat)
        return info is not None and (info.bot is not None or self.presence.anywhere(seat) > 0)

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

    async def act(self, seat: Seat, version: int, text: str) -> None:
        """Play ``text`` for ``seat`` on the view of ``version``."""
        with self.logged(seat):
            async with self.lock:
                await self._run(lambda t: master.act(t, seat, version, text))
        self.ctx.metrics.applied(text)

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
        async with self.lock:
            await self._run(lambda t: master.default_seeds(t, committed))

    async def end_by_forfeit(
        self, seat: Seat, reason: ForfeitReason, version: int | None = None
    ) -> None:
        """``seat`` loses the match (timer, abandonment, resignation), logged as an event.
        With ``version``: only if the room is still there (a timer of that decision)."""
        with self.logged(seat):
            async with self.lock:
                if version is not None and version != self.current.version:
                    return
                await self._run(lambda t: master.end_by_forfeit(t, seat, reason))

    async def claim(self, seat: Seat) -> None:
        """``seat`` claims the match: the opponent left and its grace period is over.
        Checked under the lock: an opponent back meanwhile is not forfeited."""
        other = seat.other
        with self.logged(seat):
            async with self.lock:
                left, back = self.grace_remaining_ms(other), self.presence.anywhere(other) > 0
                await self._run(lambda t: master.claim(t, seat, left, back))

    async def join(self, identity_hash: str, name: str, player: Player) -> Seat:
        """Take the free seat (or return the one this identity already holds)."""
        async with self.lock:
            self.check_alive()
            mine = self.seat_of(identity_hash)
            if mine is not None:
                return mine
            seat = free_seat(self.seats)
            if seat is None:
                raise RoomError("room_full", "both seats are taken")
            info = SeatInfo(name, identity_hash, None)
            # The seat's identity is in the table: a deal due now may give its default seed.
            table = replace(self.table, seats={**self.seats, seat: info})
            change = master.take_seat(table, seat)
            row = SeatRow(seat.label, identity_hash, name, None)
            try:
                await self.ctx.store.claim_seat(self.id, row, change.events)
            except StoreConflict:
                # Taken meanwhile through another server instance.
                await self.catch_up_locked()
                mine = self.seat_of(identity_hash)
                if mine is not None:
                    return mine
                raise RoomError("room_full", "both seats are taken") from None
            except StoreError as exc:
                self.fail(exc)
            self.seats[seat] = info
            self.player_of[seat] = player
            log.info("room %s: %s", self.id, change.note)
            await self._settle(change.snaps, change.events, tell=True)
            await self.announce(seat)
        return seat

    async def _ask(self, command: Callable[[Table], Change], done_code: str) -> None:
        """Run an idempotent ask (ready, rematch) under the lock. If it lost a write
        race to another server instance, the room has caught up: ask again on the new
        state; if the other instance already did what was asked, that is success."""
        for attempt in range(3):
            async with self.lock:
                try:
                    await self._run(command)
                    return
                except RoomError as exc:
                    if attempt and exc.code == done_code:
                        return
                    if exc.code != "stale_version" or attempt == 2:
                        raise

    async def _run(self, command: Callable[[Table], Change]) -> None:
        """Decide on the current table, then commit. The caller holds the lock."""
        self.check_alive()
        change = command(self.table)
        if change.events:
            with self.logged():
                await self._commit(change)
                log.info("room %s: %s", self.id, change.note or change.events[-1].kind)

    async def _commit(self, change: Change) -> None:
        """Write, then settle. The end of a match writes its results (and rating
        changes) in the same transaction as its last event."""
        ends = change.ends_match(self.current)
        try:
            done = None
            if ends:  # the store rates the match in the transaction of its last event
                end = change.snaps[-1]
                assert end.match is not None
                bots = {seat: info.bot for seat, info in self.seats.items()}
                now = self.ctx.clock.now()
                done = outcome(
                    self.id, end.match, end.match_seq, self.player_of, bots, self.rated, now
                )
            await self.ctx.store.append_events(self.id, change.events, done)
        except StoreConflict as exc:
            # Another server instance wrote this version first (optimistic concurrency:
            # the log's (room, seq) key lets exactly one writer win). Nothing of ours was
            # written; take in what was and answer "stale" so the client resyncs.
            version = change.snaps[-1].version
            log.info("room %s: version %d was written elsewhere: %s", self.id, version, exc)
            await self.catch_up_locked()
            raise RoomError(
                "stale_version", "the game moved on meanwhile; here is the current state"
            ) from None
        except StoreError as exc:
            self.fail(exc)
        if ends:  # new ratings: every loaded room shows them
            for player in (await people.reread(self.ctx.store, self.player_of)).values():
                self.ctx.owner.player_changed(player)
        await self._settle(change.snaps, change.events, tell=True)
        if ends:
            self.ctx.owner.match_ended(self)

    async def _settle(
        self,
        snaps: Sequence[Snapshot],
        published: Sequence[Event] = (),
        *,
        tell: bool = False,
        remaining_ms: int | None = None,
    ) -> None:
        """The effects of what the store has, in one place: take the snapshots in, run
        the move timer and the grace periods, schedule the computer, publish the events
        and (``tell``) let the lobby know."""
        self.history.extend(snaps)
        self.duties.rearm(remaining_ms)
        for event in published:
            await self.ctx.bus.publish(self.topic, notice_of(event))
        if tell:
            await self.ctx.owner.room_changed(self)

    async def load_players(self) -> None:
        """Read the people's players (names, ratings) from the store."""
        self.player_of = await people.players_of(self.ctx.owner, self.seats)

    # --- life: opened, loaded, caught up --------------------------------------------

    async def opened(self, change: Change) -> None:
        """The store has the new room and its first events: take them in. It was
        followed before it was written, so it knows it has no chat yet."""
        self.chat.opened()
        await self._settle(change.snaps, tell=True)

    async def loaded(self, remaining_ms: int | None) -> None:
        """Rebuilt from the log: follow, run the clocks again (the move timer with the
        time it had left when the server stopped)."""
        self.follow()
        await self._settle((), remaining_ms=remaining_ms)

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
        await self._settle(new.snaps)
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

    # --- sockets and presence -------------------------------------------------------

    async def watch(self, delta: int) -> None:
        """A spectator socket came (+1) or went (-1): the players see how many watch."""
        self.touch()
        self.presence.watch(delta)
        await self.announce(None)
        await self.ctx.owner.room_changed(self)

    def renamed(self, player: Player) -> None:
        """A player's new name or rating: the room shows it from now on."""
        for seat, p in list(self.player_of.items()):
            if p.id == player.id:
                self.player_of[seat] = player
