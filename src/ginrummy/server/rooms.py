"""One authoritative master per room: check seat, version and turn; apply through the
engine; append to the event log; then publish (DESIGN.md principles 3 and 4).

A room's state is a ``Snapshot`` derived by folding its event log through the engine
(``fold``); the live path uses the same ``fold`` as the replay after a restart, so a
rebuilt room is the room that was. Every change runs under the room's lock, and
nothing is published (nor the in-memory state changed) before the store has the
events.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import secrets
import time
from collections import deque
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, NoReturn

from ginrummy.engine import (
    ActionKind,
    GinRummyError,
    MatchPhase,
    MatchRecord,
    MatchState,
    Rules,
    Seat,
    SeatView,
    SpectatorView,
    apply_match,
    cards_text,
    deal,
    draw_first_dealer,
    new_match,
    parse_cards,
    record_of,
    shuffled_deck,
    view_for_seat,
    view_for_spectator,
)
from ginrummy.protocol import ProtocolError, decode_action
from ginrummy.server.computer import computer_move
from ginrummy.server.pubsub import Bus
from ginrummy.server.store import Event, RoomRow, SeatRow, Store, StoreError
from ginrummy.server.tokens import new_room_id

log = logging.getLogger("ginrummy.server.rooms")

HISTORY = 64  # recent snapshots kept so each socket renders exactly the version it is told


class RoomError(Exception):
    """A refused request; ``code`` is the wire error code (docs/protocol.md)."""

    def __init__(self, code: str, message: str) -> None:
        self.code = code
        self.message = message
        super().__init__(message)


@dataclass(frozen=True, slots=True)
class Snapshot:
    """A room's match state after the event with seq ``version``."""

    version: int
    match: MatchState | None  # None only before the first "match" event
    ready: frozenset[Seat] = frozenset()  # people ready for the next round
    rematch: frozenset[Seat] = frozenset()  # people who want a new match


@dataclass(frozen=True, slots=True)
class SeatInfo:
    name: str
    identity_hash: str | None
    bot: str | None  # computer level, None for a person


def fold(snap: Snapshot, event: Event) -> Snapshot:
    """The snapshot after ``event``; raises ``GinRummyError`` if the engine refuses it."""
    if event.seq != snap.version + 1:
        raise GinRummyError(f"event {event.seq} follows version {snap.version}")
    p = event.payload
    after = replace(snap, version=event.seq)
    if event.kind == "match":
        rules = Rules.from_dict(dict(p["rules"]))
        return Snapshot(event.seq, new_match(rules, Seat.parse(str(p["first_dealer"]))))
    match = snap.match
    if match is None:
        raise GinRummyError(f"event {event.seq} ({event.kind}) before the match was set up")
    if event.kind == "deal":
        return replace(after, match=deal(match, parse_cards(str(p["deck"]))), ready=frozenset())
    seat = Seat.parse(str(p["seat"]))
    if event.kind == "action":
        if match.turn is not seat:
            raise GinRummyError(f"event {event.seq}: it is not seat {seat.label}'s turn")
        return replace(after, match=apply_match(match, decode_action(p["action"])))
    if event.kind == "ready":
        return replace(after, ready=snap.ready | {seat})
    if event.kind == "rematch":
        return replace(after, rematch=snap.rematch | {seat})
    raise GinRummyError(f"unknown event kind {event.kind!r}")


def replay(events: Sequence[Event]) -> Snapshot:
    snap = Snapshot(0, None)
    for event in events:
        snap = fold(snap, event)
    return snap


