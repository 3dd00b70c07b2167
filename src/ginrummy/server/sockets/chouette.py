"""A socket bound to a chouette room (docs/protocol.md, "Chouette rooms"): a player's
position or a spectator.

Like a two-player room's socket (``sockets.room``), it forwards the room's notices as
``event``/``view``/``presence``/``chat`` frames rendered for what its position may see
(``chouette.presenter``), and turns the client's intents into the room's commands.
Advice and team chat reach only the sockets of the team's members at that moment:
never the box's, never a spectator's.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable, Mapping
from contextlib import AbstractContextManager
from typing import Any

from ginrummy.engine import ForfeitReason
from ginrummy.protocol import ClientMessage
from ginrummy.protocol.messages import (
    Act,
    Advice,
    AskAdvice,
    Chat,
    Hello,
    NextMatch,
    NextRound,
    Resign,
    Resync,
    TeamChat,
    sent,
)
from ginrummy.server.chouette import ChouetteRoom, presenter
from ginrummy.server.chouette.team import TEAM_NOTICES, team_frame
from ginrummy.server.logcontext import log_context
from ginrummy.server.pubsub import Subscription
from ginrummy.server.room import RoomError
from ginrummy.server.sockets.frames import Connection, Identity, read_log, release

log = logging.getLogger("ginrummy.server.sockets")

Handler = Callable[[ChouetteRoom, Any], Awaitable[None]]
"""A frame's handler: each takes the struct of the ``type`` it is registered for."""


