"""A socket bound to a table of any kind (docs/protocol.md, "WebSocket"): a seat's or a
spectator's, the same life for every kind of room.

``TableSocket`` counts the socket in, subscribes to the room's notices, reads the log
once (news an instance was never told of), sends the first frames, then forwards every
notice rendered for what its seat may see, catching up with what other instances wrote
and following the room rebuilt from its log after a store failure. A kind's socket
(``sockets.room``, ``sockets.chouette``) gives its frames and its commands.
"""

from __future__ import annotations

import asyncio
import logging
import time
from abc import ABC, abstractmethod
from collections.abc import Awaitable, Callable, Hashable, Mapping
from contextlib import AbstractContextManager
from typing import Any, ClassVar, Generic, TypeVar

from ginrummy.protocol import ClientMessage
from ginrummy.protocol.messages import Act, Chat, Resync, sent
from ginrummy.server.civility.service import CivilityError
from ginrummy.server.logcontext import log_context
from ginrummy.server.pubsub import Subscription
from ginrummy.server.room import RoomError
from ginrummy.server.room.base import RoomBase
from ginrummy.server.sockets import whereabouts
from ginrummy.server.sockets.frames import Connection, Identity, read_log, release

log = logging.getLogger("ginrummy.server.sockets")

R = TypeVar("R", bound=RoomBase[Any, Any, Any])
K = TypeVar("K", bound=Hashable)

Frame = Mapping[str, Any] | str
Handler = Callable[[Any, Any], Awaitable[None]]
"""A frame's handler: the socket's room and the struct of the ``type`` it is for."""


