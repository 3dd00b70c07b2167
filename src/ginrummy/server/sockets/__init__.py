"""The WebSocket endpoint ``/ws`` (docs/protocol.md, "WebSocket"): one socket per seat,
spectator or lobby page.

``frames`` handles what every socket does with frames; ``room`` and ``lobby`` are what
a socket is bound to. Every refusal is an ``error`` frame and the socket stays open;
only the documented limits close it (4403 origin, 4008 too slow, 1009 too large).
"""

from __future__ import annotations

import logging
from urllib.parse import urlsplit

from starlette.websockets import WebSocket

from ginrummy.server.settings import Settings
from ginrummy.server.sockets.frames import TOO_SLOW, Connection
from ginrummy.server.sockets.lobby import LobbySocket
from ginrummy.server.sockets.room import RoomSocket

log = logging.getLogger("ginrummy.server.sockets")

ORIGIN_REFUSED = 4403
OPENERS = {"hello": RoomSocket.hello, "hello_lobby": LobbySocket.hello}


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


async def websocket_endpoint(ws: WebSocket) -> None:
    settings: Settings = ws.app.state.settings
    if not origin_allowed(ws, settings):
        log.warning("websocket refused: origin %s", ws.headers.get("origin"))
        await ws.close(code=ORIGIN_REFUSED)
        return
    await ws.accept()
    conn = Connection(ws, ws.app.state.rooms, ws.app.state.quick, settings, OPENERS)
    await conn.serve()


__all__ = ["ORIGIN_REFUSED", "TOO_SLOW", "origin_allowed", "websocket_endpoint"]
