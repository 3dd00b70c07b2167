"""The WebSocket: hello/welcome/view, acting, every refusal as an error, origins."""

from __future__ import annotations

import pytest
from starlette.websockets import WebSocketDisconnect

from .helpers import client, create, hello, identity, my_turn, receive, receive_until


def test_hello_welcome_and_view() -> None:
    with client() as c:
        token = identity(c)
        room = create(c, token, kind="solo", name="Ann")
        with c.websocket_connect("/ws") as ws:
            welcome, view = hello(ws, room, token)
            assert welcome["seat"] == "one"
            assert welcome["room"]["room"] == room
            assert welcome["room"]["your_seat"] == "one"
            assert view["version"] >= 2  # the match and the deal
            assert view["view"]["seat"] == "one"
            assert len(view["view"]["hand"]) in (10, 11)
            one = dict(view["players"]["one"])
            assert one.pop("player")["id"].startswith("p_")
            assert one.pop("grace_remaining_ms") is None  # against the computer: none
            assert one == {
                "name": "Ann",
                "bot": None,
                "connected": True,
                "ready": False,
                "rematch": False,
            }
            assert view["players"]["two"]["bot"] == "casual"


def test_stale_version_changes_nothing() -> None:
    with client() as c:
        token = identity(c)
        room = create(c, token)
        with c.websocket_connect("/ws") as ws:
            _, view = hello(ws, room, token)
            view = my_turn(ws, view)
            version = view["version"]
            action = view["view"]["legal_actions"][0]
            ws.send_json({"type": "act", "version": version - 1, "action": action})
            error = receive(ws)
            assert error["type"] == "error"
            assert error["code"] == "stale_version"
            assert error["version"] == version
            resync = receive(ws)
            assert resync["type"] == "view"
            assert resync["version"] == version
            assert resync["view"] == view["view"]


def test_illegal_and_malformed_actions() -> None:
    with client() as c:
        token = identity(c)
        room = create(c, token)
        with c.websocket_connect("/ws") as ws:
            _, view = hello(ws, room, token)
            view = my_turn(ws, view)
            version = view["version"]
            hand = view["view"]["hand"]
            not_mine = next(
                f"{r}{s}" for r in "A23456789TJQK" for s in "cdhs" if f"{r}{s}" not in hand
            )
            ws.send_json({"type": "act", "version": version, "action": f"discard {not_mine}"})
            error = receive(ws)
            assert (error["type"], error["code"]) == ("error", "illegal_action")
            ws.send_json({"type": "act", "version": version, "action": "fold"})
            assert receive(ws)["code"] == "bad_action"
            # Still usable: the legal move goes through.
            action = view["view"]["legal_actions"][0]
            ws.send_json({"type": "act", "version": version, "action": action})
            event = receive(ws)
            assert event["type"] == "event"
            assert event["version"] == version + 1
            assert event["seat"] == "one"
            assert event["kind"] == "action"
            after = receive(ws)
            assert after["type"] == "view"
            assert after["version"] == version + 1


def test_garbage_and_oversized_frames_keep_the_socket() -> None:
    with client() as c:
        token = identity(c)
        room = create(c, token)
        with c.websocket_connect("/ws") as ws:
            ws.send_text("{not json")
            assert receive(ws)["code"] == "bad_json"
            ws.send_json({"type": "act", "version": 1, "action": "pass"})
            assert receive(ws)["code"] == "hello_first"
            ws.send_json({"type": "dance"})
            assert receive(ws)["code"] == "unknown_type"
            ws.send_text("x" * 5000)
            assert receive(ws)["code"] == "frame_too_large"
            ws.send_json({"type": "hello", "room": "nope"})
            assert receive(ws)["code"] == "unknown_room"
            ws.send_json({"type": "ping", "t": 7})
            assert receive(ws) == {"type": "pong", "t": 7}
            _, view = hello(ws, room, token)
            assert view["view"]["seat"] == "one"
            ws.send_text("[]")
            assert receive(ws)["code"] == "bad_message"
            ws.send_json({"type": "resync"})
            assert receive(ws)["type"] == "view"


def test_spectators_watch_and_cannot_act() -> None:
    with client() as c:
        ann = identity(c)
        room = create(c, ann, kind="room", opponent="bot:casual")
        with c.websocket_connect("/ws") as ws:
            welcome, view = hello(ws, room, None)
            assert welcome["seat"] is None
            assert view["view"]["seat"] is None
            assert view["view"]["hand"] == []
            ws.send_json({"type": "act", "version": view["version"], "action": "pass"})
            assert receive(ws)["code"] == "not_a_player"


def test_rooms_without_spectators_say_so() -> None:
    with client() as c:
        ann = identity(c)
        room = create(c, ann, kind="room", spectators=False)
        with c.websocket_connect("/ws") as ws:
            ws.send_json({"type": "hello", "room": room})
            error = receive(ws)
            assert error["code"] == "no_spectators"


