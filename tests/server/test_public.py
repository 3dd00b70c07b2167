"""Public play: nicknames, room options, watchers, chat, lobby, quick match."""

from __future__ import annotations

from typing import Any

from starlette.testclient import TestClient

from .helpers import (
    Message,
    account,
    auth,
    client,
    create,
    hello,
    identity,
    receive,
    receive_until,
)


def _join(c: TestClient, room: str, token: str) -> None:
    r = c.post(f"/api/rooms/{room}/join", json={}, headers=auth(token))
    assert r.status_code == 200, r.text


def test_identity_has_a_player_with_a_tag_and_a_changeable_name() -> None:
    with client() as c:
        r = c.post("/api/identity", json={})
        token, player = r.json()["token"], r.json()["player"]
        assert player["id"].startswith("p_") and len(player["id"]) == 12
        assert token not in player["id"]
        assert player["tag"] == f"{player['name']}#{player['id'][2:6]}"
        assert (player["rating"], player["rd"], player["leaver"]) == (1500, 350, False)
        r = c.put("/api/me", json={"name": "  Ann  Lee "}, headers=auth(token))
        assert r.json()["player"]["name"] == "Ann Lee"
        me = c.get("/api/me", headers=auth(token)).json()
        assert me["player"]["tag"] == f"Ann Lee#{player['id'][2:6]}"
        for bad in ["A", "x" * 21, "<script>", 7, "Ann\u202e"]:
            r = c.put("/api/me", json={"name": bad}, headers=auth(token))
            assert r.status_code == 400 and r.json()["error"]["code"] == "bad_name", bad
        assert c.put("/api/me", json={"name": "Ann"}).status_code == 401


def test_room_options_and_watchers() -> None:
    with client() as c:
        ann, bob = account(c), account(c)  # a public table is rated for accounts
        r = c.post(
            "/api/rooms",
            json={"kind": "room", "visibility": "public", "spectator_chat": True},
            headers=auth(ann),
        )
        room = r.json()["room"]
        info = c.get(f"/api/rooms/{room}").json()
        assert (info["visibility"], info["rated"], info["timer"]) == ("public", True, 30)
        assert (info["chat"], info["spectator_chat"], info["watchers"]) == (True, True, 0)
        assert info["seats"]["one"]["player"]["rating"] == 1500
        assert info["seats"]["one"]["name"] == info["seats"]["one"]["player"]["name"]
        _join(c, room, bob)
        with c.websocket_connect("/ws") as ws1:
            _, view = hello(ws1, room, ann)
            assert view["watchers"] == 0
            assert view["timer"]["seat"] in ("one", "two")
            assert view["timer"]["total_ms"] == 30_000
            with c.websocket_connect("/ws") as wss:
                welcome, _ = hello(wss, room, None)
                assert welcome["room"]["watchers"] == 1
                msg = receive_until(ws1, lambda m: m["type"] == "presence")
                assert msg["watchers"] == 1
            msg = receive_until(ws1, lambda m: m["type"] == "presence")
            assert msg["watchers"] == 0
        private = create(c, ann, kind="room")
        info = c.get(f"/api/rooms/{private}").json()
        assert (info["visibility"], info["rated"], info["timer"]) == ("private", False, None)
        for body in (
            {"kind": "room", "rated": True},
            {"kind": "solo", "visibility": "public", "rated": True},
            {"kind": "room", "spectator_chat": "yes"},
        ):
            r = c.post("/api/rooms", json=body, headers=auth(ann))
            assert r.json()["error"]["code"] == "bad_request", body
        r = c.post("/api/rooms", json={"kind": "room", "timer": 2}, headers=auth(ann))
        assert r.json()["error"]["code"] == "bad_rules"


