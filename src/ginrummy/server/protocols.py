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
"""

from __future__ import annotations

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol


class HttpProtocol(HttpToolsProtocol):
    """``HttpToolsProtocol`` that drops its parser once the connection is a WebSocket."""

    def handle_websocket_upgrade(self) -> None:
        super().handle_websocket_upgrade()
        # Called from data_received once the parser has returned: the transport has
        # its new protocol and will call this one no more.
        self.parser = None  # type: ignore[assignment]


class WebSocketProtocol(WebSocketsSansIOProtocol):
    """uvicorn's WebSocket protocol (websockets' Sans-I/O one), which closes the
    websockets parser when the connection is lost."""

    def connection_lost(self, exc: Exception | None) -> None:
        super().connection_lost(exc)
        # No data comes after this: the parser, a suspended generator, may end here.
        self.conn.parser.close()
