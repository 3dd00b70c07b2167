"""The WebSocket endpoint: one socket per seat or spectator (docs/protocol.md, "WebSocket").

The first message (``hello``) binds the socket to a room, with the token that holds a
seat or without one as a spectator. From then on the socket forwards the room's
notices as ``event``/``view``/``presence`` messages rendered for what it may see, and
turns the client's intents into calls on the room's master. Every refusal is an
``error`` message; the connection stays usable.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Mapping
from typing import Any
from urllib.parse import urlsplit

from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketState

from ginrummy.engine import ForfeitReason, Seat, SeatView
from ginrummy.protocol import (
    MAX_FRAME_BYTES,
    ClientMessage,
    ProtocolError,
    decode_client_message,
    encode_own_view,
    encode_view_frame,
    to_json,
)
from ginrummy.server.pubsub import Subscription
from ginrummy.server.quick import QuickMatch, player_topic
from ginrummy.server.room import LOBBY_TOPIC, Room, RoomError, RoomManager, Snapshot
from ginrummy.server.settings import Settings
from ginrummy.server.store import Player, StoreError
from ginrummy.server.tips import TipsUnavailable, tip_for
from ginrummy.server.tokens import hash_token

log = logging.getLogger("ginrummy.server.ws")

ORIGIN_REFUSED = 4403
CHAT_RATE = 1.0  # chat messages per second per socket, sustained
CHAT_BURST = 5.0


def origin_allowed(ws: WebSocket, settings: Settings) -> bool:
    """Same origin as the server (by host), or a configured origin; no Origin: not a browser."""
    origin = ws.headers.get("origin")
    if origin is None:
        return True
    origin = origin.rstrip("/")
    if origin in settings.allowed_origins:
        return True
    host = ws.headers.get("host", "")
    parts = urlsplit(origin)
    return bool(host) and parts.scheme in ("http", "https") and parts.netloc == host


class Bucket:
    """A token bucket: ``rate`` per second, at most ``burst`` at once."""

    def __init__(self, rate: float, burst: float) -> None:
        self.rate, self.burst, self.allowance = rate, burst, burst
        self.last = time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.allowance = min(self.burst, self.allowance + (now - self.last) * self.rate)
        self.last = now
        if self.allowance < 1:
            return False
        self.allowance -= 1
        return True


class Connection:
    def __init__(
        self, ws: WebSocket, rooms: RoomManager, rate: float, quick: QuickMatch, settings: Settings
    ) -> None:
        self.ws = ws
        self.rooms = rooms
        self.quick = quick
        self.settings = settings
        self.identity_hash: str | None = None  # a valid token's hash, seat or not
        self.player: Player | None = None
        self.lobby = False
        self.tasks: list[asyncio.Task[None]] = []
        self.subs: list[Subscription] = []
        self.chat_bucket = Bucket(CHAT_RATE, CHAT_BURST)
        self.room: Room | None = None
        self.seat: Seat | None = None
        self.sent_version = 0
        self.seen_connected: tuple[bool, ...] = ()  # the seats' presence last shown
        self.sub: Subscription | None = None
        self.forwarder: asyncio.Task[None] | None = None
        self.send_lock = asyncio.Lock()
        self.frame_bucket = Bucket(rate, 3 * rate)

    # --- sending ----------------------------------------------------------------------

    async def send(self, *messages: Mapping[str, Any] | str) -> None:
        """Send messages (or their JSON text) back to back, no other message between."""
        async with self.send_lock:
            for message in messages:
                if self.ws.application_state is not WebSocketState.CONNECTED:
                    return
                text = message if isinstance(message, str) else to_json(message)
                try:
                    await self.ws.send_text(text)
                except WebSocketDisconnect:
                    # Gone mid-send: the receiving side sees the close and unbinds.
                    log.debug("a frame to a closed socket was dropped")
                    return

    async def error(self, code: str, message: str) -> None:
        version = self.room.current.version if self.room is not None else None
        await self.send({"type": "error", "code": code, "message": message, "version": version})

    def _view_message(self, snap: Snapshot) -> str:
        """The ``view`` frame: this socket's own part, the room's shared public part."""
        room = self.room
        assert room is not None
        public, _ = room.public_part(snap)
        view = room.view(self.seat, snap) if self.seat is not None else None
        message = {
            "type": "view",
            "version": snap.version,
            "players": room.players(snap),
            "timer": room.timer(snap),
            "watchers": room.watching,
        }
        own = encode_own_view(view if isinstance(view, SeatView) else None)
        return encode_view_frame(message, own, public)

    def _event_message(self, notice: Mapping[str, Any], snap: Snapshot) -> dict[str, Any]:
        assert self.room is not None
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
        assert self.room is not None
        snap = self.room.current
        if force or snap.version > self.sent_version:
            self.sent_version = snap.version
            await self.send(self._view_message(snap))

    async def _live_room(self) -> Room:
        """This socket's room; after a store failure, the room rebuilt from its log."""
        room = self.room
        assert room is not None
        if not room.broken:
            return room
        fresh = await self.rooms.get(room.id)  # "unavailable" while the store is down
        if fresh is None:
            raise RoomError("unknown_room", "there is no such room")
        self.room = fresh
        if self.seat is not None:
            await fresh.connect(self.seat)
        else:
            await fresh.watch(+1)
        return fresh

    async def forward(self, sub: Subscription) -> None:
        """Render the room's notices for this socket until it closes."""
        while True:
            notice = await sub.get()
            if self.room is None:
                return
            try:
                room = await self._live_room()
                if notice["kind"] == "resync":
                    # The bus lost notices (Redis was away): reload and resend the view.
                    await room.catch_up()
                    await self.send_view()
                    continue
                version = notice.get("version")
                if isinstance(version, int) and version > room.current.version:
                    await room.catch_up(version)  # written by another server instance
            except RoomError as exc:
                log.warning("room %s: cannot follow a notice: %s", self.room.id, exc.message)
                continue
            if notice["kind"] == "presence":
                room.take_presence(notice)  # another instance's sockets count here too
                # The teller was ahead of this socket: a move's notice never reached
                # this instance (its notice would have come first). The room caught up
                # above; show this socket the move.
                told = notice.get("version")
                if isinstance(told, int) and told > self.sent_version:
                    await self.send_view()
                seen = tuple(room.connected(s) for s in Seat)
                if notice.get("renew") and seen == self.seen_connected:
                    continue  # a periodic renewal that changes nothing this socket shows
                self.seen_connected = seen
                if self.seat is None or notice.get("seat") != self.seat.label:
                    await self.send(
                        {"type": "presence", "players": room.players(), "watchers": room.watching}
                    )
                continue
            if notice["kind"] == "chat":
                await self.send({"type": "chat", "message": notice["message"]})
                continue
            version = int(notice["version"])
            if version <= self.sent_version:
                continue  # already sent (the view after hello may be ahead of a notice)
            snap = room.snapshot_at(version)
            self.sent_version = snap.version
            await self.send(self._event_message(notice, snap), self._view_message(snap))

    # --- receiving --------------------------------------------------------------------

    async def run(self) -> None:
        while True:
            message = await self.ws.receive()
            if message["type"] == "websocket.disconnect":
                return
            raw: str | bytes | None = message.get("text")
            if raw is None:
                raw = message.get("bytes") or b""
            size = len(raw.encode("utf-8")) if isinstance(raw, str) else len(raw)
            if size > MAX_FRAME_BYTES:
                await self.error(
                    "frame_too_large", f"frames are limited to {MAX_FRAME_BYTES} bytes"
                )
                continue
            if not self.frame_bucket.take():
                await self.error("rate_limited", "too many messages; slow down")
                continue
            sent = self.sent_version
            try:
                await self.handle(decode_client_message(raw))
            except ProtocolError as exc:
                await self.error(exc.code, str(exc))
            except RoomError as exc:
                await self.error(exc.code, exc.message)
                if exc.code in ("stale_version", "not_your_turn") and self.room is not None:
                    # One view answers: the current one again, unless the forwarder
                    # sent a newer one while the request was handled.
                    await self.send_view(force=self.sent_version == sent)
            except StoreError as exc:
                # A read outside a room's own error handling (who the caller is, a room's
                # chat): nothing was changed, so the client may simply try again.
                log.warning("store unavailable for a socket message: %s", exc)
                await self.error("unavailable", "the server cannot reach its store; try again")

    async def handle(self, msg: ClientMessage) -> None:
        if msg.type == "ping":
            await self.send({"type": "pong", "t": msg.fields.get("t")})
            return
        if msg.type == "hello":
            await self.hello(msg.fields)
            return
        if msg.type == "hello_lobby":
            await self.hello_lobby(msg.fields)
            return
        if self.room is None:
            raise RoomError("hello_first", "send 'hello' with the room first")
        room = await self._live_room()
        if msg.type == "resync":
            await room.catch_up()
            await self.send_view(force=True)
            return
        if msg.type == "chat":
            if not self.chat_bucket.take():
                raise RoomError("rate_limited", "one chat message per second; slow down")
            # A seat's player as the room knows it now (a rename shows at once).
            player = self.player if self.seat is None else room.player_of.get(self.seat)
            await room.say(self.seat, player, msg.fields.get("text"), msg.fields.get("phrase"))
            return
        seat = self.seat
        if seat is None:
            raise RoomError("not_a_player", "spectators only watch")
        if msg.type == "claim":
            await room.claim(seat)
            return
        if msg.type == "resign":
            await room.end_by_forfeit(seat, ForfeitReason.RESIGNED)
            return
        if msg.type == "act":
            await room.act(seat, int(msg.fields["version"]), str(msg.fields["action"]))
        elif msg.type == "next_round":
            # Readiness is idempotent, so its version is informational: never stale.
            await room.next_round(seat)
        elif msg.type == "new_match":
            await room.new_match(seat)
        elif msg.type == "tip":
            await self.tip(room, seat)

    async def tip(self, room: Room, seat: Seat) -> None:
        snap = room.current
        view = room.view(seat, snap)
        assert isinstance(view, SeatView)
        try:
            tip = await tip_for(view)
        except TipsUnavailable as exc:
            raise RoomError("tips_unavailable", str(exc)) from None
        await self.send(
            {
                "type": "tip",
                "version": snap.version,
                "action": tip.action,
                "key": tip.key,
                "params": tip.params,
                "text": tip.texts,
            }
        )

    async def hello(self, fields: Mapping[str, Any]) -> None:
        room = await self.rooms.get(str(fields["room"]))
        if room is None:
            raise RoomError("unknown_room", "there is no such room")
        token = fields.get("token")
        token_hash = hash_token(token) if isinstance(token, str) and token else None
        seat = room.seat_of(token_hash)
        if seat is None and not room.spectators:
            raise RoomError("no_spectators", "this room has no free seat and allows no spectators")
        await self.unbind()
        await self._identify(token_hash)
        if seat is None:
            await room.watch(+1)  # before subscribing: the count is in the welcome
        self.room, self.seat, self.sent_version = room, seat, 0
        self.sub = self.rooms.bus.subscribe(room.topic)
        try:
            # Read the log once, now that notices are kept: another instance may have
            # written to it, and an event written meanwhile would otherwise reach this
            # socket only with the next.
            if await room.catch_up():
                # News this instance was never told of: its writer may have died between
                # writing and publishing. The room's other sockets reload it too.
                await self.rooms.bus.publish(room.topic, {"kind": "resync"})
            if seat is not None:
                await room.connect(seat)
            snap = room.current
            self.sent_version = snap.version
            self.seen_connected = tuple(room.connected(s) for s in Seat)
            welcome = {
                "type": "welcome",
                "room": room.info(seat),
                "seat": None if seat is None else seat.label,
            }
            history = {"type": "chat_history", "messages": await room.chat_history()}
        except BaseException:
            # Not half bound: a seat counted online with no forwarder would hold its
            # opponent's claim back and let notices pile up unread.
            await self.unbind()
            raise
        await self.send(welcome, self._view_message(snap), history)
        # Only now: the welcome comes first; notices since subscribing wait in ``sub``.
        self.forwarder = asyncio.create_task(self.forward(self.sub))
        log.info(
            "room %s: %s joined the socket",
            room.id,
            "a spectator" if seat is None else f"seat {seat.label}",
        )

    async def _identify(self, token_hash: str | None) -> None:
        """Remember the caller's identity and player (for chat and the quick match)."""
        self.identity_hash, self.player = None, None
        if token_hash is not None and await self.rooms.store.has_identity(token_hash):
            self.identity_hash = token_hash
            self.player = await self.rooms.player(token_hash)

    async def hello_lobby(self, fields: Mapping[str, Any]) -> None:
        await self.unbind()
        token = fields.get("token")
        await self._identify(hash_token(token) if isinstance(token, str) and token else None)
        self.lobby = True
        # Told once this instance's lobby has taken in a change made on any instance.
        lobby_sub = self.rooms.lobby_news.subscribe(LOBBY_TOPIC)
        self.subs.append(lobby_sub)
        self.tasks.append(asyncio.create_task(self.forward_lobby(lobby_sub)))
        if self.identity_hash is not None and self.player is not None:
            self.quick.socket_opened(self.identity_hash)
            own = self.rooms.bus.subscribe(player_topic(self.player.id))
            self.subs.append(own)
            self.tasks.append(asyncio.create_task(self.forward_matched(own)))
        await self.send(self._lobby_message())

    def _lobby_message(self) -> dict[str, Any]:
        lobby = self.rooms.lobby()
        return {"type": "lobby", "lobby": lobby}

    async def forward_lobby(self, sub: Subscription) -> None:
        """Send the lobby on every change, at most once per ``lobby_interval``."""
        while True:
            await sub.get()
            await asyncio.sleep(self.settings.lobby_interval)
            while not sub.empty():
                await sub.get()  # changes meanwhile are in the one message below
            await self.send(self._lobby_message())

    async def forward_matched(self, sub: Subscription) -> None:
        while True:
            notice = await sub.get()
            if notice.get("kind") == "matched":
                await self.send({"type": "matched", "room": notice["room"], "seat": notice["seat"]})
            elif notice.get("kind") == "resync" and self.identity_hash is not None:
                # The bus may have lost the 'matched' notice: the store knows the pairing.
                try:
                    status = await self.quick.status(self.identity_hash)
                except StoreError as exc:
                    log.warning("cannot check a quick match after a resync: %s", exc)
                    continue
                if status["status"] == "matched":
                    await self.send(
                        {"type": "matched", "room": status["room"], "seat": status["seat"]}
                    )

    async def unbind(self) -> None:
        for task in self.tasks:
            task.cancel()
        for task in self.tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task
        for sub in self.subs:
            sub.close()
        self.tasks, self.subs = [], []
        if self.lobby and self.identity_hash is not None:
            await self.quick.socket_closed(self.identity_hash)
        self.lobby = False
        if self.room is not None and self.seat is None:
            await self.room.watch(-1)
        if self.forwarder is not None:
            self.forwarder.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.forwarder
            self.forwarder = None
        if self.sub is not None:
            self.sub.close()
            self.sub = None
        if self.room is not None and self.seat is not None:
            await self.room.disconnect(self.seat)
        self.room, self.seat = None, None


async def websocket_endpoint(ws: WebSocket) -> None:
    settings: Settings = ws.app.state.settings
    if not origin_allowed(ws, settings):
        log.warning("websocket refused: origin %s", ws.headers.get("origin"))
        await ws.close(code=ORIGIN_REFUSED)
        return
    await ws.accept()
    conn = Connection(ws, ws.app.state.rooms, settings.ws_rate, ws.app.state.quick, settings)
    try:
        await conn.run()
    except WebSocketDisconnect:
        pass
    finally:
        await conn.unbind()
