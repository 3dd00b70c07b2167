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
import unicodedata
from collections import deque
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, NoReturn

from ginrummy.engine import (
    ActionKind,
    ForfeitReason,
    GinRummyError,
    MatchPhase,
    MatchRecord,
    MatchState,
    ResultKind,
    Rules,
    Seat,
    SeatView,
    SpectatorView,
    apply_match,
    cards_text,
    deal,
    draw_first_dealer,
    forfeit,
    new_match,
    parse_cards,
    record_of,
    shuffled_deck,
    view_for_seat,
    view_for_spectator,
)
from ginrummy.protocol import ProtocolError, decode_action, encode_public_view, to_json
from ginrummy.server import players as players_
from ginrummy.server.clock import Clock, SystemClock
from ginrummy.server.computer import computer_move
from ginrummy.server.pubsub import Bus, Subscription
from ginrummy.server.pubsub.memory import MemoryBus
from ginrummy.server.store import (
    ChatLine,
    Event,
    Outcome,
    Player,
    RatedMatch,
    ResultRow,
    RoomRow,
    SeatRow,
    Store,
    StoreConflict,
    StoreError,
)
from ginrummy.server.store import (
    Clock as StoredClock,
)
from ginrummy.server.tokens import new_room_id

log = logging.getLogger("ginrummy.server.rooms")

HISTORY = 64  # recent snapshots kept so each socket renders exactly the version it is told
CHAT_HISTORY = 50
CHAT_MAX = 200
PHRASES = ("gg", "gl", "thanks", "nice")
LOBBY_TOPIC = "lobby"
PRESENCE_LIFETIME = 3  # presence intervals another instance's socket counts last unrenewed
QUICK_LIFETIME = 3  # confirm periods a quick-match waiting entry lives unconfirmed
PRESENCE_SETTLE = 1.5  # presence intervals a loaded room listens before any grace period
# Bidirectional overrides and isolates would let a message rewrite how others read it.
_BIDI = {chr(c) for c in (*range(0x202A, 0x202F), *range(0x2066, 0x206A))}


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
    match_seq: int = 0  # seq of the event that set up the current match


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
        first = Seat.parse(str(p["first_dealer"]))
        return Snapshot(event.seq, new_match(rules, first), match_seq=event.seq)
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
    if event.kind == "forfeit":
        return replace(after, match=forfeit(match, seat, ForfeitReason(str(p["reason"]))))
    raise GinRummyError(f"unknown event kind {event.kind!r}")


def valid_chat(raw: str) -> str:
    """Chat text as stored and sent: trimmed plain text (it is data, never markup).

    >>> valid_chat("  <b>hi</b>  ")
    '<b>hi</b>'
    """
    text = " ".join(raw.split())
    if not 1 <= len(text) <= CHAT_MAX:
        raise RoomError("bad_chat", f"a chat message has 1 to {CHAT_MAX} characters")
    if any(ch in _BIDI or unicodedata.category(ch) in ("Cc", "Cs", "Co", "Cn") for ch in text):
        raise RoomError("bad_chat", "a chat message may not contain control characters")
    return text


def chat_message(line: ChatLine) -> dict[str, Any]:
    """A stored chat line as ``chat`` and ``chat_history`` carry it."""
    return {
        "id": line.seq,
        "t": line.t,
        "from": {"seat": line.seat, "tag": line.tag, "player": line.player},
        "text": line.text,
        "phrase": line.phrase,
    }


def replay(events: Sequence[Event]) -> Snapshot:
    snap = Snapshot(0, None)
    for event in events:
        snap = fold(snap, event)
    return snap


