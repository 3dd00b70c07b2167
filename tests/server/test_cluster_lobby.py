"""Several instances, one lobby: tables, the quick-match queue and chat are shared.

Two app instances (each with its own event loop, as two processes would have) share
a store (a SQLite file in WAL mode, or a schema of the machine's PostgreSQL) and the
machine's Redis, as in test_instances.py. A browser may reach either instance on each
request. With ``CI=true`` a missing Redis or PostgreSQL fails the run.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from functools import partial
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient, WebSocketTestSession

from ginrummy.server.app import create_app
from ginrummy.server.quick import QuickMatch
from ginrummy.server.room import LOBBY_TOPIC, RoomError, RoomManager
from ginrummy.server.store import QuickEntry
from ginrummy.server.tokens import hash_token

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
    settings,
)
from .test_instances import REDIS_URL, _need_redis
from .test_postgres import fresh_schema

# A server, a service or a bench: the system layer (tests/conftest.py).
pytestmark = pytest.mark.system


@pytest.fixture(params=["sqlite", "postgres"])
def store_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """The URL of a store that the instances of one test share."""
    _need_redis()
    if request.param == "postgres":
        with fresh_schema() as url:
            yield url
        return
    yield f"sqlite:///{tmp_path / 'shared.sqlite3'}"


def _instance(url: str, **changes: Any) -> TestClient:
    return TestClient(create_app(settings(url, bus_url=REDIS_URL, **changes)))


def _until(probe: Callable[[], Any], failure: str) -> Any:
    """Poll ``probe`` until it answers something true (another instance hears of a
    change through Redis, a moment later); return that answer."""
    deadline = time.monotonic() + 10
    while not (answer := probe()):
        assert time.monotonic() < deadline, failure
        time.sleep(0.02)
    return answer


def _lobby_socket(ws: WebSocketTestSession, token: str | None) -> Message:
    ws.send_json({"type": "hello_lobby", "token": token})
    first = receive(ws)
    assert first["type"] == "lobby", first
    return first


def _next_lobby(ws: WebSocketTestSession, pred: Callable[[dict[str, Any]], bool]) -> Any:
    return receive_until(ws, lambda m: m["type"] == "lobby" and pred(m["lobby"]))["lobby"]


def _quick(c: TestClient, token: str, **body: Any) -> dict[str, Any]:
    r = c.post("/api/quick", json=body, headers=auth(token))
    assert r.status_code == 200, r.text
    answer: dict[str, Any] = r.json()
    return answer


def _queue_is(c: TestClient, n: int) -> bool:
    return bool(c.get("/api/lobby").json()["queue"] == n)


def _manager(c: TestClient) -> RoomManager:
    manager = c.app.state.rooms  # type: ignore[attr-defined]
    assert isinstance(manager, RoomManager)
    return manager


def _rooms_of(c: TestClient, token: str) -> list[str]:
    return [g["room"] for g in c.get("/api/me", headers=auth(token)).json()["games"]]


def test_a_table_opened_on_one_instance_is_listed_on_the_other(store_url: str) -> None:
    with _instance(store_url) as a, _instance(store_url) as b:
        # Ann hosts as a guest (she renames herself); Bob queues, so he has an account.
        ann, bob = identity(a), account(b)
        with b.websocket_connect("/ws") as lobby_b, a.websocket_connect("/ws") as lobby_a:
            assert _lobby_socket(lobby_b, None)["lobby"]["tables"] == []
            _lobby_socket(lobby_a, None)
            room = create(a, ann, kind="room", visibility="public", target_score=50)
            # B's live lobby and B's HTTP lobby list the table A opened.
            listed = _next_lobby(lobby_b, lambda lobby: lobby["tables"])
            (table,) = listed["tables"]
            assert table["room"] == room and table["rules"]["target_score"] == 50
            assert (
                table["host"]["name"]
                == a.get("/api/me", headers=auth(ann)).json()["player"]["name"]
            )
            assert b.get("/api/lobby").json()["tables"][0]["room"] == room
            # A rename on A shows in B's lobby.
            assert a.put("/api/me", json={"name": "Ann Host"}, headers=auth(ann)).status_code == 200
            _next_lobby(lobby_b, lambda lobby: lobby["tables"][0]["host"]["name"] == "Ann Host")
            # Bob takes the seat through B: A's lobby moves it to the running matches.
            r = b.post(f"/api/rooms/{room}/join", json={}, headers=auth(bob))
            assert r.status_code == 200, r.text
            moved = _next_lobby(lobby_a, lambda lobby: lobby["matches"])
            assert moved["tables"] == [] and moved["matches"][0]["room"] == room
            assert moved["matches"][0]["round"] == 1
            # Somebody waiting for a quick match on B counts in A's lobby.
            _quick(b, bob, timer=45)
            assert _next_lobby(lobby_a, lambda lobby: lobby["queue"] == 1)["queue"] == 1
            _until(partial(_queue_is, a, 1), "A never counted Bob")
            assert b.delete("/api/quick", headers=auth(bob)).status_code == 200
            assert _next_lobby(lobby_a, lambda lobby: lobby["queue"] == 0)["queue"] == 0


def test_quick_match_pairs_players_waiting_on_different_instances(store_url: str) -> None:
    # The quick match is rated: its players are accounts (helpers.account).
    with _instance(store_url) as a, _instance(store_url) as b:
        ann, bob = account(a), account(b)
        with a.websocket_connect("/ws") as lobby:
            _lobby_socket(lobby, ann)
            assert _quick(a, ann, preset="standard")["status"] == "waiting"
            # The queue is one: GET /api/quick answers the same on either instance.
            assert b.get("/api/quick", headers=auth(ann)).json()["status"] == "waiting"
            paired = _quick(b, bob, preset="standard")
            assert paired["status"] == "matched" and paired["seat"] == "two"
            room = paired["room"]
            # Ann's lobby socket on A is told by B through the bus, once.
            told = receive_until(lobby, lambda m: m["type"] == "matched")
            assert told == {"type": "matched", "room": room, "seat": "one"}
            for c in (a, b):
                status = c.get("/api/quick", headers=auth(ann)).json()
                assert status == {"status": "matched", "room": room, "seat": "one"}
                assert c.get("/api/quick", headers=auth(bob)).json()["room"] == room
        # Each was seated once, in that room, and it runs on either instance.
        assert _rooms_of(a, ann) == [room] and _rooms_of(b, bob) == [room]
        info = a.get(f"/api/rooms/{room}").json()
        assert (info["status"], info["rated"], info["visibility"]) == ("playing", True, "public")
        assert b.get("/api/lobby").json()["queue"] == 0
        _until(partial(_queue_is, a, 0), "A still counts a waiter")


def _quick_at_once(entrants: list[tuple[TestClient, str]], timer: int) -> list[dict[str, Any]]:
    """``POST /api/quick`` for each (instance, token) on threads released together."""
    barrier = threading.Barrier(len(entrants))
    answers: list[dict[str, Any]] = [{} for _ in entrants]

    def run(i: int) -> None:
        c, token = entrants[i]
        barrier.wait()
        answers[i] = _quick(c, token, timer=timer)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(entrants))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert all(answers), "a request never answered"
    return answers


def test_racing_pairings_on_two_instances_pair_each_person_once(store_url: str) -> None:
    with _instance(store_url) as a, _instance(store_url) as b:
        for timer in (10, 20, 30, 40):  # one round per setting: rounds never pair across
            ann, bob, cid = account(a), account(a), account(b)
            assert _quick(a, ann, timer=timer)["status"] == "waiting"
            # Bob (on A) and Cid (on B) come for Ann at the same moment.
            answers = _quick_at_once([(a, bob), (b, cid)], timer)
            assert sorted(x["status"] for x in answers) == ["matched", "waiting"], answers
            (won,) = [x for x in answers if x["status"] == "matched"]
            assert _rooms_of(a, ann) == [won["room"]]  # Ann sits in one room only
            loser = bob if answers[1] is won else cid
            assert _rooms_of(a, loser) == []
            # Two people who find the queue empty at the same moment find each other.
            dan = account(b)
            answers = _quick_at_once([(a, loser), (b, dan)], timer + 1)
            assert sorted(x["status"] for x in answers) == ["matched", "waiting"], answers
            (pair,) = [x for x in answers if x["status"] == "matched"]
            assert _rooms_of(b, dan) == [pair["room"]] == _rooms_of(a, loser)
            for c in (a, b):
                _until(partial(_queue_is, c, 0), "a waiter is left in the lobby's count")


def _chat(ws: WebSocketTestSession, text: str) -> Message:
    ws.send_json({"type": "chat", "text": text})
    message: Message = receive_until(ws, lambda m: m["type"] == "chat")["message"]
    return message


def _history(c: TestClient, room: str, token: str) -> list[Message]:
    with c.websocket_connect("/ws") as ws:
        ws.send_json({"type": "hello", "room": room, "token": token})
        history = receive_until(ws, lambda m: m["type"] == "chat_history")
    messages: list[Message] = history["messages"]
    return messages


def test_chat_history_is_the_same_on_every_instance_and_survives_a_restart(
    store_url: str,
) -> None:
    with _instance(store_url) as a, _instance(store_url) as b:
        ann, bob = identity(a), identity(b)
        room = create(a, ann, kind="room")
        assert b.post(f"/api/rooms/{room}/join", json={}, headers=auth(bob)).status_code == 200
        with a.websocket_connect("/ws") as wa, b.websocket_connect("/ws") as wb:
            hello(wa, room, ann)
            hello(wb, room, bob)
            said = _chat(wa, "hello from A")
            assert receive_until(wb, lambda m: m["type"] == "chat")["message"] == said
            answer = _chat(wb, "hi from B")
            assert (said["id"], answer["id"]) == (1, 2)  # one numbering for the room
        # Bob reconnects, now through B, then through A: the same history.
        on_b, on_a = _history(b, room, bob), _history(a, room, ann)
        assert on_b == on_a == [said, answer]
        assert [m["text"] for m in on_b] == ["hello from A", "hi from B"]
    with _instance(store_url) as c:  # every instance restarted
        assert _history(c, room, bob) == [said, answer]
        with c.websocket_connect("/ws") as ws:
            hello(ws, room, ann)
            assert _chat(ws, "still here")["id"] == 3


def test_an_instance_that_missed_notices_lists_what_it_missed_on_resync(tmp_path: Path) -> None:
    # Two instances on one store but without a common bus: B hears of nothing, until
    # its bus says notices were lost (as Redis does when it comes back).
    url = f"sqlite:///{tmp_path / 'shared.sqlite3'}"
    with client(url) as a, client(url) as b:
        ann = account(a)
        with b.websocket_connect("/ws") as lobby_b:
            _lobby_socket(lobby_b, None)
            room = create(a, ann, kind="room", visibility="public")
            assert _quick(a, account(a))["status"] == "waiting"
            assert b.get("/api/lobby").json() == {
                "tables": [],
                "matches": [],
                "queue": 0,
                "tournaments": [],
            }
            assert b.portal is not None
            b.portal.call(_manager(b).bus.publish, LOBBY_TOPIC, {"kind": "resync"})
            lobby = _next_lobby(lobby_b, lambda lobby: lobby["tables"])
            assert [t["room"] for t in lobby["tables"]] == [room] and lobby["queue"] == 1


def test_a_pairing_that_cannot_open_its_room_puts_the_waiting_player_back(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    with client() as c:
        ann, bob = account(c), account(c)
        assert _quick(c, ann)["status"] == "waiting"

        async def broken(**_: Any) -> None:
            raise RoomError("unavailable", "the room could not be saved; try again")

        monkeypatch.setattr(_manager(c), "create", broken)
        r = c.post("/api/quick", json={}, headers=auth(bob))
        assert r.status_code == 503 and r.json()["error"]["code"] == "unavailable"
        assert c.get("/api/quick", headers=auth(ann)).json()["status"] == "waiting"
        assert c.get("/api/quick", headers=auth(bob)).json() == {"status": "idle"}
        assert c.get("/api/lobby").json()["queue"] == 1


FAST_CONFIRM = 0.2  # seconds between confirmations: stale after 0.6 s, deleted after 1.2 s


def _quick_match(c: TestClient) -> QuickMatch:
    quick = c.app.state.quick  # type: ignore[attr-defined]
    assert isinstance(quick, QuickMatch)
    return quick


def _status(c: TestClient, token: str) -> str:
    return str(c.get("/api/quick", headers=auth(token)).json()["status"])


def _stored_entry(c: TestClient, token: str) -> QuickEntry | None:
    """The identity's row in the queue, stale or not (until it is deleted)."""
    assert c.portal is not None
    store = _manager(c).store
    return c.portal.call(store.quick_entry, hash_token(token), 1e9)


