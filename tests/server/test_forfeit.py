"""Move timer, abandonment, resignation, ratings and statistics, with a hand-moved clock."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from starlette.testclient import TestClient, WebSocketTestSession

from .helpers import Message, account, auth, client, hello, identity, receive_until


def _advance(c: TestClient, seconds: float) -> None:
    r = c.post("/api/test/clock", json={"advance": seconds})
    assert r.status_code == 200, r.text


def _public_match(c: TestClient, **body: object) -> tuple[str, str, str]:
    ann, bob = account(c), account(c)  # rated play counts accounts only
    r = c.post(
        "/api/rooms", json={"kind": "room", "visibility": "public", **body}, headers=auth(ann)
    )
    room = r.json()["room"]
    c.post(f"/api/rooms/{room}/join", json={}, headers=auth(bob))
    return room, ann, bob


def _result(ws: WebSocketTestSession) -> Message:
    msg = receive_until(
        ws, lambda m: m["type"] == "view" and m["view"]["table"]["match_result"] is not None
    )
    result: Message = msg["view"]["table"]["match_result"]
    return result


def _grace_of_two(pred: Callable[[int | None], bool]) -> Callable[[Message], bool]:
    def check(m: Message) -> bool:
        return m["type"] == "presence" and pred(m["players"]["two"]["grace_remaining_ms"])

    return check


def test_the_test_clock_exists_only_when_set() -> None:
    with client() as c:
        assert c.post("/api/test/clock", json={"advance": 1}).status_code == 404


def test_running_out_of_time_loses_the_match_and_rates_it() -> None:
    with client(test_clock=True) as c:
        room, ann, bob = _public_match(c)
        with c.websocket_connect("/ws") as ws1, c.websocket_connect("/ws") as ws2:
            _, view = hello(ws1, room, ann)
            hello(ws2, room, bob)
            timer = view["timer"]
            assert timer["remaining_ms"] == timer["total_ms"] == 30_000
            _advance(c, 29)
            ws1.send_json({"type": "resync"})
            left = receive_until(ws1, lambda m: m["type"] == "view")["timer"]
            assert left["remaining_ms"] == 1000
            _advance(c, 1)
            event = receive_until(ws2, lambda m: m["type"] == "event")
            assert (event["kind"], event["seat"]) == ("forfeit", timer["seat"])
            result = _result(ws1)
            assert result["forfeit"] == "timeout" and result["forfeited_by"] == timer["seat"]
            assert _result(ws2)["winner"] != timer["seat"]
            ws1.send_json({"type": "resign"})
            assert receive_until(ws1, lambda m: m["type"] == "error")["code"] == "match_over"
        info = c.get(f"/api/rooms/{room}").json()
        loser = info["seats"][timer["seat"]]["player"]
        winner = info["seats"]["two" if timer["seat"] == "one" else "one"]["player"]
        assert winner["rating"] > 1500 > loser["rating"]
        assert winner["rated_matches"] == loser["rated_matches"] == 1
        board = c.get("/api/leaderboard").json()["players"]
        assert [p["id"] for p in board] == [winner["id"], loser["id"]]
        stats = c.get(f"/api/players/{winner['id']}").json()["stats"]
        assert (stats["matches"], stats["wins"], stats["win_rate"]) == (1, 1, 1.0)
        assert stats["best_match"]["room"] == room
        assert [h["rating"] for h in stats["rating_history"]] == [winner["rating"]]
        lost = c.get(f"/api/players/{loser['id']}").json()["stats"]
        assert (lost["matches"], lost["wins"], lost["best_match"]) == (1, 0, None)
        assert c.get("/api/players/p_nobody").status_code == 404


def test_the_timer_waits_while_the_server_is_down(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'g.sqlite3'}"
    with client(db, test_clock=True) as c:
        room, ann, _bob = _public_match(c)
        _advance(c, 12)
        with c.websocket_connect("/ws") as ws:
            _, view = hello(ws, room, ann)
            assert view["timer"]["remaining_ms"] == 18_000
    with client(db, test_clock=True) as c, c.websocket_connect("/ws") as ws:
        _, view = hello(ws, room, ann)
        assert view["timer"]["remaining_ms"] == 18_000
        _advance(c, 18)
        assert _result(ws)["forfeit"] == "timeout"
        # The forfeit replays, and the results survive a restart.
    with client(db, test_clock=True) as c:
        info = c.get(f"/api/rooms/{room}").json()
        assert info["status"] == "over"
        pid = info["seats"]["one"]["player"]["id"]
        assert c.get(f"/api/players/{pid}").json()["player"]["rated_matches"] == 1


def test_abandonment_grace_then_claim() -> None:
    with client(test_clock=True, grace_seconds=60) as c:
        room, ann, bob = _public_match(c, timer=None)
        with c.websocket_connect("/ws") as ws1:
            hello(ws1, room, ann)
            with c.websocket_connect("/ws") as ws2:
                _, view = hello(ws2, room, bob)
                assert view["players"]["one"]["grace_remaining_ms"] is None
            msg = receive_until(ws1, _grace_of_two(lambda g: g is not None))
            assert msg["players"]["two"]["grace_remaining_ms"] == 60_000
            ws1.send_json({"type": "claim"})
            err = receive_until(ws1, lambda m: m["type"] == "error")
            assert err["code"] == "nothing_to_claim"
            _advance(c, 60)
            msg = receive_until(ws1, _grace_of_two(lambda g: g == 0))
            assert msg["players"]["two"]["grace_remaining_ms"] == 0
            ws1.send_json({"type": "claim"})
            result = _result(ws1)
            assert (result["forfeit"], result["forfeited_by"], result["winner"]) == (
                "abandoned",
                "two",
                "one",
            )
        info = c.get(f"/api/rooms/{room}").json()
        assert info["seats"]["two"]["player"]["abandons"] == 1


def test_coming_back_ends_the_grace_period_and_resigning_loses() -> None:
    with client(test_clock=True) as c:
        room, ann, bob = _public_match(c, rated=False, timer=None)
        with c.websocket_connect("/ws") as ws1:
            hello(ws1, room, ann)
            with c.websocket_connect("/ws") as ws2:
                hello(ws2, room, bob)
            receive_until(ws1, _grace_of_two(lambda g: g is not None))
            with c.websocket_connect("/ws") as ws2:
                _, view = hello(ws2, room, bob)
                assert view["players"]["two"]["grace_remaining_ms"] is None
                _advance(c, 120)
                ws1.send_json({"type": "claim"})
                assert receive_until(ws1, lambda m: m["type"] == "error")["code"] == (
                    "nothing_to_claim"
                )
                ws2.send_json({"type": "resign"})
                result = _result(ws2)
                assert (result["forfeit"], result["winner"]) == ("resigned", "one")
        info = c.get(f"/api/rooms/{room}").json()
        assert info["seats"]["one"]["player"]["rated_matches"] == 0  # not rated


def test_games_against_the_computer_just_wait() -> None:
    with client(test_clock=True) as c:
        ann = identity(c)
        r = c.post("/api/rooms", json={"kind": "solo"}, headers=auth(ann))
        room = r.json()["room"]
        with c.websocket_connect("/ws") as ws:
            _, view = hello(ws, room, ann)
            assert view["timer"] is None
            assert view["players"]["one"]["grace_remaining_ms"] is None
            ws.send_json({"type": "resign"})
            _result(ws)
        pid = c.get("/api/me", headers=auth(ann)).json()["player"]["id"]
        stats = c.get(f"/api/players/{pid}").json()["stats"]
        assert stats["matches"] == 0
        assert stats["vs_computer"] == {"casual": {"matches": 1, "wins": 0}}
