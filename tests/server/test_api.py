"""The JSON HTTP API: identities, rooms, joining, records, levels, errors."""

from __future__ import annotations

import pytest

from .helpers import auth, client, create, identity


def test_health_and_levels() -> None:
    with client() as c:
        assert c.get("/api/health").json() == {"ok": True}
        levels = c.get("/api/levels").json()
        keys = [lv["key"] for lv in levels["levels"]]
        assert keys == ["beginner", "casual", "strong", "expert", "master"]
        assert levels["levels"][0]["names"] == {"de": "Anfänger", "en": "Beginner"}


def test_create_solo_game_deals_at_once() -> None:
    with client() as c:
        token = identity(c)
        r = c.post("/api/rooms", json={"kind": "solo", "name": "Ann"}, headers=auth(token))
        assert r.status_code == 201
        body = r.json()
        assert body["seat"] == "one"
        assert body["invite_path"] == f"/r/{body['room']}"
        info = c.get(f"/api/rooms/{body['room']}", headers=auth(token)).json()
        assert info["status"] == "playing"
        assert info["your_seat"] == "one"
        assert info["seats"]["two"]["bot"] == "casual"
        games = c.get("/api/me", headers=auth(token)).json()["games"]
        assert [g["room"] for g in games] == [body["room"]]


def test_room_info_names_the_callers_seat_without_a_store_read(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    with client() as c:
        ann, bob = identity(c), identity(c)
        room = create(c, ann, kind="room")
        store = c.app.state.rooms.store  # type: ignore[attr-defined]

        async def asked(*args: object) -> None:
            raise AssertionError("the room's info looked the caller up")

        monkeypatch.setattr(store, "has_identity", asked)
        monkeypatch.setattr(store, "known_player", asked)
        seats = [
            c.get(f"/api/rooms/{room}", headers=headers).json()["your_seat"]
            for headers in (auth(ann), auth(bob), auth("no such token"), {})
        ]
        assert seats == ["one", None, None, None]


def test_create_room_then_a_friend_joins() -> None:
    with client() as c:
        ann, bob, cid = identity(c), identity(c), identity(c)
        room = create(c, ann, kind="room", name="Ann", preset="oklahoma", target_score=50)
        info = c.get(f"/api/rooms/{room}").json()
        assert info["status"] == "waiting"
        assert info["seats"]["two"] is None
        assert info["rules"]["name"] == "oklahoma"
        assert info["rules"]["target_score"] == 50
        assert info["your_seat"] is None
        r = c.post(f"/api/rooms/{room}/join", json={"name": "Bob"}, headers=auth(bob))
        assert r.json() == {"room": room, "seat": "two"}
        # Joining again is idempotent; a third browser finds the room full.
        r = c.post(f"/api/rooms/{room}/join", json={"name": "Bob"}, headers=auth(bob))
        assert r.json()["seat"] == "two"
        r = c.post(f"/api/rooms/{room}/join", json={"name": "Cid"}, headers=auth(cid))
        assert r.status_code == 409
        assert r.json()["error"]["code"] == "room_full"
        assert c.get(f"/api/rooms/{room}").json()["status"] == "playing"


def test_room_with_a_computer_opponent() -> None:
    with client() as c:
        ann = identity(c)
        room = create(c, ann, kind="room", opponent="bot:strong")
        info = c.get(f"/api/rooms/{room}").json()
        assert info["status"] == "playing"
        assert info["seats"]["two"]["bot"] == "strong"
        assert info["spectators"] is True


def test_unknown_room_is_404() -> None:
    with client() as c:
        token = identity(c)
        assert c.get("/api/rooms/nope").status_code == 404
        r = c.post("/api/rooms/nope/join", json={}, headers=auth(token))
        assert r.status_code == 404
        assert r.json()["error"]["code"] == "unknown_room"


def test_bad_json_is_400() -> None:
    with client() as c:
        token = identity(c)
        r = c.post("/api/rooms", content=b"{nope", headers=auth(token))
        assert r.status_code == 400
        assert r.json()["error"]["code"] == "bad_json"
        r = c.post("/api/rooms", content=b"[1]", headers=auth(token))
        assert r.json()["error"]["code"] == "bad_json"


def test_rules_are_validated() -> None:
    with client() as c:
        token = identity(c)
        for body, needle in (
            ({"preset": "poker"}, "unknown preset"),
            ({"preset": "standard", "target_score": 75}, "target_score"),
            ({"preset": "first-to-knock", "target_score": 100}, "no target score"),
        ):
            r = c.post("/api/rooms", json=body, headers=auth(token))
            assert r.status_code == 400
            assert r.json()["error"]["code"] == "bad_rules"
            assert needle in r.json()["error"]["message"]
        for body in (
            {"kind": "party"},
            {"opponent": "bot:godlike"},
            {"kind": "solo", "opponent": "friend"},
            {"name": ""},
            {"name": "x" * 40},
            {"colour": "red"},
        ):
            r = c.post("/api/rooms", json=body, headers=auth(token))
            assert r.status_code == 400, body


def test_tokens_are_required_and_checked() -> None:
    with client() as c:
        assert c.post("/api/rooms", json={}).status_code == 401
        r = c.post("/api/rooms", json={}, headers=auth("forged"))
        assert r.status_code == 401
        assert r.json()["error"]["code"] == "bad_token"
        assert c.get("/api/me").status_code == 401


def test_record_is_refused_while_the_match_runs() -> None:
    with client() as c:
        token = identity(c)
        room = create(c, token)
        r = c.get(f"/api/rooms/{room}/record")
        assert r.status_code == 403
        assert r.json()["error"]["code"] == "match_running"


def test_pages_without_a_client_say_so() -> None:
    with client() as c:
        assert c.get("/").status_code == 404
        assert c.get("/r/abc").status_code == 404


def test_bodies_with_unknown_fields_are_refused_and_the_fields_named() -> None:
    with client() as c:
        token = identity(c)
        three = ["me", "friend", "friend"]
        opened = c.post("/api/chouette", json={"seats": three}, headers=auth(token))
        chouette = opened.json()["room"]
        asks = [
            ("POST", "/api/rooms", {"kind": "room", "colour": "red", "adds": 1}),
            ("PUT", "/api/me", {"name": "Ann", "colour": "red", "adds": 1}),
            ("POST", "/api/quick", {"colour": "red", "adds": 1}),
            ("POST", "/api/chouette", {"seats": three, "colour": "red", "adds": 1}),
            ("POST", f"/api/chouette/{chouette}/join", {"name": "Bob", "colour": "red", "adds": 1}),
        ]
        for method, path, body in asks:
            r = c.request(method, path, json=body, headers=auth(identity(c)))
            assert r.status_code == 400, (path, r.text)
            error = r.json()["error"]
            assert error == {"code": "bad_request", "message": "unknown field(s): adds, colour"}


def test_a_computer_seat_is_named_after_its_level_in_either_kind_of_room() -> None:
    with client() as c:
        token = identity(c)
        solo = create(c, token, kind="solo", opponent="bot:strong")
        assert c.get(f"/api/rooms/{solo}").json()["seats"]["two"]["name"] == "Strong"
        stick = create(c, token, kind="solo", opponent="bot:random")  # a measuring stick
        assert c.get(f"/api/rooms/{stick}").json()["seats"]["two"]["name"] == "random"
        seats = ["me", "bot:expert", "bot:random"]
        r = c.post("/api/chouette", json={"seats": seats}, headers=auth(token))
        info = c.get(f"/api/chouette/{r.json()['room']}").json()
        assert [s["name"] for s in info["seats"][1:]] == ["Expert", "random"]