class Room:
    """The master of one room. Create with ``RoomManager``."""

    def __init__(
        self,
        manager: RoomManager,
        row: RoomRow,
        seats: Mapping[Seat, SeatInfo],
        snapshot: Snapshot,
    ) -> None:
        self.manager = manager
        self.id = row.id
        self.kind = row.kind
        self.rules = Rules.from_dict(dict(row.rules))
        self.created = row.created
        self.spectators = bool(row.options.get("spectators", True))
        self.seats: dict[Seat, SeatInfo] = dict(seats)
        self.current = snapshot
        self._history: deque[Snapshot] = deque([snapshot], maxlen=HISTORY)
        self.lock = asyncio.Lock()
        self.online: dict[Seat, int] = {Seat.ONE: 0, Seat.TWO: 0}
        self.bot_task: asyncio.Task[None] | None = None
        self.broken = False

    @property
    def topic(self) -> str:
        return f"room:{self.id}"

    # --- reading --------------------------------------------------------------------

    def snapshot_at(self, version: int) -> Snapshot:
        """The snapshot of ``version`` if still kept, else the current one."""
        for snap in reversed(self._history):
            if snap.version == version:
                return snap
        return self.current

    def seat_of(self, identity_hash: str | None) -> Seat | None:
        if identity_hash is None:
            return None
        for seat, info in self.seats.items():
            if info.identity_hash == identity_hash:
                return seat
        return None

    def free_seat(self) -> Seat | None:
        return next((s for s in Seat if s not in self.seats), None)

    @property
    def status(self) -> str:
        match = self.current.match
        if self.free_seat() is not None:
            return "waiting"
        if match is not None and match.is_over:
            return "over"
        return "playing"

    def connected(self, seat: Seat) -> bool:
        info = self.seats.get(seat)
        return info is not None and (info.bot is not None or self.online[seat] > 0)

    def players(self, snap: Snapshot | None = None) -> dict[str, Any]:
        snap = snap or self.current
        out: dict[str, Any] = {}
        for seat in Seat:
            info = self.seats.get(seat)
            if info is None:
                out[seat.label] = None
                continue
            out[seat.label] = {
                "name": info.name,
                "bot": info.bot,
                "connected": self.connected(seat),
                "ready": info.bot is not None or seat in snap.ready,
                "rematch": info.bot is not None or seat in snap.rematch,
            }
        return out

    def info(self, your_seat: Seat | None = None) -> dict[str, Any]:
        """Room info as HTTP and ``welcome`` send it."""
        seats: dict[str, Any] = {}
        for seat in Seat:
            info = self.seats.get(seat)
            seats[seat.label] = (
                None
                if info is None
                else {"name": info.name, "bot": info.bot, "connected": self.connected(seat)}
            )
        return {
            "room": self.id,
            "kind": self.kind,
            "rules": self.rules.to_dict(),
            "status": self.status,
            "seats": seats,
            "spectators": self.spectators,
            "version": self.current.version,
            "your_seat": None if your_seat is None else your_seat.label,
        }

    def view(self, seat: Seat | None, snap: Snapshot | None = None) -> SeatView | SpectatorView:
        snap = snap or self.current
        match = snap.match if snap.match is not None else new_match(self.rules, Seat.ONE)
        return view_for_spectator(match) if seat is None else view_for_seat(match, seat)

    def record(self) -> MatchRecord:
        """The current match's record (decks included): only once it is over."""
        match = self.current.match
        if match is None or not match.is_over:
            raise RoomError("match_running", "the record is available once the match is over")
        return record_of(match)

    # --- changing (all under the lock) ----------------------------------------------

    async def _commit(self, events: Sequence[Event]) -> None:
        """Fold, write, then tell. The caller holds the lock."""
        snaps = []
        snap = self.current
        for event in events:
            snap = fold(snap, event)
            snaps.append(snap)
        try:
            await self.manager.store.append_events(self.id, events)
        except StoreError as exc:
            self._fail(exc)
        self._advance(snaps)
        for event in events:
            await self._publish(event)

    def _fail(self, exc: StoreError) -> NoReturn:
        # The store may or may not hold the events: forget this room so the next
        # request rebuilds it from the log, the only truth.
        log.error("room %s: store write failed: %s", self.id, exc)
        self.broken = True
        self.manager.forget(self)
        raise RoomError("unavailable", "the game could not be saved; try again") from exc

    def _advance(self, snaps: Sequence[Snapshot]) -> None:
        self._history.extend(snaps)
        self.current = snaps[-1]

    async def _publish(self, event: Event) -> None:
        seat = event.payload.get("seat")
        notice = {"kind": event.kind, "version": event.seq, "seat": seat}
        await self.manager.bus.publish(self.topic, notice)

    def _event(self, offset: int, kind: str, payload: Mapping[str, Any]) -> Event:
        return Event(self.current.version + offset, kind, payload)

    def _deal_payload(self) -> dict[str, Any]:
        return {"deck": cards_text(shuffled_deck(self.manager.rng))}

    def _match_payload(self) -> dict[str, Any]:
        return {
            "rules": self.rules.to_dict(),
            "first_dealer": draw_first_dealer(self.manager.rng).label,
        }

    async def act(self, seat: Seat, version: int, text: str) -> None:
        """Play ``text`` for ``seat`` on the view of ``version``."""
        async with self.lock:
            self._check_alive()
            snap = self.current
            if version != snap.version:
                raise RoomError(
                    "stale_version",
                    f"you acted on version {version}, the game is at {snap.version}",
                )
            match = snap.match
            if match is None or match.turn is not seat:
                raise RoomError("not_your_turn", "it is not your turn")
            try:
                action = decode_action(text)
            except ProtocolError as exc:
                raise RoomError(exc.code, str(exc)) from None
            try:
                apply_match(match, action)
            except GinRummyError as exc:
                raise RoomError("illegal_action", str(exc)) from None
            await self._commit(
                [self._event(1, "action", {"seat": seat.label, "action": str(action)})]
            )
            # The knock discard lies face down: never log its card.
            shown = (
                action.kind.value if action.kind in (ActionKind.KNOCK, ActionKind.GIN) else action
            )
            log.info(
                "room %s: seat %s plays %s (version %d)", self.id, seat.label, shown, version + 1
            )
        self.schedule_bot()

    async def next_round(self, seat: Seat) -> None:
        """``seat`` is ready for the next round; deal when every person is."""
        async with self.lock:
            self._check_alive()
            snap = self.current
            match = snap.match
            if match is None or match.phase is not MatchPhase.DEAL or not match.rounds:
                raise RoomError("not_between_rounds", "there is no finished round to go on from")
            events = []
            if seat not in snap.ready:
                events.append(self._event(1, "ready", {"seat": seat.label}))
            waiting = [
                s for s, i in self.seats.items() if i.bot is None and s not in snap.ready | {seat}
            ]
            if not waiting:
                events.append(self._event(len(events) + 1, "deal", self._deal_payload()))
            if events:
                await self._commit(events)
                if not waiting:
                    log.info("room %s: round %d dealt", self.id, len(match.rounds) + 1)
        self.schedule_bot()

    async def new_match(self, seat: Seat) -> None:
        """``seat`` wants a rematch; a new match starts when every person does."""
        async with self.lock:
            self._check_alive()
            snap = self.current
            if snap.match is None or not snap.match.is_over:
                raise RoomError("match_running", "a new match can start once this one is over")
            events = []
            if seat not in snap.rematch:
                events.append(self._event(1, "rematch", {"seat": seat.label}))
            waiting = [
                s for s, i in self.seats.items() if i.bot is None and s not in snap.rematch | {seat}
            ]
            if not waiting:
                events.append(self._event(len(events) + 1, "match", self._match_payload()))
                events.append(self._event(len(events) + 1, "deal", self._deal_payload()))
            if events:
                await self._commit(events)
                if not waiting:
                    log.info("room %s: new match started", self.id)
        self.schedule_bot()

    async def join(self, identity_hash: str, name: str) -> Seat:
        """Take the free seat (or return the one this identity already holds)."""
        async with self.lock:
            self._check_alive()
            mine = self.seat_of(identity_hash)
            if mine is not None:
                return mine
            seat = self.free_seat()
            if seat is None:
                raise RoomError("room_full", "both seats are taken")
            row = SeatRow(seat.label, identity_hash, name, None)
            events = []
            match = self.current.match
            full = all(s in self.seats for s in Seat if s is not seat)
            if full and match is not None and match.phase is MatchPhase.DEAL and not match.rounds:
                events.append(self._event(1, "deal", self._deal_payload()))
            snaps = []
            snap = self.current
            for event in events:
                snap = fold(snap, event)
                snaps.append(snap)
            try:
                await self.manager.store.claim_seat(self.id, row, events)
            except StoreError as exc:
                self._fail(exc)
            self.seats[seat] = SeatInfo(name, identity_hash, None)
            log.info("room %s: seat %s taken", self.id, seat.label)
            if snaps:
                self._advance(snaps)
            await self._presence(seat)
            for event in events:
                await self._publish(event)
        self.schedule_bot()
        return seat

    def _check_alive(self) -> None:
        if self.broken:
            raise RoomError("unavailable", "the room is being reloaded; try again")

    # --- presence ---------------------------------------------------------------------

    async def connect(self, seat: Seat) -> None:
        self.online[seat] += 1
        if self.online[seat] == 1:
            log.info("room %s: seat %s connected", self.id, seat.label)
            await self._presence(seat)

    async def disconnect(self, seat: Seat) -> None:
        self.online[seat] = max(0, self.online[seat] - 1)
        if self.online[seat] == 0:
            log.info("room %s: seat %s disconnected", self.id, seat.label)
            await self._presence(seat)

    async def _presence(self, seat: Seat) -> None:
        notice = {"kind": "presence", "version": None, "seat": seat.label}
        await self.manager.bus.publish(self.topic, notice)

    # --- the computer -----------------------------------------------------------------

    def bot_to_move(self) -> Seat | None:
        match = self.current.match
        seat = match.turn if match is not None else None
        if seat is None or self.broken:
            return None
        info = self.seats.get(seat)
        return seat if info is not None and info.bot is not None else None

    def schedule_bot(self) -> None:
        """Start the computer's move if it is its turn and it is not already thinking."""
        if self.bot_task is not None and not self.bot_task.done():
            return
        seat = self.bot_to_move()
        if seat is None:
            return
        self.bot_task = asyncio.create_task(self._bot_turn(seat, self.current.version))

    async def _bot_turn(self, seat: Seat, version: int) -> None:
        try:
            await asyncio.sleep(self.manager.bot_delay)
            snap = self.current
            if snap.version != version or snap.match is None:
                # Something else changed the room meanwhile: think again about the new state.
                self.bot_task = None
                self.schedule_bot()
                return
            level = self.seats[seat].bot or "casual"
            view = view_for_seat(snap.match, seat)
            action = await computer_move(level, view, self.manager.rng)
            self.bot_task = None  # so that the move just made may schedule the next one
            await self.act(seat, version, str(action))
        except RoomError as exc:
            log.warning("room %s: computer move refused: %s %s", self.id, exc.code, exc.message)
        except Exception:
            log.exception("room %s: computer player failed", self.id)


