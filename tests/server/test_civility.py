"""Civility over HTTP and WebSocket (docs/accounts.md, "Civility"): reports carry the
server's evidence and cannot be forged for another person, blocks keep chat and the
quick match apart, mutes refuse chat with their code, bans stop the quick match for
the banned person only, and every admin route refuses guests and non-operators."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from starlette.testclient import TestClient

from ginrummy.server.civility import service
from ginrummy.server.room import chat
from ginrummy.server.settings import Settings
from ginrummy.server.store import Event, Outcome, RatedMatch, ResultRow, RoomRow

from .helpers import account, auth, client, create, hello, identity, receive, receive_until
from .test_accounts import _account


def _code(r: Any) -> str:
    code: str = r.json()["error"]["code"]
    return code


def _player(c: TestClient, token: str) -> str:
    pid: str = c.get("/api/me", headers=auth(token)).json()["player"]["id"]
    return pid


def _room_of_two(c: TestClient) -> tuple[str, str, str]:
    a, b = identity(c), identity(c)
    room = create(c, a, kind="room")
    r = c.post(f"/api/rooms/{room}/join", json={}, headers=auth(b))
    assert r.status_code == 200, r.text
    return room, a, b


def _operator(c: TestClient, name: str = "Opal") -> str:
    """A new account made an operator by its player id (``GINRUMMY_OPERATORS``); its
    device's token."""
    token, _ = _account(c, name)
    settings = c.app.state.settings  # type: ignore[attr-defined]
    operators = (*settings.operators, _player(c, token))
    c.app.state.settings = replace(settings, operators=operators)  # type: ignore[attr-defined]
    return token


ADMIN = [
    ("GET", "/api/admin", None),
    ("GET", "/api/admin/reports", None),
    ("GET", "/api/admin/players/p_whoever00", None),
    ("GET", "/api/admin/audit", None),
    ("POST", "/api/admin/actions", {"action": "warn", "target": "p_x", "reason": "r"}),
]


def test_no_guest_nor_signed_in_non_operator_reaches_any_admin_route() -> None:
    with client() as c:
        guest = identity(c)
        member, _ = _account(c, "Mallory")
        for method, path, body in ADMIN:
            assert c.request(method, path, json=body).status_code == 401
            for token in (guest, member):
                r = c.request(method, path, json=body, headers=auth(token))
                assert r.status_code == 403 and _code(r) == "not_operator", (path, r.text)
        operator = _operator(c)
        me = c.get("/api/admin", headers=auth(operator)).json()
        assert me == {"operator": "Opal", "player": _player(c, operator)}


def test_operators_are_named_by_player_id_never_by_name() -> None:
    # a name nobody holds yet could be registered by anyone (or a lookalike "0PAL")
    with pytest.raises(ValueError, match="player ids"):
        Settings.from_env({"GINRUMMY_OPERATORS": "p_abcdefghij, Opal"})
    with client() as c:
        _operator(c, "Opal")
        mallory, _ = _account(c, "0pal Admin")
        assert _code(c.get("/api/admin", headers=auth(mallory))) == "not_operator"


def test_a_guest_named_like_an_operator_is_no_operator() -> None:
    with client() as c:
        guest = identity(c)
        assert c.put("/api/me", json={"name": "Opal"}, headers=auth(guest)).status_code == 200
        r = c.get("/api/admin/reports", headers=auth(guest))
        assert _code(r) == "not_operator"