class ChouetteSocket:
    """The binding of a connection to one chouette room, as a position or a spectator."""

    def __init__(
        self, conn: Connection, room: ChouetteRoom, position: int | None, identity: Identity
    ) -> None:
        self.conn = conn
        self.room = room
        self.position = position
        self.identity = identity
        self.sent_version = 0
        self.sub: Subscription | None = None
        self.forwarder: asyncio.Task[None] | None = None
        self.counted = False
        self.seen: tuple[tuple[bool, ...], int] = ((), 0)  # presence last shown
        self.handlers: dict[str, Handler] = {
            "resync": self._resync,
            "chat": self._chat,
            "team_chat": self._team_chat,
            "act": self._act,
            "advice": self._advice,
            "ask_advice": self._ask_advice,
            "next_round": self._next_round,
            "next_match": self._next_match,
            "resign": self._resign,
        }

    @classmethod
    async def bind_to(cls, conn: Connection, room: ChouetteRoom, hello: Hello) -> None:
        """Bind ``conn`` to the position the hello's token holds, or as a spectator."""
        token_hash = Identity.hash_of(sent(hello.token))
        position = room.position_of(token_hash)
        if position is None and not room.spectators:
            raise RoomError("no_spectators", "this room has no seat of yours and no spectators")
        await conn.bind(cls(conn, room, position, await Identity.of(conn.rooms, token_hash)))

    def logged(self) -> AbstractContextManager[None]:
        """Log lines of this socket name its room and position (its forwarder's too)."""
        seat = None if self.position is None else str(self.position)
        return log_context(room=self.room.id, seat=seat)

    async def start(self) -> None:
        """Count in, subscribe, send welcome, view, chat history (and the team's)."""
        with self.logged():
            await self._start()

    async def _start(self) -> None:
        room, position = self.room, self.position
        try:
            if position is None:
                await room.watch(+1)
            self.counted = position is None
            self.sub = self.conn.rooms.bus.subscribe(
                room.topic, limit=self.conn.settings.socket_queue, on_overflow=self.conn.fell_behind
            )
            room, news = await read_log(self._live_room)
            if news:
                # News this instance was never told of (its writer may have died between
                # writing and telling): the room's other sockets reload it too.
                await self.conn.rooms.bus.publish(room.topic, {"kind": "resync"})
            if position is not None:
                await room.connect(position)
                self.counted = True
            snap = room.current
            self.sent_version = snap.version
            first: list[Mapping[str, Any] | str] = [
                {"type": "welcome", "room": presenter.info(room, position), "position": position},
                presenter.view_message(room, snap, position),
                {"type": "chat_history", "messages": await room.chat.history()},
            ]
            if room.in_team(position) and snap.table is not None:
                team = await room.team_chat.history(snap.table.number)
                first.append({"type": "team_chat_history", "messages": team})
        except BaseException:
            await self.close()
            raise
        await self.conn.send(*first)
        self.forwarder = asyncio.create_task(self._forward(self.sub))

    async def close(self) -> None:
        forwarder, sub, counted = self.forwarder, self.sub, self.counted
        self.forwarder, self.sub, self.counted = None, None, False
        with self.logged():
            await release(self.room, self.position, forwarder, sub, counted)

    @property
    def told(self) -> bool:
        return self.sent_version >= self.room.current.version

    @property
    def version(self) -> int | None:
        return self.room.current.version

    @property
    def kind(self) -> str:
        return "chouette_spectator" if self.position is None else "chouette_seat"

    # --- the room's notices -------------------------------------------------------------

    async def _forward(self, sub: Subscription) -> None:
        while True:
            notice = await sub.get()
            kind = notice.get("kind")
            if kind in TEAM_NOTICES:
                frame = team_frame(notice, self.position)  # never the box's, a spectator's
                if frame is not None:
                    await self.conn.send(frame)
            elif kind == "presence":
                await self._presence(notice)
            elif kind == "chat":
                await self.conn.send({"type": "chat", "message": notice["message"]})
            elif kind == "resync":
                await self.send_view(force=True)
            elif isinstance(notice.get("version"), int):
                if notice["version"] > self.room.current.version:
                    await self._catch_up(notice["version"])  # written by another instance
                await self._event(notice)

    async def _presence(self, notice: Mapping[str, Any]) -> None:
        room = self.room
        room.take_presence(notice)
        seen = (tuple(room.connected(p) for p in range(room.players)), room.watching)
        if notice.get("renew") and seen == self.seen:
            return  # a periodic renewal that changes nothing this socket shows
        self.seen = seen
        players = presenter.players(room, room.current)
        await self.conn.send({"type": "presence", "players": players, "watchers": room.watching})

    async def _catch_up(self, version: int) -> None:
        try:
            await self.room.catch_up(version)
        except RoomError as exc:
            log.warning("room %s: cannot follow a notice: %s", self.room.id, exc.message)

    async def _event(self, notice: Mapping[str, Any]) -> None:
        version = int(notice["version"])
        if version <= self.sent_version:
            return
        snap = self.room.history.at(version)
        self.sent_version = snap.version
        action = presenter.public_action(self.room, snap) if notice["kind"] == "action" else None
        event = {
            "type": "event",
            "version": snap.version,
            "kind": notice["kind"],
            "position": notice.get("position"),
            "action": action,
        }
        await self.conn.send(event, presenter.view_message(self.room, snap, self.position))

    async def send_view(self, force: bool = False) -> None:
        snap = self.room.current
        if snap.version < self.sent_version:
            return  # a room that broke behind what this socket showed: never back
        if force or snap.version > self.sent_version:
            self.sent_version = snap.version
            await self.conn.send(presenter.view_message(self.room, snap, self.position))

    # --- the client's messages ----------------------------------------------------------

    async def handle(self, msg: ClientMessage) -> None:
        handler = self.handlers.get(msg.type)
        if handler is None:
            raise RoomError("bad_message", f"{msg.type!r} is not for a chouette room socket")
        with self.logged():
            await handler(await self._live_room(), msg.frame)

    async def _live_room(self) -> ChouetteRoom:
        """This socket's room; after a store failure, the room rebuilt from its log
        (``unavailable`` while the store is down)."""
        if not self.room.broken:
            return self.room
        fresh = await self.conn.rooms.get_any(self.room.id)
        if not isinstance(fresh, ChouetteRoom):
            raise RoomError("unknown_room", "there is no such room")
        self.room = fresh
        if self.counted:
            await (fresh.watch(+1) if self.position is None else fresh.connect(self.position))
        return fresh

    def _own(self) -> int:
        if self.position is None:
            raise RoomError("not_a_player", "spectators only watch")
        return self.position

    async def _resync(self, room: ChouetteRoom, frame: Resync) -> None:
        await read_log(self._live_room)
        await self.send_view(force=True)

    async def _chat(self, room: ChouetteRoom, chat: Chat) -> None:
        self.conn.check_chat_rate()
        position = self.position
        player = self.identity.player if position is None else room.player_of.get(position)
        await room.chat.say(position, player, sent(chat.text), sent(chat.phrase))

    async def _team_chat(self, room: ChouetteRoom, chat: TeamChat) -> None:
        position = self._own()
        self.conn.check_chat_rate()
        await room.team_say(position, sent(chat.text), sent(chat.phrase))

    async def _act(self, room: ChouetteRoom, act: Act) -> None:
        position = self._own()
        sent = self.sent_version
        try:
            await room.act(position, act.version, act.action)
        except RoomError as exc:
            if exc.code not in ("stale_version", "not_your_turn"):
                raise
            await self.conn.error(exc.code, exc.message)
            await self.send_view(force=self.sent_version == sent)
            return
        # Written and published: the move's round trip through this server.
        self.conn.metrics.move.observe(time.perf_counter() - self.conn.received)

    async def _advice(self, room: ChouetteRoom, advice: Advice) -> None:
        position = self._own()
        await room.advise(position, advice.version, sent(advice.action), sent(advice.card))

    async def _ask_advice(self, room: ChouetteRoom, ask: AskAdvice) -> None:
        await room.ask_advice(self._own(), ask.version)

    async def _next_round(self, room: ChouetteRoom, frame: NextRound) -> None:
        await room.ready(self._own())

    async def _next_match(self, room: ChouetteRoom, frame: NextMatch) -> None:
        await room.wish_next(self._own())

    async def _resign(self, room: ChouetteRoom, frame: Resign) -> None:
        await room.forfeit(self._own(), ForfeitReason.RESIGNED)
