"""Faults for real: ``kill -9`` of server processes mid-match and a Redis outage, with
simulated clients, then an audit of every room's event log (``ginrummy bench faults``).
The kill runs play chouette tables and tournaments beside the two-player rooms.

The audit (``check_log``) is tested on hand-made logs first, a two-player room's and a
chouette table's, so that a sound run is known to mean something. The runs need
PostgreSQL (``need_postgres``) and a ``redis-server`` binary for a private Redis; with
``CI=true`` a missing one fails.
"""

from __future__ import annotations

import asyncio
import doctest
import json
import os
import random
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from ginrummy.benchmarks import fault_audit, fault_client
from ginrummy.benchmarks.fault_audit import (
    CHOUETTE_LOG,
    Game,
    audit_logs,
    check_log,
    chouette_digest,
    tally,
    view_digest,
)
from ginrummy.benchmarks.faults import Options, run
from ginrummy.engine import Rules, Seat, cards_text, shuffled_deck, view_for_seat
from ginrummy.protocol import encode_seat_view
from ginrummy.server.chouette import log as chouette_log
from ginrummy.server.chouette.presenter import VersionViews
from ginrummy.server.pubsub.redis import RedisBus
from ginrummy.server.room import replay
from ginrummy.server.store import Event, RoomRow, open_store

from .helpers import auth, client, create, hello, identity, receive, simple_choice
from .test_postgres import PG_URL, need_postgres
from .test_redis_bus import private_redis  # noqa: F401  (a fixture)

# A server, a service or a bench: the system layer (tests/conftest.py).
pytestmark = pytest.mark.system

FAULTS = [sys.executable, "-m", "ginrummy", "bench", "faults"]
TABLES = ["--chouettes", "2", "--tournaments", "1"]  # a knockout of 4 lasts about the kills


def _need_redis_server() -> None:
    if shutil.which("redis-server") is None:
        if os.environ.get("CI") == "true":
            pytest.fail("redis-server is required in CI for the fault tests")
        pytest.skip("redis-server not installed")


def _opening() -> list[Event]:
    """A match where seat two (not the dealer) passes the first upcard, then seat one."""
    deck = cards_text(shuffled_deck(random.Random(7)))
    rules = Rules.from_dict({"name": "standard"}).to_dict()
    return [
        Event(1, "match", {"rules": rules, "first_dealer": "one"}),
        Event(2, "deal", {"deck": deck}),
        Event(3, "action", {"seat": "two", "action": "pass"}),
        Event(4, "action", {"seat": "one", "action": "pass"}),
    ]


def _game(events: list[Event]) -> Game:
    """The record of two clients that sent, were told and saw exactly these events."""
    game = Game("r", "cross", ("one", "two"))
    game.sent = {(2, "two", "pass"), (3, "one", "pass")}
    game.acked = {3: ("two", "pass"), 4: ("one", "pass")}
    match = replay(events).match
    assert match is not None
    for seat in Seat:
        game.seen[(seat.label, 4)] = view_digest(encode_seat_view(view_for_seat(match, seat)))
    return game


def test_a_sound_log_passes_the_audit() -> None:
    events = _opening()
    assert check_log(_game(events), events) == []


def test_the_audit_finds_a_gap_in_the_log() -> None:
    events = _opening()
    problems = check_log(_game(events), [events[0], events[1], events[3]])
    assert problems and "not contiguous" in problems[0]


def test_the_audit_finds_an_acknowledged_action_that_was_lost() -> None:
    events = _opening()
    game = _game(events)
    game.seen = {}
    problems = check_log(game, events[:3])
    assert any("acknowledged one 'pass' at 4 is not in the log" in p for p in problems)


def test_the_audit_finds_an_action_nobody_sent_or_sent_on_another_version() -> None:
    events = _opening()
    game = _game(events)
    # As if the server had applied seat one's pass again on a later version.
    game.sent = {(2, "two", "pass"), (1, "one", "pass")}
    problems = check_log(game, events)
    assert problems == ["room r: logged {'seat': 'one', 'action': 'pass'} at 4 that no client sent"]


