"""A WebSocket over the per-address cap (``GINRUMMY_LIMIT_SOCKETS``) is refused by the
HTTP protocol before the upgrade when it comes from a direct peer, with the bytes the
app's refusal gets, and without calling the app or counting a socket; a trusted
proxy's requests are left to the app, which counts the client the proxy names
(server/protocols.py)."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
import uvicorn
from starlette.applications import Starlette
from starlette.types import Receive, Scope, Send
from uvicorn.server import ServerState

from ginrummy.server.protocols import http_protocol
from ginrummy.server.ratelimit import AddressSockets, of_app

from .live import BareSocket, Live, live, upgrade

# A server, a service or a bench: the system layer (tests/conftest.py).
pytestmark = pytest.mark.system

PEER = "127.0.0.2"  # a direct peer: not a trusted proxy
PROXY = "127.0.0.1"  # FORWARDED_ALLOW_IPS in these tests
CLIENT, OTHER = "198.51.100.7", "198.51.100.8"  # clients the proxy names

REFUSED = (
    b"HTTP/1.1 403 Forbidden\r\nDate: -\r\nConnection: close\r\nContent-Length: 0\r\n"
    b"Content-Type: text/plain; charset=utf-8\r\n\r\n"
)
"""What a client over the cap reads (the date left out), on either path."""
HTTP_DATE = re.compile(rb"\r\nDate: [A-Z][a-z]{2}, \d\d [A-Z][a-z]{2} \d{4} \d\d:\d\d:\d\d GMT\r\n")


@pytest.fixture(autouse=True)
def trusted_proxy(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FORWARDED_ALLOW_IPS", PROXY)  # read by uvicorn's Config


@contextmanager
def app_calls(app: Starlette) -> Iterator[list[str]]:
    """The scope types of the calls into ``app`` (a started one) while in the block."""
    inner = app.middleware_stack
    assert inner is not None, "the app has not started"
    calls: list[str] = []

    async def recording(scope: Scope, receive: Receive, send: Send) -> None:
        calls.append(scope["type"])
        await inner(scope, receive, send)

    app.middleware_stack = recording
    try:
        yield calls
    finally:
        app.middleware_stack = inner


def refused(port: int, source: str, headers: str = "") -> bytes:
    """The whole answer to an upgrade the server refuses and closes (a server that kept
    the connection open would time the read out), its date left out."""
    sock, answer = upgrade(port, source, headers)
    with sock:
        while chunk := sock.recv(65536):
            answer += chunk
    return HTTP_DATE.sub(b"\r\nDate: -\r\n", answer)


def open_by(server: Live) -> dict[str, int]:
    async def read() -> dict[str, int]:
        return dict(of_app(server.app).sockets.open_by)

    return server.call(read())


def wait_for_open_by(server: Live, expected: dict[str, int]) -> None:
    deadline = time.monotonic() + 5
    while open_by(server) != expected:
        assert time.monotonic() < deadline, f"{open_by(server)} != {expected}"
        time.sleep(0.01)


def pong(ws: BareSocket) -> None:
    ws.send_json({"type": "ping", "t": 3})
    opcode, payload = ws.frame()
    assert (opcode, json.loads(payload)) == (1, {"type": "pong", "t": 3})


def test_a_direct_peer_over_the_cap_is_refused_before_the_upgrade() -> None:
    with live(limit_sockets=2) as server:
        sockets = of_app(server.app).sockets
        held = [BareSocket(server.port, source=PEER) for _ in range(2)]  # under the cap
        for ws in held:
            pong(ws)
        assert open_by(server) == {PEER: 2}
        with app_calls(server.app) as calls:
            assert refused(server.port, PEER) == REFUSED
            # Naming another client does not help a peer that is no trusted proxy.
            assert refused(server.port, PEER, f"X-Forwarded-For: {CLIENT}\r\n") == REFUSED
        assert calls == []  # the app never heard of them
        assert open_by(server) == {PEER: 2} and sockets.refused == 2
        held[0].close()
        wait_for_open_by(server, {PEER: 1})
        with app_calls(server.app) as calls:
            again = BareSocket(server.port, source=PEER)  # one of its own closed: room again
        pong(again)
        assert calls == ["websocket"]
        assert open_by(server) == {PEER: 2}
        for ws in (again, held[1]):
            ws.close()
        wait_for_open_by(server, {})
        assert sockets.refused == 2


def test_a_trusted_proxy_is_left_to_the_app_which_counts_the_forwarded_client() -> None:
    forwarded = f"X-Forwarded-For: {CLIENT}\r\n"
    with live(limit_sockets=1) as server:
        sockets = of_app(server.app).sockets
        own = BareSocket(server.port, source=PROXY)  # the proxy's own address at its cap
        with app_calls(server.app) as calls:
            # Not judged by the peer before the upgrade: the client it names has room.
            client = BareSocket(server.port, source=PROXY, headers=forwarded)
            pong(client)
            # Over the cap by the client it names: the app refuses, with the same bytes.
            assert refused(server.port, PROXY, forwarded) == REFUSED
            other = BareSocket(server.port, source=PROXY, headers=f"X-Forwarded-For: {OTHER}\r\n")
        assert calls == ["websocket"] * 3
        assert open_by(server) == {PROXY: 1, CLIENT: 1, OTHER: 1} and sockets.refused == 1
        for ws in (own, client, other):
            ws.close()
        wait_for_open_by(server, {})


def test_without_a_cap_no_upgrade_is_refused() -> None:
    with live(limit_sockets=0) as server, app_calls(server.app) as calls:
        held = [BareSocket(server.port, source=PEER) for _ in range(3)]
        for ws in held:
            pong(ws)
            ws.close()
        assert calls == ["websocket"] * 3


async def test_the_peer_counts_by_the_apps_rule_and_a_trusted_proxy_by_uvicorns() -> None:
    sockets = AddressSockets(1)
    assert sockets.open("2001:db8:1:2::/64")
    protocol = http_protocol(sockets)

    async def app(scope: Scope, receive: Receive, send: Send) -> None:
        raise AssertionError("not called")

    def over_cap(peer: str, **options: Any) -> bool:
        config = uvicorn.Config(app, log_config=None, **options)
        conn = protocol(config=config, server_state=ServerState(), app_state={})
        conn.client = (peer, 50_000)
        return conn.over_cap()

    assert over_cap("2001:db8:1:2::99")  # an IPv6 address counts by its /64
    assert not over_cap("2001:db8:1:3::1")
    trusted = "10.0.0.5,2001:db8::/32"
    assert not over_cap("2001:db8:1:2::99", forwarded_allow_ips=trusted)  # the app's to judge
    assert over_cap("2001:db8:1:2::99", forwarded_allow_ips=trusted, proxy_headers=False)
    assert not over_cap("2001:db8:1:2::99", forwarded_allow_ips=["*"])
    assert sockets.open_by == {"2001:db8:1:2::/64": 1} and sockets.refused == 2