def test_a_report_carries_the_servers_evidence_and_reaches_the_console() -> None:
    with client() as c:
        room, a, b = _room_of_two(c)
        bob = _player(c, b)
        with c.websocket_connect("/ws") as ws:
            hello(ws, room, b)
            ws.send_json({"type": "chat", "text": "you fool"})
            assert receive(ws)["type"] == "chat"
        body = {"player": bob, "reason": "chat", "place": "chat", "room": room, "note": "rude"}
        r = c.post("/api/reports", json=body, headers=auth(a))
        assert r.status_code == 201, r.text
        # a report for another person cannot be forged: no body names its reporter
        forged = {**body, "reporter": bob}
        r2 = c.post("/api/reports", json=forged, headers=auth(a))
        assert r2.status_code == 400 and _code(r2) == "bad_request"
        evidence = {**body, "evidence": {"chat": [{"text": "made up"}]}}
        assert c.post("/api/reports", json=evidence, headers=auth(a)).status_code == 400
        assert _code(c.post("/api/reports", json={**body, "reason": "x"}, headers=auth(a))) == (
            "bad_reason"
        )
        assert c.post("/api/reports", json=body).status_code == 401
        operator = _operator(c)
        reports = c.get("/api/admin/reports", headers=auth(operator)).json()["reports"]
        assert len(reports) == 1
        (made,) = reports
        assert made["reporter"] == _player(c, a) and made["reported"] == bob
        assert [line["text"] for line in made["evidence"]["chat"]] == ["you fool"]
        assert made["evidence"]["room"]["id"] == room
        act = {"action": "dismiss", "target": made["id"], "reason": "a joke between friends"}
        assert c.post("/api/admin/actions", json=act, headers=auth(operator)).status_code == 200
        assert c.get("/api/admin/reports", headers=auth(operator)).json()["reports"] == []
        (entry,) = c.get("/api/admin/audit", headers=auth(operator)).json()["entries"]
        assert (entry["operator"], entry["action"], entry["target"]) == (
            _player(c, operator),
            "dismiss",
            made["id"],
        )
        assert entry["detail"]["operator_name"] == "Opal"


def test_a_report_names_only_a_room_both_people_were_in() -> None:
    with client() as c:
        room, a, b = _room_of_two(c)
        bob, stranger = _player(c, b), identity(c)
        body = {"reason": "chat", "place": "table", "room": room}
        # the reported person neither sits nor chatted there
        r = c.post("/api/reports", json={**body, "player": _player(c, stranger)}, headers=auth(a))
        assert r.status_code == 403 and _code(r) == "not_in_room"
        # a watcher of a room open to spectators may report a seated player
        r = c.post("/api/reports", json={**body, "player": bob}, headers=auth(stranger))
        assert r.status_code == 201, r.text
        # a room closed to spectators: only its seats may report from it
        closed = create(c, a, kind="room", spectators=False)
        assert c.post(f"/api/rooms/{closed}/join", json={}, headers=auth(b)).status_code == 200
        r = c.post("/api/reports", json={**body, "room": closed, "player": bob},
                   headers=auth(stranger))  # fmt: skip
        assert r.status_code == 403 and _code(r) == "not_in_room"
        r = c.post("/api/reports", json={**body, "room": closed, "player": bob}, headers=auth(a))
        assert r.status_code == 201, r.text
        assert c.get("/api/admin/reports").status_code == 401  # (no operator here)


def test_a_spectator_who_chatted_in_a_room_may_be_reported_from_it() -> None:
    with client() as c:
        a, watcher = identity(c), identity(c)
        room = create(c, a, kind="room", spectator_chat=True)
        with c.websocket_connect("/ws") as ws:
            ws.send_json({"type": "hello", "room": room, "token": watcher})
            ws.send_json({"type": "chat", "text": "you fool"})
            frame = receive(ws)
            while frame["type"] != "chat":
                frame = receive(ws)
        body = {"player": _player(c, watcher), "reason": "chat", "place": "chat", "room": room}
        r = c.post("/api/reports", json=body, headers=auth(a))
        assert r.status_code == 201, r.text


def test_the_lines_a_report_looks_through_are_those_a_room_keeps() -> None:
    assert service.CHAT_KEPT == chat.CHAT_HISTORY


def test_reports_are_rate_limited() -> None:
    with client(limit_reports=2) as c:
        a, b = identity(c), identity(c)
        body = {"player": _player(c, b), "reason": "name"}
        codes = [c.post("/api/reports", json=body, headers=auth(a)).status_code for _ in range(3)]
        assert codes == [201, 201, 429]


