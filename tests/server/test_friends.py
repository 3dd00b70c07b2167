"""Friends over HTTP and the lobby socket (docs/accounts.md, "Friends"): befriend by name
or player id, both sides agree; where friends are; challenge, accept, both seated; and
every forged or bad request refused with its code, nothing changed."""

from __future__ import annotations

from typing import Any

from starlette.testclient import TestClient, WebSocketTestSession

from ginrummy.server.room import RoomError
from ginrummy.server.store import MatchChallenge

from .helpers import Message, account, auth, client, identity, receive, receive_until


def player_id(c: TestClient, token: str) -> str:
    pid: str = c.get("/api/me", headers=auth(token)).json()["player"]["id"]
    return pid


def friends(c: TestClient, token: str) -> dict[str, Any]:
    r = c.get("/api/friends", headers=auth(token))
    assert r.status_code == 200, r.text
    answer: dict[str, Any] = r.json()
    return answer


def befriend(c: TestClient, token: str, **body: Any) -> Any:
    return c.post("/api/friends", json=body, headers=auth(token))


def error(r: Any) -> str:
    code: str = r.json()["error"]["code"]
    return code


def make_friends(c: TestClient, a: str, b: str, b_name: str, a_name: str) -> None:
    assert befriend(c, a, name=b_name).json()["state"] == "requested"
    assert befriend(c, b, name=a_name).json()["state"] == "friends"


def feed(ws: WebSocketTestSession, token: str) -> Message:
    ws.send_json({"type": "hello_lobby", "token": token, "feed": True})
    return receive(ws)


def test_both_sides_agree_to_be_friends() -> None:
    with client() as c:
        ann, bob = account(c, "Ann"), account(c, "Bob")
        r = befriend(c, ann, name="bob")  # a name's key: case does not matter
        assert r.status_code == 200, r.text
        assert r.json() == {
            "state": "requested",
            "player": {"id": player_id(c, bob), "name": "Bob"},
        }
        assert friends(c, ann)["outgoing"] == [{"id": player_id(c, bob), "name": "Bob"}]
        assert friends(c, bob)["incoming"] == [{"id": player_id(c, ann), "name": "Ann"}]
        assert friends(c, bob)["friends"] == []
        # from Ann's player page: by her player id
        r = befriend(c, bob, player=player_id(c, ann))
        assert r.json()["state"] == "friends"
        listed = friends(c, ann)["friends"]
        assert [(f["name"], f["online"]) for f in listed] == [("Bob", False)]
        assert friends(c, ann)["incoming"] == friends(c, ann)["outgoing"] == []
        # either ends it: both follows go
        assert c.delete(f"/api/friends/{player_id(c, bob)}", headers=auth(ann)).status_code == 200
        assert friends(c, bob)["friends"] == friends(c, bob)["incoming"] == []


def test_friend_requests_are_refused_with_their_codes_and_change_nothing() -> None:
    with client(limit_friend_requests=3) as c:
        guest = identity(c)
        ann, bob = account(c, "Ann"), account(c, "Bob")
        r = befriend(c, guest, name="Ann")
        assert (r.status_code, error(r)) == (403, "no_account")
        assert (befriend(c, ann, name="Ann").status_code, error(befriend(c, ann, name="Ann"))) == (
            400,
            "not_yourself",
        )
        assert error(befriend(c, ann, name="Nobody")) == "unknown_player"
        assert error(befriend(c, ann, player=player_id(c, guest))) == "unknown_player"  # a guest
        assert error(befriend(c, ann)) == "bad_request"
        assert error(befriend(c, ann, name="Bob", player=player_id(c, bob))) == "bad_request"
        assert error(befriend(c, ann, name=5)) == "bad_name"
        assert error(befriend(c, ann, name="Bob", as_player="x")) == "bad_request"
        assert friends(c, bob)["incoming"] == []
        assert c.get("/api/friends").status_code == 401
        # the rate limit: per person
        for _ in range(3):
            befriend(c, ann, name="Bob")
        r = befriend(c, ann, name="Bob")
        assert (r.status_code, error(r)) == (429, "rate_limited")
        assert befriend(c, bob, name="Ann").json()["state"] == "friends"  # Bob is not limited


