"""Sockets on the wire: malformed frames get an error and the socket stays; every frame
is strict JSON; a socket that stops reading is closed with 4008, its queue bounded."""

from __future__ import annotations

import asyncio
import importlib
import json
import math
import pkgutil
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from websockets.sync.client import ClientConnection, connect

from ginrummy.server import api, responses
from ginrummy.server.pubsub.base import RESYNC
from ginrummy.server.pubsub.memory import MemoryBus, MemorySubscription
from ginrummy.server.sockets import TOO_SLOW

from .helpers import auth, client, create, hello, identity, receive
from .live import BareSocket, Live, live

# A server, a service or a bench: the system layer (tests/conftest.py).
pytestmark = pytest.mark.system


def strict(text: str | bytes) -> Any:
    """What a strict JSON reader makes of a frame: NaN, Infinity and bytes refused."""

    def refuse(name: str) -> None:
        raise AssertionError(f"{name} in a frame from the server: {text!r}")

    assert isinstance(text, str), "the server sends text frames"
    text.encode("utf-8")  # a lone surrogate cannot be in a frame
    return json.loads(text, parse_constant=refuse)


def _next(ws: ClientConnection) -> dict[str, Any]:
    message = strict(ws.recv(timeout=10))
    assert isinstance(message, dict)
    return message


@contextmanager
def seat_socket(server: Live) -> Iterator[ClientConnection]:
    """A seat socket of a room waiting for a friend (quiet: nobody moves)."""
    with server.http() as http:
        token = http.post("/api/identity", json={}).json()["token"]
        room = http.post("/api/rooms", json={"kind": "room"}, headers=auth(token)).json()["room"]
    with connect(server.ws_url, open_timeout=5) as ws:
        ws.send(json.dumps({"type": "hello", "room": room, "token": token}))
        types = [_next(ws)["type"] for _ in range(4)]
        assert types == ["welcome", "view", "chat_history", "tips"]
        yield ws


def _refused(ws: ClientConnection, frame: str) -> str:
    ws.send(frame)
    error = _next(ws)
    assert error["type"] == "error", error
    code: str = error["code"]
    ws.send('{"type": "ping", "t": "still there?"}')
    assert _next(ws) == {"type": "pong", "t": "still there?"}
    return code


def test_the_three_reported_crashes_answer_an_error_and_keep_the_socket() -> None:
    with live() as server, seat_socket(server) as ws:
        # RecursionError in the decoder used to end the socket.
        assert _refused(ws, "[" * 1000 + "]" * 1000) == "bad_json"
        # A lone surrogate used to fail the error reply's UTF-8 encoding.
        assert _refused(ws, '{"type": "ping", "\\ud800": 1}') == "bad_text"
        assert _refused(ws, '{"type": "ping", "t": "\\ud800"}') == "bad_text"
        assert _refused(ws, '{"type": "hello", "room": "r", "token": "\\ud800"}') == "bad_text"
        assert _refused(ws, '{"type": "hello", "room": "\\udbff"}') == "bad_text"
        # NaN was echoed in the pong: not JSON for a strict reader.
        for number in ("NaN", "Infinity", "-Infinity", "1e999"):
            assert _refused(ws, '{"type": "ping", "t": ' + number + "}") == "bad_number"
        # Still the same seat.
        ws.send(json.dumps({"type": "resync"}))
        assert _next(ws)["type"] == "view"


