"""Bad input to a chouette room (docs/protocol.md, "Chouette rooms", Errors): each is
refused with its documented code and changes nothing. Also joining, spectators and
reconnecting with the same token."""

from __future__ import annotations

from typing import Any

import pytest
from starlette.testclient import TestClient

from .chouette_table import Table, creator_table, fix_draw, join, join_all, open_table
from .helpers import auth, client, identity, receive, receive_until

SPECTATOR = "spectator"


def _error(table: Table, key: Any, message: dict[str, Any]) -> str:
    """Send ``message`` from ``key``'s socket; the code of the error that answers it."""
    table.sockets[key].send_json(message)
    got = table.read_until_frame(key, lambda m: m["type"] == "error")
    code: str = got["code"]
    return code


@pytest.mark.parametrize(
    ("seats", "code"),
    [
        (["me", "friend"], "bad_players"),
        (["me", "friend", "friend", "friend", "friend", "friend"], "bad_players"),
        ("me friend friend", "bad_players"),
        (None, "bad_players"),
        (["friend", "me", "friend"], "bad_seats"),
        (["me", None, "friend"], "bad_seats"),
        (["me", "me", "friend"], "bad_seats"),
        (["me", "bot:nobody", "friend"], "bad_seats"),
    ],
)
def test_creating_a_table_refuses_bad_seats(seats: Any, code: str) -> None:
    with client() as c:
        token = identity(c)
        r = c.post("/api/chouette", json={"seats": seats}, headers=auth(token))
        assert (r.status_code, r.json()["error"]["code"]) == (400, code)
        r = c.post("/api/chouette", json={"seats": ["me"] * 3, "x": 1}, headers=auth(token))
        assert r.json()["error"]["code"] == "bad_request"
        assert c.get("/api/me", headers=auth(token)).json()["games"] == []


def test_seats_fill_in_order_and_a_full_table_refuses_more() -> None:
    with client() as c:
        room, _ = open_table(c, ["me", "bot:casual", "friend", "friend"])
        assert c.get(f"/api/chouette/{room}").json()["seats"][1]["bot"] == "casual"
        first, second = join(c, room), join(c, room)
        assert (first[1], second[1]) == (2, 3)
        again = c.post(f"/api/chouette/{room}/join", json={}, headers=auth(first[0]))
        assert again.json()["position"] == 2
        late = c.post(f"/api/chouette/{room}/join", json={}, headers=auth(identity(c)))
        assert (late.status_code, late.json()["error"]["code"]) == (409, "room_full")
        assert c.get(f"/api/chouette/{room}").json()["status"] == "playing"
        assert c.get(f"/api/rooms/{room}").json()["error"]["code"] == "unknown_room"
        assert c.get("/api/chouette/nosuchid").status_code == 404
        record = c.get(f"/api/chouette/{room}/record")
        assert (record.status_code, record.json()["error"]["code"]) == (403, "match_running")


def test_nothing_moves_before_every_seat_is_taken() -> None:
    with client() as c:
        room, token = open_table(c, ["me", "friend", "friend"])
        with creator_table(c, room, token) as table:
            version = table.latest[0]["version"]
            for message in (
                {"type": "act", "version": version, "action": "pass"},
                {"type": "advice", "version": version, "action": "pass"},
                {"type": "next_round"},
                {"type": "next_match"},
            ):
                assert _error(table, 0, message) == "table_not_full"
            table.sockets[0].send_json({"type": "resync"})
            assert table.read_until_frame(0, lambda m: m["type"] == "view")["version"] == version


def _three(c: TestClient) -> tuple[Table, dict[Any, str | None], Any]:
    """Kd, Ks, 2c: position 1 is box, 0 captain, 2 partner; all people, and a spectator."""
    room, token = open_table(c, ["me", "friend", "friend"])
    tokens: dict[Any, str | None] = {**join_all(c, room, token, 2)}
    tokens[SPECTATOR] = None
    return Table(room), tokens, room


