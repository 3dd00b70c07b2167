"""The tournaments of the server: the commands people send (create, join, leave,
start, withdraw), each decided by the pure core on the tournament's log and appended
with optimistic concurrency; the news of every change to every instance; the lobby's
list of open and running public tournaments.

Any instance takes commands; one instance at a time (the lease holder, ``driver``)
opens the match rooms, records results and pairs the next round.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import weakref
from collections.abc import Callable, Collection, Iterable, Mapping
from dataclasses import replace
from typing import Any

from ginrummy.engine import ForfeitReason
from ginrummy.protocol import to_json
from ginrummy.server.pubsub import Subscription
from ginrummy.server.pubsub.memory import MemoryBus
from ginrummy.server.room import Room, RoomManager
from ginrummy.server.store import Player, StoreConflict, StoreError
from ginrummy.server.tokens import new_room_id
from ginrummy.server.tournaments import matches, records, view
from ginrummy.server.tournaments.driver import PairingDriver
from ginrummy.server.tournaments.matches import new_match_id
from ginrummy.server.tournaments.records import Loaded
from ginrummy.tournament import (
    Entrant,
    Event,
    Phase,
    Settings,
    Tournament,
    TournamentError,
    commands,
    fold,
)

log = logging.getLogger("ginrummy.server.tournaments")

TOPIC = "tournaments"  # the bus topic: a tournament changed (any instance)
LISTED = 50  # tournaments the lobby lists at most
KEPT_VIEWS = 1000  # the newest views of changed tournaments, for the lobby sockets
KEPT_STATES = 200  # tournaments whose last read is kept: a read folds on newer events only
ATTEMPTS = 5  # a command lost to another writer is decided anew this often
PLAYED_LISTED = 20  # tournaments a player's statistics page lists at most


def topic_of(tournament_id: str) -> str:
    """The topic of ``news`` on which this instance's lobby sockets watching the
    tournament hear of its changes."""
    return f"{TOPIC}:{tournament_id}"


class UnknownTournament(LookupError):
    """No tournament has this id."""


class Contended(RuntimeError):
    """Other writers kept winning: the command was not applied."""


Decide = Callable[[Tournament], tuple[Event, ...]]


class TournamentService:
    def __init__(self, rooms: RoomManager, tick: float = 1.0, lease_ttl: float = 10.0) -> None:
        self.rooms = rooms
        self.news = MemoryBus()  # this instance's lobby sockets: topic_of(id), {"id": ...}
        self.listing: dict[str, dict[str, Any]] = {}  # live public tournaments' summaries
        self.latest: dict[str, dict[str, Any]] = {}  # the full view of each news
        self._frames: dict[str, tuple[int, str]] = {}  # id -> (version, its encoded frame)
        self._states: dict[str, Loaded] = {}  # the last read of each tournament (KEPT_STATES)
        # One writer at a time per tournament on this instance: the lease holder's
        # results of simultaneous matches would otherwise race each other to the store.
        self._writers: weakref.WeakValueDictionary[str, asyncio.Lock] = (
            weakref.WeakValueDictionary()
        )
        self.driver = PairingDriver(self, tick, lease_ttl)
        self._task: asyncio.Task[None] | None = None
        rooms.on_match_end(self._match_ended)

    # --- start, stop, news ------------------------------------------------------

    async def start(self) -> None:
        sub = self.rooms.bus.subscribe(TOPIC)  # first: no change falls in between
        for row in await self.rooms.store.live_tournaments():
            if row.public:
                await self._refresh(row.id)
        self._task = asyncio.create_task(self._follow(sub))
        self.driver.start()

    async def close(self) -> None:
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        await self.driver.close()

    def _match_ended(self, room: Room) -> None:
        """A tournament's match ended in a room loaded here: if this instance pairs the
        tournament, it records the result (and pairs the next round) now."""
        if room.tournament is not None:
            self.driver.kick()

    async def _follow(self, sub: Subscription) -> None:
        try:
            while True:
                notice = await sub.get()
                tid = notice.get("id")
                try:
                    if isinstance(tid, str):
                        await self._refresh(tid, notice.get("version"))
                    elif notice.get("kind") == "resync":
                        for row in await self.rooms.store.live_tournaments():
                            await self._refresh(row.id)
                except (StoreError, records.DamagedLog) as exc:
                    log.warning("tournaments: cannot follow %s: %s", dict(notice), exc)
        finally:
            sub.close()

    async def _refresh(self, tournament_id: str, version: object = None) -> None:
        """Read a changed tournament (unless this instance keeps ``version`` already: it
        wrote it), keep the lobby's list, tell this instance's sockets."""
        kept = self.latest.get(tournament_id, {}).get("version", 0)
        if not isinstance(version, int) or kept < version:
            loaded = await self._read(tournament_id)
            if loaded is None:
                return
            self._keep(loaded)
        await self.news.publish(topic_of(tournament_id), {"id": tournament_id})
        await self.rooms.tell_lobby()

    def _keep(self, loaded: Loaded) -> None:
        if self.latest.get(loaded.id, {}).get("version", 0) > loaded.version:
            return  # an older read than the one kept
        self.latest.pop(loaded.id, None)  # the newest last: the oldest go first
        self.latest[loaded.id] = view.full(loaded)
        while len(self.latest) > KEPT_VIEWS:
            oldest = next(iter(self.latest))
            del self.latest[oldest]
            self._frames.pop(oldest, None)
        live = loaded.state.phase is not Phase.FINISHED
        if live and loaded.state.settings.public:
            self.listing[loaded.id] = view.summary(loaded)
        else:
            self.listing.pop(loaded.id, None)

    def shown(self, tournament_id: str) -> tuple[dict[str, Any], str] | None:
        """The newest view of a changed tournament and its ``tournament`` frame for the
        lobby sockets, encoded once for all of them (tens of kilobytes for 64 players)."""
        shown = self.latest.get(tournament_id)
        if shown is None:
            return None
        frame = self._frames.get(tournament_id)
        if frame is None or frame[0] != shown["version"]:
            frame = (shown["version"], to_json({"type": "tournament", "tournament": shown}))
            self._frames[tournament_id] = frame
        return shown, frame[1]

    def lobby(self) -> list[dict[str, Any]]:
        """Open and running public tournaments, newest first."""
        return sorted(self.listing.values(), key=lambda t: (-t["created"], t["id"]))[:LISTED]

    async def changed(self, loaded: Loaded) -> None:
        self._keep(loaded)
        notice = {"kind": "tournament", "id": loaded.id, "version": loaded.version}
        await self.rooms.bus.publish(TOPIC, notice)
        if loaded.state.phase is Phase.RUNNING:
            self.driver.kick()

    async def reread(self, tournament_ids: Iterable[str]) -> None:
        """Your data: these tournaments' logs were rewritten in place (an erased
        player's name): read them whole again and show them anew on this instance."""
        for tournament_id in tournament_ids:
            self._states.pop(tournament_id, None)
            self.latest.pop(tournament_id, None)
            await self._refresh(tournament_id)

    # --- reading and commands --------------------------------------------------

    async def get(self, tournament_id: str) -> Loaded:
        """The tournament as its log in the store has it now."""
        loaded = await self._read(tournament_id)
        if loaded is None:
            raise UnknownTournament(f"there is no tournament {tournament_id!r}")
        return loaded

    async def _read(self, tournament_id: str) -> Loaded | None:
        """Read the tournament: only the events past the last read are folded on (the
        whole log if none is kept, or if that does not fold)."""
        kept = self._states.get(tournament_id)
        try:
            loaded = await records.load(self.rooms.store, tournament_id, kept)
        except records.DamagedLog:
            if kept is None:
                raise
            self._states.pop(tournament_id, None)
            loaded = await records.load(self.rooms.store, tournament_id)
        if loaded is not None:
            self._remember(loaded)
        return loaded

    def _remember(self, loaded: Loaded) -> None:
        kept = self._states.pop(loaded.id, None)
        self._states[loaded.id] = loaded if kept is None or kept.version <= loaded.version else kept
        while len(self._states) > KEPT_STATES:
            del self._states[next(iter(self._states))]

    async def current(self, tournament_id: str) -> tuple[dict[str, Any], str] | None:
        """The tournament's view and frame as its log has it now (``shown``), for a
        socket that has just begun to watch it; None for an unknown tournament, and for
        one whose log does not fold (logged: the page has its HTTP answer)."""
        try:
            loaded = await self._read(tournament_id)
        except records.DamagedLog as exc:
            log.error("tournament %s: not shown to a new socket: %s", tournament_id, exc)
            return None
        if loaded is None:
            return None
        self._keep(loaded)
        return self.shown(tournament_id)

    async def table_of(self, room_id: str, player: str) -> tuple[str, str] | None:
        """Where ``player``, at the table of a tournament's match ``room_id``, plays
        now: the room and seat of their match of the current round if it is still being
        played, its room is open and it is another room than ``room_id``; else None. A
        page at the table asks it when its socket (re)connects: a ``matched`` sent
        while it was away is not lost."""
        table = await self.rooms.get(room_id)
        if table is None or table.tournament is None:
            return None
        try:
            state = (await self.get(table.tournament)).state
        except UnknownTournament:
            return None
        except records.DamagedLog as exc:
            log.error(
                "tournament %s: no next table for room %s: %s", table.tournament, room_id, exc
            )
            return None
        now = state.current
        pairing = next((p for p in now.pending() if player in p.players), None) if now else None
        if pairing is None or pairing.match_id in (None, room_id):
            return None
        room = await self.rooms.get(pairing.match_id)
        if room is None:
            return None  # not open yet: its ``matched`` is still to come
        seat = next(s for s, p in matches.seats(state, pairing).items() if p == player)
        return room.id, seat.label

    async def played_by(self, player: str) -> list[dict[str, Any]]:
        """The tournaments ``player`` played (``view.played``), newest first."""
        out = []
        for row in await self.rooms.store.player_tournaments(player, PLAYED_LISTED):
            try:
                loaded = await records.load(self.rooms.store, row.id)
            except records.DamagedLog as exc:
                log.error("tournament %s: not listed for player %s: %s", row.id, player, exc)
                continue
            entry = None if loaded is None else view.played(loaded, player)
            if entry is not None:
                out.append(entry)
        return out

    async def run(
        self,
        tournament_id: str,
        decide: Decide,
        identities: Mapping[str, str] | None = None,
    ) -> Loaded:
        """Decide on the tournament as stored and append the events; decided anew if
        another writer appended first. ``TournamentError`` if the core refuses.

        The commands of one tournament run one after the other on this instance (a
        round's matches often end together), so only another instance's write can
        make one decide anew."""
        lock = self._writers.get(tournament_id)
        if lock is None:
            lock = self._writers[tournament_id] = asyncio.Lock()
        async with lock:
            return await self._run(tournament_id, decide, identities)

    async def _apart(
        self, state: Tournament, joining: Collection[str] = ()
    ) -> frozenset[frozenset[str]]:
        """The pairs of the tournament's people (and of ``joining``, whose join may start
        it) of whom one blocks the other, for a Swiss round or a knockout's first round to
        keep apart (a knockout's later rounds follow from its bracket)."""
        if state.phase is Phase.FINISHED or (state.is_knockout and state.rounds):
            return frozenset()
        people = {p for p in (*state.players, *joining) if not p.startswith("computer:")}
        pairs: set[frozenset[str]] = set()
        for player in people:
            for other in await self.rooms.store.blocks_of(player):
                if other in people:
                    pairs.add(frozenset((player, other)))
        return frozenset(pairs)

    async def _run(
        self, tournament_id: str, decide: Decide, identities: Mapping[str, str] | None
    ) -> Loaded:
        for _ in range(ATTEMPTS):
            loaded = await self.get(tournament_id)
            apart = await self._apart(loaded.state, list(identities or ()))
            state = replace(loaded.state, apart=apart)
            # A command may pair a Swiss round (a few ms for 64): off the event loop.
            events = await asyncio.to_thread(decide, state)
            if not events:
                return loaded
            try:
                after = await records.append(self.rooms.store, loaded, events, identities)
            except StoreConflict:
                log.info("tournament %s: version %d was written elsewhere", tournament_id,
                         loaded.version + 1)  # fmt: skip
                continue
            log.info(
                "tournament %s: %s", tournament_id, ", ".join(type(e).__name__ for e in events)
            )
            self._remember(after)
            await self.changed(after)
            return after
        raise Contended(f"tournament {tournament_id}: other writers kept winning")

    async def create(
        self, settings: Settings, identity_hash: str, player: Player, *, play: bool = False
    ) -> Loaded:
        """A new tournament; ``play``: its creator takes the first place in the same
        write (create and play: never a tournament created without its creator)."""
        now = self.rooms.clock.now()
        created = commands.create(settings, player.id, at=now)
        joined: tuple[Event, ...] = ()
        if play:
            entrant = Entrant(player.id, player.name, player.rating)
            joined = commands.join(fold(None, created), entrant, at=now, match_ids=new_match_id)
        loaded = await records.create(
            self.rooms.store, new_room_id(), created, {player.id: identity_hash}, joined
        )
        log.info("tournament %s created: %s, %d places%s", loaded.id, settings.format.value,
                 settings.max_players, ", its creator playing" if play else "")  # fmt: skip
        await self.changed(loaded)
        return loaded

    async def join(self, tournament_id: str, identity_hash: str, player: Player) -> Loaded:
        entrant = Entrant(player.id, player.name, player.rating)
        now = self.rooms.clock.now()
        return await self.run(
            tournament_id,
            lambda t: commands.join(t, entrant, at=now, match_ids=new_match_id),
            {player.id: identity_hash},
        )

    async def leave(self, tournament_id: str, player: Player) -> Loaded:
        now = self.rooms.clock.now()
        return await self.run(tournament_id, lambda t: commands.leave(t, player.id, at=now))

    async def start_now(self, tournament_id: str, player: Player) -> Loaded:
        now = self.rooms.clock.now()
        return await self.run(
            tournament_id,
            lambda t: commands.start(t, at=now, by=player.id, match_ids=new_match_id),
        )

    async def withdraw(self, tournament_id: str, player: Player) -> Loaded:
        """Withdraw; a match being played is forfeited, and its room's match ends too."""
        now = self.rooms.clock.now()
        before = await self.get(tournament_id)
        after = await self.run(
            tournament_id, lambda t: commands.withdraw(t, player.id, at=now, match_ids=new_match_id)
        )
        current = before.state.current
        for pairing in current.pending() if current is not None else ():
            if player.id in pairing.players and pairing.match_id is not None:
                room = await self.rooms.get(pairing.match_id)
                if room is not None:
                    await matches.forfeit(
                        room, before.state, pairing, player.id, ForfeitReason.RESIGNED
                    )
        return after


__all__ = ["Contended", "TournamentError", "TournamentService", "UnknownTournament", "topic_of"]
