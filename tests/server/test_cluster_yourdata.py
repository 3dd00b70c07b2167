"""A deleted identity's name is shown anew on every instance, not only the one that
answered the deletion: rooms and tournaments another instance has loaded take the
anonymous label at once (docs/accounts.md, "Your data"; server/accounts/erased.py)."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from ginrummy.server.app import create_app

from .helpers import auth, identity, settings
from .test_accounts import _account
from .test_instances import REDIS_URL, _need_redis

pytestmark = pytest.mark.system


@pytest.fixture
def shared_sqlite(tmp_path: Path) -> Iterator[str]:
    _need_redis()
    yield f"sqlite:///{tmp_path / 'shared.sqlite3'}"


def _instance(url: str) -> TestClient:
    return TestClient(create_app(settings(url, bus_url=REDIS_URL)))


def test_a_deletion_on_one_instance_renames_the_rooms_and_tournaments_of_another(
    shared_sqlite: str,
) -> None:
    with _instance(shared_sqlite) as a, _instance(shared_sqlite) as b:
        ann, _ = _account(a, "Anna")
        bob = identity(b)
        body = {"kind": "room", "visibility": "public", "rated": False}
        room = a.post("/api/rooms", json=body, headers=auth(ann)).json()["room"]
        r = b.post(f"/api/rooms/{room}/join", json={}, headers=auth(bob))
        assert r.status_code == 200, r.text
        cup = {"name": "Friday Cup", "format": "knockout", "max_players": 4, "join": True}
        r = a.post("/api/tournaments", json=cup, headers=auth(ann))
        assert r.status_code == 201, r.text
        tid = r.json()["tournament"]["id"]
        paths = [f"/api/rooms/{room}", f"/api/tournaments/{tid}"]
        for path in paths:  # B has read both: its loaded room, its kept tournament
            assert "Anna" in json.dumps(b.get(path).json())

        r = a.post("/api/me/delete", json={"confirm": True}, headers=auth(ann))
        assert r.status_code == 200, r.text
        label = r.json()["name"]
        deadline = time.monotonic() + 10
        for path in paths:
            while "Anna" in (shown := json.dumps(b.get(path).json())):
                assert time.monotonic() < deadline, f"B still shows Anna at {path}"
                time.sleep(0.05)
            assert label in shown
