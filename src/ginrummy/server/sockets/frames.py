"""What every socket does with frames, whatever it is bound to: receive, enforce the
size and rate limits, decode, answer refusals with an ``error`` frame, send, and close
a socket that falls too far behind.

A socket is bound by its first message: ``hello`` to a room (``RoomSocket``),
``hello_lobby`` to the lobby (``LobbySocket``); a later one rebinds it. The binding
handles the messages of its kind; ``ping`` works everywhere. A socket that no hello has
bound within ``Settings.hello_timeout`` seconds is closed (4408): an idle socket costs
the server memory and pings, and a page says hello as soon as it opens one.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable, Collection, Hashable, Mapping
from typing import Any, Protocol, TypeVar

from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketState

from ginrummy.protocol import (
    MAX_FRAME_BYTES,
    ClientMessage,
    ProtocolError,
    decode_client_message,
    to_json,
)
from ginrummy.protocol.messages import Ping, sent
from ginrummy.server.bucket import Bucket
from ginrummy.server.metrics import Metrics
from ginrummy.server.pubsub import Subscription
from ginrummy.server.quick import QuickMatch
from ginrummy.server.ratelimit import RateLimited, RateLimits
from ginrummy.server.room import RoomError, RoomManager
from ginrummy.server.settings import Settings
from ginrummy.server.store import Player, StoreError
from ginrummy.server.tokens import hash_token

log = logging.getLogger("ginrummy.server.sockets")

TOO_SLOW = 4008
"""Close code: the socket fell ``Settings.socket_queue`` notices behind (the client
reconnects and gets the full view)."""
NO_HELLO = 4408
"""Close code: no ``hello`` bound the socket within ``Settings.hello_timeout`` seconds."""
SERVICE_RESTART = 1012
"""Close code: the instance drains for a restart (server/drain.py); the message being
answered was answered in full first. The client reconnects (to another instance)."""
SIGNED_OUT = 4401
"""Close code: the token the socket said hello with was signed out (a device signed out,
an account closed, an identity deleted; server/sockets/revoke.py). The client drops the
token and goes on as a guest."""
RESTART_FLUSH_S = 1.0  # how long the news of changes made may take to reach a restarting socket
CLOSE_REASONS = {
    TOO_SLOW: "too slow",
    NO_HELLO: "no hello",
    SERVICE_RESTART: "server restart",
    SIGNED_OUT: "signed out",
}
CLOSE_WAIT_S = 5.0  # how long a close frame may wait behind a full send buffer
CHAT_RATE = 1.0  # chat messages per second per socket, sustained
CHAT_BURST = 5.0


class Binding(Protocol):
    """A socket's part for a room or the lobby (``RoomSocket``, ``LobbySocket``)."""

    @property
    def version(self) -> int | None:
        """The room's current version for ``error`` frames (None: no room)."""

    @property
    def kind(self) -> str:
        """What the socket is bound as, for the metrics (``metrics.SOCKET_KINDS``)."""

    async def handle(self, msg: ClientMessage) -> None:
        """Act on a message other than ``ping``, ``hello`` and ``hello_lobby``."""

    async def start(self) -> None:
        """Subscribe and send the first frames; on failure, close, then raise."""

    async def close(self) -> None:
        """Let go of everything the binding holds (subscriptions, tasks, presence)."""

    @property
    def told(self) -> bool:
        """The socket has been sent the room's current version (no room: True)."""


Opener = Callable[["Connection", Any], Awaitable[None]]
"""Binds a connection by its first message (``Hello``, ``HelloLobby``: the struct of the
``type`` it is registered for)."""


class Identity:
    """Who the caller is: a valid token's hash (seat or not) and its player."""

    def __init__(self, token_hash: str | None = None, player: Player | None = None) -> None:
        self.token_hash = token_hash
        self.player = player

    @classmethod
    async def of(cls, rooms: RoomManager, token_hash: str | None) -> Identity:
        """The identity of a token's hash if the store knows it, else nobody."""
        player = None if token_hash is None else await rooms.known_player(token_hash)
        return cls() if player is None else cls(token_hash, player)

    @staticmethod
    async def resolve(rooms: RoomManager, token_hash: str | None) -> str | None:
        """The identity a token's hash names (a guest's own, or the account of a
        signed-in device: ``store.token_identity``); no token names nobody."""
        return None if token_hash is None else await rooms.store.token_identity(token_hash)


class Present(Protocol):
    """A room as a socket's presence counts in it."""

    async def watch(self, delta: int) -> None: ...

    async def disconnect(self, key: Hashable) -> None: ...


class Readable(Protocol):
    """A room as a socket reads the log into it."""

    @property
    def broken(self) -> bool: ...

    async def catch_up(self, version: int | None = None) -> bool: ...


R = TypeVar("R", bound=Readable)
READ_TRIES = 3  # rooms rebuilt one after the other before a socket gives up (unavailable)