def test_the_audit_finds_a_view_the_log_does_not_back() -> None:
    events = _opening()
    game = _game(events)
    game.seen[("two", 4)] = "told-but-not-written"
    game.seen[("one", 9)] = game.seen[("one", 4)]  # told before it was written
    problems = check_log(game, events)
    assert "room r: seat two saw version 4 unlike the log's" in problems
    assert "room r: seat(s) ['one'] saw version 9, the log ends at 4" in problems


def test_the_audit_finds_a_log_that_does_not_replay() -> None:
    events = [*_opening()[:3], Event(4, "action", {"seat": "two", "action": "pass"})]
    problems = check_log(Game("r", "cross", ("one", "two")), events)
    assert len(problems) == 1 and "event 4 does not replay" in problems[0]


async def test_the_audit_says_where_the_log_of_a_stuck_room_ends(tmp_path: Path) -> None:
    """A game the harness found stopped after a fault: the audit tells how far the
    store got and its last events (ahead of the clients, or waiting for whom)."""
    url = f"sqlite:///{tmp_path / 'audit.db'}"
    store = open_store(url)
    await store.open()
    events = _opening()
    try:
        await store.create_room(RoomRow("r", "room", {}, 0.0), [], events)
    finally:
        await store.close()
    for stuck, said in (((), False), (("r",), True)):
        problems: list[str] = []
        await audit_logs(url, [_game(events)], problems.append, stuck)
        tail = 'the store holds version 4, ending 1 match {"first_dealer"'
        assert any(p.startswith(f"room r (cross): {tail}") for p in problems) is said, problems
        assert any('4 action {"action": "pass", "seat": "one"}' in p for p in problems) is said


def _chouette_opening() -> list[Event]:
    """A chouette table of three: the draw makes position 1 the box, 2 the captain and 0
    the partner; the box passes the first upcard, the partner leaves (no decision of
    the match), then the captain passes on the view from before the leaving."""
    deck = cards_text(shuffled_deck(random.Random(7)))
    rules = Rules.from_dict({"name": "standard"}).to_dict()
    return [
        Event(1, "chouette", {"rules": rules, "drawn": "2c Kh 7c"}),
        Event(2, "deal", {"event": f"deal {deck}"}),
        Event(3, "action", {"event": "pass", "position": 1}),
        Event(4, "leave", {"event": "leave 0", "position": 0}),
        Event(5, "action", {"event": "pass", "position": 2}),
    ]


def _chouette_game(events: list[Event]) -> Game:
    """The record of the box's and the captain's clients (positions 1 and 2) that sent,
    were told and saw exactly these events: the captain sent on version 3, its pass
    was applied at 5."""
    game = Game("c", "chouette", ("1", "2"), log=CHOUETTE_LOG)
    game.sent = {(2, "1", "pass"), (3, "2", "pass")}
    game.acked = {3: ("1", "pass"), 5: ("2", "pass")}
    table = chouette_log.replay(events).table
    assert table is not None and (table.box, table.captain, table.order) == (1, 2, (2, 0))
    for position in (1, 2):
        view = json.loads(VersionViews(table).text(position))
        game.seen[(str(position), 5)] = chouette_digest(view)
    return game


def test_a_sound_chouette_log_passes_the_audit() -> None:
    events = _chouette_opening()
    game = _chouette_game(events)
    assert check_log(game, events) == []
    assert tally(game, events) == (0, 0)


def test_the_audit_finds_an_acknowledged_chouette_action_that_was_lost() -> None:
    events = _chouette_opening()
    game = _chouette_game(events)
    game.seen = {}
    problems = check_log(game, events[:4])
    assert problems == ["room c: acknowledged 2 'pass' at 5 is not in the log"]
    assert tally(game, events[:4]) == (1, 0)


def test_the_audit_finds_a_chouette_action_applied_on_another_decision() -> None:
    """The captain's pass, sent on the deal's view (before the box passed), logged
    after the box's pass: applied twice, or on a decision it was not sent for."""
    events = _chouette_opening()
    game = _chouette_game(events)
    game.sent = {(2, "1", "pass"), (2, "2", "pass")}
    problems = check_log(game, events)
    assert problems == ["room c: logged {'event': 'pass', 'position': 2} at 5 that no client sent"]
    assert tally(game, events) == (0, 1)


