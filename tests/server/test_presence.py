"""Presence across instances: a seat is connected if any live instance has a socket of it.

Two app instances (own event loops, one SQLite file, the machine's Redis, as in
test_instances.py) serve one room: seat one through A, seat two through B. Neither
may start a grace period for (or let anyone claim against) a seat playing on the
other; a socket that really closes, an instance that stops, or one that dies (its
counts are no longer renewed) still lets the grace period run. With ``CI=true`` a
missing Redis fails the run.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient, WebSocketTestSession

from ginrummy.engine import Seat
from ginrummy.server.app import create_app
from ginrummy.server.room import Room, RoomManager
from ginrummy.server.settings import Settings

from .helpers import (
    Message,
    auth,
    client,
    create,
    hello,
    identity,
    receive_until,
    settings,
    simple_choice,
)
from .test_instances import REDIS_URL, _need_redis

# A server, a service or a bench: the system layer (tests/conftest.py).
pytestmark = pytest.mark.system

INTERVAL = 0.1  # presence renewals (real seconds): counts expire after 0.3 s unrenewed
GRACE = 60.0  # on the hand-moved clock
CHANGES: dict[str, Any] = {
    "test_clock": True,
    "grace_seconds": GRACE,
    "presence_interval": INTERVAL,
    "lease_ttl": 1.0,
    "lease_renew": 0.1,
}


def _instance(db: Path, **changes: object) -> TestClient:
    return TestClient(
        create_app(settings(f"sqlite:///{db}", bus_url=REDIS_URL, **{**CHANGES, **changes}))
    )


def _manager(c: TestClient) -> RoomManager:
    manager = c.app.state.rooms  # type: ignore[attr-defined]
    assert isinstance(manager, RoomManager)
    return manager


def _room(c: TestClient, room_id: str) -> Room:
    assert c.portal is not None
    room = c.portal.call(_manager(c).get, room_id)
    assert room is not None
    return room


def _until(condition: Callable[[], bool], failure: str) -> None:
    deadline = time.monotonic() + 5
    while not condition():
        assert time.monotonic() < deadline, failure
        time.sleep(0.01)


def _advance(c: TestClient, seconds: float) -> None:
    r = c.post("/api/test/clock", json={"advance": seconds})
    assert r.status_code == 200, r.text


def _presence_of_two(connected: bool) -> Callable[[Message], bool]:
    def check(m: Message) -> bool:
        return m["type"] == "presence" and m["players"]["two"]["connected"] is connected

    return check


def _claim_refused(ws: WebSocketTestSession) -> None:
    ws.send_json({"type": "claim"})
    err = receive_until(ws, lambda m: m["type"] == "error")
    assert err["code"] == "nothing_to_claim", err


def _claim_wins(ws: WebSocketTestSession) -> None:
    ws.send_json({"type": "claim"})
    msg = receive_until(
        ws, lambda m: m["type"] == "view" and m["view"]["table"]["match_result"] is not None
    )
    result = msg["view"]["table"]["match_result"]
    assert (result["forfeit"], result["forfeited_by"], result["winner"]) == (
        "abandoned",
        "two",
        "one",
    )


@contextmanager
def _two_instances(tmp_path: Path) -> Iterator[tuple[TestClient, TestClient, str, str, str]]:
    """A and B, a private room (no move timer) made on A and joined on B."""
    _need_redis()
    db = tmp_path / "shared.sqlite3"
    with _instance(db) as a, _instance(db) as b:
        one, two = identity(a), identity(b)
        r = a.post("/api/rooms", json={"kind": "room", "opponent": "friend"}, headers=auth(one))
        assert r.status_code == 201, r.text
        room_id: str = r.json()["room"]
        r = b.post(f"/api/rooms/{room_id}/join", json={"name": "Bea"}, headers=auth(two))
        assert r.status_code == 200, r.text
        yield a, b, room_id, one, two


def _both_connected(a: TestClient, b: TestClient, room_id: str) -> tuple[Room, Room]:
    room_a, room_b = _room(a, room_id), _room(b, room_id)
    _until(
        lambda: all(r.connected(s) for r in (room_a, room_b) for s in Seat),
        "the instances never saw each other's seat connected",
    )
    return room_a, room_b


def test_presence_settings_come_from_the_environment() -> None:
    assert Settings().presence_interval == 5.0
    assert Settings.from_env({"GINRUMMY_PRESENCE_INTERVAL": "2"}).presence_interval == 2.0
    with pytest.raises(ValueError, match="GINRUMMY_PRESENCE_INTERVAL"):
        Settings.from_env({"GINRUMMY_PRESENCE_INTERVAL": "0"})


def test_a_seat_on_another_instance_is_connected_and_cannot_be_claimed(
    tmp_path: Path,
) -> None:
    with (
        _two_instances(tmp_path) as (a, b, room_id, one, two),
        a.websocket_connect("/ws") as ws1,
    ):
        hello(ws1, room_id, one)
        # B learns of A's socket from A's presence notices, renewed every INTERVAL; a
        # hello on B before the first one reaches it would rightly see seat one away.
        room_on_b = _room(b, room_id)
        _until(lambda: room_on_b.connected(Seat.ONE), "B never heard that seat one is on A")
        with b.websocket_connect("/ws") as ws2:
            _, view = hello(ws2, room_id, two)
            assert view["players"]["one"]["connected"] is True  # on A
            receive_until(ws1, _presence_of_two(True))
            room_a, room_b = _both_connected(a, b, room_id)
            # Well past the grace period, with renewals going on: nobody left.
            for c in (a, b):
                _advance(c, GRACE + 5)
            time.sleep(6 * INTERVAL)
            for room in (room_a, room_b):
                assert room.grace == {}, room.grace
                players = room.players()
                assert [players[s.label]["connected"] for s in Seat] == [True, True]
                assert [players[s.label]["grace_remaining_ms"] for s in Seat] == [None, None]
            # No clock runs, so no instance keeps the room's lease.
            _until(
                lambda: not any(r.holds_lease or r.work_due() for r in (room_a, room_b)),
                "a lease is kept for a grace period nobody needs",
            )
            _claim_refused(ws1)
            _claim_refused(ws2)
        # B's socket really closed: seat two is gone everywhere.
        msg = receive_until(ws1, _presence_of_two(False))
        assert msg["players"]["two"]["grace_remaining_ms"] == GRACE * 1000
        _claim_refused(ws1)
        _advance(a, GRACE)
        _claim_wins(ws1)


def test_the_sockets_of_a_dead_instance_stop_counting(tmp_path: Path) -> None:
    with (
        _two_instances(tmp_path) as (a, b, room_id, one, two),
        a.websocket_connect("/ws") as ws1,
        b.websocket_connect("/ws") as ws2,
    ):
        hello(ws1, room_id, one)
        hello(ws2, room_id, two)
        receive_until(ws1, _presence_of_two(True))
        room_a, _ = _both_connected(a, b, room_id)
        manager_b = _manager(b)
        assert b.portal is not None
        b.portal.call(_die, manager_b)  # ws2 stays open: no goodbye from B
        died = time.monotonic()
        msg = receive_until(ws1, _presence_of_two(False))
        waited = time.monotonic() - died
        assert waited >= 2 * INTERVAL, waited  # B's last renewal had to run out first
        assert msg["players"]["two"]["grace_remaining_ms"] == GRACE * 1000
        # Counts past their time already count for nothing (the frame above); the entry
        # itself goes at A's next renewal step, which may finish after the frame is sent.
        _until(lambda: room_a.presence.remote == {}, "A never forgot B's counts")
        _claim_refused(ws1)
        _advance(a, GRACE)
        _claim_wins(ws1)


def test_an_orderly_stop_says_its_sockets_are_gone(tmp_path: Path) -> None:
    # Renewals every 2 s: counts would take 6 s to run out; the goodbye comes at once.
    with _two_instances(tmp_path) as (a, b, room_id, one, two):
        _manager(a).presence_interval = _manager(b).presence_interval = 2.0
        with a.websocket_connect("/ws") as ws1, b.websocket_connect("/ws") as ws2:
            hello(ws1, room_id, one)
            hello(ws2, room_id, two)
            receive_until(ws1, _presence_of_two(True))
            _both_connected(a, b, room_id)
            assert b.portal is not None
            stopped = time.monotonic()
            b.portal.call(_manager(b).close)  # ws2 stays open: only the goodbye tells A
            receive_until(ws1, _presence_of_two(False))
            assert time.monotonic() - stopped < 2.0


async def _die(manager: RoomManager) -> None:
    """Stop like a killed process: no more renewals, every room's tasks cancelled,
    no goodbye, no lease released."""
    if manager._presence_task is not None:
        manager._presence_task.cancel()
    rooms = list(manager._rooms.values())
    manager._rooms.clear()
    for room in rooms:
        room.stop_tasks()


def test_an_instance_that_just_loaded_a_room_hears_its_sockets_before_any_grace(
    tmp_path: Path,
) -> None:
    _need_redis()
    db = tmp_path / "shared.sqlite3"
    with _instance(db) as a, _instance(db) as b:
        one, two = identity(a), identity(a)
        r = a.post("/api/rooms", json={"kind": "room", "opponent": "friend"}, headers=auth(one))
        room_id = r.json()["room"]
        assert a.post(f"/api/rooms/{room_id}/join", json={}, headers=auth(two)).status_code == 200
        with a.websocket_connect("/ws") as ws1, a.websocket_connect("/ws") as ws2:
            hello(ws1, room_id, one)
            hello(ws2, room_id, two)
            assert b.portal is not None
            room_b, grace = b.portal.call(_load, _manager(b), room_id)  # both seats on A
            assert grace == {}, grace
            _until(lambda: all(room_b.connected(s) for s in Seat), "B never heard A's sockets")
            time.sleep(3 * INTERVAL)  # settled: still nobody left
            assert room_b.grace == {}


async def _load(manager: RoomManager, room_id: str) -> tuple[Room, dict[Seat, float]]:
    """Load the room and say which grace periods it started right away."""
    room = await manager.get(room_id)
    assert room is not None
    return room, dict(room.grace)


def test_a_move_whose_notice_was_lost_reaches_the_other_instance_with_presence(
    tmp_path: Path,
) -> None:
    """The mover's instance writes a move but its notice never reaches the other
    instance (as when a writer dies between writing and publishing): the next presence
    renewal carries the room's version, and the other seat is shown the move."""
    with (
        _two_instances(tmp_path) as (a, b, room_id, one, two),
        a.websocket_connect("/ws") as ws1,
        b.websocket_connect("/ws") as ws2,
    ):
        _, view1 = hello(ws1, room_id, one)
        _, view2 = hello(ws2, room_id, two)
        _both_connected(a, b, room_id)
        mover, mover_ws, waiter_ws, view = (
            (a, ws1, ws2, view1) if view1["view"]["legal_actions"] else (b, ws2, ws1, view2)
        )
        bus = _manager(mover).bus
        outbox = bus._outbox  # type: ignore[attr-defined]
        real_put = outbox.put_nowait
        dropped: list[str] = []

        def drop_moves(item: tuple[str, str]) -> None:
            if '"kind": "action"' in item[1]:
                dropped.append(item[1])  # never leaves this instance
                return
            real_put(item)

        outbox.put_nowait = drop_moves
        version = view["version"]
        mover_ws.send_json(
            {"type": "act", "version": version, "action": simple_choice(view["view"])}
        )
        receive_until(mover_ws, lambda m: m["type"] == "view" and m["version"] > version)
        seen = receive_until(waiter_ws, lambda m: m["type"] == "view" and m["version"] > version)
        assert dropped, "the move's notice was not dropped: the test proves nothing"
        assert seen["version"] == version + 1


