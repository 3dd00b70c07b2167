"""Tips as the server decides them (docs/rules.md §6): off unless switched on, then three own
decisions or the rest of the round; never in rated or public matches or for spectators;
every new socket (a page reload) starts off."""

from __future__ import annotations

from typing import Any

from starlette.testclient import WebSocketTestSession

from .helpers import (
    Message,
    auth,
    client,
    create,
    identity,
    my_turn,
    receive,
    receive_until,
    simple_choice,
)

OFF = {"type": "tips", "allowed": True, "on": False, "left": 0}


def _hello(ws: WebSocketTestSession, room: str, token: str | None) -> tuple[Message, Message]:
    """Hello by hand: the view and the ``tips`` frame that ends a seat's welcome."""
    ws.send_json({"type": "hello", "room": room, "token": token})
    assert receive(ws)["type"] == "welcome"
    view = receive(ws)
    assert receive(ws)["type"] == "chat_history"
    tips = receive(ws)
    assert tips["type"] == "tips", tips
    return view, tips


class Seat:
    """A seat socket that keeps the last view and the last tips frame it was sent."""

    def __init__(self, ws: WebSocketTestSession, view: Message, tips: Message) -> None:
        self.ws, self.view, self.tips = ws, view, tips
        self.tips_frames = 1

    def take(self, message: Message) -> Message:
        if message["type"] == "view":
            self.view = message
        elif message["type"] == "tips":
            self.tips = message
            self.tips_frames += 1
        return message

    def tips_after(self, frames: int) -> Message:
        """The tips as they stand once a frame beyond the first ``frames`` came."""
        while self.tips_frames <= frames:
            self.take(receive(self.ws))
        return self.tips

    def until(self, type_: str) -> Message:
        while True:
            message = self.take(receive(self.ws))
            if message["type"] == type_:
                return message

    def my_turn(self) -> None:
        """Wait for this seat's decision (past a round the computer ends first)."""
        my_turn(self.ws, self.view, lambda: self.until("view"))

    def my_turn_in_round(self) -> bool:
        """Wait for a decision of this round; False once the round is over instead."""
        while not self.view["view"]["legal_actions"] and self.round_running():
            self.until("view")
        return self.round_running()

    def switch(self, on: bool) -> Message:
        """The answer to the switch: a ``tips`` frame sent before it (after the last
        decision) may still be on its way, so the first one that says ``on`` is it."""
        self.ws.send_json({"type": "tips", "on": on})
        while True:
            message = self.until("tips")
            if message.get("on") is on:
                return message

    def act(self) -> str:
        """Play a plain legal choice; returns it once the server accepted it."""
        action = simple_choice(self.view["view"])
        version = self.view["version"]
        self.ws.send_json({"type": "act", "version": version, "action": action})
        while self.view["version"] <= version:
            message = self.take(receive(self.ws))
            assert message["type"] != "error", message
        return action

    def ask(self) -> Message:
        self.ws.send_json({"type": "tip"})
        return receive_until(self.ws, lambda m: m["type"] in ("tip", "error"))

    def round_running(self) -> bool:
        table = self.view["view"]["table"]
        return bool(table["match_phase"] == "round" and table["round_phase"] != "over")


def _solo(c: Any, **body: Any) -> tuple[str, str]:
    token = identity(c)
    return token, create(c, token, **body)


def test_tips_start_off_and_a_tip_needs_them_on() -> None:
    with client() as c:
        token, room = _solo(c)
        with c.websocket_connect("/ws") as ws:
            view, tips = _hello(ws, room, token)
            assert tips == OFF
            seat = Seat(ws, view, tips)
            seat.my_turn()
            assert seat.ask()["code"] == "tips_off"
            assert seat.switch(True) == {**OFF, "on": True, "left": 3}
            tip = seat.ask()
            assert tip["type"] == "tip" and tip["action"] in seat.view["view"]["legal_actions"]
            assert seat.switch(False) == OFF
            assert seat.ask()["code"] == "tips_off"


def test_three_decisions_then_off_and_the_fourth_is_refused() -> None:
    with client() as c:
        token, room = _solo(c)
        with c.websocket_connect("/ws") as ws:
            seat = Seat(ws, *_hello(ws, room, token))
            seat.my_turn()
            seat.switch(True)
            lefts = []
            while len(lefts) < 3 and seat.my_turn_in_round():
                assert seat.ask()["type"] == "tip"
                frames = seat.tips_frames
                seat.act()
                lefts.append(seat.tips_after(frames)["left"])
            if len(lefts) == 3:  # the usual case: the round outlasts three decisions
                assert lefts == [2, 1, 0] and seat.tips == OFF
                if seat.my_turn_in_round():
                    assert seat.ask()["code"] == "tips_off"
            # Switched on again: a fresh three.
            assert seat.switch(True)["left"] == 3


def test_the_end_of_the_round_switches_tips_off() -> None:
    """Switched on afresh before every own decision, the tips never run out: what
    ends them is the end of the round (a knock, gin or a void round)."""
    with client() as c:
        token, room = _solo(c)
        with c.websocket_connect("/ws") as ws:
            seat = Seat(ws, *_hello(ws, room, token))
            while seat.my_turn_in_round():
                seat.switch(False)
                assert seat.switch(True)["left"] == 3
                frames = seat.tips_frames
                seat.act()
                if seat.round_running():
                    assert seat.tips_after(frames)["left"] == 2
            assert seat.view["view"]["table"]["result"] is not None
            while seat.tips["on"]:
                seat.until("tips")
            assert seat.tips == OFF
            assert seat.ask()["code"] == "tips_off"


def test_no_tips_in_rated_or_public_matches() -> None:
    with client() as c:
        ann, bob = identity(c), identity(c)
        rated = create(c, ann, kind="room", visibility="public")
        assert c.post(f"/api/rooms/{rated}/join", json={}, headers=auth(bob)).status_code == 200
        public_solo = create(c, ann, kind="solo", visibility="public")
        for room in (rated, public_solo):
            with c.websocket_connect("/ws") as ws:
                view, tips = _hello(ws, room, ann)
                assert tips == {"type": "tips", "allowed": False, "on": False, "left": 0}
                seat = Seat(ws, view, tips)
                ws.send_json({"type": "tips", "on": True})
                assert seat.until("error")["code"] == "tips_not_allowed"
                assert seat.ask()["code"] == "tips_not_allowed"  # decision or not


def test_spectators_get_no_tips() -> None:
    with client() as c:
        ann, eve = identity(c), identity(c)
        room = create(c, ann, kind="room")
        with c.websocket_connect("/ws") as ws:
            ws.send_json({"type": "hello", "room": room, "token": eve})
            for expected in ("welcome", "view", "chat_history"):
                assert receive(ws)["type"] == expected
            ws.send_json({"type": "ping", "t": 1})
            assert receive(ws) == {"type": "pong", "t": 1}  # no tips frame came first
            ws.send_json({"type": "tips", "on": True})
            assert receive(ws)["code"] == "tips_not_allowed"
            ws.send_json({"type": "tip"})
            assert receive(ws)["code"] == "tips_not_allowed"


def test_a_new_socket_starts_off() -> None:
    with client() as c:
        token, room = _solo(c)
        with c.websocket_connect("/ws") as ws:
            seat = Seat(ws, *_hello(ws, room, token))
            assert seat.switch(True)["on"] is True
        with c.websocket_connect("/ws") as ws:  # the page was reloaded
            _, tips = _hello(ws, room, token)
            assert tips == OFF
