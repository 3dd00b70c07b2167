"""The gate in front of the routing (server/gate.py): over-limit room lookups answered
there with the routes' own 429, everything else passed on."""

from __future__ import annotations

from typing import Any

import pytest
from starlette.testclient import TestClient

from ginrummy.server.app import create_app
from ginrummy.server.gate import LookupGate
from ginrummy.server.ratelimit import AddressLimit, LookupRoute, RateLimited, of_app

from .helpers import auth, client, create, identity, receive, settings


def _gate_off(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every request goes on to the routes, as before the gate."""
    monkeypatch.setattr(LookupGate, "refusal", lambda self, scope: None)


def _refusals(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The messages of the refusals the gate sends, as they are sent."""
    sent: list[str] = []
    refuse = LookupGate.refuse

    async def counted(self: LookupGate, refused: RateLimited, send: Any) -> None:
        sent.append(refused.message)
        await refuse(self, refused, send)

    monkeypatch.setattr(LookupGate, "refuse", counted)
    return sent


def _answer(r: Any) -> tuple[int, list[tuple[str, str]], bytes]:
    """Status, headers but the date and the request id, and body of a response."""
    headers = [(k, v) for k, v in r.headers.multi_items() if k not in ("date", "x-request-id")]
    return r.status_code, headers, r.content


def _limited_answer(c: TestClient) -> tuple[int, list[tuple[str, str]], bytes]:
    assert c.get("/api/rooms/nosuchroom").status_code == 404  # the one token of the window
    return _answer(c.get("/api/rooms/nosuchroom"))


def test_an_over_limit_lookup_gets_the_routes_own_429_from_the_gate(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    with client(limit_lookups=1) as c:
        _gate_off(monkeypatch)
        routes = _limited_answer(c)
    monkeypatch.undo()
    sent = _refusals(monkeypatch)
    app = create_app(settings(limit_lookups=1))
    with TestClient(app) as c:
        gate = _limited_answer(c)
    assert of_app(app).lookups.refused == 1  # counted once, by the gate alone
    message = "too many room lookups from your address; try again in 60 s"
    assert sent == [message]
    assert gate == routes
    status, headers, body = gate
    assert status == 429 and ("retry-after", "60") in headers
    assert ("content-type", "application/json") in headers
    assert body == b'{"error":{"code":"rate_limited","message":"%s"}}' % message.encode()


def test_lookups_within_the_limit_go_through_and_are_counted_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    sent = _refusals(monkeypatch)
    with client(limit_lookups=3) as c:
        token = identity(c)
        room = create(c, token, kind="room", opponent="friend")
        assert c.get(f"/api/rooms/{room}").status_code == 200
        assert c.get("/api/rooms/nosuchroom").status_code == 404
        assert c.get(f"/api/rooms/{room}/record").status_code == 403  # no record yet
        assert sent == []
        assert c.get(f"/api/rooms/{room}").status_code == 429  # the fourth: the gate's
        assert len(sent) == 1


def test_other_paths_methods_and_the_join_are_not_the_gates(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    sent = _refusals(monkeypatch)
    with client(limit_lookups=1) as c:
        token = identity(c)
        room = create(c, token, kind="room", opponent="friend")
        assert c.get(f"/api/rooms/{room}").status_code == 200
        assert c.get("/api/lobby").status_code == 200
        assert c.post("/api/rooms", json={}, headers=auth(token)).status_code == 201
        assert c.put(f"/api/rooms/{room}").status_code == 405
        # A join asks for the identity before it counts the lookup: 401 first, then 429.
        assert c.post(f"/api/rooms/{room}/join", json={}).status_code == 401
        r = c.post(f"/api/rooms/{room}/join", json={}, headers=auth(identity(c)))
        assert r.status_code == 429 and r.json()["error"]["code"] == "rate_limited"
        assert sent == []


def test_websockets_are_not_the_gates(monkeypatch: pytest.MonkeyPatch) -> None:
    sent = _refusals(monkeypatch)
    with client(limit_lookups=1) as c:
        token = identity(c)
        room = create(c, token, kind="room", opponent="friend")
        assert c.get(f"/api/rooms/{room}").status_code == 200
        with c.websocket_connect("/ws") as ws:
            ws.send_json({"type": "hello", "room": room, "token": token})
            # Over the limit: the socket's own answer, an error frame (docs/protocol.md).
            assert receive(ws)["code"] == "rate_limited"
        assert sent == []


async def test_the_gate_passes_other_scopes_on_untouched() -> None:
    app = create_app(settings(limit_lookups=1))
    passed: list[dict[str, Any]] = []

    async def routes(scope: Any, receive: Any, send: Any) -> None:
        passed.append(scope)

    async def nothing() -> Any:
        raise AssertionError("the gate reads no request")

    async def no_send(message: Any) -> None:
        raise AssertionError(f"the gate sent {message}")

    gate = LookupGate(routes, app.routes)
    of_app(app).lookups.check("192.0.2.1")  # the address is over the limit from here
    for kind, method, path in [
        ("websocket", "GET", "/api/rooms/abc"),
        ("http", "PUT", "/api/rooms/abc"),
        ("http", "GET", "/api/rooms/abc/join"),
        ("http", "GET", "/api/roomsabc"),
        ("http", "GET", "/api/lobby"),
    ]:
        scope = {"type": kind, "method": method, "path": path, "app": app}
        await gate({**scope, "client": ("192.0.2.1", 1)}, nothing, no_send)
    assert [s["path"] for s in passed] == [
        "/api/rooms/abc",
        "/api/rooms/abc",
        "/api/rooms/abc/join",
        "/api/roomsabc",
        "/api/lobby",
    ]
    assert of_app(app).lookups.refused == 0


def test_every_lookup_route_counts_the_lookup_before_anything_else(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """What lets the gate answer for them: over the limit, each route's own answer is
    the 429, whatever else the request lacks (no identity, no body, no such room)."""
    _gate_off(monkeypatch)
    app = create_app(settings(limit_lookups=1))
    lookups = [r for r in app.routes if isinstance(r, LookupRoute)]
    paths = {r.path for r in lookups}
    assert {"/api/rooms/{room_id}", "/api/rooms/{room_id}/record"} <= paths
    assert {"/api/chouette/{room_id}", "/api/chouette/{room_id}/record"} <= paths
    with TestClient(app) as c:
        assert c.get("/api/rooms/nosuchroom").status_code == 404
        for route in lookups:
            for method in sorted(route.methods or ()):
                path = route.path.replace("{room_id}", "nosuchroom")
                r = c.request(method, path, content=b"not json")
                assert r.status_code == 429, (method, path, r.text)
                if method != "HEAD":
                    assert r.json()["error"]["code"] == "rate_limited"


def test_a_refusal_takes_nothing_and_is_counted() -> None:
    limit = AddressLimit("room lookups", count=1, window=60.0)
    assert [limit.refusal("192.0.2.1") for _ in range(3)] == [None, None, None]
    limit.check("192.0.2.1")  # the one token, still there after three looks
    refused = limit.refusal("192.0.2.1")
    assert refused is not None and refused.retry_after == 60
    assert (limit.refused, limit.refused_from) == (1, {"192.0.2.1"})
    with pytest.raises(RateLimited):
        limit.check("192.0.2.1")
    assert limit.refused == 2
    assert AddressLimit("off", count=0, window=60.0).refusal("192.0.2.1") is None
