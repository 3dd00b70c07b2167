"""The table core is one idea (issue 20): a third kind of table, the toy "high card" of
``highcard.py``, registered through ``create_app(kinds=...)`` alone, is opened, joined,
played, watched and rebuilt from its log over real sockets, by the core's own seating,
versions, log, publishing, presence and socket life, its hidden card never sent to a
socket that may not see it."""

from __future__ import annotations

import json
from contextlib import ExitStack
from typing import Any

import pytest
from websockets.sync.client import ClientConnection, connect

from .highcard import HIGH_CARD, HighCardRoom
from .live import Live, live

pytestmark = pytest.mark.system


def token(server: Live) -> str:
    with server.http() as http:
        r = http.post("/api/identity", json={})
        assert r.status_code == 201
        value: str = r.json()["token"]
        return value


def post(server: Live, path: str, who: str) -> Any:
    with server.http() as http:
        r = http.post(path, json={}, headers={"Authorization": f"Bearer {who}"})
        assert r.status_code in (200, 201), r.text
        return r.json()


def frame(ws: ClientConnection) -> dict[str, Any]:
    message: dict[str, Any] = json.loads(ws.recv(timeout=10))
    return message


def until(ws: ClientConnection, kind: str, seen: list[dict[str, Any]]) -> dict[str, Any]:
    """The next frame of type ``kind``; every frame read on the way is kept in ``seen``."""
    while True:
        message = frame(ws)
        seen.append(message)
        if message["type"] == kind:
            return message


def hello(
    sockets: ExitStack, server: Live, room: str, who: str | None, seen: list[dict[str, Any]]
) -> Any:
    ws = sockets.enter_context(connect(server.ws_url, open_timeout=10))
    ws.send(json.dumps({"type": "hello", "room": room, "token": who}))
    welcome = until(ws, "welcome", seen)
    return ws, welcome, until(ws, "view", seen)


def test_a_toy_kind_registered_alone_is_played_over_real_sockets() -> None:
    with live(kinds=[HIGH_CARD]) as server, ExitStack() as sockets:
        ann, bob = token(server), token(server)
        room = post(server, "/api/highcard", ann)["room"]
        assert post(server, f"/api/highcard/{room}/join", bob) == {"seat": 1}
        assert post(server, f"/api/highcard/{room}/join", bob) == {"seat": 1}  # held already
        loaded = server.call(server.app.state.rooms.get_any(room))
        assert isinstance(loaded, HighCardRoom)
        cards = loaded.current.cards

        to_ann: list[dict[str, Any]] = []
        to_bob: list[dict[str, Any]] = []
        to_eve: list[dict[str, Any]] = []
        ws_ann, welcome, view = hello(sockets, server, room, ann, to_ann)
        assert welcome["seat"] == 0 and view["cards"] == [cards[0], None]
        ws_bob, welcome, view = hello(sockets, server, room, bob, to_bob)
        assert welcome["seat"] == 1 and view["cards"] == [None, cards[1]]
        ws_eve, welcome, view = hello(sockets, server, room, None, to_eve)  # a spectator
        assert welcome["seat"] is None and view["cards"] == [None, None]
        version = view["version"]

        # A stale move and a move that is not one: errors, and nothing changes.
        ws_ann.send(json.dumps({"type": "act", "version": version - 1, "action": "show"}))
        assert until(ws_ann, "error", to_ann)["code"] == "stale_version"
        ws_ann.send(json.dumps({"type": "act", "version": version, "action": "fold"}))
        assert until(ws_ann, "error", to_ann)["code"] == "illegal_action"
        assert server.call(server.app.state.rooms.get_any(room)).current.version == version

        ws_ann.send(json.dumps({"type": "act", "version": version, "action": "show"}))
        for ws, seen in ((ws_ann, to_ann), (ws_bob, to_bob), (ws_eve, to_eve)):
            assert until(ws, "event", seen)["kind"] == "shown"
            assert until(ws, "view", seen)["cards"][0] == cards[0]  # shown: everyone's
        ws_bob.send(json.dumps({"type": "act", "version": version + 1, "action": "show"}))
        winner = 0 if cards[0] > cards[1] else 1
        for ws, seen in ((ws_ann, to_ann), (ws_bob, to_bob), (ws_eve, to_eve)):
            final = until(ws, "view", seen)
            assert final["cards"] == list(cards) and final["winner"] == winner
        # Bob's card reached nobody else before Bob showed it.
        for seen in (to_ann, to_eve):
            before = [m for m in seen if m.get("version", 0) <= version + 1]
            assert all(m.get("cards", [None, None])[1] is None for m in before)

        # Among Ann's games, by the kind's own entry.
        with server.http() as http:
            me = http.get("/api/me", headers={"Authorization": f"Bearer {ann}"}).json()
        assert {"room": room, "seat": "0", "kind": "highcard", "status": "over"} in me["games"]

        # Unloaded, then asked for again: the core rebuilds it by the kind's replay.
        rooms = server.app.state.rooms

        async def evict() -> None:
            rooms.evict(rooms._rooms[room], "a test")

        server.call(evict())
        again: list[dict[str, Any]] = []
        ws, _, view = hello(sockets, server, room, bob, again)
        assert view["cards"] == list(cards) and view["winner"] == winner
        assert view["version"] == version + 2