def test_chat_is_data_rate_limited_and_kept() -> None:
    with client() as c:
        ann, bob, eve = identity(c), identity(c), identity(c)
        room = create(c, ann, kind="room")
        _join(c, room, bob)
        with c.websocket_connect("/ws") as ws1, c.websocket_connect("/ws") as ws2:
            hello(ws1, room, ann)
            hello(ws2, room, bob)
            attack = "<script>alert(1)</script><img src=x onerror=alert(2)>"
            ws1.send_json({"type": "chat", "text": "  " + attack + "\n "})
            for ws in (ws1, ws2):
                msg = receive_until(ws, lambda m: m["type"] == "chat")["message"]
                assert msg["text"] == attack  # stored and sent as data, unchanged
                assert msg["phrase"] is None
                assert msg["from"]["seat"] == "one"
                assert msg["from"]["tag"].endswith("#" + msg["from"]["player"][2:6])
            ws2.send_json({"type": "chat", "phrase": "gg"})
            msg = receive_until(ws1, lambda m: m["type"] == "chat")["message"]
            assert (msg["phrase"], msg["text"], msg["from"]["seat"]) == ("gg", None, "two")
            for bad in (
                {"type": "chat", "text": "   "},
                {"type": "chat", "text": "x" * 201},
                {"type": "chat", "phrase": "lol"},
                {"type": "chat", "text": "a", "phrase": "gg"},
                {"type": "chat", "text": "bell\x07"},
            ):
                ws2.send_json(bad)
                err = receive_until(ws2, lambda m: m["type"] == "error")
                assert err["code"] in ("bad_chat", "rate_limited"), bad
            # Bursts of 5, then one per second: the sixth quick message is refused.
            codes = []
            for i in range(8):
                ws1.send_json({"type": "chat", "text": f"hi {i}"})
            for _ in range(8):
                m = receive_until(ws1, lambda m: m["type"] in ("chat", "error"))
                codes.append(m["type"] if m["type"] == "chat" else m["code"])
            assert "rate_limited" in codes
            with c.websocket_connect("/ws") as wss:
                ws = wss
                ws.send_json({"type": "hello", "room": room, "token": eve})
                assert receive(ws)["type"] == "welcome"
                assert receive(ws)["type"] == "view"
                history = receive(ws)
                assert history["type"] == "chat_history"
                texts = [m["text"] for m in history["messages"]]
                assert texts[0] == attack and len(texts) <= 50
                ws.send_json({"type": "chat", "text": "hello from the stands"})
                assert receive(ws)["code"] == "chat_closed"


def test_spectators_may_chat_when_allowed_and_rooms_may_forbid_watching() -> None:
    with client() as c:
        ann, eve = identity(c), identity(c)
        room = create(c, ann, kind="room", spectator_chat=True)
        with c.websocket_connect("/ws") as ws:
            hello(ws, room, eve)
            ws.send_json({"type": "chat", "phrase": "gl"})
            msg = receive_until(ws, lambda m: m["type"] == "chat")["message"]
            assert msg["from"]["seat"] is None
        with c.websocket_connect("/ws") as ws:
            hello(ws, room, None)
            ws.send_json({"type": "chat", "phrase": "gl"})
            assert receive(ws)["code"] == "chat_closed"  # no identity
        closed = create(c, ann, kind="room", spectators=False)
        with c.websocket_connect("/ws") as ws:
            ws.send_json({"type": "hello", "room": closed, "token": eve})
            assert receive(ws)["code"] == "no_spectators"


def test_the_lobby_offers_a_table_only_while_its_host_is_there() -> None:
    """A host who closed the page is gone: the lobby stops offering the table (whoever
    took the seat would play someone absent) and offers it again once they are back. A
    new table is offered at once, before its host's socket could be heard of."""
    with client(test_clock=True, presence_interval=0.05, lobby_interval=0.01) as c:
        ann = identity(c)

        def tables(m: Message) -> list[str] | None:
            return [t["room"] for t in m["lobby"]["tables"]] if m["type"] == "lobby" else None

        with c.websocket_connect("/ws") as lobby:
            lobby.send_json({"type": "hello_lobby", "token": None})
            assert tables(receive(lobby)) == []
            room = create(c, ann, kind="room", visibility="public")
            receive_until(lobby, lambda m: tables(m) == [room])  # new: offered at once
            # No host came in the time the other instances need to hear of one: hidden.
            assert c.post("/api/test/clock", json={"advance": 60}).status_code == 200
            receive_until(lobby, lambda m: tables(m) == [])
            assert c.get("/api/lobby").json()["tables"] == []
            with c.websocket_connect("/ws") as host:
                hello(host, room, ann)
                receive_until(lobby, lambda m: tables(m) == [room])
                assert [t["room"] for t in c.get("/api/lobby").json()["tables"]] == [room]
            receive_until(lobby, lambda m: tables(m) == [])  # the host left
            assert c.get(f"/api/rooms/{room}").json()["status"] == "waiting"  # not closed


