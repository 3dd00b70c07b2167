"""A WebSocket's protocol objects go with it, by reference counting alone: neither an
accepted socket nor a refused handshake (by the app, or by the HTTP protocol before the
upgrade) leaves a reference cycle for the garbage collector, which the server runs
rarely (server/protocols.py)."""

from __future__ import annotations

import gc
import time
from collections.abc import Iterator

import pytest
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.exceptions import InvalidStatus
from websockets.server import ServerProtocol
from websockets.sync.client import connect

from ginrummy.server.ratelimit import of_app

from .live import BareSocket, live, upgrade

# A server, a service or a bench: the system layer (tests/conftest.py).
pytestmark = pytest.mark.system

PEER = "127.0.0.2"  # a direct peer (127.0.0.1, the client's own, is a trusted proxy)

KINDS = (HttpToolsProtocol, WebSocketsSansIOProtocol, ServerProtocol)


@pytest.fixture
def no_automatic_gc() -> Iterator[None]:
    gc.disable()
    yield
    gc.enable()


def alive() -> dict[str, int]:
    """How many protocol objects exist, garbage not yet collected included."""
    counts = {kind.__name__: 0 for kind in KINDS}
    for obj in gc.get_objects():
        for kind in KINDS:
            if issubclass(type(obj), kind):  # type(): a dead weak proxy has no class
                counts[kind.__name__] += 1
    return counts


@pytest.mark.usefixtures("no_automatic_gc")
def test_refused_and_closed_websockets_leave_no_protocol_behind() -> None:
    with live(limit_sockets=1) as server:
        sockets = of_app(server.app).sockets
        gc.collect()
        before = alive()
        with connect(server.ws_url, open_timeout=5):
            for _ in range(10):  # refused by the app before the handshake: HTTP 403
                with pytest.raises(InvalidStatus), connect(server.ws_url, open_timeout=5):
                    pass
        held = BareSocket(server.port, source=PEER)
        for _ in range(10):  # refused by the HTTP protocol before the upgrade: HTTP 403
            sock, head = upgrade(server.port, PEER)
            with sock:
                assert head.startswith(b"HTTP/1.1 403 ") and sock.recv(1) == b""
        held.close()
        for _ in range(5):  # accepted, then closed by the client
            with connect(server.ws_url, open_timeout=5):
                pass
        deadline = time.monotonic() + 5
        while sockets.open_by or alive() != before:
            if time.monotonic() > deadline:
                break
            time.sleep(0.05)
        assert sockets.refused == 20
        assert alive() == before
