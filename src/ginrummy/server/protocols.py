"""The connection protocols the server runs under uvicorn: its own, with the reference
cycles that outlive a WebSocket broken (docs/operations.md, "Memory").

Two cycles outlived every WebSocket, the refused handshakes' (HTTP 403) included:

- uvicorn's ``HttpToolsProtocol`` and its parser refer to each other (the parser calls
  the protocol back through bound methods). uvicorn breaks that cycle when the
  connection is lost, but an upgraded connection has been handed to a WebSocket
  protocol by then, and the HTTP protocol never hears of its end: it stayed, holding
  the connection's transport, flow control and request headers.
- The WebSocket protocol's websockets ``ServerProtocol`` keeps its parser, a generator
  of one of its own methods, which refers back to it, with its buffers and events.

Neither is a leak (a garbage collection frees them), but the server raises the
collector's thresholds (``main.tune_gc``): an attacker's stream of refused sockets left
them by the thousand between two collections, and the heap grew by them for good (the
allocators keep most of what they once held). With the cycles broken where each
connection ends, reference counting frees a connection's objects with it.

The HTTP protocol also refuses a WebSocket over the per-address cap
(``GINRUMMY_LIMIT_SOCKETS``, ``ratelimit.AddressSockets``) before the upgrade: the
app's refusal went through uvicorn's WebSocket protocol (websockets' handshake
parser, a task) and the ASGI app to a 403, about 450 µs of the event loop per socket
while an attacker opened them by the thousand (bench/RESULTS.md, "Abuse"). The
protocol class is made per server (``http_protocol``) with the app's own counter; it
only looks at it (the app's endpoint counts a socket it opens, as before), and the
answer is the bytes uvicorn sent for the app's refusal. A peer that is a trusted
proxy (uvicorn's ``FORWARDED_ALLOW_IPS``) is left to the app, which counts the client
the proxy names.

uvicorn's internals used here (``uvicorn[standard]>=0.50,<1`` in pyproject.toml): the
methods and attributes of ``HttpToolsProtocol`` (``handle_websocket_upgrade``, called
once the parser has stopped at an upgrade; ``parser``, ``client``, ``config``,
``transport``), ``WebSocketsSansIOProtocol.conn`` (websockets' protocol) and the
trusted-proxy rule of ``ProxyHeadersMiddleware`` (its ``trusted_hosts``).
"""

from __future__ import annotations

import functools
import time
from email.utils import formatdate
from typing import Any, ClassVar

from uvicorn.config import Config
from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

from ginrummy.server.ratelimit import AddressSockets, counted_address

REFUSED_HEAD = (
    b"HTTP/1.1 403 Forbidden\r\nDate: %s\r\nConnection: close\r\nContent-Length: 0\r\n"
    b"Content-Type: text/plain; charset=utf-8\r\n\r\n"
)
"""uvicorn's answer when the app refuses a WebSocket before accepting it (websockets'
``ServerProtocol.reject(403, "")``), byte for byte but for the date."""


class HttpProtocol(HttpToolsProtocol):
    """``HttpToolsProtocol`` that drops its parser once the connection is a WebSocket;
    made by ``http_protocol``, it also refuses an upgrade over ``sockets``' cap."""

    sockets: ClassVar[AddressSockets | None] = None

    def handle_websocket_upgrade(self) -> None:
        if self.over_cap():
            self.refuse_upgrade()
            return
        super().handle_websocket_upgrade()
        # Called from data_received once the parser has returned: the transport has
        # its new protocol and will call this one no more.
        self.parser = None  # type: ignore[assignment]

    def over_cap(self) -> bool:
        """Whether the peer holds its cap of sockets already (then counted as refused).
        A trusted proxy's request is the app's to judge by the client it names."""
        # self.client (the peer), self.config, self.transport: uvicorn's (see above).
        if self.sockets is None or self.client is None:
            return False
        host = self.client[0]
        if trusted_proxy(self.config, host):
            return False
        return self.sockets.refuses(counted_address(host))

    def refuse_upgrade(self) -> None:
        """Answer 403 and close; this protocol stays the transport's until the end, and
        its ``connection_lost`` lets the parser go."""
        self.transport.write(REFUSED_HEAD % http_date(int(time.time())))
        self.transport.close()


@functools.lru_cache(maxsize=1)
def http_date(second: int) -> bytes:
    """The ``Date`` of an answer in ``second`` (made once a second while refusals come)."""
    return formatdate(second, usegmt=True).encode("ascii")


def http_protocol(sockets: AddressSockets) -> type[HttpProtocol]:
    """``HttpProtocol`` refusing upgrades over the cap of ``sockets``, the app's own
    (``ratelimit.of_app(app).sockets``): one class per server."""

    class CappedHttpProtocol(HttpProtocol):
        pass

    CappedHttpProtocol.sockets = sockets
    return CappedHttpProtocol


def trusted_proxy(config: Config, host: str) -> bool:
    """Whether uvicorn, run by ``config``, takes the client of a request from ``host``
    from its ``X-Forwarded-For`` (``FORWARDED_ALLOW_IPS``): its own rule, made once."""
    if not config.proxy_headers:
        return False
    allowed = config.forwarded_allow_ips
    rule = _proxy_rule(allowed if isinstance(allowed, str) else ",".join(allowed))
    return host in rule.trusted_hosts


@functools.lru_cache(maxsize=16)
def _proxy_rule(allowed: str) -> ProxyHeadersMiddleware:
    # The middleware uvicorn puts in front of the app (Config.load) with the same
    # setting; only its rule is used (``trusted_hosts``, uvicorn 0.50 to <1).
    return ProxyHeadersMiddleware(_never_called, trusted_hosts=allowed)


async def _never_called(*args: Any) -> None:
    raise AssertionError("only the trusted-proxy rule of this middleware is used")


class WebSocketProtocol(WebSocketsSansIOProtocol):
    """uvicorn's WebSocket protocol (websockets' Sans-I/O one), which closes the
    websockets parser when the connection is lost."""

    def connection_lost(self, exc: Exception | None) -> None:
        super().connection_lost(exc)
        # No data comes after this: the parser, a suspended generator, may end here.
        self.conn.parser.close()