def test_a_friend_sees_where_a_friend_is_unless_hidden() -> None:
    with client() as c:
        ann, bob = account(c, "Ann"), account(c, "Bob")
        make_friends(c, ann, bob, "Bob", "Ann")
        with c.websocket_connect("/ws") as ann_feed:
            feed(ann_feed, ann)
            with c.websocket_connect("/ws") as bob_lobby:
                bob_lobby.send_json({"type": "hello_lobby", "token": bob})
                receive(bob_lobby)
                receive_until(ann_feed, lambda m: m["type"] == "friends")
                (seen,) = friends(c, ann)["friends"]
                assert (seen["online"], seen["where"]) == (True, "lobby")
                r = c.put(
                    "/api/friends/settings", json={"hide_whereabouts": True}, headers=auth(bob)
                )
                assert r.json() == {"hide_whereabouts": True, "friends_only": False}
                (seen,) = friends(c, ann)["friends"]
                assert (seen["online"], seen["where"], seen["room"]) == (True, None, None)
                r = c.put("/api/friends/settings", json={"hide_whereabouts": 1}, headers=auth(bob))
                assert error(r) == "bad_request"
                assert friends(c, bob)["settings"]["hide_whereabouts"] is True
            receive_until(ann_feed, lambda m: m["type"] == "friends")
            assert friends(c, ann)["friends"][0]["online"] is False


def _challenge(c: TestClient, token: str, **body: Any) -> Any:
    return c.post("/api/challenges", json=body, headers=auth(token))


def test_a_challenge_reaches_the_friend_who_accepts_and_both_are_seated() -> None:
    with client() as c:
        ann, bob = account(c, "Ann"), account(c, "Bob")
        make_friends(c, ann, bob, "Bob", "Ann")
        with c.websocket_connect("/ws") as bob_feed, c.websocket_connect("/ws") as ann_feed:
            feed(bob_feed, bob)
            feed(ann_feed, ann)
            r = _challenge(c, ann, name="Bob", preset="standard", target_score=50)
            assert r.status_code == 201, r.text
            sent = r.json()["challenge"]
            assert sent["from"]["name"] == "Ann" and sent["to"]["name"] == "Bob"
            got = receive_until(bob_feed, lambda m: m["type"] == "challenge")["challenge"]
            assert got["id"] == sent["id"] and got["state"] == "open"
            assert got["target_score"] == 50
            assert [ch["id"] for ch in friends(c, bob)["challenges"]] == [sent["id"]]
            # Ann cannot accept her own challenge, nor can a third person
            cy = account(c, "Cy")
            for token in (ann, cy):
                r = c.post(f"/api/challenges/{sent['id']}/accept", headers=auth(token))
                assert (r.status_code, error(r)) == (404, "unknown_challenge")
            r = c.post(f"/api/challenges/{sent['id']}/accept", headers=auth(bob))
            assert r.status_code == 201, r.text
            room, seat = r.json()["room"], r.json()["seat"]
            assert seat == "two"
            told = receive_until(
                ann_feed, lambda m: m["type"] == "challenge" and m["challenge"]["room"]
            )
            assert told["challenge"]["state"] == "accepted" and told["challenge"]["room"] == room
            info = c.get(f"/api/rooms/{room}", headers=auth(ann)).json()
            assert info["rules"]["target_score"] == 50
            assert c.get(f"/api/rooms/{room}", headers=auth(bob)).json()["your_seat"] == "two"
            assert info["your_seat"] == "one" and info["status"] == "playing"
            assert info["seats"]["two"]["name"] == "Bob" and info["visibility"] == "private"
            # answered once
            r = c.post(f"/api/challenges/{sent['id']}/decline", headers=auth(bob))
            assert (r.status_code, error(r)) == (409, "challenge_closed")


def test_challenges_are_refused_with_their_codes() -> None:
    with client(limit_challenges=3) as c:
        ann, bob, cy = account(c, "Ann"), account(c, "Bob"), account(c, "Cy")
        guest = identity(c)
        assert error(_challenge(c, guest, name="Bob")) == "no_account"
        assert error(_challenge(c, ann, name="Ann")) == "not_yourself"
        assert error(_challenge(c, ann, name="Bob", preset="nonsense")) == "bad_rules"
        assert error(_challenge(c, ann, name="Bob", target_score=7)) == "bad_rules"
        assert error(_challenge(c, ann, name="Zed")) == "unknown_player"
        # Bob takes challenges from friends only: Cy is not one
        r = c.put("/api/friends/settings", json={"friends_only": True}, headers=auth(bob))
        assert r.status_code == 200
        r = _challenge(c, cy, name="Bob")
        assert (r.status_code, error(r)) == (403, "challenges_closed")
        assert friends(c, bob)["challenges"] == []
        make_friends(c, ann, bob, "Bob", "Ann")
        first = _challenge(c, ann, name="Bob").json()["challenge"]
        # declined by Bob; withdrawn only by Ann
        r = c.delete(f"/api/challenges/{first['id']}", headers=auth(bob))
        assert error(r) == "unknown_challenge"
        r = c.post(f"/api/challenges/{first['id']}/decline", headers=auth(bob))
        assert r.json()["challenge"]["state"] == "declined"
        second = _challenge(c, ann, name="Bob").json()["challenge"]
        r = c.delete(f"/api/challenges/{second['id']}", headers=auth(ann))
        assert r.json()["challenge"]["state"] == "withdrawn"
        r = c.post(f"/api/challenges/{second['id']}/accept", headers=auth(bob))
        assert error(r) == "challenge_closed"
        r = _challenge(c, ann, name="Bob")
        assert (r.status_code, error(r)) == (429, "rate_limited")
        assert error(c.post("/api/challenges/c_nothing/accept", headers=auth(bob))) == (
            "unknown_challenge"
        )