def test_a_block_keeps_the_blocked_persons_chat_out() -> None:
    with client() as c:
        room, a, b = _room_of_two(c)
        bob = _player(c, b)
        assert c.put(f"/api/me/blocks/{bob}", headers=auth(a)).json() == {"blocked": [bob]}
        with c.websocket_connect("/ws") as wa, c.websocket_connect("/ws") as wb:
            hello(wa, room, a)
            hello(wb, room, b)
            wb.send_json({"type": "chat", "text": "hello there"})
            assert receive(wb)["message"]["text"] == "hello there"
            wa.send_json({"type": "chat", "text": "mine"})
            # Ann's socket skips Bob's line: the next chat it sees is her own
            frame = receive(wa)
            while frame["type"] != "chat":
                frame = receive(wa)
            assert frame["message"]["text"] == "mine"
        with c.websocket_connect("/ws") as wa:  # nor is it in her history
            wa.send_json({"type": "hello", "room": room, "token": a})
            frames = [receive(wa) for _ in range(3)]
            (history,) = [f for f in frames if f["type"] == "chat_history"]
            assert [m["text"] for m in history["messages"]] == ["mine"]
        assert c.delete(f"/api/me/blocks/{bob}", headers=auth(a)).json() == {"blocked": []}
        assert _code(c.put("/api/me/blocks/p_nobody0000", headers=auth(a))) == "unknown_player"


def test_a_block_keeps_two_people_apart_in_the_quick_match() -> None:
    with client() as c:
        a, b, d = account(c), account(c), account(c)  # the quick match is accounts' only
        c.put(f"/api/me/blocks/{_player(c, a)}", headers=auth(b))
        assert c.post("/api/quick", json={}, headers=auth(a)).json()["status"] == "waiting"
        assert c.post("/api/quick", json={}, headers=auth(b)).json()["status"] == "waiting"
        assert c.post("/api/quick", json={}, headers=auth(d)).json()["status"] == "matched"


def test_a_muted_persons_chat_is_refused_with_its_code() -> None:
    with client() as c:
        room, _, b = _room_of_two(c)
        operator = _operator(c)
        act = {"action": "mute", "target": _player(c, b), "reason": "insults"}
        assert c.post("/api/admin/actions", json=act, headers=auth(operator)).status_code == 200
        with c.websocket_connect("/ws") as ws:
            hello(ws, room, b)
            ws.send_json({"type": "chat", "text": "still here"})
            error = receive(ws)
            assert error["type"] == "error" and error["code"] == "muted"
        conduct = c.get("/api/me/conduct", headers=auth(b)).json()
        assert conduct["chat"]["code"] == "muted" and conduct["chat"]["until"] is None


def test_a_ban_stops_the_quick_match_for_the_banned_person_only() -> None:
    with client() as c:
        a, b = account(c), account(c)  # the quick match is accounts' only
        operator = _operator(c)
        act = {"action": "ban", "target": _player(c, b), "reason": "abandons", "minutes": 10}
        r = c.post("/api/admin/actions", json=act, headers=auth(operator))
        assert r.status_code == 200, r.text
        r = c.post("/api/quick", json={}, headers=auth(b))
        assert r.status_code == 403 and _code(r) == "play_banned"
        assert c.get("/api/quick", headers=auth(b)).json() == {"status": "idle"}  # unchanged
        play = c.get("/api/me/conduct", headers=auth(b)).json()["play"]
        assert play["reason"] == "abandons" and play["seconds_left"] == 600
        assert c.post("/api/quick", json={}, headers=auth(a)).json()["status"] == "waiting"


def test_a_ban_takes_the_banned_person_out_of_the_quick_match_queue() -> None:
    with client() as c:
        a, b = account(c), account(c)
        operator = _operator(c)
        assert c.post("/api/quick", json={}, headers=auth(b)).json()["status"] == "waiting"
        act = {"action": "ban", "target": _player(c, b), "reason": "abandons", "minutes": 10}
        r = c.post("/api/admin/actions", json=act, headers=auth(operator))
        assert r.status_code == 200 and r.json()["quick_left"] is True, r.text
        assert c.get("/api/quick", headers=auth(b)).json() == {"status": "idle"}
        # The next person waits rather than being paired with the banned one.
        assert c.post("/api/quick", json={}, headers=auth(a)).json()["status"] == "waiting"