def test_the_audit_finds_a_chouette_view_the_log_does_not_back() -> None:
    events = _chouette_opening()
    game = _chouette_game(events)
    game.seen[("1", 5)] = game.seen[("2", 5)]  # the captain's view, told to the box
    game.seen[("2", 9)] = game.seen[("2", 5)]  # told before it was written
    problems = check_log(game, events)
    assert "room c: seat 1 saw version 5 unlike the log's" in problems
    assert "room c: seat(s) ['2'] saw version 9, the log ends at 5" in problems
    assert len(problems) == 2


async def _append(db: str, room: str, event: Event) -> None:
    store = open_store(db)
    await store.open()
    try:
        await store.append_events(room, [event])
    finally:
        await store.close()


def test_a_reconnect_brings_the_news_a_killed_writer_never_told(tmp_path: Path) -> None:
    """An instance died between writing an action and telling anyone (write before
    tell leaves that window): when the seat comes back through another instance, the
    room's other sockets there are told too, or the game would wait forever."""
    db = f"sqlite:///{tmp_path / 'game.sqlite3'}"
    with client(db) as c:
        one, two = identity(c), identity(c)
        room = create(c, one, kind="room", opponent="friend")
        assert c.post(f"/api/rooms/{room}/join", json={}, headers=auth(two)).status_code == 200
        with c.websocket_connect("/ws") as ws1, c.websocket_connect("/ws") as ws2:
            _, view1 = hello(ws1, room, one)
            _, view2 = hello(ws2, room, two)
            token, view, other = (
                (one, view1, ws2) if view1["view"]["legal_actions"] else (two, view2, ws1)
            )
            version = view["version"]
            action = {"seat": view["view"]["seat"], "action": simple_choice(view["view"])}
            # What the killed instance wrote to the shared store and never published.
            asyncio.run(_append(db, room, Event(version + 1, "action", action)))
            with c.websocket_connect("/ws") as back:
                _, fresh = hello(back, room, token)
                assert fresh["version"] == version + 1
                msg = receive(other, timeout=3.0)
                while msg["type"] != "view":
                    msg = receive(other, timeout=3.0)
                assert msg["version"] == version + 1


@pytest.mark.parametrize("module", [fault_audit, fault_client], ids=lambda m: m.__name__)
def test_the_fault_harness_doctests_pass(module: Any) -> None:
    """Its small rules (the backoff, a chouette position's ask, a stuck log's tail)."""
    result = doctest.testmod(module)
    assert result.attempted > 0 and result.failed == 0


def _server_logs(summary: dict[str, Any], last: int = 40) -> str:
    """The end of each server instance's log of a failed run (kept and named in the
    summary), for the assertion's message: what the servers said of it."""
    kept = summary.get("server_logs")
    if not kept:
        return ""
    tails = []
    for path in sorted(Path(kept).glob("server-*.log")):
        lines = path.read_text(errors="replace").splitlines()
        tails.append(
            f"--- {path.name}, last {last} of {len(lines)} lines\n" + "\n".join(lines[-last:])
        )
    return "\n".join(tails)


def _assert_sound(summary: dict[str, Any]) -> None:
    assert summary["violations"] == 0, (summary["violation_list"], _server_logs(summary))
    assert summary["moves"] > 0 and summary["acknowledged_actions"] > 0
    assert summary["computer_moves"] > 0
    assert summary["lost"] == summary["duplicated"] == 0


def _assert_tables_resumed(summary: dict[str, Any], chouettes: int) -> None:
    """The chouette tables and the tournaments' matches were played through the kills
    (their logs audited with the rest), and every tournament finished."""
    assert summary["games"]["chouette"] == chouettes
    assert summary["acknowledged_by_kind"]["chouette"] > 0
    assert summary["acknowledged_by_kind"]["tournament"] > 0
    tournaments = summary["tournaments"]
    assert tournaments["finished"] == tournaments["started"] >= 1
    assert tournaments["faults_mid_tournament"] >= 1
    assert tournaments["matches"] == summary["games"]["tournament"] >= 3  # a knockout of 4