async def read_log(live_room: Callable[[], Awaitable[R]]) -> tuple[R, bool]:
    """The socket's room with everything the log holds now, and whether that was news
    to it. ``live_room`` gives the socket's room, or the one rebuilt from the log once it
    broke. A room that broke while this waited for its lock (another socket's write or
    its follower's read failed, a store timing out under a burst of reconnections)
    reads nothing: its snapshot may be older than the log, older than what the client
    was shown on another instance, so the room rebuilt from the log is read instead
    (a hello never sends a client back in versions)."""
    for _ in range(READ_TRIES):
        room = await live_room()
        news = await room.catch_up()
        if not room.broken:
            return room, news
    raise RoomError("unavailable", "the room is being reloaded; try again")


async def release(
    room: Present,
    key: Hashable | None,
    forwarder: asyncio.Task[None] | None,
    sub: Subscription | None,
    counted: bool,
) -> None:
    """What a room socket lets go of when it closes: its forwarder, its subscription,
    and (``counted``) its count as the seat ``key`` online or as a spectator (None)."""
    if forwarder is not None:
        forwarder.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await forwarder
    if sub is not None:
        sub.close()
    if counted:
        await (room.watch(-1) if key is None else room.disconnect(key))


class Connection:
    """One accepted WebSocket: frame handling and its current binding; ``openers``
    bind it by message type (``hello``, ``hello_lobby``)."""

    def __init__(
        self,
        ws: WebSocket,
        rooms: RoomManager,
        quick: QuickMatch,
        settings: Settings,
        openers: Mapping[str, Opener],
        limits: RateLimits,
        address: str,
        metrics: Metrics,
    ) -> None:
        self.ws = ws
        self.openers = openers
        self.rooms = rooms
        self.quick = quick
        self.settings = settings
        self.limits = limits
        self.address = address  # what the per-address limits count (``client_address``)
        self.metrics = metrics
        self.kind = "unbound"  # what it counts as among the open sockets
        self.received = 0.0  # when the frame being answered arrived (perf_counter)
        self.binding: Binding | None = None
        self.greeted = False  # a hello has bound the socket once
        self.ending = asyncio.Event()  # set with ``close_code``: the server closes the socket
        self.close_code = 0
        self.answering = False  # a client message is being answered
        self._send_lock = asyncio.Lock()
        self._frames = Bucket(settings.ws_rate, 3 * settings.ws_rate)
        self.chat_bucket = Bucket(CHAT_RATE, CHAT_BURST)  # per socket, across rebinding
        # The token of the last hello (its hash) and the identity it resolved to: what a
        # revocation names (server/sockets/revoke.py).
        self.token_hash: str | None = None
        self.identity_hash: str | None = None

    # --- sending ----------------------------------------------------------------------

    async def send(self, *messages: Mapping[str, Any] | str) -> None:
        """Send messages (or their JSON text) back to back, no other message between."""
        async with self._send_lock:
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
        version = None if self.binding is None else self.binding.version
        self.metrics.error("socket", code)
        await self.send({"type": "error", "code": code, "message": message, "version": version})

    def fell_behind(self) -> None:
        """A subscription of this socket overflowed (``on_overflow``): close it."""
        self._end(TOO_SLOW)

    def restart(self) -> None:
        """The instance drains: answer the message being answered, then close (1012)."""
        self._end(SERVICE_RESTART)

    def sign_out(self) -> None:
        """The hello's token was revoked: answer the message being answered, then close
        (4401)."""
        self._end(SIGNED_OUT)

    def revoked_by(self, tokens: Collection[str], identity: str | None) -> bool:
        """The token of the last hello is one of ``tokens`` or resolved to ``identity``."""
        if self.token_hash is not None and self.token_hash in tokens:
            return True
        return identity is not None and self.identity_hash == identity

    async def resolve(self, token: object) -> str | None:
        """The identity a hello's token names (``Identity.resolve``), kept with the
        token's hash so that a later revocation closes this socket. The hash is kept
        before the store is asked: a device signed out meanwhile is not missed."""
        self.token_hash = hash_token(token) if isinstance(token, str) and token else None
        self.identity_hash = None
        identity = await Identity.resolve(self.rooms, self.token_hash)  # hashed once
        self.identity_hash = identity
        return identity

    def _hello_due(self) -> None:
        if not self.greeted:
            self._end(NO_HELLO)

    def _end(self, code: int) -> None:
        if not self.ending.is_set():
            self.close_code = code
            self.ending.set()

    def check_chat_rate(self) -> None:
        """One chat message per second (bursts of five) per socket: else ``rate_limited``."""
        if not self.chat_bucket.take():
            self.metrics.refusals["chat"].inc()
            raise RoomError("rate_limited", "one chat message per second; slow down")

    # --- receiving --------------------------------------------------------------------

    async def serve(self) -> None:
        """Answer frames until the client leaves, the socket falls behind or no hello
        came in time."""
        self.metrics.socket_kind(self.kind).inc()
        receiving = asyncio.create_task(self._receive())
        ending = asyncio.create_task(self.ending.wait())
        hello_due = asyncio.get_running_loop().call_later(
            self.settings.hello_timeout, self._hello_due
        )
        try:
            done, _ = await asyncio.wait({receiving, ending}, return_when=asyncio.FIRST_COMPLETED)
            if receiving in done:
                receiving.result()  # a bug's exception goes on to uvicorn, which logs it
            elif self.close_code == SERVICE_RESTART:
                await self._finish_for_restart(receiving)
            elif self.close_code == SIGNED_OUT:
                await self._finish_answer(receiving)
        except WebSocketDisconnect:
            pass  # gone while a frame was being answered
        finally:
            # Not awaited: a test client's cancel scope would cancel the wait again and
            # skip the unbinding; the tasks end at their next step.
            hello_due.cancel()
            receiving.cancel()
            ending.cancel()
            await self.unbind()
            self.metrics.socket_kind(self.kind).dec()
        if self.ending.is_set():
            await self._close(self.close_code)

    async def _finish_for_restart(self, receiving: asyncio.Task[None]) -> None:
        """Before a restart's close: the message being answered is answered in full (a
        move written, never cut off halfway), and the news of what was written reaches
        the client (for a moment at most), so that it sees its own move go through."""
        await self._finish_answer(receiving)
        loop = asyncio.get_running_loop()
        until = loop.time() + RESTART_FLUSH_S
        while self.binding is not None and not self.binding.told and loop.time() < until:
            await asyncio.sleep(0.01)

    async def _finish_answer(self, receiving: asyncio.Task[None]) -> None:
        """The message being answered, if any, is answered in full (never cut off)."""
        if self.answering:
            await asyncio.wait({receiving})  # ``_receive`` reads nothing more once ending
            if not receiving.cancelled():
                receiving.result()

    async def _close(self, code: int) -> None:
        if code == TOO_SLOW:
            log.warning("closing a socket that fell %d notices behind", self.settings.socket_queue)
        elif code == NO_HELLO:  # one per idle socket of an attack: not worth a warning each
            log.info("closing a socket that said no hello in %g s", self.settings.hello_timeout)
        if self.ws.application_state is not WebSocketState.CONNECTED:
            return
        reason = CLOSE_REASONS[code]
        try:
            # The close frame queues behind what the client has not read yet.
            await asyncio.wait_for(self.ws.close(code, reason), CLOSE_WAIT_S)
        except TimeoutError:
            log.warning("a socket did not take its close frame (%d); dropping it", code)
        except WebSocketDisconnect:
            log.debug("a socket went away before its close frame (%d)", code)

    async def _receive(self) -> None:
        while not self.ending.is_set():  # closing: nothing more is read
            message = await self.ws.receive()
            if message["type"] == "websocket.disconnect":
                return
            if self.ending.is_set():
                return  # closing: a message that came after is not answered
            raw: str | bytes | None = message.get("text")
            if raw is None:
                raw = message.get("bytes") or b""
            self.answering = True
            try:
                await self._frame(raw)
            finally:
                self.answering = False

    async def _frame(self, raw: str | bytes) -> None:
        """One client frame: limits, decoding, handling; every refusal is an ``error``."""
        self.received = time.perf_counter()
        # surrogatepass: a transport hands over valid text, an in-process test client may not.
        size = len(raw.encode("utf-8", "surrogatepass")) if isinstance(raw, str) else len(raw)
        if size > MAX_FRAME_BYTES:
            await self.error("frame_too_large", f"frames are limited to {MAX_FRAME_BYTES} bytes")
            return
        if not self._frames.take():
            self.metrics.refusals["frames"].inc()
            await self.error("rate_limited", "too many messages; slow down")
            return
        try:
            await self._dispatch(decode_client_message(raw))
        except ProtocolError as exc:
            await self.error(exc.code, str(exc))
        except (RoomError, RateLimited) as exc:
            await self.error(exc.code, exc.message)
        except StoreError as exc:
            # A read outside a room's own error handling (who the caller is, a room's
            # chat): nothing was changed, so the client may simply try again.
            log.warning("store unavailable for a socket message: %s", exc)
            await self.error("unavailable", "the server cannot reach its store; try again")
        except Exception:  # a bug in one message's handling must not drop the socket
            log.exception("a socket message failed")
            await self.error("server_error", "the server failed on this message")

    async def _dispatch(self, msg: ClientMessage) -> None:
        if isinstance(msg.frame, Ping):
            await self.send({"type": "pong", "t": sent(msg.frame.t)})
        elif msg.type in self.openers:
            await self.openers[msg.type](self, msg.frame)
        elif self.binding is None:
            raise RoomError("hello_first", "send 'hello' with the room first")
        else:
            await self.binding.handle(msg)

    async def bind(self, binding: Binding) -> None:
        """Let go of the current binding (if any), then start and take ``binding``
        (one that fails to start has cleaned up after itself: none is left)."""
        await self.unbind()
        await binding.start()
        self.binding = binding
        self.greeted = True
        self._count_as(binding.kind)
        self.metrics.hello.observe(time.perf_counter() - self.received)

    async def unbind(self) -> None:
        binding, self.binding = self.binding, None
        if binding is not None:
            self._count_as("unbound")
            await binding.close()

    def _count_as(self, kind: str) -> None:
        """Count this socket among the open ones as ``kind`` from now on."""
        self.metrics.socket_kind(self.kind).dec()
        self.metrics.socket_kind(kind).inc()
        self.kind = kind
