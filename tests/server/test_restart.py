"""Write before tell: a server on a SQLite file comes back with every room by replay."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from ginrummy.server.tokens import hash_token

from .helpers import Message, auth, client, create, hello, identity, receive, simple_choice


def _play_until_my_turn(ws, latest: Message, moves: int) -> Message:  # type: ignore[no-untyped-def]
    """Make ``moves`` moves, then wait until it is this seat's turn again (or the round
    is over)."""
    made = 0
    while True:
        if latest["view"]["table"]["match_phase"] != "round":
            return latest  # the round ended early: nothing moves until this seat is ready
        if latest["view"]["legal_actions"]:
            if made == moves:
                return latest
            action = simple_choice(latest["view"])
            ws.send_json({"type": "act", "version": latest["version"], "action": action})
            made += 1
        msg = receive(ws)
        while msg["type"] != "view":
            msg = receive(ws)
        latest = msg


def test_restart_gives_back_the_same_view(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'game.sqlite3'}"
    with client(db) as c:
        token = identity(c)
        room = create(c, token, kind="solo")
        with c.websocket_connect("/ws") as ws:
            _, view = hello(ws, room, token)
            before = _play_until_my_turn(ws, view, moves=6)
    with client(db) as c:
        info = c.get(f"/api/rooms/{room}", headers=auth(token)).json()
        assert info["your_seat"] == "one"
        assert info["version"] == before["version"]
        with c.websocket_connect("/ws") as ws:
            _, after = hello(ws, room, token)
            assert after["version"] == before["version"]
            assert after["view"] == before["view"]
            # And the game goes on.
            if after["view"]["legal_actions"]:
                action = simple_choice(after["view"])
                ws.send_json({"type": "act", "version": after["version"], "action": action})
            else:
                ws.send_json({"type": "next_round"})
            msg = receive(ws)
            assert msg["type"] == "event"
            assert msg["version"] == after["version"] + 1


def test_the_computer_moves_after_a_restart(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'game.sqlite3'}"
    with client(db, bot_delay=60.0) as c:  # the computer never gets to move here
        token = identity(c)
        room = create(c, token, kind="solo")
        with c.websocket_connect("/ws") as ws:
            _, view = hello(ws, room, token)
            while view["view"]["legal_actions"]:
                action = simple_choice(view["view"])
                ws.send_json({"type": "act", "version": view["version"], "action": action})
                view = receive(ws)
                while view["type"] != "view":
                    view = receive(ws)
            waiting = view
    assert waiting["view"]["table"]["turn"] == "two"
    with client(db) as c, c.websocket_connect("/ws") as ws:
        _, view = hello(ws, room, token)
        assert view["version"] >= waiting["version"]
        while view["version"] == waiting["version"]:
            view = receive(ws)
        assert view["version"] > waiting["version"]


def test_a_waiting_room_survives_a_restart(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'game.sqlite3'}"
    with client(db) as c:
        ann = identity(c)
        room = create(c, ann, kind="room", name="Ann")
    with client(db) as c:
        bob = identity(c)
        r = c.post(f"/api/rooms/{room}/join", json={"name": "Bob"}, headers=auth(bob))
        assert r.json()["seat"] == "two"
        info = c.get(f"/api/rooms/{room}").json()
        assert info["status"] == "playing"
        assert info["seats"]["one"]["name"] == "Ann"


def test_tokens_are_stored_only_hashed(tmp_path: Path) -> None:
    path = tmp_path / "game.sqlite3"
    with client(f"sqlite:///{path}") as c:
        token = identity(c)
        create(c, token, kind="solo")
    db = sqlite3.connect(path)
    try:
        hashes = [row[0] for row in db.execute("SELECT token_hash FROM identities")]
        seats = [row[0] for row in db.execute("SELECT identity_hash FROM seats")]
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    finally:
        db.close()
    assert hashes == [hash_token(token)]
    assert hash_token(token) in seats
    for file in tmp_path.iterdir():
        assert token.encode() not in file.read_bytes(), file.name
