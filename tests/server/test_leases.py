"""Room leases: the computer's moves and the move timer run on one instance at a time.

Store-level promises (one holder, expiry, renewal) are in test_store.py for every
store. Here: a lease held elsewhere holds the computer back; two app instances (own
event loops, one SQLite file, the machine's Redis, as in test_instances.py) make each
computer move and each timeout exactly once, and the survivor takes over when the
holding instance dies. With ``CI=true`` a missing Redis fails the run.
"""

from __future__ import annotations

import contextlib
import sqlite3
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from anyio.from_thread import BlockingPortal
from starlette.testclient import TestClient, WebSocketTestSession

from ginrummy.server.app import create_app
from ginrummy.server.room import Room, RoomManager
from ginrummy.server.settings import Settings

from .helpers import Message, auth, client, create, hello, identity, receive, settings
from .helpers import simple_choice as choose
from .test_instances import REDIS_URL, _need_redis

# A server, a service or a bench: the system layer (tests/conftest.py).
pytestmark = pytest.mark.system

TTL, RENEW = 1.0, 0.1  # seconds: takeovers within a test's patience
FAST: dict[str, Any] = {"lease_ttl": TTL, "lease_renew": RENEW}
SLOW_TTL = 3.0  # takeover tests: well beyond the computer's 1 s delay
SLOW: dict[str, Any] = {"lease_ttl": SLOW_TTL, "lease_renew": RENEW, "bot_delay": 1.0}


def _instance(db: Path, **changes: object) -> TestClient:
    return TestClient(create_app(settings(f"sqlite:///{db}", bus_url=REDIS_URL, **changes)))


def _manager(c: TestClient) -> RoomManager:
    manager = c.app.state.rooms  # type: ignore[attr-defined]
    assert isinstance(manager, RoomManager)
    return manager


def _portal(c: TestClient) -> BlockingPortal:
    """The running app's event loop (the client is open)."""
    assert c.portal is not None
    return c.portal


def _room(c: TestClient, room_id: str) -> Room:
    room = _portal(c).call(_manager(c).get, room_id)
    assert room is not None
    return room


def _view(ws: WebSocketTestSession, at_least: int = 0) -> Message:
    while True:
        msg = receive(ws)
        if msg["type"] == "view" and msg["version"] >= at_least:
            return msg


def _my_turn(ws: WebSocketTestSession, view: Message) -> Message:
    """Wait for a view with something for the person to do (asking for the next round
    when the round is over); return it, or the view that ends the match."""
    asked = 0
    while True:
        table = view["view"]["table"]
        if view["view"]["legal_actions"] or table["match_phase"] == "over":
            return view
        if table["match_phase"] == "deal" and asked < view["version"]:
            asked = view["version"]
            ws.send_json({"type": "next_round", "version": view["version"]})
        view = _view(ws, view["version"] + 1)


def _computer_to_move(ws: WebSocketTestSession, view: Message) -> Message:
    """Play the person's side (asking for the next round when one is over) until the
    computer is to move; return that view."""
    asked = 0
    while view["view"]["table"]["turn"] != "two":
        table = view["view"]["table"]
        assert table["match_phase"] != "over"
        if view["view"]["legal_actions"]:
            action = choose(view["view"])
            ws.send_json({"type": "act", "version": view["version"], "action": action})
        elif table["match_phase"] == "deal" and asked < view["version"]:
            asked = view["version"]
            ws.send_json({"type": "next_round", "version": view["version"]})
        view = _view(ws, view["version"] + 1)
    return view


def _computer_moves_logged(db: Path, room: str) -> int:
    with sqlite3.connect(db) as conn:
        (n,) = conn.execute(
            "SELECT count(*) FROM events WHERE room = ? AND kind = 'action'"
            " AND json_extract(payload, '$.seat') = 'two'",
            (room,),
        ).fetchone()
    assert isinstance(n, int)
    return n


def _until(condition: Callable[[], bool], failure: str) -> None:
    deadline = time.monotonic() + 5
    while not condition():
        assert time.monotonic() < deadline, failure
        time.sleep(0.01)


async def _die(manager: RoomManager) -> None:
    """Stop like a killed process: every room's tasks cancelled, no lease released."""
    rooms = list(manager._rooms.values())
    manager._rooms.clear()
    for room in rooms:
        room.stop_tasks()


