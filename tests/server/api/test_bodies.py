"""Every bad request body gets its exact status and error code, and changes nothing
(docs/protocol.md, "HTTP"; server/api/bodies.py): the codes are the ones the API gave
before its bodies were decoded by msgspec."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from starlette.testclient import TestClient

from ..helpers import account, auth, client, identity

THREE = ["me", "friend", "friend"]
TOURNAMENT = {"name": "Friday", "format": "swiss", "max_players": 8}

# (method, path, body: a JSON value or raw bytes, status, code)
REFUSED: list[tuple[str, str, Any, int, str]] = [
    ("POST", "/api/rooms", b"{nope", 400, "bad_json"),
    ("POST", "/api/rooms", b"[1]", 400, "bad_json"),
    ("POST", "/api/rooms", b'"room"', 400, "bad_json"),
    ("POST", "/api/rooms", b'{"kind": "room"} x', 400, "bad_json"),
    ("POST", "/api/rooms", b'{"name": "' + b"x" * 5000 + b'"}', 413, "bad_request"),
    ("POST", "/api/rooms", {"colour": "red"}, 400, "bad_request"),
    ("POST", "/api/rooms", {"kind": "party"}, 400, "bad_request"),
    ("POST", "/api/rooms", {"kind": 1}, 400, "bad_request"),
    ("POST", "/api/rooms", {"preset": 7}, 400, "bad_rules"),
    ("POST", "/api/rooms", {"preset": "poker"}, 400, "bad_rules"),
    ("POST", "/api/rooms", {"target_score": 75}, 400, "bad_rules"),
    ("POST", "/api/rooms", {"target_score": True}, 400, "bad_rules"),
    ("POST", "/api/rooms", {"preset": "first-to-knock", "target_score": 100}, 400, "bad_rules"),
    ("POST", "/api/rooms", {"timer": "slow"}, 400, "bad_rules"),
    ("POST", "/api/rooms", {"timer": True}, 400, "bad_rules"),
    ("POST", "/api/rooms", {"timer": -5}, 400, "bad_rules"),
    ("POST", "/api/rooms", {"name": 5}, 400, "bad_name"),
    ("POST", "/api/rooms", {"name": ""}, 400, "bad_name"),
    ("POST", "/api/rooms", {"opponent": 3}, 400, "bad_request"),
    ("POST", "/api/rooms", {"opponent": "bot:godlike"}, 400, "bad_request"),
    ("POST", "/api/rooms", {"kind": "solo", "opponent": "friend"}, 400, "bad_request"),
    ("POST", "/api/rooms", {"visibility": "secret"}, 400, "bad_request"),
    ("POST", "/api/rooms", {"spectators": "yes"}, 400, "bad_request"),
    ("POST", "/api/rooms", {"rated": 1}, 400, "bad_request"),
    ("POST", "/api/rooms", {"kind": "solo", "rated": True}, 400, "bad_request"),
    ("PUT", "/api/me", {}, 400, "bad_name"),
    ("PUT", "/api/me", {"name": 5}, 400, "bad_name"),
    ("PUT", "/api/me", {"name": "Ann", "x": 1}, 400, "bad_request"),
    ("PUT", "/api/me", b"{nope", 400, "bad_json"),
    ("POST", "/api/quick", {"preset": "poker"}, 400, "bad_rules"),
    ("POST", "/api/quick", {"timer": 1.5}, 400, "bad_rules"),
    ("POST", "/api/quick", {"kind": "room"}, 400, "bad_request"),
    ("POST", "/api/chouette", {}, 400, "bad_players"),
    ("POST", "/api/chouette", {"seats": "me"}, 400, "bad_players"),
    ("POST", "/api/chouette", {"seats": ["me", "friend"]}, 400, "bad_players"),
    ("POST", "/api/chouette", {"seats": ["friend", "me", "friend"]}, 400, "bad_seats"),
    ("POST", "/api/chouette", {"seats": ["me", "bot:godlike", "friend"]}, 400, "bad_seats"),
    ("POST", "/api/chouette", {"seats": ["me", 2, "friend"]}, 400, "bad_seats"),
    ("POST", "/api/chouette", {"seats": THREE, "spectators": 1}, 400, "bad_request"),
    ("POST", "/api/chouette", {"seats": THREE, "name": 3}, 400, "bad_name"),
    ("POST", "/api/chouette", {"seats": THREE, "preset": "poker"}, 400, "bad_rules"),
    ("POST", "/api/chouette", {"seats": THREE, "opponent": "friend"}, 400, "bad_request"),
    ("POST", "/api/tournaments", {"name": "T", "format": "swiss"}, 400, "bad_request"),
    ("POST", "/api/tournaments", {**TOURNAMENT, "max_players": "8"}, 400, "bad_request"),
    ("POST", "/api/tournaments", {**TOURNAMENT, "rated": 1}, 400, "bad_request"),
    ("POST", "/api/tournaments", {**TOURNAMENT, "join": "yes"}, 400, "bad_request"),
    ("POST", "/api/tournaments", {**TOURNAMENT, "prize": 5}, 400, "bad_request"),
    ("POST", "/api/tournaments", {**TOURNAMENT, "computer_level": "x"}, 400, "bad_request"),
    ("POST", "/api/tournaments", {**TOURNAMENT, "format": "ladder"}, 400, "unknown_format"),
    ("POST", "/api/tournaments", {**TOURNAMENT, "rules_preset": "x"}, 400, "bad_settings"),
    ("POST", "/api/test/clock", {"advance": -1}, 400, "bad_request"),
    ("POST", "/api/test/clock", {"advance": "1"}, 400, "bad_request"),
    ("POST", "/api/test/clock", {"advance": True}, 400, "bad_request"),
]


def _send(c: TestClient, method: str, path: str, body: Any, token: str) -> Any:
    if isinstance(body, bytes):
        return c.request(method, path, content=body, headers=auth(token))
    return c.request(method, path, json=body, headers=auth(token))


def _state(c: TestClient, token: str) -> Any:
    """What a refused body could have changed: the caller's games and name, the
    queue, the listed tables and tournaments, the clock."""
    me = c.get("/api/me", headers=auth(token)).json()
    return (
        me,
        c.get("/api/quick", headers=auth(token)).json(),
        c.get("/api/lobby").json(),
        c.post("/api/test/clock", json={"advance": 0}).json(),
    )


@pytest.fixture(scope="module")
def server() -> Iterator[TestClient]:
    """One app for every refusal: each case has its own identity, and a refusal that
    changed the app's state would show in the next case's ``before`` as well."""
    with client(test_clock=True) as c:
        yield c


@pytest.mark.parametrize(
    ("method", "path", "body", "status", "code"),
    REFUSED,
    ids=[f"{m} {p} {b if isinstance(b, dict) else b[:20]!r}" for m, p, b, _, _ in REFUSED],
)
def test_a_bad_body_gets_its_exact_code_and_changes_nothing(
    server: TestClient, method: str, path: str, body: Any, status: int, code: str
) -> None:
    token = identity(server)
    before = _state(server, token)
    r = _send(server, method, path, body, token)
    assert (r.status_code, r.json()["error"]["code"]) == (status, code), r.text
    assert set(r.json()) == {"error"} and set(r.json()["error"]) == {"code", "message"}
    assert _state(server, token) == before


def test_the_same_bodies_well_formed_are_taken() -> None:
    """The refusals above are about the one flaw each: the bodies without it pass."""
    with client(test_clock=True) as c:
        token = identity(c)
        member = account(c)  # rated play (the quick match, a rated tournament): accounts
        taken = [
            ("POST", "/api/rooms", {"kind": "room", "preset": "standard", "timer": None}),
            ("POST", "/api/rooms", {"opponent": "bot:casual", "target_score": 50}),
            ("PUT", "/api/me", {"name": "Ann"}),
            ("POST", "/api/chouette", {"seats": THREE, "name": "Ann", "spectators": False}),
            ("POST", "/api/tournaments", {**TOURNAMENT, "rated": True, "join": True}),
            ("POST", "/api/test/clock", {"advance": 1.5}),
            ("POST", "/api/quick", {"preset": "standard", "timer": 30}),
        ]
        for method, path, body in taken:
            rated = path == "/api/quick" or (isinstance(body, dict) and body.get("rated") is True)
            r = _send(c, method, path, body, member if rated else token)
            assert r.status_code in (200, 201), (path, r.text)


def test_a_body_is_read_as_strict_json() -> None:
    """As frames are (docs/protocol.md, "HTTP"): before msgspec, Python's reader took
    these and the route judged the value it made of them."""
    with client() as c:
        token = identity(c)
        for raw in (
            b'{"target_score": NaN}',
            b'{"target_score": Infinity}',
            b'{"name": "Ann \\ud800"}',
            b'{"timer": 1e999}',
        ):
            r = c.post("/api/rooms", content=raw, headers=auth(token))
            assert (r.status_code, r.json()["error"]["code"]) == (400, "bad_json"), raw
        assert c.get("/api/me", headers=auth(token)).json()["games"] == []