def test_a_bad_feed_hello_is_refused_and_a_feed_hears_only_its_own_person() -> None:
    with client() as c:
        ann, bob, cy = account(c, "Ann"), account(c, "Bob"), account(c, "Cy")
        make_friends(c, ann, bob, "Bob", "Ann")
        with c.websocket_connect("/ws") as ws:
            ws.send_json({"type": "hello_lobby", "token": ann, "feed": "yes"})
            refused = receive(ws)
            assert refused["type"] == "error" and refused["code"] == "bad_message"
        with c.websocket_connect("/ws") as cy_feed, c.websocket_connect("/ws") as bob_feed:
            feed(cy_feed, cy)
            feed(bob_feed, bob)
            r = c.post("/api/challenges", json={"name": "Bob"}, headers=auth(ann))
            assert r.status_code == 201
            receive_until(bob_feed, lambda m: m["type"] == "challenge")
            # Cy's feed heard nothing of it: the next thing it hears is its own pong
            cy_feed.send_json({"type": "ping", "t": 1})
            assert receive(cy_feed)["type"] == "pong"


def test_a_room_that_cannot_open_leaves_the_challenge_open() -> None:
    with client() as c:
        ann, bob = account(c, "Ann"), account(c, "Bob")
        sent = c.post("/api/challenges", json={"name": "Bob"}, headers=auth(ann)).json()
        rooms = c.app.state.rooms  # type: ignore[attr-defined]
        create = rooms.create

        async def broken(**_: Any) -> None:
            raise RoomError("unavailable", "no room now")

        rooms.create = broken
        r = c.post(f"/api/challenges/{sent['challenge']['id']}/accept", headers=auth(bob))
        assert r.status_code == 503 and error(r) == "unavailable"
        assert [ch["state"] for ch in friends(c, bob)["challenges"]] == ["open"]
        rooms.create = create
        r = c.post(f"/api/challenges/{sent['challenge']['id']}/accept", headers=auth(bob))
        assert r.status_code == 201, r.text


def test_a_block_keeps_challenges_out_both_ways() -> None:
    with client() as c:
        ann, bob = account(c, "Ann"), account(c, "Bob")
        make_friends(c, ann, bob, "Bob", "Ann")
        r = c.put(f"/api/me/blocks/{player_id(c, ann)}", headers=auth(bob))
        assert r.status_code in (200, 204), r.text
        for sender, receiver in ((ann, "Bob"), (bob, "Ann")):
            r = _challenge(c, sender, name=receiver)
            assert (r.status_code, error(r)) == (403, "challenges_closed")
        assert friends(c, bob)["challenges"] == [] and friends(c, ann)["challenges"] == []
        r = c.delete(f"/api/me/blocks/{player_id(c, ann)}", headers=auth(bob))
        assert r.status_code in (200, 204), r.text
        assert _challenge(c, ann, name="Bob").status_code == 201


def test_accepting_a_challenge_of_a_sender_without_an_account_changes_nothing() -> None:
    with client() as c:
        bob = account(c, "Bob")
        guest = player_id(c, identity(c))  # no account: no room can be opened for them
        service = c.app.state.friends  # type: ignore[attr-defined]
        now = c.app.state.rooms.clock.now()  # type: ignore[attr-defined]
        sent = MatchChallenge("c_guest", guest, player_id(c, bob), "standard", None, now, now + 600)
        c.portal.call(service.store.put_match_challenge, sent)  # type: ignore[union-attr]
        r = c.post("/api/challenges/c_guest/accept", headers=auth(bob))
        assert (r.status_code, error(r)) == (404, "unknown_player")
        # still open, as it was: Bob may decline it
        assert [(ch["id"], ch["state"]) for ch in friends(c, bob)["challenges"]] == [
            ("c_guest", "open")
        ]
        stored = c.portal.call(service.store.match_challenge, "c_guest")  # type: ignore[union-attr]
        assert stored == sent
        r = c.post("/api/challenges/c_guest/decline", headers=auth(bob))
        assert r.status_code == 200, r.text