def _count(value: object) -> int:
    """A socket count from a notice (anything else counts as none)."""
    return value if isinstance(value, int) and value > 0 else 0


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
        self.visibility = str(row.options.get("visibility", "private"))
        self.rated = bool(row.options.get("rated", False))
        self.spectator_chat = bool(row.options.get("spectator_chat", False))
        self.player_of: dict[Seat, Player] = {}  # people's players (not computers)
        self.watchers = 0
        self.deadline: tuple[Seat, int, float] | None = None  # seat, version, when
        self.timer_task: asyncio.Task[None] | None = None
        self.grace: dict[Seat, float] = {}  # seat -> end of its grace period
        self.grace_tasks: dict[Seat, asyncio.Task[None]] = {}
        self.seats: dict[Seat, SeatInfo] = dict(seats)
        self.current = snapshot
        self._history: deque[Snapshot] = deque([snapshot], maxlen=HISTORY)
        self._public: tuple[Snapshot, str, str | None] | None = None  # see public_part
        self.lock = asyncio.Lock()
        self.online: dict[Seat, int] = {Seat.ONE: 0, Seat.TWO: 0}  # this instance's sockets
        # Other instances' sockets: instance id -> counts per seat, until when (monotonic).
        # Other instances' sockets of this room: seat counts, spectators, valid until.
        self.remote: dict[str, tuple[dict[Seat, int], int, float]] = {}
        self.settled_at = 0.0  # no grace period starts before (monotonic): see _update_grace
        self.presence_task: asyncio.Task[None] | None = None  # see follow_presence
        self.bot_task: asyncio.Task[None] | None = None
        self.broken = False
        self.lease_task: asyncio.Task[None] | None = None  # keeps the lease while work is due
        self._leased = asyncio.Event()  # set while this instance holds the room's lease
        self._lease_until = 0.0  # when the held lease runs out (monotonic, our own reckoning)

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

    @property
    def public(self) -> bool:
        return self.visibility == "public"

    @property
    def clock(self) -> Clock:
        return self.manager.clock

    def person(self, seat: Seat) -> bool:
        info = self.seats.get(seat)
        return info is not None and info.bot is None

    def summary(self, seat: Seat) -> dict[str, Any] | None:
        player = self.player_of.get(seat)
        return None if player is None else players_.summary(player)

    def grace_remaining_ms(self, seat: Seat) -> int | None:
        end = self.grace.get(seat)
        if end is None:
            return None
        return max(0, round((end - self.clock.now()) * 1000))

    def timer(self, snap: Snapshot | None = None) -> dict[str, Any] | None:
        """The move timer of ``snap`` (the current one): whose, time left, total."""
        snap = snap or self.current
        total = self.rules.move_timer_seconds
        if self.deadline is None or total is None:
            return None
        seat, version, at = self.deadline
        if version != snap.version:
            return None
        left = max(0, round((at - self.clock.now()) * 1000))
        return {"seat": seat.label, "remaining_ms": left, "total_ms": total * 1000}

    def connected(self, seat: Seat) -> bool:
        info = self.seats.get(seat)
        return info is not None and (info.bot is not None or self.online_anywhere(seat) > 0)

    def online_anywhere(self, seat: Seat) -> int:
        """Sockets of ``seat`` on this instance and on the other live instances."""
        now = time.monotonic()
        remote = sum(c[seat] for c, _, until in self.remote.values() if until > now)
        return self.online[seat] + remote

    @property
    def watching(self) -> int:
        """Spectator sockets on this instance and on the other live instances."""
        now = time.monotonic()
        return self.watchers + sum(w for _, w, until in self.remote.values() if until > now)

    @property
    def has_sockets(self) -> bool:
        """This instance has a socket of the room (a seat's or a spectator's)."""
        return self.watchers > 0 or any(self.online.values())

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
                "player": self.summary(seat),
                "grace_remaining_ms": self.grace_remaining_ms(seat),
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
                else {
                    "name": info.name,
                    "bot": info.bot,
                    "connected": self.connected(seat),
                    "player": self.summary(seat),
                }
            )
        return {
            "room": self.id,
            "kind": self.kind,
            "rules": self.rules.to_dict(),
            "status": self.status,
            "seats": seats,
            "spectators": self.spectators,
            "visibility": self.visibility,
            "rated": self.rated,
            "timer": self.rules.move_timer_seconds,
            "watchers": self.watching,
            "chat": True,
            "spectator_chat": self.spectator_chat,
            "version": self.current.version,
            "your_seat": None if your_seat is None else your_seat.label,
        }

    def view(self, seat: Seat | None, snap: Snapshot | None = None) -> SeatView | SpectatorView:
        snap = snap or self.current
        match = snap.match if snap.match is not None else new_match(self.rules, Seat.ONE)
        return view_for_spectator(match) if seat is None else view_for_seat(match, seat)

    def public_part(self, snap: Snapshot) -> tuple[str, str | None]:
        """The part of ``snap``'s view every socket shares, as JSON text, and its last
        move: encoded once per version, from the spectator's view (no hidden card)."""
        cached = self._public
        if cached is None or cached[0] is not snap:
            view = self.view(None, snap)
            last = str(view.moves[-1]) if view.moves else None
            cached = (snap, to_json(encode_public_view(view)), last)
            self._public = cached
        return cached[1], cached[2]

    def record(self) -> MatchRecord:
        """The current match's record (decks included): only once it is over."""
        match = self.current.match
        if match is None or not match.is_over:
            raise RoomError("match_running", "the record is available once the match is over")
        return record_of(match)

    # --- changing (all under the lock) ----------------------------------------------

    async def _commit(self, events: Sequence[Event]) -> None:
        """Fold, write, then tell. The caller holds the lock.

        The end of a match writes its results (and the store rates it) in the same
        transaction as its last event."""
        snaps = []
        snap = self.current
        for event in events:
            snap = fold(snap, event)
            snaps.append(snap)
        was_over = self.current.match is not None and self.current.match.is_over
        outcome = None
        if snap.match is not None and snap.match.is_over and not was_over:
            outcome = self._outcome(snap)
        try:
            await self.manager.store.append_events(self.id, events, outcome)
        except StoreConflict as exc:
            # Another server instance wrote this version first (optimistic concurrency:
            # the log's (room, seq) key lets exactly one writer win). Nothing of ours was
            # written; take in what was and answer "stale" so the client resyncs.
            log.info("room %s: version %d was written elsewhere: %s", self.id, snap.version, exc)
            await self._catch_up_locked()
            raise RoomError(
                "stale_version", "the game moved on meanwhile; here is the current state"
            ) from None
        except StoreError as exc:
            self._fail(exc)
        self._advance(snaps)
        if outcome is not None:
            await self._refresh_players()
        self._arm_timer()
        self._update_grace()
        for event in events:
            await self._publish(event)
        await self.manager.lobby_changed(self)

    def _outcome(self, snap: Snapshot) -> Outcome:
        """The facts of the match that ``snap`` ends: result rows, who played whom in a
        rated match, abandons. The store rates it with the ratings it holds then."""
        match = snap.match
        assert match is not None and match.result is not None
        result = match.result
        now = self.clock.now()
        abandons: tuple[str, ...] = ()
        if result.forfeit is ForfeitReason.ABANDONED and result.forfeited_by is not None:
            leaver = self.player_of.get(result.forfeited_by)
            abandons = () if leaver is None else (leaver.id,)
        people = self.player_of
        rated = None
        if self.rated and len(people) == 2:
            score_one = 1.0 if result.winner is Seat.ONE else 0.0
            rated = RatedMatch(people[Seat.ONE].id, people[Seat.TWO].id, score_one)
        rows = []
        for seat, player in people.items():
            other = self.seats.get(seat.other)
            opponent = people.get(seat.other)
            rounds = [r.result for r in match.rounds]
            rows.append(
                ResultRow(
                    room=self.id,
                    match_seq=snap.match_seq,
                    player=player.id,
                    seat=seat.label,
                    opponent=None if opponent is None else opponent.id,
                    bot=None if other is None else other.bot,
                    rated=rated is not None,
                    won=result.winner is seat,
                    rounds=len(rounds),
                    gins=sum(
                        r.winner is seat and r.kind in (ResultKind.GIN, ResultKind.BIG_GIN)
                        for r in rounds
                    ),
                    undercuts_scored=sum(
                        r.kind is ResultKind.UNDERCUT and r.winner is seat for r in rounds
                    ),
                    undercuts_suffered=sum(
                        r.kind is ResultKind.UNDERCUT and r.knocker is seat for r in rounds
                    ),
                    points=result.round_points[seat],
                    margin=result.totals[seat] - result.totals[seat.other],
                    forfeit=None if result.forfeit is None else result.forfeit.value,
                    rating=None,  # the store fills it in as it rates the match
                    rd=None,
                    t=now,
                )
            )
        return Outcome(tuple(rows), rated, abandons)

    async def _refresh_players(self) -> None:
        for player in list(self.player_of.values()):
            fresh = await self.manager.store.player(player.id)
            if fresh is not None:
                self.manager.player_changed(fresh)

    async def catch_up(self, version: int | None = None) -> bool:
        """Take in events another server instance appended; True if the room moved on.
        With ``version``: none to read if the room has it by the time it holds the lock
        (another socket or the follower read it meanwhile)."""
        async with self.lock:
            if version is not None and version <= self.current.version:
                return False
            return await self._catch_up_locked()

    async def _catch_up_locked(self) -> bool:
        if self.broken:
            return False
        try:
            stored = await self.manager.store.load_room(self.id, after=self.current.version)
        except StoreError as exc:
            self._fail(exc)
        if stored is None:
            return False
        newer = [e for e in stored.events if e.seq > self.current.version]
        # A seat may have been taken through another instance.
        seats = {Seat.parse(s.seat): SeatInfo(s.name, s.identity_hash, s.bot) for s in stored.seats}
        seated, self.seats = seats != self.seats, seats
        if not newer:
            return False
        snaps = []
        snap = self.current
        try:
            for event in newer:
                snap = fold(snap, event)
                snaps.append(snap)
        except (GinRummyError, KeyError, TypeError, ValueError) as exc:
            log.error("room %s: events written elsewhere do not replay: %s", self.id, exc)
            self.broken = True
            self.manager.forget(self)
            raise RoomError("unavailable", "this room's record is damaged") from None
        self._advance(snaps)
        people = {seat for seat, info in self.seats.items() if info.identity_hash is not None}
        ended = snap.match is None or snap.match.is_over or newer[-1].kind != "action"
        if seated or ended or people != set(self.player_of):
            # New people, or ratings changed with a match's end: ask the store. Plain
            # moves change no player (a store write per seat per move otherwise).
            self.player_of = await self.manager._players_of(self.seats)
        self._arm_timer()
        self._update_grace()
        log.info("room %s: caught up to version %d", self.id, snap.version)
        asyncio.get_running_loop().call_soon(self.schedule_bot)
        return True

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
        await self._ask(self._next_round_locked, seat, "not_between_rounds")
        self.schedule_bot()

    async def new_match(self, seat: Seat) -> None:
        """``seat`` wants a rematch; a new match starts when every person does."""
        await self._ask(self._new_match_locked, seat, "match_running")
        self.schedule_bot()

    async def _ask(
        self, step: Callable[[Seat], Awaitable[None]], seat: Seat, done_code: str
    ) -> None:
        """Run an idempotent ask (ready, rematch) under the lock. If it lost a write
        race to another server instance, the room has caught up: ask again on the new
        state; if the other instance already did what was asked, that is success."""
        for attempt in range(3):
            async with self.lock:
                try:
                    await step(seat)
                    return
                except RoomError as exc:
                    if attempt and exc.code == done_code:
                        return
                    if exc.code != "stale_version" or attempt == 2:
                        raise

    async def _next_round_locked(self, seat: Seat) -> None:
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

    async def _new_match_locked(self, seat: Seat) -> None:
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

    async def join(self, identity_hash: str, name: str, player: Player) -> Seat:
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
            except StoreConflict:
                # Taken meanwhile through another server instance.
                await self._catch_up_locked()
                mine = self.seat_of(identity_hash)
                if mine is not None:
                    return mine
                raise RoomError("room_full", "both seats are taken") from None
            except StoreError as exc:
                self._fail(exc)
            self.seats[seat] = SeatInfo(name, identity_hash, None)
            self.player_of[seat] = player
            log.info("room %s: seat %s taken", self.id, seat.label)
            if snaps:
                self._advance(snaps)
            self._arm_timer()
            self._update_grace()
            await self._presence(seat)
            for event in events:
                await self._publish(event)
            await self.manager.lobby_changed(self)
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
            self._update_grace()
            await self._presence(seat)

    async def disconnect(self, seat: Seat) -> None:
        self.online[seat] = max(0, self.online[seat] - 1)
        if self.online[seat] == 0:
            log.info("room %s: seat %s disconnected", self.id, seat.label)
            self._update_grace()
            await self._presence(seat)

    async def watch(self, delta: int) -> None:
        """A spectator socket came (+1) or went (-1): the players see how many watch."""
        self.watchers = max(0, self.watchers + delta)
        await self._presence(None)
        await self.manager.lobby_changed(self)

    # --- the move timer and the grace period --------------------------------------------

    def _arm_timer(self, remaining_ms: int | None = None) -> None:
        """Start the clock of the person to move (each decision gets the full time,
        or ``remaining_ms`` when the room comes back after a stop)."""
        task, self.timer_task, self.deadline = self.timer_task, None, None
        if task is not None and task is not asyncio.current_task():
            task.cancel()
        total = self.rules.move_timer_seconds
        match = self.current.match
        seat = None if match is None else match.turn
        if total is None or seat is None or not self.person(seat) or self.broken:
            return
        left = total * 1000 if remaining_ms is None else min(remaining_ms, total * 1000)
        at = self.clock.now() + left / 1000
        version = self.current.version
        self.deadline = (seat, version, at)
        self.timer_task = asyncio.create_task(self._time_out(seat, version, at))
        self._want_lease()

    async def _time_out(self, seat: Seat, version: int, at: float) -> None:
        await self.clock.sleep_until(at)
        await self._await_lease()
        self.manager.timeouts += 1
        try:
            await self.end_by_forfeit(seat, ForfeitReason.TIMEOUT, version=version)
        except RoomError as exc:
            log.warning("room %s: timeout not applied: %s", self.id, exc.message)
        except Exception:
            log.exception("room %s: the move timer failed", self.id)

    def _grace_applies(self) -> bool:
        match = self.current.match
        return (
            all(self.person(s) for s in Seat)
            and match is not None
            and not match.is_over
            and not self.broken
        )

    def _update_grace(self) -> None:
        """Start a grace period for each person without a socket on any live instance;
        end it on return. A room just loaded from the store starts none until it has
        listened to its topic for a while (``settled_at``): by then every instance with a
        socket of the room has told its counts (see ``follow_presence``)."""
        applies = self._grace_applies()
        settled = time.monotonic() >= self.settled_at
        for seat in Seat:
            if applies and self.online_anywhere(seat) == 0:
                if seat not in self.grace and settled:
                    end = self.clock.now() + self.manager.grace_seconds
                    self.grace[seat] = end
                    self.grace_tasks[seat] = asyncio.create_task(self._grace_over(seat, end))
                    self._want_lease()
            else:
                self.grace.pop(seat, None)
                task = self.grace_tasks.pop(seat, None)
                if task is not None and task is not asyncio.current_task():
                    task.cancel()

    async def _grace_over(self, seat: Seat, end: float) -> None:
        await self.clock.sleep_until(end)
        await self._await_lease()
        if self.grace.get(seat) == end:
            log.info("room %s: seat %s's grace period is over", self.id, seat.label)
            await self._presence(seat)

    def stop_tasks(self) -> list[asyncio.Task[None]]:
        """Cancel the computer, the timer, the grace periods and the lease keeper (not the
        caller). The lease is not released: ``RoomManager.close`` does that."""
        current = asyncio.current_task()
        running = (
            self.bot_task,
            self.timer_task,
            *self.grace_tasks.values(),
            self.lease_task,
            self.presence_task,
        )
        tasks = [t for t in running if t is not None and t is not current]
        for task in tasks:
            task.cancel()
        return tasks

    # --- forfeits -------------------------------------------------------------------------

    async def end_by_forfeit(
        self, seat: Seat, reason: ForfeitReason, version: int | None = None
    ) -> None:
        """``seat`` loses the match (timer, abandonment, resignation), logged as an event."""
        async with self.lock:
            self._check_alive()
            match = self.current.match
            if version is not None and version != self.current.version:
                return  # the timer of a decision already taken
            if match is None or match.is_over:
                raise RoomError("match_over", "the match is already over")
            if self.free_seat() is not None:
                raise RoomError("match_over", "the match has not started")
            payload = {"seat": seat.label, "reason": reason.value}
            await self._commit([self._event(1, "forfeit", payload)])
            log.info("room %s: seat %s forfeits (%s)", self.id, seat.label, reason.value)

    async def claim(self, seat: Seat) -> None:
        """``seat`` claims the match: the opponent left and its grace period is over."""
        other = seat.other
        left = self.grace_remaining_ms(other)
        if left is None or not self.person(other) or self.online_anywhere(other) > 0:
            raise RoomError("nothing_to_claim", "your opponent has not left")
        if left > 0:
            raise RoomError(
                "nothing_to_claim", f"your opponent may still come back for {left // 1000} s"
            )
        await self.end_by_forfeit(other, ForfeitReason.ABANDONED)

    # --- chat ------------------------------------------------------------------------------

    async def say(
        self, seat: Seat | None, player: Player | None, text: str | None, phrase: str | None
    ) -> None:
        """A chat message from a seat (or a spectator) to every socket of the room."""
        if seat is None and not self.spectator_chat:
            raise RoomError("chat_closed", "spectators may not chat in this room")
        if player is None:
            raise RoomError("chat_closed", "only players with an identity may chat")
        if (text is None) == (phrase is None):
            raise RoomError("bad_chat", "send either 'text' or 'phrase'")
        if phrase is not None and phrase not in PHRASES:
            raise RoomError("bad_chat", f"phrase must be one of {', '.join(PHRASES)}")
        if text is not None:
            text = valid_chat(text)
        seat_label = None if seat is None else seat.label
        line = ChatLine(
            0, round(self.clock.now(), 3), seat_label, player.id, players_.tag(player), text, phrase
        )
        # Write before tell: a socket on any instance reads the history from the store.
        try:
            seq = await self.manager.store.add_chat(self.id, line, CHAT_HISTORY)
        except StoreError as exc:
            log.error("room %s: a chat message was not saved: %s", self.id, exc)
            raise RoomError("unavailable", "the message could not be sent; try again") from exc
        message = chat_message(replace(line, seq=seq))
        await self.manager.bus.publish(self.topic, {"kind": "chat", "message": message})

    async def chat_history(self) -> list[dict[str, Any]]:
        """The room's last chat messages, oldest first, said through any instance."""
        try:
            lines = await self.manager.store.recent_chat(self.id, CHAT_HISTORY)
        except StoreError as exc:
            log.error("room %s: cannot read the chat: %s", self.id, exc)
            raise RoomError("unavailable", "the chat cannot be read right now") from exc
        return [chat_message(line) for line in lines]

    async def _presence(self, seat: Seat | None) -> None:
        await self.manager.bus.publish(self.topic, self.presence_notice(seat))

    # --- presence across instances ----------------------------------------------------
    # Each instance counts its own sockets per seat (``online``) and tells the others in
    # every presence notice: on a change, then every ``presence_interval`` while it has
    # sockets of the room (``renew``), and zeros when it stops in an orderly way. Counts
    # not renewed within PRESENCE_LIFETIME intervals (a dead instance) stop counting.

    def presence_notice(
        self, seat: Seat | None, *, renew: bool = False, gone: bool = False
    ) -> dict[str, Any]:
        """A presence notice with this instance's socket counts (zeros if ``gone``) and
        the room's version here: a follower that is behind it reads the log, so a room
        notice lost on the way (a writer killed before it published) is made good
        within one presence interval."""
        return {
            "kind": "presence",
            "version": self.current.version,
            "seat": None if seat is None else seat.label,
            "instance": self.manager.instance_id,
            "online": {s.label: 0 if gone else self.online[s] for s in Seat},
            "watchers": 0 if gone else self.watchers,
            "ttl": PRESENCE_LIFETIME * self.manager.presence_interval,
            "renew": renew,
        }

    def take_presence(self, notice: Mapping[str, Any]) -> None:
        """Remember another instance's socket counts from a presence notice (every
        follower of the room calls this: taking one twice changes nothing)."""
        instance, online, ttl = notice.get("instance"), notice.get("online"), notice.get("ttl")
        if not isinstance(instance, str) or instance == self.manager.instance_id:
            return
        if not isinstance(online, Mapping) or not isinstance(ttl, int | float):
            log.warning("room %s: a presence notice without counts: %s", self.id, dict(notice))
            return
        counts = {s: _count(online.get(s.label)) for s in Seat}
        watchers = _count(notice.get("watchers"))
        if any(counts.values()) or watchers:
            self.remote[instance] = (counts, watchers, time.monotonic() + ttl)
        elif self.remote.pop(instance, None) is not None:
            log.info("room %s: instance %s has no socket of it left", self.id, instance)
        self._update_grace()

    def follow_presence(self) -> None:
        """Follow the room's notices while it is loaded, socket or not: the other
        instances' presence (an instance that loads it for the lobby or the lease runs
        its grace periods too) and what they write (it may hold the lease)."""
        sub = self.manager.bus.subscribe(self.topic)
        self.presence_task = asyncio.create_task(self._follow_presence(sub))

    async def _follow_presence(self, sub: Subscription) -> None:
        try:
            while True:
                notice = await sub.get()
                kind, told = notice.get("kind"), notice.get("version")
                if kind == "resync" or isinstance(told, int):
                    # Written elsewhere (or the bus lost notices: read whatever the log
                    # holds). Nothing is read if a socket of the room already has it.
                    try:
                        await self.catch_up(None if kind == "resync" else told)
                    except RoomError as exc:
                        log.warning("room %s: cannot follow a notice: %s", self.id, exc.message)
                if kind != "presence":
                    continue
                self.take_presence(notice)
                news = (
                    not notice.get("renew") and notice.get("instance") != self.manager.instance_id
                )
                if news and self.has_sockets:
                    # Answer at once: the teller may have just loaded the room.
                    await self.manager.bus.publish(
                        self.topic, self.presence_notice(None, renew=True)
                    )
        finally:
            sub.close()

    async def renew_presence(self) -> None:
        """The periodic step: tell this instance's counts, forget the unrenewed ones."""
        if self.has_sockets:
            await self.manager.bus.publish(self.topic, self.presence_notice(None, renew=True))
        now = time.monotonic()
        expired = [i for i, (_, _, until) in self.remote.items() if until <= now]
        for instance in expired:
            del self.remote[instance]
            log.warning(
                "room %s: instance %s stopped telling its sockets; they no longer count",
                self.id,
                instance,
            )
        self._update_grace()  # also starts those held back while the room settled
        if expired:
            await self._presence(None)

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
        self._want_lease()

    async def _bot_turn(self, seat: Seat, version: int) -> None:
        try:
            await asyncio.sleep(self.manager.bot_delay)
            await self._await_lease()
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
            self.manager.computer_moves += 1
            await self.act(seat, version, str(action))
        except RoomError as exc:
            log.warning("room %s: computer move refused: %s %s", self.id, exc.code, exc.message)
        except Exception:
            log.exception("room %s: computer player failed", self.id)

    # --- the lease: one instance runs the computer and the clocks ---------------------

    @property
    def holds_lease(self) -> bool:
        """This instance holds the room's lease: it alone makes the computer's moves and
        ends the move timer and grace periods (docs/operations.md, several instances)."""
        return self._leased.is_set() and time.monotonic() < self._lease_until

    def _work_due(self) -> bool:
        """A computer to move, a move timer or a grace period running."""
        if self.broken:
            return False
        running = (self.timer_task, *self.grace_tasks.values())
        return self.bot_to_move() is not None or any(
            t is not None and not t.done() for t in running
        )

    def _want_lease(self) -> None:
        """Keep the lease (or keep trying to take it) while work is due."""
        if (self.lease_task is None or self.lease_task.done()) and self._work_due():
            self.lease_task = asyncio.create_task(self._keep_lease())

    async def _await_lease(self) -> None:
        """Return once this instance holds the room's lease."""
        while not self.holds_lease:
            self._leased.clear()  # run out unrenewed: the keeper sets it again
            self._want_lease()
            await self._leased.wait()

    async def _keep_lease(self) -> None:
        """Take the lease, renew it while work is due, give it up once none is left.

        Another instance may hold it: then ask again each renewal period, so that its
        lease, if that instance dies, runs out into this one (the room follows what
        that instance writes meanwhile: ``follow_presence``)."""
        manager = self.manager
        taken = False
        try:
            while True:
                while self._work_due():
                    taken = await self._take_lease() or taken
                    await asyncio.sleep(manager.lease_renew)
                self._leased.clear()
                if taken:
                    taken = False
                    await self._release_lease()
                if not self._work_due():
                    return
        finally:
            self._leased.clear()

    async def _take_lease(self) -> bool:
        """Take or renew the lease. A new holder first reads the log: the last one may
        have written what this instance has not seen."""
        manager = self.manager
        asked = time.monotonic()
        try:
            held = await manager.store.acquire_lease(
                self.id, manager.instance_id, manager.lease_ttl
            )
        except StoreError as exc:
            log.warning("room %s: cannot take or renew its lease: %s", self.id, exc)
            return False
        if not held:
            if self._leased.is_set():
                log.warning("room %s: lease lost to another instance", self.id)
            self._leased.clear()
            return False
        self._lease_until = asked + manager.lease_ttl
        if not self._leased.is_set():
            log.info("room %s: lease taken by instance %s", self.id, manager.instance_id)
            try:
                await self.catch_up()
            except RoomError as exc:
                log.warning("room %s: cannot catch up under the lease: %s", self.id, exc.message)
                return True
            self._leased.set()
        return True

    async def _release_lease(self) -> None:
        try:
            await self.manager.store.release_lease(self.id, self.manager.instance_id)
        except StoreError as exc:  # it runs out by itself
            log.warning("room %s: cannot release its lease: %s", self.id, exc)
            return
        log.info("room %s: lease released (no computer or clock to run)", self.id)