def test_lease_settings_come_from_the_environment() -> None:
    env = {
        "GINRUMMY_INSTANCE_ID": "web-2",
        "GINRUMMY_LEASE_TTL": "20",
        "GINRUMMY_LEASE_RENEW": "5",
    }
    s = Settings.from_env(env)
    assert (s.instance_id, s.lease_ttl, s.lease_renew) == ("web-2", 20.0, 5.0)
    assert (Settings().lease_ttl, Settings().lease_renew) == (10.0, 3.0)
    with pytest.raises(ValueError, match="GINRUMMY_LEASE_RENEW"):
        Settings.from_env({"GINRUMMY_LEASE_TTL": "2", "GINRUMMY_LEASE_RENEW": "2"})
    with pytest.raises(ValueError, match="GINRUMMY_LEASE_TTL"):
        Settings.from_env({"GINRUMMY_LEASE_TTL": "soon"})


def test_a_lease_held_elsewhere_holds_the_computer_back_until_it_runs_out() -> None:
    with client(**FAST) as c:
        me = identity(c)
        room_id = create(c, me, kind="solo", opponent="bot:random")
        manager = _manager(c)
        with c.websocket_connect("/ws") as ws:
            _, view = hello(ws, room_id, me)
            view = _my_turn(ws, view)
            _until(lambda: not _room(c, room_id).holds_lease, "the lease was never given up")
            # Another instance takes the room's lease while the person thinks.
            assert _portal(c).call(manager.store.acquire_lease, room_id, "elsewhere", 1.0)
            taken = time.monotonic()
            before = manager.computer_moves
            view = _computer_to_move(ws, view)
            _view(ws, view["version"] + 1)  # the computer's move, once the lease ran out
            waited = time.monotonic() - taken
        assert waited >= 0.9, f"the computer moved {waited:.2f} s into another's lease"
        assert manager.computer_moves > before


def test_the_lease_is_given_up_when_no_work_is_left_and_taken_again() -> None:
    with client(**FAST) as c:
        me = identity(c)
        room_id = create(c, me, kind="solo", opponent="bot:random")
        manager = _manager(c)
        with c.websocket_connect("/ws") as ws:
            _, view = hello(ws, room_id, me)
            view = _my_turn(ws, view)
            room = _room(c, room_id)
            # The person's turn, no move timer: nothing for the holder to run.
            _until(lambda: not room.holds_lease, "the lease was never given up")
            assert _portal(c).call(manager.store.acquire_lease, room_id, "probe", 0.1)
            _portal(c).call(manager.store.release_lease, room_id, "probe")
            view = _computer_to_move(ws, view)
            _view(ws, view["version"] + 1)  # the computer moved: the lease was taken again


def test_two_instances_make_each_computer_move_once(tmp_path: Path) -> None:
    _need_redis()
    db = tmp_path / "shared.sqlite3"
    with _instance(db, **FAST) as a, _instance(db, **FAST) as b:
        me = identity(a)
        r = a.post("/api/rooms", json={"kind": "solo", "opponent": "bot:random"}, headers=auth(me))
        room_id = r.json()["room"]
        # The same seat open on both instances (two tabs behind a balancer): both have
        # the room loaded and see each computer turn come.
        with a.websocket_connect("/ws") as wa, b.websocket_connect("/ws") as wb:
            _, view = hello(wa, room_id, me)
            hello(wb, room_id, me)
            played = 0
            while played < 30:
                view = _my_turn(wa, view)
                if view["view"]["table"]["match_phase"] == "over":
                    break
                version = view["version"]
                wa.send_json({"type": "act", "version": version, "action": choose(view["view"])})
                view = _view(wa, version + 1)
                played += 1
            view = _my_turn(wa, view)  # the computer's answer to the last move is in
            _view(wb, view["version"])
        moves = [_manager(a).computer_moves, _manager(b).computer_moves]
    logged = _computer_moves_logged(db, room_id)
    assert played >= 10 and logged >= played // 2
    # Each computer move was computed and written once, by whichever instance held
    # the lease: no second attempt, hence no write lost to the other instance.
    assert sum(moves) == logged, moves


def test_the_survivor_moves_for_the_computer_when_the_holder_dies(tmp_path: Path) -> None:
    _need_redis()
    db = tmp_path / "shared.sqlite3"
    with _instance(db, **SLOW) as a, _instance(db, **SLOW) as b:
        me = identity(a)
        r = a.post("/api/rooms", json={"kind": "solo", "opponent": "bot:random"}, headers=auth(me))
        room_id = r.json()["room"]
        sockets = {"a": contextlib.ExitStack(), "b": contextlib.ExitStack()}
        with sockets["a"], sockets["b"]:
            wa = sockets["a"].enter_context(a.websocket_connect("/ws"))
            wb = sockets["b"].enter_context(b.websocket_connect("/ws"))
            _, view = hello(wa, room_id, me)
            hello(wb, room_id, me)
            view = _computer_to_move(wa, view)
            version = view["version"]
            rooms = {"a": _room(a, room_id), "b": _room(b, room_id)}
            _until(lambda: any(r.holds_lease for r in rooms.values()), "no one took the lease")
            before = {"a": _manager(a).computer_moves, "b": _manager(b).computer_moves}
            dead = "a" if rooms["a"].holds_lease else "b"
            alive = "b" if dead == "a" else "a"
            dying, survivor, survivor_ws = (a, b, wb) if dead == "a" else (b, a, wa)
            sockets[dead].close()
            _portal(dying).call(_die, _manager(dying))
            killed = time.monotonic()
            after = _view(survivor_ws, version + 1)
            waited = time.monotonic() - killed
            _my_turn(survivor_ws, after)  # the computer's turn is over
        assert after["players"]["two"]["bot"] == "random"
        assert _manager(dying).computer_moves == before[dead]
        assert _manager(survivor).computer_moves > before[alive]
        # Not before the dead holder's lease ran out (without the lease, the survivor's
        # computer would have moved within its 1 s delay).
        assert waited >= SLOW_TTL / 2, waited
        moves = _manager(a).computer_moves + _manager(b).computer_moves
    assert _computer_moves_logged(db, room_id) == moves