@pytest.mark.slow
async def test_kill_nine_across_two_instances_loses_and_doubles_nothing() -> None:
    need_postgres()
    _need_redis_server()
    # Leases of 3 s, not 10: the survivor takes the rooms over sooner, by the same paths.
    # A chouette table (two people on the two instances and a computer) and a knockout
    # of four (each match a room, ~15 s: the kills') are played through the same kills.
    options = Options(
        mode="kill",
        cycles=3,
        games=6,
        chouettes=1,
        tournament_players=4,
        tournaments=1,
        database_url=PG_URL,
        lease_ttl=3.0,
        progress=False,
    )
    summary = await run(options)
    _assert_sound(summary)
    assert {k: summary["games"][k] for k in ("cross", "same", "computer")} == {
        "cross": 4,
        "same": 0,
        "computer": 2,
    }
    _assert_tables_resumed(summary, chouettes=1)
    assert summary["server_starts"] == 2 + 3
    assert summary["reconnects"] >= 3  # every kill dropped at least one seat
    assert summary["reconnect_s"]["max"] < 10


@pytest.mark.slow
def test_sqlite_kill_nine_and_restart_through_the_command_line() -> None:
    done = subprocess.run(
        [*FAULTS, "--sqlite", "--cycles", "3", "--games", "4", *TABLES],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    summary = json.loads(done.stdout)
    _assert_sound(summary)
    assert summary["store"] == "sqlite" and summary["cycles"] == 3
    _assert_tables_resumed(summary, chouettes=2)  # the second of three people
    assert summary["server_starts"] == 1 + 3
    assert summary["reconnects"] >= 3 * 4  # one instance: every seat drops each time
    assert "cycle 3/3" in done.stderr


@pytest.mark.slow
async def test_redis_down_past_the_presence_lifetime_loses_nothing_and_updates_resume() -> None:
    """Redis down for 10 s with the presence renewed every 2 s: the other instance's
    sockets stop counting after 6 s (``PRESENCE_LIFETIME`` intervals), as they do after
    15 s in the bench's 30 s outage at the default 5 s (``ginrummy bench faults
    --redis-outage 30``, bench/RESULTS.md): the same paths, a third of the waiting."""
    need_postgres()
    _need_redis_server()
    options = Options(
        mode="redis-outage",
        games=6,
        outage=10.0,
        presence_interval=2.0,
        database_url=PG_URL,
        progress=False,
    )
    summary = await run(options)
    _assert_sound(summary)
    during = summary["versions_during_outage"]
    # Seats on one instance play on through the local bus (the computer too)...
    assert during["same"] > 0 and during["computer"] > 0
    # ...seats on two instances wait, and catch up by themselves within 2 s of its return.
    assert summary["seats_behind_at_return"] >= 1
    assert summary["resume_s_max"] < 2.0


async def test_the_bus_publishes_again_after_redis_restarts(
    private_redis: tuple[int, Any],  # noqa: F811
) -> None:
    """Pooled connections die with the Redis server: after its return the first publish
    must not switch the instance's fan-out off for good (found by the outage run)."""
    port, (start, stop) = private_redis
    url = f"redis://127.0.0.1:{port}/0"
    a, b = RedisBus(url), RedisBus(url)
    topic = "room-restart"
    local, remote = a.subscribe(topic), b.subscribe(topic)
    try:
        await asyncio.wait_for(asyncio.gather(a.connected.wait(), b.connected.wait()), 5)
        await a.publish(topic, {"kind": "action", "version": 1})  # a pooled connection
        for sub in (local, remote):
            assert (await asyncio.wait_for(sub.get(), 2))["version"] == 1
        stop()
        await asyncio.sleep(1.5)
        start()
        for sub in (local, remote):
            assert await asyncio.wait_for(sub.get(), 5) == {"kind": "resync"}
        await asyncio.wait_for(asyncio.gather(a.connected.wait(), b.connected.wait()), 5)
        for version in (2, 3):
            await a.publish(topic, {"kind": "action", "version": version})
        got = [(await asyncio.wait_for(remote.get(), 2))["version"] for _ in range(2)]
        assert got[-1] == 3
    finally:
        local.close()
        remote.close()
        await a.close()
        await b.close()