def test_a_ban_stops_joining_a_rated_tournament_not_a_casual_one() -> None:
    with client() as c:
        a, b = account(c), account(c)
        operator = _operator(c)
        act = {"action": "ban", "target": _player(c, b), "reason": "abandons", "minutes": 10}
        assert c.post("/api/admin/actions", json=act, headers=auth(operator)).status_code == 200
        cup = {"name": "Friday Cup", "format": "knockout", "max_players": 4}
        rated = c.post("/api/tournaments", json={**cup, "rated": True}, headers=auth(a))
        casual = c.post("/api/tournaments", json=cup, headers=auth(a))
        rated_id, casual_id = rated.json()["tournament"]["id"], casual.json()["tournament"]["id"]
        r = c.post(f"/api/tournaments/{rated_id}/join", headers=auth(b))
        assert r.status_code == 403 and _code(r) == "play_banned"
        r = c.post("/api/tournaments", json={**cup, "rated": True, "join": True}, headers=auth(b))
        assert r.status_code == 403 and _code(r) == "play_banned"
        assert c.post(f"/api/tournaments/{casual_id}/join", headers=auth(b)).status_code == 200
        assert c.post(f"/api/tournaments/{rated_id}/join", headers=auth(a)).status_code == 200


def test_refused_actions_change_nothing_and_write_no_entry() -> None:
    with client() as c:
        operator = _operator(c)
        other, _ = _account(c, "Bert")
        bert = _player(c, other)
        bad = [
            ({"action": "nuke", "target": bert, "reason": "r"}, "bad_action"),
            ({"action": "ban", "target": bert, "reason": "r"}, "bad_duration"),
            ({"action": "ban", "target": bert, "reason": "r", "minutes": 0}, "bad_duration"),
            ({"action": "warn", "target": bert, "reason": " "}, "bad_request"),
            ({"action": "warn", "target": "p_nobody0000", "reason": "r"}, "unknown_player"),
            ({"action": "rename", "target": bert, "reason": "r", "name": "0pal"}, "name_taken"),
            ({"action": "dismiss", "target": "r_nothing", "reason": "r"}, "not_found"),
        ]
        for body, code in bad:
            r = c.post("/api/admin/actions", json=body, headers=auth(operator))
            assert _code(r) == code, (body, r.text)
        assert c.get("/api/admin/audit", headers=auth(operator)).json()["entries"] == []
        rename = {"action": "rename", "target": bert, "reason": "offensive", "name": "Player 7"}
        assert c.post("/api/admin/actions", json=rename, headers=auth(operator)).status_code == 200
        assert c.get("/api/me", headers=auth(other)).json()["player"]["name"] == "Player 7"
        close = {"action": "close", "target": bert, "reason": "spam"}
        assert (
            c.post("/api/admin/actions", json=close, headers=auth(operator)).json()["signed_out"]
            == 1
        )
        assert c.get("/api/me", headers=auth(other)).status_code == 401
        history = c.get(f"/api/admin/players/{bert}", headers=auth(operator)).json()
        assert [e["action"] for e in history["audit"]] == ["close", "rename"]


def _lost_by_forfeit(c: TestClient, loser: str, winner: str, forfeit: str, n: int) -> None:
    """A finished rated match (room ``r_ladder<n>``) that ``loser`` lost to ``winner`` by
    ``forfeit``, written through the store as a match's end writes it, at the clock's now."""
    rooms = c.app.state.rooms  # type: ignore[attr-defined]
    store, now = rooms.store, rooms.clock.now()
    room = f"r_ladder{n}"
    row = ResultRow(
        room=room, match_seq=1, player=loser, seat="one", opponent=winner, bot=None,
        rated=True, won=False, rounds=1, gins=0, undercuts_scored=0, undercuts_suffered=0,
        points=0, margin=-100, forfeit=forfeit, rating=None, rd=None, t=now,
    )  # fmt: skip
    other = replace(row, player=winner, seat="two", opponent=loser, won=True, margin=100)
    abandons = (loser,) if forfeit == "abandoned" else ()
    outcome = Outcome((row, other), RatedMatch(loser, winner, 0.0), abandons)

    async def write() -> None:
        await store.create_room(RoomRow(room, "room", {}, now), [], [Event(1, "match", {})])
        await store.append_events(room, [Event(2, "forfeit", {})], outcome)

    c.portal.call(write)  # type: ignore[union-attr]