class RoomManager:
    """All rooms of this process: creates them, loads them from the store by replay."""

    def __init__(
        self,
        store: Store,
        bus: Bus,
        bot_delay: float,
        rng: random.Random | None = None,
    ) -> None:
        self.store = store
        self.bus = bus
        self.bot_delay = bot_delay
        self.rng = rng or secrets.SystemRandom()
        self._rooms: dict[str, Room] = {}
        self._loading = asyncio.Lock()

    async def get(self, room_id: str) -> Room | None:
        """The room, rebuilt from its event log on first use after a start."""
        room = self._rooms.get(room_id)
        if room is not None:
            return room
        async with self._loading:
            room = self._rooms.get(room_id)
            if room is not None:
                return room
            try:
                stored = await self.store.load_room(room_id)
            except StoreError as exc:
                log.error("room %s: cannot load: %s", room_id, exc)
                raise RoomError("unavailable", "the room cannot be loaded right now") from exc
            if stored is None:
                return None
            try:
                snap = replay(stored.events)
            except (GinRummyError, KeyError, TypeError, ValueError) as exc:
                log.error("room %s: the event log does not replay: %s", room_id, exc)
                raise RoomError("unavailable", "this room's record is damaged") from None
            seats = {
                Seat.parse(s.seat): SeatInfo(s.name, s.identity_hash, s.bot) for s in stored.seats
            }
            room = Room(self, stored.room, seats, snap)
            self._rooms[room_id] = room
            log.info("room %s: rebuilt from %d events", room_id, len(stored.events))
        room.schedule_bot()
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
    ) -> Room:
        """A new room with the creator in seat one and, for a computer opponent, seat two."""
        row = RoomRow(new_room_id(), kind, rules.to_dict(), time.time(), {"spectators": spectators})
        seats = {Seat.ONE: SeatInfo(name, creator_hash, None)}
        if opponent_bot is not None:
            seats[Seat.TWO] = SeatInfo(opponent_name, None, opponent_bot)
        room = Room(self, row, seats, Snapshot(0, None))
        events = [room._event(1, "match", room._match_payload())]
        if opponent_bot is not None:
            events.append(room._event(2, "deal", room._deal_payload()))
        snap = room.current
        snaps = []
        for event in events:
            snap = fold(snap, event)
            snaps.append(snap)
        seat_rows = [SeatRow(s.label, i.identity_hash, i.name, i.bot) for s, i in seats.items()]
        try:
            await self.store.create_room(row, seat_rows, events)
        except StoreError as exc:
            log.error("room %s: cannot create: %s", row.id, exc)
            raise RoomError("unavailable", "the room could not be saved; try again") from exc
        room._advance(snaps)
        self._rooms[row.id] = room
        log.info(
            "room %s created: %s, rules %s, opponent %s",
            row.id,
            kind,
            rules.name,
            f"computer ({opponent_bot})" if opponent_bot else "a friend",
        )
        room.schedule_bot()
        return room

    def forget(self, room: Room) -> None:
        if self._rooms.get(room.id) is room:
            del self._rooms[room.id]

    async def close(self) -> None:
        tasks = [r.bot_task for r in self._rooms.values() if r.bot_task is not None]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task
        self._rooms.clear()