def test_a_player_waiting_on_a_dead_instance_is_not_paired_and_is_removed(
    store_url: str,
) -> None:
    fast = {"quick_confirm": FAST_CONFIRM}
    with _instance(store_url, **fast) as a, _instance(store_url, **fast) as b:
        ann, bob = account(a), account(b)
        with a.websocket_connect("/ws") as lobby:
            _lobby_socket(lobby, ann)
            assert _quick(a, ann, preset="standard")["status"] == "waiting"
            time.sleep(4 * FAST_CONFIRM)  # A confirms her entry: she still waits
            assert _status(b, ann) == "waiting"
            _until(partial(_queue_is, b, 1), "B never counted Ann")
            # A dies: its socket stays open, but nobody leaves and nobody confirms.
            assert a.portal is not None
            a.portal.call(_quick_match(a).close)
            _until(lambda: _status(b, ann) == "idle", "Ann's dead entry never went stale")
            _until(partial(_queue_is, b, 0), "B still counts Ann")
            with b.websocket_connect("/ws") as lobby_b:
                _lobby_socket(lobby_b, bob)
                assert _quick(b, bob, preset="standard")["status"] == "waiting"  # no ghost
                _until(lambda: _stored_entry(b, ann) is None, "Ann's entry was never deleted")
                assert _status(b, bob) == "waiting" and _queue_is(b, 1)


def test_a_player_with_lobby_sockets_on_two_instances_stays_queued_when_one_closes(
    store_url: str,
) -> None:
    fast = {"quick_confirm": FAST_CONFIRM}
    with _instance(store_url, **fast) as a, _instance(store_url, **fast) as b:
        ann, bob = account(a), account(b)
        with b.websocket_connect("/ws") as lobby_b:
            _lobby_socket(lobby_b, ann)
            with a.websocket_connect("/ws") as lobby_a:
                _lobby_socket(lobby_a, ann)
                assert _quick(a, ann, preset="standard")["status"] == "waiting"
            # Her tab on A closed: A stops confirming, B's socket keeps her waiting.
            time.sleep(8 * FAST_CONFIRM)  # past the staleness and the deletion
            _until(lambda: _status(a, ann) == "waiting", "Ann left the queue with one tab")
            paired = _quick(a, bob, preset="standard")
            assert paired["status"] == "matched" and paired["seat"] == "two"
            told = receive_until(lobby_b, lambda m: m["type"] == "matched")
            assert told == {"type": "matched", "room": paired["room"], "seat": "one"}
