"""A chouette room's life in time: it survives a server restart (replay of its log),
its move timer, and a person who leaves (docs/protocol.md, "Chouette rooms": a partner
is skipped until back, the box or the captain forfeits once their grace is over)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from ginrummy.server.app import create_app

from .chouette_table import (
    Table,
    creator_table,
    fix_draw,
    join,
    join_all,
    open_table,
    people_wait,
    play_match,
    step,
)
from .helpers import auth, client, settings


def _advance(c: TestClient, seconds: float) -> None:
    r = c.post("/api/test/clock", json={"advance": seconds})
    assert r.status_code == 200, r.text


def test_a_table_survives_a_restart(tmp_path: Path, monkeypatch: Any) -> None:
    fix_draw(monkeypatch, "Ks 2c 3d")  # the creator is box against two computers
    db = f"sqlite:///{tmp_path / 'game.sqlite3'}"
    with client(db) as c:
        room, token = open_table(c, ["me", "bot:casual", "bot:casual"], target_score=50)
        with creator_table(c, room, token) as table:
            after = 0
            for _ in range(6):
                after = step(table, 0, {0}, after)["version"]
            # Where only the box (a person) can move on: nothing changes until the restart.
            before = table.read_until(0, lambda m: m["version"] > after and people_wait(m, {0}))
    with client(db) as c:
        info = c.get(f"/api/chouette/{room}", headers=auth(token)).json()
        assert info["your_position"] == 0 and info["version"] == before["version"]
        with creator_table(c, room, token) as table:
            again = table.latest[0]
            assert again["version"] == before["version"]
            assert again["view"] == before["view"]
            settled = play_match(table, 0, {0}, again["version"] - 1)
            assert sum(settled["view"]["chouette"]["ledger"]) == 0
        record = c.get(f"/api/chouette/{room}/record").json()
        assert record["kind"] == "chouette" and record["drawn"] == "Ks 2c 3d"


def test_the_box_runs_out_of_time(monkeypatch: Any) -> None:
    fix_draw(monkeypatch, "Ks 2c 3d")  # the creator is box; the box decides first
    with client(test_clock=True) as c:
        room, token = open_table(c, ["me", "bot:casual", "bot:casual"], timer=10)
        with creator_table(c, room, token) as table:
            timer = table.latest[0]["timer"]
            assert timer == {"position": 0, "remaining_ms": 10_000, "total_ms": 10_000}
            _advance(c, 10)
            over = table.read_until(0, lambda m: m["view"]["chouette"]["phase"] == "settled")
        result = over["view"]["chouette"]["settlements"][-1]["result"]
        assert (result["forfeit"], result["forfeited_by"], result["winner"]) == (
            "timeout",
            "one",
            "two",
        )


def test_a_partner_who_leaves_is_skipped_and_a_captain_who_leaves_forfeits(
    monkeypatch: Any,
) -> None:
    fix_draw(monkeypatch, "Kd Ks 2c")  # 1 box, 0 captain, 2 partner
    with client(test_clock=True, grace_seconds=60) as c:
        room, token = open_table(c, ["me", "friend", "friend"])
        tokens = join_all(c, room, token, 2)
        table = Table(room)
        with c.websocket_connect("/ws") as w1:
            table.sit(1, w1, tokens[1])
            with c.websocket_connect("/ws") as w0:
                table.sit(0, w0, tokens[0])
                with c.websocket_connect("/ws") as w2:
                    table.sit(2, w2, tokens[2])
                left = table.read_until_frame(
                    1,
                    lambda m: (
                        m["type"] == "presence"
                        and m["players"][2]["grace_remaining_ms"] is not None
                    ),
                )
                assert left["players"][2]["grace_remaining_ms"] == 60_000
                _advance(c, 60)
                gone = table.read_until(1, lambda m: m["view"]["chouette"]["absent"] == [2])
                assert gone["players"][2]["absent"] is True
                with c.websocket_connect("/ws") as w2:
                    table.sit(2, w2, tokens[2])
                    back = table.read_until(1, lambda m: m["view"]["chouette"]["absent"] == [])
                    assert back["players"][2]["absent"] is False
            # The captain (0) leaves: once the grace is over, the team loses the match.
            _advance(c, 60)
            over = table.read_until(1, lambda m: 0 in m["view"]["chouette"]["absent"])
        chouette = over["view"]["chouette"]
        result = chouette["settlements"][-1]["result"]
        assert (result["forfeit"], result["forfeited_by"]) == ("abandoned", "two")
        events = [(f["kind"], f["position"]) for f in table.frames[1] if f["type"] == "event"]
        assert ("forfeit", 0) in events and ("leave", 0) in events and ("return", 2) in events
        assert chouette["phase"] == "settled" and sum(chouette["ledger"]) == 0


@pytest.mark.system  # Redis
def test_two_instances_serve_one_table(tmp_path: Path, monkeypatch: Any) -> None:
    """The creator plays through instance A, the two who join through instance B (one
    SQLite file, the machine's Redis): the match runs to its end, each socket sees it."""
    from .test_instances import REDIS_URL, _need_redis

    _need_redis()
    fix_draw(monkeypatch, "9c Kd Js")
    db = f"sqlite:///{tmp_path / 'shared.sqlite3'}"
    with (
        TestClient(create_app(settings(db, bus_url=REDIS_URL))) as a,
        TestClient(create_app(settings(db, bus_url=REDIS_URL))) as b,
    ):
        room, token = open_table(a, ["me", "friend", "friend"], target_score=50)
        tokens = {0: token}
        for _ in range(2):
            joined, position = join(b, room)
            tokens[position] = joined
        table = Table(room)
        opened = (
            a.websocket_connect("/ws"),
            b.websocket_connect("/ws"),
            b.websocket_connect("/ws"),
        )
        with opened[0] as w0, opened[1] as w1, opened[2] as w2:
            for key, ws in ((0, w0), (1, w1), (2, w2)):
                table.sit(key, ws, tokens[key])
            settled = play_match(table, 0, {0, 1, 2})
            for key in (1, 2):
                seen = table.catch_up(key, settled["version"])
                assert seen["version"] == settled["version"]
                assert seen["view"]["chouette"] == settled["view"]["chouette"]
        assert sum(settled["view"]["chouette"]["ledger"]) == 0


def test_one_person_with_computers_is_waited_for(monkeypatch: Any) -> None:
    fix_draw(monkeypatch, "Ks 2c 3d")  # the creator is box
    with client(test_clock=True, grace_seconds=60) as c:
        room, token = open_table(c, ["me", "bot:casual", "bot:casual"])
        with c.websocket_connect("/ws") as ws:
            Table(room).sit(0, ws, token)
        _advance(c, 600)
        with creator_table(c, room, token) as table:
            view = table.latest[0]
            assert view["view"]["chouette"]["phase"] == "match"
            assert view["players"][0]["grace_remaining_ms"] is None
            assert view["view"]["chouette"]["absent"] == []


def test_the_timer_waits_while_the_server_is_down(tmp_path: Path, monkeypatch: Any) -> None:
    fix_draw(monkeypatch, "Ks 2c 3d")  # the creator is box and decides first
    db = f"sqlite:///{tmp_path / 'game.sqlite3'}"
    with client(db, test_clock=True) as c:
        room, token = open_table(c, ["me", "bot:casual", "bot:casual"], timer=10)
        _advance(c, 4)
    with client(db, test_clock=True) as c:
        with creator_table(c, room, token) as table:
            assert table.latest[0]["timer"]["remaining_ms"] == 6000
            _advance(c, 6)
            over = table.read_until(0, lambda m: m["view"]["chouette"]["phase"] == "settled")
        assert over["view"]["chouette"]["settlements"][-1]["result"]["forfeit"] == "timeout"


def test_a_partner_leaving_changes_neither_the_decision_nor_its_time(monkeypatch: Any) -> None:
    fix_draw(monkeypatch, "Kd Ks 2c")  # 1 box, 0 captain, 2 partner
    with client(test_clock=True, grace_seconds=60) as c:
        room, token = open_table(c, ["me", "friend", "friend"], timer=100)
        tokens = join_all(c, room, token, 2)
        table = Table(room)
        with c.websocket_connect("/ws") as w0, c.websocket_connect("/ws") as w1:
            table.sit(0, w0, tokens[0])
            table.sit(1, w1, tokens[1])
            with c.websocket_connect("/ws") as w2:
                table.sit(2, w2, tokens[2])
            v = table.latest[1]["version"]
            w1.send_json({"type": "act", "version": v, "action": "pass"})  # the box passes
            asked = table.catch_up(0, v + 1)
            assert asked["timer"]["position"] == 0
            _advance(c, 60)  # the partner's grace period is over: marked absent
            gone = table.read_until(0, lambda m: m["view"]["chouette"]["absent"] == [2])
            assert gone["version"] == v + 2
            assert gone["timer"] == {"position": 0, "remaining_ms": 40_000, "total_ms": 100_000}
            # The captain's move on the view before the partner left still counts.
            w0.send_json({"type": "act", "version": v + 1, "action": "pass"})
            moved = table.read_until_frame(0, lambda m: m["type"] in ("event", "error"))
            assert (moved["type"], moved["kind"], moved["position"]) == ("event", "action", 0)
