"""A seat whose turn it is sends each kind of bad frame: each gets its exact error code
and changes nothing (the room's version and the seat's view stay), and the move sent
right after goes through (docs/protocol.md, "Error codes")."""

from __future__ import annotations

import json
from typing import Any

from .helpers import Message, client, create, hello, identity, my_turn, receive, receive_until

ACT = {"type": "act", "action": "draw stock"}


def _view_now(ws: Any) -> Message:
    ws.send_json({"type": "resync"})
    return receive_until(ws, lambda m: m["type"] == "view")


def test_bad_frames_on_the_seats_turn_get_their_code_and_change_nothing() -> None:
    with client() as c:
        token = identity(c)
        room = create(c, token, kind="solo", opponent="bot:random")
        with c.websocket_connect("/ws") as ws:
            _, view = hello(ws, room, token)
            view = my_turn(ws, view)  # the computer's upcard decision may come first
            version = view["version"]
            move = next(a for a in ("pass", "draw stock") if a in view["view"]["legal_actions"])
            good = {"type": "act", "version": version, "action": move}
            refused = [
                ({**good, "version": True}, "bad_message"),
                ({**good, "version": str(version)}, "bad_message"),
                ({**good, "version": float(version) + 0.5}, "bad_message"),
                ({**good, "action": [move]}, "bad_message"),
                ({**good, "seat": "two"}, "bad_message"),
                ({"type": "act", "action": move}, "bad_message"),
                ({**good, "type": "act!"}, "unknown_type"),
                (json.dumps(good)[:-1], "bad_json"),
                (json.dumps(good).replace(str(version), "NaN", 1), "bad_number"),
                (json.dumps({**good, "version": 2**53}), "bad_number"),
                (json.dumps({**good, "action": move + "\ud800"}), "bad_text"),
                (json.dumps(good) + " " * 4096, "frame_too_large"),
                ({**good, "version": version - 1}, "stale_version"),
                ({**good, "action": "discard Zz"}, "bad_action"),
            ]
            for frame, code in refused:
                if isinstance(frame, str):
                    ws.send_text(frame)
                else:
                    ws.send_json(frame)
                error = receive_until(ws, lambda m: m["type"] == "error")
                assert error["code"] == code, (frame, error)
                now = _view_now(ws)
                assert now["version"] == version, frame
                assert now["view"] == view["view"], frame
            ws.send_json(good)
            moved = receive_until(ws, lambda m: m["type"] == "event")
            assert moved["version"] == version + 1
            assert receive(ws)["type"] == "view"
