"""Per-address rate limits on identities, rooms and room lookups (server/ratelimit.py)."""

from __future__ import annotations

import time
from typing import Any

import httpx
import pytest
from starlette.requests import HTTPConnection
from starlette.testclient import TestClient

from ginrummy.server import ratelimit
from ginrummy.server.app import create_app
from ginrummy.server.ratelimit import AddressLimit, AddressSockets, RateLimited, client_address
from ginrummy.server.settings import Settings

from .helpers import auth, client, create, identity, settings


def _assert_limited(r: httpx.Response, what: str) -> None:
    assert r.status_code == 429, r.text
    assert r.json() == {"error": {"code": "rate_limited", "message": r.json()["error"]["message"]}}
    assert what in r.json()["error"]["message"]
    assert int(r.headers["retry-after"]) >= 1


def test_identity_creation_is_limited_per_address() -> None:
    with client(limit_identities=3) as c:
        for _ in range(3):
            identity(c)
        r = c.post("/api/identity", json={})
        _assert_limited(r, "new identities")
        # 3 per minute: the next token is 20 s away.
        assert int(r.headers["retry-after"]) == 20


def test_room_creation_is_limited_per_address() -> None:
    with client(limit_rooms=2) as c:
        token = identity(c)
        create(c, token)
        create(c, token, kind="room", opponent="friend")
        r = c.post("/api/rooms", json={}, headers=auth(token))
        _assert_limited(r, "new rooms")


def test_room_lookups_count_hits_and_misses_on_every_room_route() -> None:
    with client(limit_lookups=4) as c:
        token, other = identity(c), identity(c)
        room = create(c, token, kind="room", opponent="friend")
        assert c.get("/api/rooms/nosuchroom").status_code == 404
        assert c.get(f"/api/rooms/{room}").status_code == 200
        assert c.get(f"/api/rooms/{room}/record").status_code == 403  # no record yet
        assert c.post(f"/api/rooms/{room}/join", json={}, headers=auth(other)).status_code == 200
        _assert_limited(c.get("/api/rooms/nosuchroom"), "room lookups")
        _assert_limited(c.get(f"/api/rooms/{room}"), "room lookups")
        # Other routes are not lookups of a room by id.
        assert c.get("/api/lobby").status_code == 200


def test_each_address_has_its_own_allowance() -> None:
    app = create_app(settings(limit_identities=1))
    with TestClient(app, client=("192.0.2.1", 1000)) as one:
        identity(one)
        assert one.post("/api/identity", json={}).status_code == 429
        with TestClient(app, client=("192.0.2.2", 1000)) as two:
            identity(two)


def test_a_limit_of_zero_is_off() -> None:
    with client(limit_identities=0, limit_rooms=0, limit_lookups=0) as c:
        token = identity(c)
        for _ in range(100):
            identity(c)
            create(c, token)
            assert c.get("/api/rooms/nosuchroom").status_code == 404


def test_defaults_leave_a_person_plenty() -> None:
    s = Settings()
    assert (s.limit_identities, s.limit_rooms, s.limit_lookups, s.limit_window) == (
        60,
        60,
        600,
        60.0,
    )
    assert s.limit_sockets == 100


def test_idle_buckets_are_forgotten_after_a_window() -> None:
    limit = AddressLimit("room lookups", count=2, window=0.2)
    for n in range(1000):
        limit.check(f"198.51.100.{n}")
    limit.check("203.0.113.9")
    limit.check("203.0.113.9")
    with pytest.raises(RateLimited):
        limit.check("203.0.113.9")
    assert len(limit.buckets) == 1001
    time.sleep(0.25)
    limit.check("203.0.113.9")  # the window is over: allowed again, and the idle are swept
    assert list(limit.buckets) == ["203.0.113.9"]


def test_the_number_of_addresses_is_capped(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ratelimit, "MAX_ADDRESSES", 10)
    limit = AddressLimit("new rooms", count=1, window=60.0)
    for n in range(50):
        limit.check(f"198.51.100.{n}")
        assert len(limit.buckets) <= 10
    assert "198.51.100.49" in limit.buckets and "198.51.100.0" not in limit.buckets


def test_open_sockets_are_capped_per_address_and_forgotten_when_closed() -> None:
    sockets = AddressSockets(2)
    assert [sockets.open("192.0.2.1") for _ in range(3)] == [True, True, False]
    assert sockets.open("192.0.2.2")
    sockets.close("192.0.2.1")
    assert sockets.open("192.0.2.1") and not sockets.open("192.0.2.1")
    for _ in range(2):
        sockets.close("192.0.2.1")
    sockets.close("192.0.2.2")
    assert sockets.open_by == {} and sockets.refused == 2
    unlimited = AddressSockets(0)
    assert all(unlimited.open("192.0.2.1") for _ in range(1000))
    assert unlimited.open_by == {}


def _conn(host: str) -> HTTPConnection:
    scope: dict[str, Any] = {"type": "http", "client": (host, 1234)}
    return HTTPConnection(scope)


def test_addresses_count_by_peer_and_ipv6_by_its_64_network() -> None:
    assert client_address(_conn("192.0.2.7")) == "192.0.2.7"
    assert client_address(_conn("2001:db8:1:2::7")) == "2001:db8:1:2::/64"
    assert client_address(_conn("2001:db8:1:2:ffff::1")) == "2001:db8:1:2::/64"
    assert client_address(_conn("::ffff:192.0.2.7")) == "192.0.2.7"
    assert client_address(_conn("testclient")) == "testclient"


def test_limits_from_the_environment() -> None:
    s = Settings.from_env(
        {
            "GINRUMMY_LIMIT_IDENTITIES": "5",
            "GINRUMMY_LIMIT_ROOMS": "0",
            "GINRUMMY_LIMIT_LOOKUPS": "100",
            "GINRUMMY_LIMIT_WINDOW": "10",
            "GINRUMMY_LIMIT_SOCKETS": "7",
        }
    )
    assert (s.limit_identities, s.limit_rooms, s.limit_lookups, s.limit_window) == (
        5,
        0,
        100,
        10.0,
    )
    assert s.limit_sockets == 7
    with pytest.raises(ValueError, match="GINRUMMY_LIMIT_LOOKUPS"):
        Settings.from_env({"GINRUMMY_LIMIT_LOOKUPS": "-1"})
    with pytest.raises(ValueError, match="GINRUMMY_LIMIT_ROOMS"):
        Settings.from_env({"GINRUMMY_LIMIT_ROOMS": "many"})