class TableSocket(ABC, Generic[R, K]):
    """The binding of a connection to one room, as the seat ``key`` or a spectator
    (``key`` None). A subclass sets ``kind_name`` and gives the frames of its kind."""

    kind_name: ClassVar[str]  # "room" or "chouette": the socket's kind is ``<name>_seat``

    def __init__(self, conn: Connection, room: R, key: K | None, identity: Identity) -> None:
        self.conn = conn
        self.room = room
        self.key = key
        self.identity = identity
        self.sent_version = 0
        self.seen: object = None  # what the last presence frame showed
        self.sub: Subscription | None = None
        self.forwarder: asyncio.Task[None] | None = None
        self.counted = False  # this socket counts as the seat online or a spectator
        self.ticket: int | None = None  # where its person is, for their friends
        self.handlers: dict[str, Handler] = {
            "resync": self._resync,
            "chat": self._chat,
            "act": self._act,
            **self.commands(),
        }

    # --- what a kind gives ----------------------------------------------------------

    def commands(self) -> dict[str, Handler]:
        """The kind's own frame handlers, by frame type."""
        return {}

    @abstractmethod
    async def first_frames(self, room: R, key: K | None) -> list[Frame]:
        """What a new socket is sent first: welcome, view, chat history, ..."""
        raise NotImplementedError

    @abstractmethod
    def view_message(self, snap: Any) -> Frame:
        """The ``view`` frame of ``snap`` for this socket."""
        raise NotImplementedError

    @abstractmethod
    def event_message(self, notice: Mapping[str, Any], snap: Any) -> Frame:
        """The ``event`` frame of a notice, for ``snap`` (the event's version)."""
        raise NotImplementedError

    @abstractmethod
    def presence_shown(self, room: R) -> object:
        """What a presence frame shows (the seats' connections, the watchers)."""
        raise NotImplementedError

    @abstractmethod
    def presence_message(self, room: R) -> Frame:
        raise NotImplementedError

    async def own_notice(self, notice: Mapping[str, Any]) -> bool:
        """A notice only this kind knows (a chouette team's); True once handled."""
        return False

    async def followed(self, snap: Any) -> None:
        """This socket showed ``snap`` (a two-player seat's tips follow the round)."""

    async def acted(self) -> None:
        """This socket's move was written and published."""

    # --- binding ----------------------------------------------------------------------

    def logged(self) -> AbstractContextManager[None]:
        """Log lines of this socket name its room and seat (its forwarder's too)."""
        seat = None if self.key is None else self.room.label(self.key)
        return log_context(room=self.room.id, seat=seat)

    async def start(self) -> None:
        """Count in, subscribe, read the log, send the first frames, forward."""
        with self.logged():
            await self._start()
        place = "watching" if self.key is None else "playing"
        self.ticket = await whereabouts.arrive(self.conn, self.identity, place, self.room.id)

    async def _start(self) -> None:
        room, key = self.room, self.key
        try:
            if key is None:
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
            if key is not None:
                self.counted = True  # (connect counts it before its first await)
                await room.connect(key)
            self.sent_version = room.current.version
            self.seen = self.presence_shown(room)
            first = await self.first_frames(room, key)
        except BaseException:
            # Not half bound: a seat counted online with no forwarder would hold its
            # opponent's claim back and let notices pile up unread.
            await self.close()
            raise
        await self.conn.send(*first)
        # Only now: the welcome comes first; notices since subscribing wait in ``sub``.
        self.forwarder = asyncio.create_task(self._forward(self.sub))
        who = "a spectator" if key is None else f"seat {room.label(key)}"
        log.info("room %s: %s joined the socket", room.id, who)

    async def close(self) -> None:
        forwarder, sub, counted = self.forwarder, self.sub, self.counted
        self.forwarder, self.sub, self.counted = None, None, False
        ticket, self.ticket = self.ticket, None
        await whereabouts.leave(self.conn, ticket)
        with self.logged():
            await release(self.room, self.key, forwarder, sub, counted)

    @property
    def told(self) -> bool:
        return self.sent_version >= self.version

    @property
    def version(self) -> int:
        version: int = self.room.current.version
        return version

    @property
    def kind(self) -> str:
        return f"{self.kind_name}_{'spectator' if self.key is None else 'seat'}"

    async def _live_room(self) -> R:
        """This socket's room; after a store failure, the room rebuilt from its log
        (``unavailable`` while the store is down)."""
        room = self.room
        if not room.broken:
            return room
        fresh = await self.conn.rooms.get_any(room.id)
        if self.room is not room:
            return self.room  # the forwarder and a frame both waited: one moved and counted
        if not isinstance(fresh, type(room)):
            raise RoomError("unknown_room", "there is no such room")
        self.room = fresh
        if self.counted:
            await (fresh.watch(+1) if self.key is None else fresh.connect(self.key))
        return fresh

    # --- the room's notices -------------------------------------------------------------

    async def _forward(self, sub: Subscription) -> None:
        """Render the room's notices for this socket until it closes."""
        while True:
            notice = await sub.get()
            if await self.own_notice(notice):
                continue
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
                    await room.catch_up(version, room.carried(notice))
            except RoomError as exc:
                log.warning("room %s: cannot follow a notice: %s", self.room.id, exc.message)
                continue
            if notice["kind"] == "presence":
                await self._presence(room, notice)
            elif notice["kind"] == "chat":
                if await self.shows_chat(notice["message"]):
                    await self.conn.send({"type": "chat", "message": notice["message"]})
            elif isinstance(notice.get("version"), int):
                await self._event(room, notice)

    async def _presence(self, room: R, notice: Mapping[str, Any]) -> None:
        room.take_presence(notice)  # another instance's sockets count here too
        # The teller was ahead of this socket: a move's notice never reached this
        # instance (its notice would have come first). The room caught up; show the move.
        told = notice.get("version")
        if isinstance(told, int) and told > self.sent_version:
            await self.send_view()
        seen = self.presence_shown(room)
        if notice.get("renew") and seen == self.seen:
            return  # a periodic renewal that changes nothing this socket shows
        if self.key is None or notice.get("seat") != room.label(self.key):
            self.seen = seen  # (what a frame showed: not a notice about this seat itself)
            await self.conn.send(self.presence_message(room))

    async def _event(self, room: R, notice: Mapping[str, Any]) -> None:
        version = int(notice["version"])
        if version <= self.sent_version:
            return  # already sent (the view after hello may be ahead of a notice)
        snap = room.history.at(version)
        self.sent_version = snap.version
        await self.conn.send(self.event_message(notice, snap), self.view_message(snap))
        await self.followed(snap)

    async def send_view(self, force: bool = False) -> None:
        snap = self.room.current
        if snap.version < self.sent_version:
            return  # a room that broke behind what this socket showed: never back
        if force or snap.version > self.sent_version:
            self.sent_version = snap.version
            await self.conn.send(self.view_message(snap))
            await self.followed(snap)

    # --- the client's messages ----------------------------------------------------------

    async def handle(self, msg: ClientMessage) -> None:
        room = await self._live_room()
        handler = self.handlers.get(msg.type)
        if handler is None:
            raise RoomError("bad_message", f"{msg.type!r} is not for a {self.kind_name} socket")
        with self.logged():
            await handler(room, msg.frame)

    def own_seat(self) -> K:
        if self.key is None:
            raise RoomError("not_a_player", "spectators only watch")
        return self.key

    async def _resync(self, room: R, frame: Resync) -> None:
        await read_log(self._live_room)
        await self.send_view(force=True)

    async def _chat(self, room: R, chat: Chat) -> None:
        self.conn.check_chat_rate()
        # A seat's player as the room knows it now (a rename shows at once).
        key = self.key
        player = self.identity.player if key is None else room.player_of.get(key)
        label = None if key is None else room.label(key)
        if player is not None:
            await self.check_chat(player.id)
        await room.chat.say(label, player, sent(chat.text), sent(chat.phrase))

    # --- civility: chat locks and blocks, per socket -------------------------------------

    async def check_chat(self, player_id: str) -> None:
        """``muted`` or ``chat_timeout`` (an operator's) before anything is written."""
        try:
            await self.conn.rooms.civility.check_chat(player_id)
        except CivilityError as exc:
            raise RoomError(exc.code, exc.message) from None

    async def shows_chat(self, message: Mapping[str, Any]) -> bool:
        """A chat message reaches this socket unless its player blocks the sender."""
        me = self.identity.player
        if me is None:
            return True
        civility = self.conn.rooms.civility
        return civility.shows(await civility.hidden_for(me.id), message)

    async def shown_chat(self, messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """A chat history without the lines of the people this socket's player blocks."""
        return [m for m in messages if await self.shows_chat(m)]

    async def _act(self, room: R, act: Act) -> None:
        key = self.own_seat()
        before = self.sent_version
        try:
            await room.act(key, act.version, act.action)
        except RoomError as exc:
            if exc.code not in ("stale_version", "not_your_turn"):
                raise
            await self.conn.error(exc.code, exc.message)
            # The client acted on an old view: one view answers, the current one again
            # unless the forwarder sent a newer one while the request was handled.
            await self.send_view(force=self.sent_version == before)
            return
        # Written and published: the move's round trip through this server.
        self.conn.metrics.move.observe(time.perf_counter() - self.conn.received)
        await self.acted()