class RoomManager:
    """All rooms of this process: creates them, loads them from the store by replay."""

    def __init__(
        self,
        store: Store,
        bus: Bus,
        bot_delay: float,
        rng: random.Random | None = None,
        clock: Clock | None = None,
        grace_seconds: float = 60.0,
        instance_id: str | None = None,
        lease_ttl: float = 10.0,
        lease_renew: float = 3.0,
        presence_interval: float = 5.0,
        quick_confirm: float = 5.0,
    ) -> None:
        self.store = store
        self.bus = bus
        self.bot_delay = bot_delay
        self.rng = rng or secrets.SystemRandom()
        self.clock: Clock = clock or SystemClock()
        self.grace_seconds = grace_seconds
        # Room leases name this instance; one instance's rooms share it.
        self.instance_id = instance_id or f"i_{secrets.token_urlsafe(9)}"
        self.lease_ttl = lease_ttl
        self.lease_renew = lease_renew
        self.presence_interval = presence_interval  # seconds between presence renewals
        self._presence_task: asyncio.Task[None] | None = None
        self.computer_moves = 0  # computer moves this instance made (tried to write)
        self.timeouts = 0  # move timers that ran out here (forfeits tried)
        self._rooms: dict[str, Room] = {}
        self._loading = asyncio.Lock()
        self.lobby_news = MemoryBus()  # this instance's lobby sockets: the lobby is current
        self.queue_waiting = 0  # people in the quick-match queue, as last counted
        self.quick_confirm = quick_confirm  # seconds between confirmations of waiting entries
        self.quick_stale_after = QUICK_LIFETIME * quick_confirm  # unconfirmed: not waiting
        self._lobby_task: asyncio.Task[None] | None = None

    # --- players ----------------------------------------------------------------------

    async def player(self, identity_hash: str) -> Player:
        """The identity's player, created with a default name on first use."""
        return await self.store.ensure_player(identity_hash, players_.new_player(self.clock.now()))

    def player_changed(self, player: Player) -> None:
        """A new name or rating: the loaded rooms show it from now on."""
        for room in self._rooms.values():
            for seat, p in list(room.player_of.items()):
                if p.id == player.id:
                    room.player_of[seat] = player

    async def _players_of(self, seats: Mapping[Seat, SeatInfo]) -> dict[Seat, Player]:
        return {
            seat: await self.player(info.identity_hash)
            for seat, info in seats.items()
            if info.identity_hash is not None
        }

    # --- the lobby --------------------------------------------------------------------
    # Every instance keeps the listed rooms loaded and follows the lobby notices of all
    # instances (a public room's id and version, a renamed player, the queue): it reads
    # what changed from the store, then tells its own lobby sockets (``lobby_news``).

    async def lobby_changed(
        self, room: Room | None = None, *, player: str | None = None, queue: bool = False
    ) -> None:
        """Tell every instance's lobby: a public room, a player's name or the queue changed."""
        if room is not None and not room.public:
            return
        notice: dict[str, Any] = {"kind": "lobby"}
        if room is not None:
            notice.update(room=room.id, version=room.current.version)
        if player is not None:
            notice["player"] = player
        if queue:
            notice["queue"] = True
        await self.bus.publish(LOBBY_TOPIC, notice)

    async def queue_changed(self) -> None:
        """The quick-match queue changed through this instance: count it, tell every lobby."""
        await self._count_queue()
        await self.lobby_changed(queue=True)

    async def _count_queue(self) -> None:
        try:
            self.queue_waiting = await self.store.quick_waiting(self.quick_stale_after)
        except StoreError as exc:
            log.warning("cannot count the quick-match queue: %s", exc)

    async def start(self) -> None:
        """Load the listed rooms, then follow the lobby changes made on any instance."""
        sub = self.bus.subscribe(LOBBY_TOPIC)  # first: no change falls in between
        await self.load_listed()
        await self._count_queue()
        self._lobby_task = asyncio.create_task(self._follow_lobby(sub))
        self._presence_task = asyncio.create_task(self._keep_presence())

    async def _keep_presence(self) -> None:
        """Every ``presence_interval``: each room renews this instance's socket counts
        and forgets the counts other instances stopped renewing."""
        while True:
            rooms = list(self._rooms.values())
            if not rooms:
                await asyncio.sleep(self.presence_interval)
                continue
            # Spread over the interval: a thousand renewals at once would queue the
            # moves behind them, here and on every other instance.
            step = self.presence_interval / len(rooms)
            for room in rooms:
                await asyncio.sleep(step)
                try:
                    await room.renew_presence()
                except Exception:  # one room's failure must not stop the others' presence
                    log.exception("room %s: renewing its presence failed", room.id)

    async def _follow_lobby(self, sub: Subscription) -> None:
        try:
            while True:
                notices = [await sub.get()]
                while not sub.empty():
                    notices.append(await sub.get())
                for notice in notices:
                    try:
                        await self._take_lobby_notice(notice)
                    except (RoomError, StoreError) as exc:
                        log.warning("lobby: cannot follow %s: %s", dict(notice), exc)
                    except Exception:  # the follower must outlive one bad notice
                        log.exception("lobby: following %s failed", dict(notice))
                await self.lobby_news.publish(LOBBY_TOPIC, {"kind": "lobby"})
        finally:
            sub.close()

    async def _take_lobby_notice(self, notice: Mapping[str, Any]) -> None:
        if notice.get("kind") == "resync":  # the bus lost notices: look at everything
            await self.load_listed()
            for listed in [r for r in self._rooms.values() if r.public]:
                try:
                    await listed.catch_up()
                except RoomError as exc:
                    log.warning("room %s: cannot catch up after a resync: %s", listed.id, exc)
            await self._count_queue()
            return
        room_id, version = notice.get("room"), notice.get("version")
        if isinstance(room_id, str):
            room = await self.get(room_id)  # opened on another instance: load it
            if room is not None and isinstance(version, int):
                await room.catch_up(version)  # none to read if a socket has just read it
        player_id = notice.get("player")
        if isinstance(player_id, str):
            fresh = await self.store.player(player_id)
            if fresh is not None:
                self.player_changed(fresh)
        if notice.get("queue"):
            await self._count_queue()

    def lobby(self) -> dict[str, Any]:
        """Open public tables, running public matches, the quick-match queue's length."""
        tables, matches = [], []
        for room in sorted(self._rooms.values(), key=lambda r: r.created, reverse=True):
            if not room.public or room.broken:
                continue
            match = room.current.match
            if room.status == "waiting":
                tables.append(
                    {
                        "room": room.id,
                        "host": room.summary(Seat.ONE),
                        "rules": room.rules.to_dict(),
                        "rated": room.rated,
                        "timer": room.rules.move_timer_seconds,
                        "created": room.created,
                    }
                )
            elif room.status == "playing" and match is not None:
                matches.append(
                    {
                        "room": room.id,
                        "players": {
                            seat.label: room.summary(seat) or {"bot": room.seats[seat].bot}
                            for seat in Seat
                        },
                        "scores": {seat.label: match.scores[seat] for seat in Seat},
                        "round": match.round_number,
                        "watchers": room.watching,
                        "spectators": room.spectators,
                    }
                )
        return {"tables": tables, "matches": matches, "queue": self.queue_waiting}

    async def load_listed(self) -> None:
        """Bring back public rooms and rooms with a move timer (their clocks run again)."""
        ids = await self.store.listed_rooms()
        for room_id in ids:
            try:
                await self.get(room_id)
            except RoomError as exc:
                log.error("room %s: not loaded at start: %s", room_id, exc.message)
        log.info("%d listed rooms loaded", len(ids))

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
            room.player_of = await self._players_of(seats)
            # Sockets of it may be open on other instances: hear them before any grace.
            room.settled_at = time.monotonic() + PRESENCE_SETTLE * self.presence_interval
            room.follow_presence()
            self._rooms[room_id] = room
            log.info("room %s: rebuilt from %d events", room_id, len(stored.events))
            clock = stored.clock
            # The timer did not run while the server was down.
            left = (
                clock.remaining_ms if clock is not None and clock.version == snap.version else None
            )
            room._arm_timer(left)
            room._update_grace()
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
        opponent_hash: str | None = None,
        options: Mapping[str, Any] | None = None,
    ) -> Room:
        """A new room with the creator in seat one and, for a computer opponent (or a
        person paired by quick match: ``opponent_hash``), seat two."""
        opts = {"spectators": spectators, **(options or {})}
        row = RoomRow(new_room_id(), kind, rules.to_dict(), self.clock.now(), opts)
        seats = {Seat.ONE: SeatInfo(name, creator_hash, None)}
        if opponent_bot is not None:
            seats[Seat.TWO] = SeatInfo(opponent_name, None, opponent_bot)
        elif opponent_hash is not None:
            seats[Seat.TWO] = SeatInfo(opponent_name, opponent_hash, None)
        room = Room(self, row, seats, Snapshot(0, None))
        room.player_of = await self._players_of(seats)
        events = [room._event(1, "match", room._match_payload())]
        if Seat.TWO in seats:
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
        room.follow_presence()  # new: no instance has a socket of it yet
        self._rooms[row.id] = room
        room._arm_timer()
        room._update_grace()
        await self.lobby_changed(room)
        log.info(
            "room %s created: %s, rules %s, opponent %s",
            row.id,
            kind,
            rules.name,
            f"computer ({opponent_bot})" if opponent_bot else "a person",
        )
        room.schedule_bot()
        return room

    def forget(self, room: Room) -> None:
        room.stop_tasks()  # the rebuilt room re-arms its own timers
        if self._rooms.get(room.id) is room:
            del self._rooms[room.id]

    async def close(self) -> None:
        """Stop every task; remember the time left on running move timers; give the
        rooms' leases up so that other instances take over at once."""
        if self._lobby_task is not None:
            self._lobby_task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._lobby_task
            self._lobby_task = None
        if self._presence_task is not None:
            self._presence_task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._presence_task
            self._presence_task = None
        for room in self._rooms.values():
            if room.has_sockets:  # the other instances stop counting them now
                await self.bus.publish(room.topic, room.presence_notice(None, gone=True))
        now = self.clock.now()
        # Every room whose keeper ever asked: a lease taken by a write still in flight
        # when its keeper is cancelled is held without this instance knowing it yet.
        leased = [room.id for room in self._rooms.values() if room.lease_task is not None]
        for room in self._rooms.values():
            if room.deadline is not None and not room.broken:
                _, version, at = room.deadline
                left = StoredClock(version, max(0, round((at - now) * 1000)))
                try:
                    await self.store.save_clock(room.id, left)
                except StoreError as exc:
                    log.error("room %s: cannot save its clock: %s", room.id, exc)
        tasks = [t for room in self._rooms.values() for t in room.stop_tasks()]
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task
        for room_id in leased:
            try:
                await self.store.release_lease(room_id, self.instance_id)
            except StoreError as exc:  # it runs out by itself
                log.error("room %s: cannot release its lease: %s", room_id, exc)
        if leased:
            log.info("%d room leases released", len(leased))
        self._rooms.clear()