def test_spectators_on_another_instance_are_counted(tmp_path: Path) -> None:
    with (
        _two_instances(tmp_path) as (a, b, room_id, one, _two),
        a.websocket_connect("/ws") as ws1,
    ):
        hello(ws1, room_id, one)
        with b.websocket_connect("/ws") as eve:
            welcome, _ = hello(eve, room_id, None)  # a spectator, on B
            assert welcome["seat"] is None
            watched = receive_until(ws1, lambda m: m["type"] == "presence" and m["watchers"])
            assert watched["watchers"] == 1
            assert a.get(f"/api/rooms/{room_id}").json()["watchers"] == 1
        gone = receive_until(ws1, lambda m: m["type"] == "presence" and not m["watchers"])
        assert gone["watchers"] == 0


def test_renewals_are_spread_over_the_interval(monkeypatch: pytest.MonkeyPatch) -> None:
    """A thousand rooms renewed at once would queue every move behind them (on this
    instance and the others): each room gets its own moment within the interval."""
    times: list[float] = []

    async def renew(self: Room) -> None:
        times.append(time.monotonic())

    monkeypatch.setattr(Room, "renew_presence", renew)
    with client(presence_interval=0.4) as c:
        token = identity(c)
        for _ in range(4):
            create(c, token)
        time.sleep(1.0)
    gaps = [b - a for a, b in pairwise(times)]
    assert len(gaps) >= 4, times
    assert min(gaps) >= 0.05, gaps  # 0.4 s over 4 rooms: about 0.1 s apart


def test_a_room_loaded_without_sockets_keeps_up_through_presence(tmp_path: Path) -> None:
    """B has the room loaded (for its lobby, say) but no socket of it: A's presence
    renewals carry the version, so B's copy does not go stale."""
    with (
        _two_instances(tmp_path) as (a, b, room_id, one, two),
        a.websocket_connect("/ws") as ws1,
        a.websocket_connect("/ws") as ws2,
    ):
        _, view1 = hello(ws1, room_id, one)
        _, view2 = hello(ws2, room_id, two)
        room_b = _room(b, room_id)
        mover, view = (ws1, view1) if view1["view"]["legal_actions"] else (ws2, view2)
        version = view["version"]
        mover.send_json({"type": "act", "version": version, "action": simple_choice(view["view"])})
        receive_until(mover, lambda m: m["type"] == "view" and m["version"] > version)
        _until(lambda: room_b.current.version > version, "B's copy of the room went stale")