def test_bad_input_from_each_role_changes_nothing(monkeypatch: Any) -> None:
    fix_draw(monkeypatch, "Kd Ks 2c")
    with client() as c:
        table, tokens, _ = _three(c)
        sockets = [c.websocket_connect("/ws") for _ in tokens]
        with sockets[0] as w0, sockets[1] as w1, sockets[2] as w2, sockets[3] as w3:
            for key, ws in zip(tokens, (w0, w1, w2, w3), strict=True):
                table.sit(key, ws, tokens[key])
            info = table.latest[0]["view"]["chouette"]
            assert (info["box"], info["captain"], info["order"]) == (1, 0, [0, 2])
            box_view = table.latest[1]
            assert box_view["view"]["role"] == "box" and box_view["view"]["advice"] == []
            v = box_view["version"]
            assert _error(table, 2, {"type": "advice", "version": v, "action": "pass"}) == (
                "nothing_to_advise"
            )
            w1.send_json({"type": "act", "version": v, "action": "pass"})  # the box passes
            v += 1
            captain = table.catch_up(0, v)["view"]
            assert captain["role"] == "captain" and "pass" in captain["view"]["legal_actions"]
            partner = table.catch_up(2, v)["view"]
            assert partner["role"] == "partner" and partner["view"]["legal_actions"] == []
            assert partner["advice"] == captain["view"]["legal_actions"]
            hand = set(captain["view"]["hand"])
            outside = next(
                c
                for c in _deck()
                if c not in hand and c not in captain["view"]["table"]["discard_pile"]
            )
            bad = [
                (1, {"type": "advice", "version": v, "action": "pass"}, "not_a_partner"),
                (0, {"type": "advice", "version": v, "action": "pass"}, "not_a_partner"),
                (SPECTATOR, {"type": "advice", "version": v, "action": "pass"}, "not_a_player"),
                (2, {"type": "advice", "version": v, "action": "draw stock"}, "illegal_advice"),
                (2, {"type": "advice", "version": v, "card": outside}, "illegal_advice"),
                (
                    2,
                    {"type": "advice", "version": v, "action": "pass", "card": outside},
                    "bad_advice",
                ),
                (2, {"type": "advice", "version": v}, "bad_advice"),
                (2, {"type": "advice", "version": v, "action": "fly away"}, "bad_advice"),
                (2, {"type": "advice", "version": v, "card": "Xx"}, "bad_advice"),
                (2, {"type": "advice", "version": v - 1, "action": "pass"}, "stale_version"),
                (1, {"type": "team_chat", "text": "hello team"}, "not_in_team"),
                (SPECTATOR, {"type": "team_chat", "text": "hi"}, "not_a_player"),
                (2, {"type": "act", "version": v, "action": "pass"}, "not_your_turn"),
                (1, {"type": "act", "version": v, "action": "pass"}, "not_your_turn"),
                (SPECTATOR, {"type": "act", "version": v, "action": "pass"}, "not_a_player"),
                (0, {"type": "act", "version": v, "action": "draw stock"}, "illegal_action"),
                (0, {"type": "act", "version": v, "action": "jump"}, "bad_action"),
                (2, {"type": "ask_advice", "version": v}, "not_captain"),
                (0, {"type": "ask_advice", "version": v}, "no_computer_partner"),
                (2, {"type": "next_round"}, "not_between_rounds"),
                (2, {"type": "next_match"}, "match_running"),
                (2, {"type": "resign"}, "not_playing"),
                (SPECTATOR, {"type": "next_round"}, "not_a_player"),
            ]
            for key, message, code in bad:
                assert _error(table, key, message) == code, (key, message)
            for key in tokens:
                table.sockets[key].send_json({"type": "resync"})
                view = table.read_until_frame(key, lambda m: m["type"] == "view")
                assert view["version"] == v
            assert not [f for f in table.frames[1] if f["type"] in ("advice", "team_chat")]
            # Good advice, by card: the captain sees it named, the box sees nothing.
            top = captain["view"]["table"]["discard_pile"][-1]
            w2.send_json({"type": "advice", "version": v, "card": top})
            got = table.read_until_frame(0, lambda m: m["type"] == "advice")
            assert (got["card"], got["action"], got["from"]["position"]) == (top, None, 2)
            w0.send_json({"type": "act", "version": v, "action": "pass"})
            table.catch_up(1, v + 1)
            assert not [f for f in table.frames[1] if f["type"] in ("advice", "team_chat")]


