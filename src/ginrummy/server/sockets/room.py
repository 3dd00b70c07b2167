"""A socket bound to a room (docs/protocol.md, "WebSocket"): a seat's or a spectator's.

``hello`` binds it, with the token that holds a seat or without one as a spectator.
From then on it forwards the room's notices as ``event``/``view``/``presence``/``chat``
frames rendered for what it may see, and turns the client's intents into calls on the
room's master. A seat socket also keeps its tips (docs/rules.md §6, ``TipsState``).
"""

from __future__ import annotations

import asyncio
import functools
import logging
import time
from collections.abc import Awaitable, Callable, Mapping
from contextlib import AbstractContextManager
from typing import Any

from ginrummy.engine import ForfeitReason, Seat, SeatView
from ginrummy.protocol import ClientMessage, encode_own_view, encode_view_frame, to_json
from ginrummy.protocol.messages import (
    Act,
    Chat,
    Claim,
    Hello,
    NewMatch,
    NextRound,
    Resign,
    Resync,
    Seed,
    Tip,
    Tips,
    sent,
)
from ginrummy.server.logcontext import log_context
from ginrummy.server.pubsub import Subscription
from ginrummy.server.room import Room, RoomError, Snapshot, carried, fair_frame
from ginrummy.server.sockets.frames import Connection, Identity, read_log, release
from ginrummy.server.tips import TipsError, TipsState, TipsUnavailable, tip_for

log = logging.getLogger("ginrummy.server.sockets")

RoundKey = tuple[int, int, bool]
Handler = Callable[[Room, Any], Awaitable[None]]
"""A frame's handler: each takes the struct of the ``type`` it is registered for."""


def round_key(snap: Snapshot) -> RoundKey:
    """Which round a snapshot is in or after: it changes when a round ends (a scored
    round is added, the match ends or a new one is set up), not when one is dealt."""
    match = snap.match
    if match is None:
        return (snap.match_seq, 0, False)
    return (snap.match_seq, len(match.rounds), match.is_over)