def test_the_ladder_warns_then_locks_the_quick_match_until_its_time_is_served() -> None:
    with client(test_clock=True) as c:
        b = account(c)
        pid, winner = _player(c, b), _player(c, account(c))
        # the first two offences warn: the quick match still takes them
        for n, forfeit in enumerate(("abandoned", "timeout")):
            _lost_by_forfeit(c, pid, winner, forfeit, n)
            conduct = c.get("/api/me/conduct", headers=auth(b)).json()
            assert (conduct["offences"], conduct["warned"], conduct["play"]) == (n + 1, True, None)
            r = c.post("/api/quick", json={}, headers=auth(b))
            assert r.status_code == 200 and r.json()["status"] == "waiting", r.text
            assert c.delete("/api/quick", headers=auth(b)).status_code == 200
        # the third locks for 10 minutes, with its reason and the time left
        _lost_by_forfeit(c, pid, winner, "abandoned", 2)
        r = c.post("/api/quick", json={}, headers=auth(b))
        assert r.status_code == 403 and _code(r) == "play_banned", r.text
        assert c.get("/api/quick", headers=auth(b)).json() == {"status": "idle"}
        conduct = c.get("/api/me/conduct", headers=auth(b)).json()
        assert conduct["offences"] == 3 and not conduct["warned"]
        play = conduct["play"]
        assert (play["code"], play["reason"], play["seconds_left"]) == (
            "play_banned",
            "abandoning",
            600,
        )
        assert c.post("/api/test/clock", json={"advance": 599}).status_code == 200
        r = c.post("/api/quick", json={}, headers=auth(b))
        assert _code(r) == "play_banned"
        assert c.get("/api/me/conduct", headers=auth(b)).json()["play"]["seconds_left"] == 1
        # served: the lock ends, the offences stand
        assert c.post("/api/test/clock", json={"advance": 1}).status_code == 200
        conduct = c.get("/api/me/conduct", headers=auth(b)).json()
        assert conduct["play"] is None and conduct["offences"] == 3
        r = c.post("/api/quick", json={}, headers=auth(b))
        assert r.status_code == 200 and r.json()["status"] == "waiting", r.text


def test_a_chat_timeout_refuses_chat_with_the_time_left_until_its_minutes_pass() -> None:
    with client(test_clock=True) as c:
        room, a, b = _room_of_two(c)
        operator = _operator(c)
        act = {"action": "chat_timeout", "target": _player(c, b), "reason": "spam", "minutes": 5}
        r = c.post("/api/admin/actions", json=act, headers=auth(operator))
        assert r.status_code == 200, r.text
        chat = c.get("/api/me/conduct", headers=auth(b)).json()["chat"]
        assert (chat["code"], chat["reason"], chat["seconds_left"]) == ("chat_timeout", "spam", 300)
        with c.websocket_connect("/ws") as ws:
            hello(ws, room, b)
            ws.send_json({"type": "chat", "text": "buy gold"})
            error = receive(ws)
            assert error["type"] == "error" and error["code"] == "chat_timeout"
            assert "300 more seconds" in error["message"] and "spam" in error["message"]
        assert c.post("/api/test/clock", json={"advance": 300}).status_code == 200
        assert c.get("/api/me/conduct", headers=auth(b)).json()["chat"] is None
        with c.websocket_connect("/ws") as wa, c.websocket_connect("/ws") as wb:
            hello(wa, room, a)
            hello(wb, room, b)
            wb.send_json({"type": "chat", "text": "sorry"})
            said = receive_until(wa, lambda m: m["type"] == "chat")
            assert said["message"]["text"] == "sorry"