def test_a_room_left_by_a_dead_holder_moves_on_where_its_client_comes_back(
    tmp_path: Path,
) -> None:
    _need_redis()
    db = tmp_path / "shared.sqlite3"
    with _instance(db, **SLOW) as a, _instance(db, **SLOW) as b:
        me = identity(a)
        r = a.post("/api/rooms", json={"kind": "solo", "opponent": "bot:random"}, headers=auth(me))
        room_id = r.json()["room"]
        with a.websocket_connect("/ws") as wa:
            _, view = hello(wa, room_id, me)
            view = _computer_to_move(wa, view)
            room = _room(a, room_id)
            _until(lambda: room.holds_lease, "the lease was never taken")
        _portal(a).call(_die, _manager(a))  # instance B has never loaded the room
        died = time.monotonic()
        with b.websocket_connect("/ws") as wb:  # the client reconnects through B
            _, view = hello(wb, room_id, me)
            after = _view(wb, view["version"] + 1)
            waited = time.monotonic() - died
            _my_turn(wb, after)
        assert _manager(b).computer_moves >= 1
        assert waited >= SLOW_TTL / 2, waited
        moves = _manager(a).computer_moves + _manager(b).computer_moves
    assert _computer_moves_logged(db, room_id) == moves


def _advance(c: TestClient, seconds: float) -> None:
    r = c.post("/api/test/clock", json={"advance": seconds})
    assert r.status_code == 200, r.text


def test_a_move_timer_runs_out_once_across_instances(tmp_path: Path) -> None:
    _need_redis()
    db = tmp_path / "shared.sqlite3"
    with (
        _instance(db, test_clock=True, **FAST) as a,
        _instance(db, test_clock=True, **FAST) as b,
    ):
        ann, bob = identity(a), identity(b)
        body = {"kind": "room", "visibility": "public"}  # public: a 30 s move timer
        r = a.post("/api/rooms", json=body, headers=auth(ann))
        room_id = r.json()["room"]
        assert b.post(f"/api/rooms/{room_id}/join", json={}, headers=auth(bob)).status_code == 200
        with a.websocket_connect("/ws") as w1, b.websocket_connect("/ws") as w2:
            _, v1 = hello(w1, room_id, ann)
            _, v2 = hello(w2, room_id, bob)
            assert v1["version"] == v2["version"] and v1["timer"]["total_ms"] == 30_000
            _advance(a, 31)
            _advance(b, 31)
            ends = []
            for ws in (w1, w2):
                view = _view(ws, v1["version"] + 1)
                ends.append(view["view"]["table"]["match_result"])
        timeouts = [_manager(a).timeouts, _manager(b).timeouts]
    assert ends[0] is not None and ends[0] == ends[1]
    assert ends[0]["forfeit"] == "timeout"
    assert sum(timeouts) == 1, timeouts
    with sqlite3.connect(db) as conn:
        kinds = [k for (k,) in conn.execute("SELECT kind FROM events WHERE room = ?", (room_id,))]
    assert kinds.count("forfeit") == 1


def test_an_orderly_stop_gives_the_lease_up(tmp_path: Path) -> None:
    db = tmp_path / "one.sqlite3"
    with client(f"sqlite:///{db}", test_clock=True, lease_ttl=30.0, lease_renew=0.1) as c:
        ann, bob = identity(c), identity(c)
        room_id = create(c, ann, kind="room", visibility="public")
        c.post(f"/api/rooms/{room_id}/join", json={}, headers=auth(bob))
        room = _room(c, room_id)  # a running move timer: work for the lease holder
        _until(lambda: room.holds_lease, "the lease was never taken")
    # Without the release, another instance would wait 30 s for it to run out.
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT count(*) FROM leases").fetchone() == (0,)
