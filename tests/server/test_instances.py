"""Several server instances, one store and one bus: any instance serves any room.

Two app instances (each with its own event loop, as two processes would have) share
a SQLite file in WAL mode and the machine's Redis. Seat one plays through instance A,
seat two through instance B. With ``CI=true`` a missing Redis fails the run.
"""

from __future__ import annotations

import os
import socket
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient, WebSocketTestSession

from ginrummy.server.app import create_app

from .helpers import Message, auth, hello, identity, my_turn, receive, settings, simple_choice

# A server, a service or a bench: the system layer (tests/conftest.py).
pytestmark = pytest.mark.system

REDIS_URL = os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0")


def _need_redis() -> None:
    host_port = REDIS_URL.split("//", 1)[1].split("/", 1)[0]
    host, _, port = host_port.partition(":")
    try:
        with socket.create_connection((host, int(port or 6379)), timeout=0.5):
            return
    except OSError:
        if os.environ.get("CI") == "true":
            pytest.fail(f"Redis is required in CI and not reachable at {REDIS_URL}")
        pytest.skip(f"no Redis at {REDIS_URL}")


def _instance(db: Path) -> TestClient:
    return TestClient(create_app(settings(f"sqlite:///{db}", bus_url=REDIS_URL)))


def _latest_view(ws: WebSocketTestSession, at_least: int) -> Message:
    """Read until a view of version ``at_least`` or later arrives; return it."""
    while True:
        msg = receive(ws)
        if msg["type"] == "view" and msg["version"] >= at_least:
            return msg


def _open_room(a: TestClient, b: TestClient) -> tuple[str, str, str]:
    one, two = identity(a), identity(b)
    r = a.post("/api/rooms", json={"kind": "room", "opponent": "friend"}, headers=auth(one))
    assert r.status_code == 201, r.text
    room: str = r.json()["room"]
    # The invite is opened on the other instance.
    r = b.post(f"/api/rooms/{room}/join", json={"name": "Bea"}, headers=auth(two))
    assert r.status_code == 200, r.text
    return room, one, two


def test_two_instances_play_a_whole_match(tmp_path: Path) -> None:
    _need_redis()
    db = tmp_path / "shared.sqlite3"
    with _instance(db) as a, _instance(db) as b:
        room, one, two = _open_room(a, b)
        with a.websocket_connect("/ws") as ws1, b.websocket_connect("/ws") as ws2:
            _, v1 = hello(ws1, room, one)
            _, v2 = hello(ws2, room, two)
            sockets = {"one": ws1, "two": ws2}
            views: dict[str, Message] = {"one": v1, "two": v2}
            moves = 0
            while views["one"]["view"]["table"]["match_phase"] != "over":
                # Both seats at the newest version: a view "at least" that new may be newer
                # still (the second ready and the deal reach the instances one by one).
                while views["one"]["version"] != views["two"]["version"]:
                    version = max(v["version"] for v in views.values())
                    for seat in ("one", "two"):
                        if views[seat]["version"] < version:
                            views[seat] = _latest_view(sockets[seat], version)
                version = views["one"]["version"]
                if views["one"]["view"]["table"]["match_phase"] == "over":
                    break
                acting = [s for s in ("one", "two") if views[s]["view"]["legal_actions"]]
                if not acting:  # between rounds: both ask for the next one
                    table = views["one"]["view"]["table"]
                    assert table["match_phase"] == "deal", table["match_phase"]
                    for seat in ("one", "two"):
                        if not views[seat]["players"][seat]["ready"]:
                            sockets[seat].send_json({"type": "next_round", "version": version})
                    # The deal comes once both are ready (a stale answer may come first).
                    views["one"] = _latest_view(ws1, version + 1)
                    continue
                (seat,) = acting
                action = simple_choice(views[seat]["view"])
                sockets[seat].send_json({"type": "act", "version": version, "action": action})
                views[seat] = _latest_view(sockets[seat], version + 1)
                moves += 1
                assert moves < 2000
            # Both instances agree on the end, and the log replays on either.
            final = max(v["version"] for v in views.values())
            for seat in ("one", "two"):
                if views[seat]["version"] < final:
                    views[seat] = _latest_view(sockets[seat], final)
            assert views["two"]["view"]["table"]["match_result"] is not None
        record_a = a.get(f"/api/rooms/{room}/record").json()
        record_b = b.get(f"/api/rooms/{room}/record").json()
        assert record_a == record_b
        assert moves > 20


def test_a_write_race_between_instances_has_one_winner(tmp_path: Path) -> None:
    _need_redis()
    db = tmp_path / "shared.sqlite3"
    with _instance(db) as a, _instance(db) as b:
        one = identity(a)
        r = a.post("/api/rooms", json={"kind": "solo", "opponent": "bot:random"}, headers=auth(one))
        room = r.json()["room"]
        # The same seat, connected to both instances (two tabs behind a balancer).
        with a.websocket_connect("/ws") as wa, b.websocket_connect("/ws") as wb:
            _, va = hello(wa, room, one)
            _, vb = hello(wb, room, one)
            va = my_turn(wa, va)
            version = va["version"]
            vb = _latest_view(wb, version) if vb["version"] < version else vb
            action = simple_choice(va["view"])
            # Both instances are told the same move on the same version.
            wa.send_json({"type": "act", "version": version, "action": action})
            wb.send_json({"type": "act", "version": version, "action": action})
            answers: list[dict[str, Any]] = []
            for ws in (wa, wb):
                while True:
                    msg = receive(ws)
                    if msg["type"] == "error" or (
                        msg["type"] == "view" and msg["version"] > version
                    ):
                        answers.append(msg)
                        break
            errors = [m for m in answers if m["type"] == "error"]
            # Exactly one of them was applied; the other is told it is stale.
            assert len(errors) <= 1
            for err in errors:
                assert err["code"] == "stale_version", err
        record = a.get(f"/api/rooms/{room}")
        assert record.status_code == 200
    # The log holds the move once: replay on a fresh instance.
    with _instance(db) as c:
        me = c.get(f"/api/rooms/{room}", headers=auth(one)).json()
        assert me["room"] == room
