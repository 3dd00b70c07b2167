"""The WebSocket endpoint ``/ws`` (docs/protocol.md, "WebSocket"): one socket per seat,
spectator or lobby page.

``frames`` handles what every socket does with frames; ``room`` and ``lobby`` are what
a socket is bound to. Every refusal is an ``error`` frame and the socket stays open;
only the documented limits close it (4008 too slow, 4408 no hello in time, 1009 too
large, 4401 its token signed out: ``revoke``) or refuse it before it opens with HTTP
403 (an origin not allowed, or an address with ``Settings.limit_sockets`` sockets open
already). A draining instance
(server/drain.py) refuses new sockets with HTTP 503 and closes its open ones with 1012.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from starlette.responses import PlainTextResponse
from starlette.websockets import WebSocket

from ginrummy.protocol.messages import Hello
from ginrummy.server.drain import drain_of
from ginrummy.server.heap import keeper_of
from ginrummy.server.metrics import metrics_of
from ginrummy.server.ratelimit import client_address, of_app
from ginrummy.server.room import RoomError
from ginrummy.server.settings import Settings
from ginrummy.server.sockets.frames import (
    NO_HELLO,
    SERVICE_RESTART,
    SIGNED_OUT,
    TOO_SLOW,
    Connection,
    Opener,
)
from ginrummy.server.sockets.lobby import LobbySocket
from ginrummy.server.sockets.revoke import revoker_of

if TYPE_CHECKING:
    from ginrummy.server.kinds import Kinds

log = logging.getLogger("ginrummy.server.sockets")

ORIGIN_REFUSED = 4403
SOCKETS_REFUSED = 4429  # the ASGI close code; the client sees HTTP 403, as for 4403
DRAINING = 4503  # the ASGI close code where a server cannot answer HTTP 503 (403 then)
DRAINING_TEXT = "this server is restarting: connect again (another one takes over)"


async def hello(conn: Connection, frame: Hello) -> None:
    """Bind ``conn`` to the room of a ``hello``, by the room's kind (server/kinds.py); a
    refused hello (no such room, no spectators) leaves the socket bound as it was."""
    conn.limits.lookups.check(conn.address)  # a room looked up by id, as over HTTP
    room = await conn.rooms.get_any(frame.room)
    if room is None:
        raise RoomError("unknown_room", "there is no such room")
    kinds: Kinds = conn.ws.app.state.kinds
    await kinds.of(room.kind).bind(conn, room, frame)


OPENERS: dict[str, Opener] = {"hello": hello, "hello_lobby": LobbySocket.hello}


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


async def refuse_draining(ws: WebSocket) -> None:
    """Refuse a socket before it opens while the instance drains: HTTP 503, retry soon."""
    if "websocket.http.response" not in ws.scope.get("extensions", {}):
        await ws.close(code=DRAINING)
        return
    refusal = PlainTextResponse(DRAINING_TEXT, status_code=503, headers={"Retry-After": "1"})
    await ws.send_denial_response(refusal)


async def websocket_endpoint(ws: WebSocket) -> None:
    drain = drain_of(ws.app)
    if drain.draining:
        await refuse_draining(ws)
        return
    settings: Settings = ws.app.state.settings
    if not origin_allowed(ws, settings):
        log.warning("websocket refused: origin %s", ws.headers.get("origin"))
        await ws.close(code=ORIGIN_REFUSED)
        return
    limits, address = of_app(ws.app), client_address(ws)
    if not limits.sockets.open(address):
        # Before the handshake: the cheapest answer (HTTP 403), no socket to keep. A
        # direct peer over the limit is mostly refused earlier still, before the
        # upgrade (server/protocols.py); here are the clients of a trusted proxy and
        # the sockets that passed that check while others of their address opened.
        # uvicorn answers a close before the handshake with HTTP 403 (its answer with a
        # response of our own, a 429, logs an error per refusal: too loud for an attack).
        await ws.close(code=SOCKETS_REFUSED)
        return
    try:
        await ws.accept()
        rooms, quick = ws.app.state.rooms, ws.app.state.quick
        metrics = metrics_of(ws.app)
        conn = Connection(ws, rooms, quick, settings, OPENERS, limits, address, metrics)
        with drain.track(conn), revoker_of(ws.app).track(conn):
            await conn.serve()
    finally:
        limits.sockets.close(address)
        # A burst of closed sockets calls for a collection. A refused one is not
        # counted: it leaves nothing (server/protocols.py) and an attack's stream of
        # them would make the server collect while the attack goes on.
        keeper_of(ws.app).socket_ended()


__all__ = [
    "NO_HELLO",
    "ORIGIN_REFUSED",
    "SERVICE_RESTART",
    "SIGNED_OUT",
    "TOO_SLOW",
    "origin_allowed",
    "websocket_endpoint",
]
