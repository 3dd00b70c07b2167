"""The pairing instance: for each live tournament, the one instance holding its lease
(``"t:<id>"``) starts it at its start time, opens the rooms of its matches, records
how they end (or who did not come), and so pairs the next round through the core.

Nothing is kept that the store does not have: every sweep reads each tournament it
holds from its log (the events past the service's last read of it, folded on), so an
instance killed at any point loses nothing; the next holder (after the lease runs
out) carries on from the log and the rooms' logs. What only lives here is when this
instance first saw a match waiting for its players: a new holder gives absent players
a fresh grace period.

The metrics time each round's turnover: from the start of recording the result that
paired the next round to that round's rooms opened (their deals due).

A sweep runs every ``tick`` and at once when something changed: a command, or a
tournament's match ending in a room loaded here (so its result is recorded and the
next round paired and opened without waiting for the tick). A held lease is written
again only after a third of its lifetime, not on every sweep.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ginrummy.engine import Seat
from ginrummy.server.room import Room, RoomError, RoomManager
from ginrummy.server.store import StoreError
from ginrummy.server.tournaments import matches, records
from ginrummy.server.tournaments.records import Loaded
from ginrummy.tournament import Pairing, Phase, TournamentError, commands

if TYPE_CHECKING:
    from ginrummy.server.tournaments.service import TournamentService

log = logging.getLogger("ginrummy.server.tournaments")

PROGRESS = 3  # room events past the opening that show both players came
RENEWALS = 3  # a held lease is written again after a third of its lifetime


def lease_key(tournament_id: str) -> str:
    return f"t:{tournament_id}"


@dataclass(slots=True)
class Waiting:
    """A match this instance watches for no-shows."""

    since: float  # the clock when this instance first saw the match
    opening: int  # the room's version then
    seen: set[str] = field(default_factory=set)  # players who had a socket in the room


class PairingDriver:
    def __init__(self, service: TournamentService, tick: float, lease_ttl: float) -> None:
        self.service = service
        self.tick = tick
        self.lease_ttl = lease_ttl
        self.held: set[str] = set()  # tournaments whose lease this instance holds
        self._renewed: dict[str, float] = {}  # held tournament -> monotonic time of renewal
        self._waiting: dict[str, Waiting] = {}  # match id -> its watch
        self._computers: dict[str, asyncio.Task[None]] = {}  # match id -> its play
        # tournament id -> when the result that paired its next round came (perf_counter)
        self._paired: dict[str, float] = {}
        self._task: asyncio.Task[None] | None = None
        self._wake = asyncio.Event()

    @property
    def rooms(self) -> RoomManager:
        return self.service.rooms

    def start(self) -> None:
        self._task = asyncio.create_task(self._loop())

    def kick(self) -> None:
        """Something changed: sweep now rather than at the next tick."""
        self._wake.set()

    async def close(self) -> None:
        tasks = [t for t in (self._task, *self._computers.values()) if t is not None]
        self._task = None
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task
        for tid in sorted(self.held):
            try:
                await self.rooms.store.release_lease(lease_key(tid), self.rooms.instance_id)
            except StoreError as exc:  # it runs out by itself
                log.error("tournament %s: cannot release its lease: %s", tid, exc)
        self.held.clear()
        self._renewed.clear()
        self._paired.clear()

    async def _loop(self) -> None:
        while True:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), self.tick)
            self._wake.clear()
            try:
                await self.sweep()
            except StoreError as exc:
                log.warning("tournaments: the sweep failed: %s", exc)
            except Exception:  # the loop must outlive one bad sweep
                log.exception("tournaments: the sweep failed")

    async def sweep(self) -> None:
        """Take or renew the lease of every live tournament that is free; drive those held."""
        store, me = self.rooms.store, self.rooms.instance_id
        rows = await store.live_tournaments()
        for gone in self.held - {row.id for row in rows}:  # finished: nothing left to pair
            self.held.discard(gone)
            self._renewed.pop(gone, None)
            await store.release_lease(lease_key(gone), me)
        for row in rows:
            if not await self._hold(row.id):
                continue
            try:
                await self.drive(row.id)
            except (TournamentError, records.DamagedLog, RoomError, StoreError) as exc:
                log.error("tournament %s: cannot go on now: %s", row.id, exc)
            except Exception:  # one tournament's failure must not stop the others
                log.exception("tournament %s: driving it failed", row.id)

    async def _hold(self, tournament_id: str) -> bool:
        """Take or renew the tournament's lease; True if this instance holds it. A
        lease renewed less than a third of its lifetime ago is not written again."""
        now = time.monotonic()
        renewed = self._renewed.get(tournament_id)
        if renewed is not None and now - renewed < self.lease_ttl / RENEWALS:
            return True
        store, me = self.rooms.store, self.rooms.instance_id
        if not await store.acquire_lease(lease_key(tournament_id), me, self.lease_ttl):
            self.held.discard(tournament_id)
            self._renewed.pop(tournament_id, None)
            return False
        self._renewed[tournament_id] = now
        if tournament_id not in self.held:
            log.info("tournament %s: this instance pairs it now", tournament_id)
            self.held.add(tournament_id)
        return True

    async def drive(self, tournament_id: str) -> None:
        loaded = await self.service.get(tournament_id)
        state = loaded.state
        now = self.rooms.clock.now()
        start_at = state.settings.start_at
        if state.phase is Phase.OPEN and start_at is not None and now >= start_at:
            await self.service.run(
                tournament_id,
                lambda t: commands.start(t, at=now, by=None, match_ids=matches.new_match_id),
            )
            return
        now_on: Loaded | None = loaded
        fresh = False
        while now_on is not None:  # a result may pair the next round: open it at once
            now_on = await self._round(now_on, fresh)
            fresh = True  # paired by this instance just now: its rooms are new

    async def _round(self, loaded: Loaded, fresh: bool = False) -> Loaded | None:
        """Open the current round's rooms (all at once: the store writes them together;
        ``fresh``: a round this instance has just paired, whose rooms no instance has
        opened), then record the matches that ended and the no-shows. The tournament as
        a recording left it if that paired the next round, else None."""
        state = loaded.state
        current = state.current
        if state.phase is not Phase.RUNNING or current is None:
            return None
        people = []
        for pairing in current.pending():
            if matches.computers_only(state, pairing):
                self._computers_play(loaded, pairing)
            else:
                people.append(pairing)
        identities = dict(loaded.identities)
        opened = await asyncio.gather(
            *(
                matches.open_room(self.rooms, loaded.id, state, p, identities, fresh=fresh)
                for p in people
            ),
            return_exceptions=True,
        )
        since = self._paired.pop(loaded.id, None)
        if since is not None:  # the round a result of the last one paired: under way
            self.rooms.metrics.turnover.observe(time.perf_counter() - since)
        for pairing, room in zip(people, opened, strict=True):
            if isinstance(room, (RoomError, StoreError)):
                log.error("tournament %s: cannot open match %s: %s", loaded.id,
                          pairing.match_id, room)  # fmt: skip
                continue
            if isinstance(room, BaseException):
                raise room
            after = await self._match(loaded, pairing, room)
            if after is not None and len(after.state.rounds) > len(state.rounds):
                return after
        return None

    def _computers_play(self, loaded: Loaded, pairing: Pairing) -> None:
        assert pairing.match_id is not None
        if pairing.match_id not in self._computers:
            task = asyncio.create_task(self._play_computers(loaded, pairing))
            self._computers[pairing.match_id] = task

    async def _match(self, loaded: Loaded, pairing: Pairing, room: Room) -> Loaded | None:
        """Record the match's end or its no-shows, if due: the tournament after it."""
        state = loaded.state
        match_id = pairing.match_id
        assert match_id is not None
        end = await matches.ended(self.rooms, state, pairing, room)
        if end is not None:
            return await self._record(loaded, match_id, end)
        absent = self._absent(loaded, pairing, room)
        if not absent:
            return None
        now, since = self.rooms.clock.now(), time.perf_counter()
        after = await self.service.run(
            loaded.id,
            lambda t: commands.no_show(t, match_id, absent, at=now, match_ids=matches.new_match_id),
        )
        self._note_paired(loaded, after, since)
        self._waiting.pop(match_id, None)
        for player in absent:
            await matches.forfeit(room, state, pairing, player)
        return after

    def _absent(self, loaded: Loaded, pairing: Pairing, room: Room) -> list[str]:
        """The people of the match who have not come within the grace period."""
        assert pairing.match_id is not None
        now = self.rooms.clock.now()
        watch = self._waiting.setdefault(pairing.match_id, Waiting(now, room.current.version))
        where = matches.seats(loaded.state, pairing)
        for seat in Seat:
            if room.connected(seat):
                watch.seen.add(where[seat])
        if room.current.version >= watch.opening + PROGRESS:
            return []  # they are playing: whoever leaves now is the room's to forfeit
        if now - watch.since < loaded.state.settings.grace_seconds:
            return []
        return [p for p in pairing.players if p not in watch.seen]

    async def _record(self, loaded: Loaded, match_id: str, end: matches.Ended) -> Loaded | None:
        tournament_id = loaded.id
        now, since = self.rooms.clock.now(), time.perf_counter()
        after = None
        try:
            after = await self.service.run(
                tournament_id,
                lambda t: commands.record_result(
                    t, match_id, end.winner, end.points, at=now, match_ids=matches.new_match_id
                ),
            )
        except TournamentError as exc:  # decided meanwhile (a no-show, a withdrawal)
            log.info("tournament %s: result of %s not recorded: %s", tournament_id, match_id, exc)
        self._note_paired(loaded, after, since)
        self._waiting.pop(match_id, None)
        return after

    def _note_paired(self, before: Loaded, after: Loaded | None, since: float) -> None:
        """A change begun at ``since`` paired the next round: its turnover runs from then."""
        if after is not None and len(after.state.rounds) > len(before.state.rounds):
            self._paired.setdefault(before.id, since)

    async def _play_computers(self, loaded: Loaded, pairing: Pairing) -> None:
        assert pairing.match_id is not None
        try:
            end = await matches.play_computers(loaded.state, pairing, self.rooms.thinker)
            await self._record(loaded, pairing.match_id, end)
        except Exception:
            log.exception("tournament %s: the computers' match %s failed", loaded.id,
                          pairing.match_id)  # fmt: skip
        finally:
            self._computers.pop(pairing.match_id, None)
            self._wake.set()