def test_lobby_lists_tables_and_matches_live() -> None:
    with client() as c:
        ann, bob = account(c), account(c)  # a public table is rated for accounts
        with c.websocket_connect("/ws") as lobby:
            lobby.send_json({"type": "hello_lobby", "token": None})
            first = receive(lobby)
            assert first == {
                "type": "lobby",
                "lobby": {"tables": [], "matches": [], "queue": 0, "tournaments": []},
            }
            create(c, ann, kind="room")  # private: not listed
            room = create(c, ann, kind="room", visibility="public", target_score=50)
            msg = receive_until(lobby, lambda m: m["type"] == "lobby" and m["lobby"]["tables"])
            table = msg["lobby"]["tables"][0]
            assert table["room"] == room and table["timer"] == 30 and table["rated"]
            assert table["rules"]["target_score"] == 50
            assert table["host"]["id"].startswith("p_")
            _join(c, room, bob)
            msg = receive_until(lobby, lambda m: m["type"] == "lobby" and m["lobby"]["matches"])
            match = msg["lobby"]["matches"][0]
            assert match["room"] == room and msg["lobby"]["tables"] == []
            assert match["scores"] == {"one": 0, "two": 0} and match["round"] == 1
            assert set(match["players"]) == {"one", "two"}
        assert c.get("/api/lobby").json()["matches"][0]["room"] == room


def test_quick_match_pairs_compatible_players() -> None:
    with client() as c:
        ann, bob, cid = account(c), account(c), account(c)  # the quick match is rated
        assert c.post("/api/quick", json={}).status_code == 401
        with c.websocket_connect("/ws") as lobby:
            lobby.send_json({"type": "hello_lobby", "token": ann})
            receive(lobby)
            r = c.post("/api/quick", json={"preset": "standard"}, headers=auth(ann))
            assert r.json()["status"] == "waiting"
            assert c.get("/api/quick", headers=auth(ann)).json()["status"] == "waiting"
            assert c.get("/api/lobby").json()["queue"] == 1
            # Different settings do not pair.
            r = c.post("/api/quick", json={"target_score": 50}, headers=auth(cid))
            assert r.json()["status"] == "waiting"
            r = c.post("/api/quick", json={}, headers=auth(bob))
            body = r.json()
            assert body["status"] == "matched" and body["seat"] == "two"
            msg = receive_until(lobby, lambda m: m["type"] == "matched")
            assert msg == {"type": "matched", "room": body["room"], "seat": "one"}
            status = c.get("/api/quick", headers=auth(ann)).json()
            assert status == {"status": "matched", "room": body["room"], "seat": "one"}
            info = c.get(f"/api/rooms/{body['room']}").json()
            assert (info["visibility"], info["rated"], info["status"]) == (
                "public",
                True,
                "playing",
            )
            assert info["timer"] == 30
            assert c.delete("/api/quick", headers=auth(cid)).json() == {"status": "idle"}
            assert c.get("/api/lobby").json()["queue"] == 0
        # Closing the lobby socket leaves the queue.
        with c.websocket_connect("/ws") as lobby:
            lobby.send_json({"type": "hello_lobby", "token": cid})
            receive(lobby)
            c.post("/api/quick", json={}, headers=auth(cid))
            assert c.get("/api/lobby").json()["queue"] == 1
        assert c.get("/api/quick", headers=auth(cid)).json() == {"status": "idle"}


def test_a_lost_matched_notice_is_made_good_by_a_resync() -> None:
    """The bus lost the 'matched' notice (a failed publish): the resync that follows
    makes the lobby socket ask the store, which knows the pairing."""
    with client() as c:
        ann, bob = account(c), account(c)  # the quick match is rated
        bus = c.app.state.rooms.bus  # type: ignore[attr-defined]
        real = bus.publish

        async def lossy(topic: str, notice: Any) -> None:
            if notice.get("kind") != "matched":
                await real(topic, notice)

        with c.websocket_connect("/ws") as lobby:
            lobby.send_json({"type": "hello_lobby", "token": ann})
            receive(lobby)
            assert c.post("/api/quick", json={}, headers=auth(ann)).json()["status"] == "waiting"
            bus.publish = lossy
            body = c.post("/api/quick", json={}, headers=auth(bob)).json()
            assert body["status"] == "matched"
            bus.publish = real
            ann_id = c.get("/api/me", headers=auth(ann)).json()["player"]["id"]
            assert c.portal is not None
            c.portal.call(real, f"player:{ann_id}", {"kind": "resync"})
            msg = receive_until(lobby, lambda m: m["type"] == "matched")
            assert msg == {"type": "matched", "room": body["room"], "seat": "one"}