def test_a_bug_while_handling_a_message_answers_server_error(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from ginrummy.server.room import Room

    def broken(self: Room) -> int:
        raise KeyError("a bug")

    with client() as c:
        token = identity(c)
        room = create(c, token, kind="room")
        with c.websocket_connect("/ws") as ws:
            hello(ws, room, token)
            monkeypatch.setattr(Room, "claim", broken)
            ws.send_json({"type": "claim"})
            assert receive(ws)["code"] == "server_error"
            ws.send_json({"type": "ping", "t": 1})
            assert receive(ws) == {"type": "pong", "t": 1}


SOCKET_QUEUE = 8


def _sockets_of(bus: MemoryBus, topic: str) -> list[MemorySubscription]:
    """The sockets' subscriptions (the room's own follower has the bus's limit)."""
    return [s for s in bus.subscriptions(topic) if s.limit == SOCKET_QUEUE]


async def _flood(bus: MemoryBus, topic: str, notices: int, chunk: str) -> int:
    """Publish like a very busy room; the largest queue a socket had."""
    deepest = 0
    for n in range(notices):
        message = {"id": n, "text": chunk}
        await bus.publish(topic, {"kind": "chat", "message": message})
        deepest = max([deepest, *(s.queue.qsize() for s in _sockets_of(bus, topic))])
        await asyncio.sleep(0)  # the socket's forwarder gets its turn
    return deepest


async def _subscriptions(bus: MemoryBus, topic: str) -> int:
    return len(_sockets_of(bus, topic))


def test_a_socket_that_never_reads_is_closed_as_too_slow() -> None:
    with live(socket_queue=SOCKET_QUEUE) as server:
        with server.http() as http:
            token = http.post("/api/identity", json={}).json()["token"]
            room = http.post("/api/rooms", json={"kind": "room"}, headers=auth(token))
            room_id = room.json()["room"]
        slow = BareSocket(server.port)
        slow.send_json({"type": "hello", "room": room_id, "token": token})
        bus = server.app.state.rooms.bus
        topic = f"room:{room_id}"
        deadline = time.monotonic() + 5
        while server.call(_subscriptions(bus, topic)) == 0:
            assert time.monotonic() < deadline, "the socket never subscribed"
            time.sleep(0.01)
        # 30 KB frames: the TCP buffers fill after a few hundred; the rest must not pile up.
        deepest = server.call(_flood(bus, topic, 3000, "x" * 30_000), timeout=60)
        assert deepest <= SOCKET_QUEUE
        deadline = time.monotonic() + 5
        while server.call(_subscriptions(bus, topic)) != 0:
            assert time.monotonic() < deadline, "the slow socket was never let go"
            time.sleep(0.01)
        # Now it reads: what was sent, then the close frame with the documented code.
        frames = 0
        while True:
            opcode, payload = slow.frame()
            if opcode == 0x8:
                assert int.from_bytes(payload[:2], "big") == TOO_SLOW
                break
            strict(payload.decode("utf-8"))
            frames += 1
        assert 4 < frames < 3000  # hello's answer and part of the flood, never all of it
        slow.close()


def test_a_subscriber_that_never_reads_holds_at_most_its_limit() -> None:
    async def scenario() -> None:
        bus = MemoryBus()
        told: list[str] = []
        lazy = bus.subscribe("room:x", limit=5, on_overflow=lambda: told.append("behind"))
        assert isinstance(lazy, MemorySubscription)
        for n in range(100_000):
            await bus.publish("room:x", {"kind": "action", "version": n})
            assert lazy.queue.qsize() <= 5
        assert lazy.overflows == len(told) > 0
        # What it finds: one resync, then only what came after the last overflow.
        first = await lazy.get()
        assert first == RESYNC
        rest = [(await lazy.get())["version"] for _ in range(lazy.queue.qsize())]
        assert rest == list(range(100_000 - len(rest), 100_000))
        # Server-internal followers (no limit given) use the bus's own, larger one.
        assert bus.subscribe("room:x").limit == bus.queue_limit >= 1000

    asyncio.run(scenario())


def test_http_bodies_come_from_the_strict_encoder() -> None:
    # Every route module of the API answers with the strict encoder's response.
    answering = [
        importlib.import_module(f"{api.__name__}.{m.name}")
        for m in pkgutil.iter_modules(api.__path__)
    ]
    answering = [m for m in answering if hasattr(m, "routes")]
    assert len(answering) >= 8
    assert all(m.JSONResponse is responses.JSONResponse for m in answering)
    body = responses.JSONResponse({"name": "a\ud800b", "t": 1.5}).body
    assert strict(body.decode("utf-8")) == {"name": "a\ufffdb", "t": 1.5}
    with pytest.raises(ValueError):
        responses.JSONResponse({"t": math.nan})


def test_the_socket_queue_comes_from_the_environment() -> None:
    from ginrummy.server.settings import Settings

    assert Settings().socket_queue == 256
    assert Settings.from_env({"GINRUMMY_SOCKET_QUEUE": "16"}).socket_queue == 16
    with pytest.raises(ValueError, match="GINRUMMY_SOCKET_QUEUE"):
        Settings.from_env({"GINRUMMY_SOCKET_QUEUE": "0"})
