"""The socket side of the per-address limits, on the wire: sockets open at once per
address (HTTP 403 before the handshake), room lookups by ``hello`` (an ``error`` frame,
the socket stays), and the close of a socket that says no hello in time (4408)."""

from __future__ import annotations

import json
import time
from contextlib import ExitStack
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import ClientConnection, connect

from ginrummy.server.ratelimit import of_app
from ginrummy.server.settings import Settings
from ginrummy.server.sockets import NO_HELLO

from .live import Live, live

# A server, a service or a bench: the system layer (tests/conftest.py).
pytestmark = pytest.mark.system


def _next(ws: ClientConnection) -> dict[str, Any]:
    message = json.loads(ws.recv(timeout=10))
    assert isinstance(message, dict)
    return message


def _pong(ws: ClientConnection) -> None:
    ws.send(json.dumps({"type": "ping", "t": 7}))
    assert _next(ws) == {"type": "pong", "t": 7}


def _open_by(server: Live) -> dict[str, int]:
    async def read() -> dict[str, int]:
        return dict(of_app(server.app).sockets.open_by)

    return server.call(read())


def test_an_address_opens_at_most_its_limit_of_sockets_at_once() -> None:
    with live(limit_sockets=2) as server, ExitStack() as stack:
        first = stack.enter_context(connect(server.ws_url, open_timeout=5))
        second = stack.enter_context(connect(server.ws_url, open_timeout=5))
        with pytest.raises(InvalidStatus) as refused, connect(server.ws_url, open_timeout=5):
            pass
        assert refused.value.response.status_code == 403
        _pong(first)  # the open ones are untouched
        first.close()
        deadline = time.monotonic() + 5
        while _open_by(server) != {"127.0.0.1": 1}:
            assert time.monotonic() < deadline, "a closed socket was never let go"
            time.sleep(0.01)
        with connect(server.ws_url, open_timeout=5) as third:
            _pong(third)
        second.close()
        deadline = time.monotonic() + 5
        while _open_by(server):
            assert time.monotonic() < deadline, "the address is still counted"
            time.sleep(0.01)


def test_a_limit_of_zero_sockets_is_off() -> None:
    with live(limit_sockets=0) as server, ExitStack() as stack:
        sockets = [stack.enter_context(connect(server.ws_url, open_timeout=5)) for _ in range(5)]
        for ws in sockets:
            _pong(ws)


def test_a_hello_counts_as_a_room_lookup_and_the_socket_stays() -> None:
    with live(limit_lookups=2) as server, connect(server.ws_url, open_timeout=5) as ws:
        for _ in range(2):
            ws.send(json.dumps({"type": "hello", "room": "nosuchroom"}))
            assert _next(ws)["code"] == "unknown_room"
        ws.send(json.dumps({"type": "hello", "room": "nosuchroom"}))
        error = _next(ws)
        assert error["type"] == "error" and error["code"] == "rate_limited"
        assert "room lookups" in error["message"]
        _pong(ws)
        # The lobby is not a room looked up by id.
        ws.send(json.dumps({"type": "hello_lobby"}))
        assert _next(ws)["type"] == "lobby"


def test_a_socket_that_says_no_hello_in_time_is_closed() -> None:
    with live(hello_timeout=0.3) as server, connect(server.ws_url, open_timeout=5) as ws:
        # A ping or a refused hello is no hello: they do not keep it open.
        _pong(ws)
        ws.send(json.dumps({"type": "hello", "room": "nosuchroom"}))
        assert _next(ws)["code"] == "unknown_room"
        with pytest.raises(ConnectionClosed) as closed:
            ws.recv(timeout=5)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == NO_HELLO


def test_a_socket_bound_in_time_stays_open_past_the_hello_timeout() -> None:
    with live(hello_timeout=0.3) as server, connect(server.ws_url, open_timeout=5) as ws:
        ws.send(json.dumps({"type": "hello_lobby"}))
        assert _next(ws)["type"] == "lobby"
        time.sleep(0.6)
        ws.send(json.dumps({"type": "ping", "t": 1}))
        while (msg := _next(ws))["type"] != "pong":
            assert msg["type"] == "lobby"


def test_the_hello_timeout_comes_from_the_environment() -> None:
    assert Settings().hello_timeout == 10.0
    assert Settings.from_env({"GINRUMMY_HELLO_TIMEOUT": "2.5"}).hello_timeout == 2.5
    with pytest.raises(ValueError, match="GINRUMMY_HELLO_TIMEOUT"):
        Settings.from_env({"GINRUMMY_HELLO_TIMEOUT": "0"})