class RoomSocket:
    """The binding of a connection to one room, as a seat (``seat``) or a spectator."""

    def __init__(self, conn: Connection, room: Room, seat: Seat | None, identity: Identity) -> None:
        self.conn = conn
        self.room = room
        self.seat = seat
        self.identity = identity
        allowed = seat is not None and not room.rated and not room.public
        self.tips = TipsState(allowed=allowed)
        self.sent_version = 0
        self.seen_connected: tuple[bool, ...] = ()  # the seats' presence last shown
        self.sub: Subscription | None = None
        self.forwarder: asyncio.Task[None] | None = None
        self.counted = False  # this socket counts as the seat online or a spectator
        self.handlers: dict[str, Handler] = {
            "resync": self._resync,
            "chat": self._chat,
            "tips": self._switch_tips,
            "tip": self._tip,
            "claim": self._claim,
            "resign": self._resign,
            "act": self._act,
            "next_round": self._next_round,
            "new_match": self._new_match,
            "seed": self._seed,
        }

    # --- binding ----------------------------------------------------------------------

    @classmethod
    async def bind_to(cls, conn: Connection, room: Room, hello: Hello) -> None:
        """Bind ``conn`` to the room and seat of a ``hello``; a refused hello (no
        spectators) leaves the socket bound as it was. A seat's token is known (the
        seat was taken with it): only a spectator's is looked up in the store."""
        rooms = conn.rooms
        token_hash = Identity.hash_of(sent(hello.token))
        seat = room.seat_of(token_hash)
        if seat is None and not room.spectators:
            raise RoomError("no_spectators", "this room has no free seat and allows no spectators")
        if seat is not None:  # the seat's own identity: the room holds its player
            identity = Identity(token_hash, room.player_of.get(seat))
        else:
            identity = await Identity.of(rooms, token_hash)
        await conn.bind(cls(conn, room, seat, identity))

    def logged(self) -> AbstractContextManager[None]:
        """Log lines of this socket name its room and seat (its forwarder's too)."""
        return log_context(room=self.room.id, seat=_label(self.seat))

    async def start(self) -> None:
        """Count in, subscribe, send welcome, view, chat history (and tips to a seat)."""
        with self.logged():
            await self._start()

    async def _start(self) -> None:
        room, seat = self.room, self.seat
        try:
            if seat is None:
                await room.watch(+1)  # before subscribing: the count is in the welcome
                self.counted = True
            self.sub = self.conn.rooms.bus.subscribe(
                room.topic, limit=self.conn.settings.socket_queue, on_overflow=self.conn.fell_behind
            )
            # Read the log once, now that notices are kept: another instance may have
            # written to it, and an event written meanwhile would otherwise reach this
            # socket only with the next.
            room, news = await read_log(self._live_room)
            if news:
                # News this instance was never told of: its writer may have died between
                # writing and publishing. The room's other sockets reload it too.
                await self.conn.rooms.bus.publish(room.topic, {"kind": "resync"})
            if seat is not None:
                await room.connect(seat)
                self.counted = True
            snap = room.current
            self.sent_version = snap.version
            self.seen_connected = tuple(room.connected(s) for s in Seat)
            welcome = {"type": "welcome", "room": room.info(seat), "seat": _label(seat)}
            messages = await room.chat.history()
            history = {"type": "chat_history", "messages": messages} if messages else NO_CHAT
        except BaseException:
            # Not half bound: a seat counted online with no forwarder would hold its
            # opponent's claim back and let notices pile up unread.
            await self.close()
            raise
        first: list[Mapping[str, Any] | str] = [welcome, self._view_message(snap), history]
        if seat is not None:
            first.append(_tips_text(self.tips))  # where the seat's tips stand: off
        await self.conn.send(*first)
        # Only now: the welcome comes first; notices since subscribing wait in ``sub``.
        self.forwarder = asyncio.create_task(self._forward(self.sub))
        who = "a spectator" if seat is None else f"seat {seat.label}"
        log.info("room %s: %s joined the socket", room.id, who)

    async def close(self) -> None:
        forwarder, sub, counted = self.forwarder, self.sub, self.counted
        self.forwarder, self.sub, self.counted = None, None, False
        with self.logged():
            await release(self.room, self.seat, forwarder, sub, counted)

    @property
    def told(self) -> bool:
        return self.sent_version >= self.room.current.version

    @property
    def version(self) -> int | None:
        return self.room.current.version

    @property
    def kind(self) -> str:
        return "room_spectator" if self.seat is None else "room_seat"

    async def _live_room(self) -> Room:
        """This socket's room; after a store failure, the room rebuilt from its log."""
        room = self.room
        if not room.broken:
            return room
        fresh = await self.conn.rooms.get(room.id)  # "unavailable" while the store is down
        if fresh is None:
            raise RoomError("unknown_room", "there is no such room")
        self.room = fresh
        if self.counted:
            if self.seat is not None:
                await fresh.connect(self.seat)
            else:
                await fresh.watch(+1)
        return fresh

    # --- frames to the client -----------------------------------------------------------

    def _view_message(self, snap: Snapshot) -> str:
        """The ``view`` frame: this socket's own part, the room's shared public part."""
        room = self.room
        public, _ = room.public_part(snap)
        view = room.view(self.seat, snap) if self.seat is not None else None
        message = {
            "type": "view",
            "version": snap.version,
            "players": room.players(snap),
            "timer": room.timer(snap),
            "watchers": room.watching,
            "fair": fair_frame(snap, self.seat),
        }
        own = encode_own_view(view if isinstance(view, SeatView) else None)
        return encode_view_frame(message, own, public)

    def _event_message(self, notice: Mapping[str, Any], snap: Snapshot) -> dict[str, Any]:
        action = None
        if notice["kind"] == "action":
            # The last public move (the same for every socket): a knock's card stays face down.
            _, action = self.room.public_part(snap)
        return {
            "type": "event",
            "version": snap.version,
            "kind": notice["kind"],
            "seat": notice.get("seat"),
            "action": action,
        }

    async def send_view(self, force: bool = False) -> None:
        snap = self.room.current
        if snap.version < self.sent_version:
            return  # a room that broke behind what this socket showed: never back
        if force or snap.version > self.sent_version:
            self.sent_version = snap.version
            await self.conn.send(self._view_message(snap))
            await self._follow_round(snap)

    async def _follow_round(self, snap: Snapshot) -> None:
        """Tips end with the round they were switched on in (docs/rules.md §6)."""
        await self._set_tips(self.tips.in_round(round_key(snap)))

    async def _set_tips(self, tips: TipsState) -> None:
        if tips != self.tips:
            self.tips = tips
            await self.conn.send(tips.message())

    # --- the room's notices -------------------------------------------------------------

    async def _forward(self, sub: Subscription) -> None:
        """Render the room's notices for this socket until it closes."""
        while True:
            notice = await sub.get()
            try:
                room = await self._live_room()
                if notice["kind"] == "resync":
                    # The bus lost notices (Redis was away, or this socket fell behind):
                    # reload and resend the view.
                    await read_log(self._live_room)
                    await self.send_view()
                    continue
                version = notice.get("version")
                if isinstance(version, int) and version > room.current.version:
                    # Written by another server instance (a move: carried by its notice).
                    await room.catch_up(version, carried(notice))
            except RoomError as exc:
                log.warning("room %s: cannot follow a notice: %s", self.room.id, exc.message)
                continue
            if notice["kind"] == "presence":
                await self._presence(room, notice)
            elif notice["kind"] == "chat":
                await self.conn.send({"type": "chat", "message": notice["message"]})
            else:
                await self._event(room, notice)

    async def _presence(self, room: Room, notice: Mapping[str, Any]) -> None:
        room.take_presence(notice)  # another instance's sockets count here too
        # The teller was ahead of this socket: a move's notice never reached this
        # instance (its notice would have come first). The room caught up; show the move.
        told = notice.get("version")
        if isinstance(told, int) and told > self.sent_version:
            await self.send_view()
        seen = tuple(room.connected(s) for s in Seat)
        if notice.get("renew") and seen == self.seen_connected:
            return  # a periodic renewal that changes nothing this socket shows
        self.seen_connected = seen
        if self.seat is None or notice.get("seat") != self.seat.label:
            await self.conn.send(
                {"type": "presence", "players": room.players(), "watchers": room.watching}
            )

    async def _event(self, room: Room, notice: Mapping[str, Any]) -> None:
        version = int(notice["version"])
        if version <= self.sent_version:
            return  # already sent (the view after hello may be ahead of a notice)
        snap = room.snapshot_at(version)
        self.sent_version = snap.version
        await self.conn.send(self._event_message(notice, snap), self._view_message(snap))
        await self._follow_round(snap)

    # --- the client's messages ----------------------------------------------------------

    async def handle(self, msg: ClientMessage) -> None:
        room = await self._live_room()
        handler = self.handlers.get(msg.type)
        if handler is None:
            raise RoomError("bad_message", f"{msg.type!r} is not for a room socket")
        try:
            with self.logged():
                await handler(room, msg.frame)
        except TipsError as exc:
            raise RoomError(exc.code, str(exc)) from None

    def _own_seat(self) -> Seat:
        if self.seat is None:
            raise RoomError("not_a_player", "spectators only watch")
        return self.seat

    async def _resync(self, room: Room, frame: Resync) -> None:
        await read_log(self._live_room)
        await self.send_view(force=True)

    async def _chat(self, room: Room, chat: Chat) -> None:
        self.conn.check_chat_rate()
        # A seat's player as the room knows it now (a rename shows at once).
        seat = self.seat
        player = self.identity.player if seat is None else room.player_of.get(seat)
        await room.chat.say(seat, player, sent(chat.text), sent(chat.phrase))

    async def _claim(self, room: Room, frame: Claim) -> None:
        await room.claim(self._own_seat())

    async def _resign(self, room: Room, frame: Resign) -> None:
        await room.end_by_forfeit(self._own_seat(), ForfeitReason.RESIGNED)

    async def _next_round(self, room: Room, frame: NextRound) -> None:
        # Readiness is idempotent, so its version is informational: never stale.
        await room.next_round(self._own_seat())

    async def _new_match(self, room: Room, frame: NewMatch) -> None:
        await room.new_match(self._own_seat())

    async def _seed(self, room: Room, seed: Seed) -> None:
        await room.seed(self._own_seat(), seed.seed, sent(seed.commitment))

    async def _act(self, room: Room, act: Act) -> None:
        seat = self._own_seat()
        sent = self.sent_version
        try:
            await room.act(seat, act.version, act.action)
        except RoomError as exc:
            if exc.code not in ("stale_version", "not_your_turn"):
                raise
            await self.conn.error(exc.code, exc.message)
            # The client acted on an old view: one view answers, the current one again
            # unless the forwarder sent a newer one while the request was handled.
            await self.send_view(force=self.sent_version == sent)
            return
        # Written and published: the move's round trip through this server.
        self.conn.metrics.move.observe(time.perf_counter() - self.conn.received)
        await self._set_tips(self.tips.decided())

    async def _switch_tips(self, room: Room, tips: Tips) -> None:
        self.tips = self.tips.switched(tips.on, round_key(room.current))
        await self.conn.send(self.tips.message())  # the answer, changed or not

    async def _tip(self, room: Room, frame: Tip) -> None:
        self.tips.check()
        seat = self._own_seat()
        snap = room.current
        view = room.view(seat, snap)
        if not isinstance(view, SeatView):
            raise TipsUnavailable("there is no decision to advise on right now")
        tip = await tip_for(view)
        await self.conn.send(
            {
                "type": "tip",
                "version": snap.version,
                "action": tip.action,
                "key": tip.key,
                "params": tip.params,
                "text": tip.texts,
            }
        )


def _label(seat: Seat | None) -> str | None:
    return None if seat is None else seat.label


NO_CHAT = to_json({"type": "chat_history", "messages": []})
"""The ``chat_history`` of a room without chat, encoded once."""


@functools.lru_cache(maxsize=8)
def _tips_text(tips: TipsState) -> str:
    """A ``tips`` frame; a new seat socket's (off, allowed or not) encoded once."""
    return to_json(tips.message())