def _deck() -> list[str]:
    return [r + s for r in "A23456789TJQK" for s in "cdhs"]


def test_a_computer_partner_advises_a_person_captain_when_asked(monkeypatch: Any) -> None:
    fix_draw(monkeypatch, "Kd Ks 2c")  # 0 captain, 1 box (a person), 2 a computer partner
    with client() as c:
        room, token = open_table(c, ["me", "friend", "bot:casual"])
        box_token, _ = join(c, room)
        table = Table(room)
        with c.websocket_connect("/ws") as w0, c.websocket_connect("/ws") as w1:
            table.sit(0, w0, token)
            table.sit(1, w1, box_token)
            v = table.latest[1]["version"]
            assert _error(table, 0, {"type": "ask_advice", "version": v}) == "nothing_to_advise"
            w1.send_json({"type": "act", "version": v, "action": "pass"})
            legal = table.catch_up(0, v + 1)["view"]["view"]["legal_actions"]
            w0.send_json({"type": "ask_advice", "version": v + 1})
            got = table.read_until_frame(0, lambda m: m["type"] == "advice")
            assert got["from"] == {"position": 2, "name": "Casual", "computer": True}
            assert got["action"] in legal and got["version"] == v + 1
            w1.send_json({"type": "resync"})
            table.read_until_frame(1, lambda m: m["type"] == "view")
            assert not [f for f in table.frames[1] if f["type"] == "advice"]


def test_spectators_and_coming_back_with_the_same_token(monkeypatch: Any) -> None:
    fix_draw(monkeypatch, "Kd Ks 2c")
    with client() as c:
        table, tokens, room = _three(c)
        with c.websocket_connect("/ws") as ws:
            table.sit(SPECTATOR, ws, None)
            view = table.latest[SPECTATOR]
            assert view["view"]["position"] is None and view["view"]["role"] is None
            assert view["view"]["view"]["hand"] == []
        with c.websocket_connect("/ws") as ws:
            ws.send_json({"type": "hello", "room": room, "token": tokens[2]})
            welcome = receive(ws)
            assert (welcome["type"], welcome["position"]) == ("welcome", 2)
            assert welcome["room"]["your_position"] == 2
        closed, token = open_table(c, ["me", "friend", "friend"], spectators=False)
        with c.websocket_connect("/ws") as ws:
            ws.send_json({"type": "hello", "room": closed, "token": None})
            assert receive_until(ws, lambda m: m["type"] == "error")["code"] == "no_spectators"
            ws.send_json({"type": "hello", "room": closed, "token": token})
            assert receive(ws)["position"] == 0


def test_the_captain_resigns_for_the_team(monkeypatch: Any) -> None:
    fix_draw(monkeypatch, "Kd Ks 2c")  # 0 captain, 1 box, 2 partner
    with client() as c:
        table, tokens, room = _three(c)
        with c.websocket_connect("/ws") as w0, c.websocket_connect("/ws") as w1:
            table.sit(0, w0, tokens[0])
            table.sit(1, w1, tokens[1])
            w0.send_json({"type": "resign"})
            over = table.read_until(1, lambda m: m["view"]["chouette"]["phase"] == "settled")
            settlement = over["view"]["chouette"]["settlements"][-1]
            assert settlement["result"]["forfeit"] == "resigned"
            assert settlement["result"]["forfeited_by"] == "two"
            assert settlement["value"] == 0  # no points yet: a forfeit pays at least 0
            assert _error(table, 1, {"type": "resign"}) == "match_over"
        record = c.get(f"/api/chouette/{room}/record").json()
        assert record["events"][-1] == "forfeit 0 resigned"
        games = c.get("/api/me", headers=auth(str(tokens[0]))).json()["games"]
        assert games == []  # chouette seats are not listed (docs/protocol.md)


def test_two_player_messages_are_not_for_a_chouette_socket() -> None:
    with client() as c:
        room, token = open_table(c, ["me", "bot:casual", "bot:casual"])
        with creator_table(c, room, token) as table:
            for message in (
                {"type": "tips", "on": True},
                {"type": "tip"},
                {"type": "seed", "seed": "0" * 64},
                {"type": "claim"},
                {"type": "new_match"},
            ):
                assert _error(table, 0, message) == "bad_message"