def test_wrong_origin_is_refused() -> None:
    with client() as c:
        with (
            pytest.raises(WebSocketDisconnect) as exc,
            c.websocket_connect("/ws", headers={"origin": "http://evil.example"}),
        ):
            pass
        assert exc.value.code == 4403
        with c.websocket_connect("/ws", headers={"origin": "http://testserver"}) as ws:
            ws.send_json({"type": "ping"})
            assert receive(ws)["type"] == "pong"


def test_allowed_origins_are_configurable() -> None:
    with (
        client(allowed_origins=("https://games.example",)) as c,
        c.websocket_connect("/ws", headers={"origin": "https://games.example"}) as ws,
    ):
        ws.send_json({"type": "ping"})
        assert receive(ws)["type"] == "pong"


def test_presence_when_the_opponent_leaves_and_comes_back() -> None:
    with client() as c:
        ann, bob = identity(c), identity(c)
        room = create(c, ann, kind="room", name="Ann")
        c.post(
            f"/api/rooms/{room}/join",
            json={"name": "Bob"},
            headers={"Authorization": f"Bearer {bob}"},
        )
        with c.websocket_connect("/ws") as ws_ann:
            hello(ws_ann, room, ann)
            with c.websocket_connect("/ws") as ws_bob:
                hello(ws_bob, room, bob)
                msg = receive_until(ws_ann, lambda m: m["type"] == "presence")
                assert msg["players"]["two"]["connected"] is True
            msg = receive_until(ws_ann, lambda m: m["type"] == "presence")
            assert msg["players"]["two"]["connected"] is False
            with c.websocket_connect("/ws") as ws_bob:
                _, view = hello(ws_bob, room, bob)
                assert view["view"]["seat"] == "two"
                msg = receive_until(ws_ann, lambda m: m["type"] == "presence")
                assert msg["players"]["two"]["connected"] is True


def test_tip_for_the_current_decision() -> None:
    with client() as c:
        token = identity(c)
        room = create(c, token)
        with c.websocket_connect("/ws") as ws:
            _, view = hello(ws, room, token)
            view = my_turn(ws, view)
            ws.send_json({"type": "tips", "on": True})
            assert receive(ws) == {"type": "tips", "allowed": True, "on": True, "left": 3}
            ws.send_json({"type": "tip"})
            tip = receive_until(ws, lambda m: m["type"] in ("tip", "error"))
            assert tip["type"] == "tip", tip
            assert tip["action"] in view["view"]["legal_actions"]
            assert tip["key"]
            assert set(tip["text"]) == {"de", "en"}


def test_floods_are_rate_limited() -> None:
    with client(ws_rate=1.0) as c, c.websocket_connect("/ws") as ws:
        codes = []
        for _ in range(6):
            ws.send_json({"type": "ping"})
            msg = receive(ws)
            codes.append(msg.get("code", msg["type"]))
        assert codes[:3] == ["pong"] * 3
        assert "rate_limited" in codes


def test_a_store_outage_during_hello_answers_unavailable_and_keeps_the_socket(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from ginrummy.server.store import StoreError

    """A seat's hello reads the room's log; a spectator's looks its token up too."""
    with client() as c:
        token, other = identity(c), identity(c)
        room = create(c, token, kind="room")
        store = c.app.state.rooms.store  # type: ignore[attr-defined]

        async def away(*args: object, **kwargs: object) -> None:
            raise StoreError("database is away")

        for call, who, seat in (("load_room", token, "one"), ("known_player", other, None)):
            real = getattr(store, call)
            monkeypatch.setattr(store, call, away)
            with c.websocket_connect("/ws") as ws:
                ws.send_json({"type": "hello", "room": room, "token": who})
                error = receive(ws)
                assert (error["type"], error["code"]) == ("error", "unavailable")
                monkeypatch.setattr(store, call, real)
                welcome, view = hello(ws, room, who)  # the same socket, once it is back
                assert welcome["seat"] == seat and view["view"]["seat"] == seat


def test_a_hello_that_fails_after_taking_the_seat_leaves_it_free(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Not half bound: a seat counted online without a socket that follows the room
    would hold the opponent's claim back."""
    from ginrummy.engine import Seat
    from ginrummy.server.room.chat import Chat
    from ginrummy.server.store import StoreError

    async def away(self: Chat) -> list[object]:
        raise StoreError("database is away")

    with client() as c:
        token = identity(c)
        room_id = create(c, token)
        real = Chat.history
        monkeypatch.setattr(Chat, "history", away)
        with c.websocket_connect("/ws") as ws:
            ws.send_json({"type": "hello", "room": room_id, "token": token})
            error = receive(ws)
            assert (error["type"], error["code"]) == ("error", "unavailable")
            assert c.portal is not None
            room = c.portal.call(c.app.state.rooms.get, room_id)  # type: ignore[attr-defined]
            assert room.online[Seat.ONE] == 0
            monkeypatch.setattr(Chat, "history", real)
            welcome, _ = hello(ws, room_id, token)
            assert welcome["seat"] == "one" and room.online[Seat.ONE] == 1
