"""Friends across two instances sharing PostgreSQL (or one SQLite file) and Redis: where a
friend is and a challenge reach a friend whose sockets are on the other instance, and
the accepted challenge seats both (docs/accounts.md, "Friends")."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from ginrummy.server.app import create_app

from .helpers import account, auth, receive, receive_until, settings
from .test_friends import feed, friends, make_friends
from .test_instances import REDIS_URL, _need_redis
from .test_postgres import fresh_schema

pytestmark = pytest.mark.system


@pytest.fixture(params=["sqlite", "postgres"])
def store_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    _need_redis()
    if request.param == "postgres":
        with fresh_schema() as url:
            yield url
        return
    yield f"sqlite:///{tmp_path / 'shared.sqlite3'}"


def _instance(url: str) -> TestClient:
    return TestClient(create_app(settings(url, bus_url=REDIS_URL)))


def _until(probe: Callable[[], Any], failure: str) -> Any:
    deadline = time.monotonic() + 10
    while not (answer := probe()):
        assert time.monotonic() < deadline, failure
        time.sleep(0.05)
    return answer


def test_presence_and_a_challenge_reach_a_friend_on_another_instance(store_url: str) -> None:
    with _instance(store_url) as a, _instance(store_url) as b:
        ann, bob = account(a, "Ann"), account(b, "Bob")
        make_friends(a, ann, bob, "Bob", "Ann")
        with b.websocket_connect("/ws") as bob_feed:
            feed(bob_feed, bob)  # Bob's page, on B
            with a.websocket_connect("/ws") as ann_lobby:
                ann_lobby.send_json({"type": "hello_lobby", "token": ann})
                receive(ann_lobby)  # Ann in the lobby, on A
                receive_until(bob_feed, lambda m: m["type"] == "friends")
                seen = _until(
                    lambda: [f for f in friends(b, bob)["friends"] if f["online"]],
                    "B never saw Ann online",
                )
                assert seen[0]["where"] == "lobby"
                r = a.post(
                    "/api/challenges",
                    json={"name": "Bob", "preset": "standard", "target_score": 100},
                    headers=auth(ann),
                )
                assert r.status_code == 201, r.text
                challenge = r.json()["challenge"]
                got = receive_until(bob_feed, lambda m: m["type"] == "challenge")
                assert got["challenge"]["id"] == challenge["id"]
                # Bob accepts on B; Ann's socket on A is told the room
                r = b.post(f"/api/challenges/{challenge['id']}/accept", headers=auth(bob))
                assert r.status_code == 201, r.text
                room = r.json()["room"]
                told = receive_until(
                    ann_lobby, lambda m: m["type"] == "challenge" and m["challenge"]["room"]
                )
                assert told["challenge"]["room"] == room
                info = a.get(f"/api/rooms/{room}", headers=auth(ann)).json()
                assert info["your_seat"] == "one" and info["seats"]["two"]["name"] == "Bob"
