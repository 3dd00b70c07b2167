"""A 16-player Swiss tournament of computer players across two server processes that
share a store: the instance that pairs is killed with ``kill -9`` mid-round, the other
carries on once its lease runs out, the killed one is restarted mid-tournament (the
other stopped meanwhile with ``SIGSTOP``, so that its lease runs out too), and the log
is audited: contiguous, every round paired exactly once, one result per match, no match
created twice, finished as planned.

Two stores: one SQLite file (local bus), and PostgreSQL (a schema of its own) with a
private Redis for the bus, as the issue states it; with ``CI=true`` a missing
PostgreSQL or ``redis-server`` fails the run instead of skipping it.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import socket
import sqlite3
import subprocess
import sys
import time
import urllib.request
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from ginrummy.server.store import open_store
from ginrummy.tournament import MatchResult, Phase, RoundPaired, from_record, rebuild

from .test_postgres import PG_URL, fresh_schema
from .test_redis_bus import private_redis  # noqa: F401  (a fixture)

# A server, a service or a bench: the system layer (tests/conftest.py).
pytestmark = pytest.mark.system

ROOT = Path(__file__).resolve().parents[2]


@dataclass(frozen=True, slots=True)
class Backend:
    """Where the instances keep their state and how they tell each other."""

    db_url: str
    bus_url: str | None  # None: each instance's local bus only

    def holder(self, tid: str) -> str | None:
        """The instance holding the tournament's lease, read straight from the store."""
        sql = "SELECT holder FROM leases WHERE room = %s"
        if self.db_url.startswith("sqlite:///"):
            with sqlite3.connect(self.db_url.removeprefix("sqlite:///")) as conn:
                row = conn.execute(sql.replace("%s", "?"), (f"t:{tid}",)).fetchone()
        else:
            import psycopg

            schema = self.db_url.rsplit("search_path=", 1)[1]
            with psycopg.connect(PG_URL.replace("postgres://", "postgresql://", 1)) as db:
                db.execute(f'SET search_path TO "{schema}"'.encode())
                row = db.execute(sql, (f"t:{tid}",)).fetchone()
        return None if row is None else str(row[0])


@pytest.fixture(params=["sqlite", "postgres+redis"])
def backend(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Backend]:
    if request.param == "sqlite":
        yield Backend(f"sqlite:///{tmp_path / 'shared.sqlite3'}", None)
        return
    with fresh_schema() as url:
        port, _ = request.getfixturevalue("private_redis")
        yield Backend(url, f"redis://127.0.0.1:{port}/0")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _call(url: str, method: str = "GET", body: Any = None, token: str | None = None) -> Any:
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, headers=headers, method=method)
    with urllib.request.urlopen(request, timeout=10) as answer:
        return json.loads(answer.read())


def _serve(backend: Backend, name: str, data_dir: Path) -> tuple[subprocess.Popen[bytes], str]:
    port = _free_port()
    env = {
        **os.environ, "GINRUMMY_DB": backend.db_url, "GINRUMMY_INSTANCE_ID": name,
        "GINRUMMY_LEASE_TTL": "2", "GINRUMMY_LEASE_RENEW": "0.5",
        "GINRUMMY_TOURNAMENT_TICK": "0.2", "GINRUMMY_BOT_DELAY": "0.01",
    }  # fmt: skip
    for key in ("DATABASE_URL", "REDIS_URL", "GINRUMMY_BUS"):
        env.pop(key, None)
    if backend.bus_url is not None:
        env["GINRUMMY_BUS"] = backend.bus_url
    data_dir.mkdir(exist_ok=True)
    with (data_dir / "server.log").open("ab") as log:
        proc = subprocess.Popen(
            [sys.executable, "-m", "ginrummy", "serve", "--port", str(port),
             "--data-dir", str(data_dir)],
            cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
        )  # fmt: skip
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        assert proc.poll() is None, (data_dir / "server.log").read_text()[-2000:]
        try:
            if _call(f"{url}/api/health").get("ok"):
                return proc, url
        except OSError:
            time.sleep(0.1)
    raise AssertionError("the server did not start")


async def _events(db_url: str, tid: str) -> list[Any]:
    """The tournament's log, read straight from the store: contiguous."""
    store = open_store(db_url)
    await store.open()
    try:
        stored = await store.load_tournament(tid)
    finally:
        await store.close()
    assert stored is not None
    assert [e.seq for e in stored.events] == list(range(1, len(stored.events) + 1))
    return [from_record(e.kind, e.payload) for e in stored.events]


async def _audit(db_url: str, tid: str) -> dict[str, Any]:
    events = await _events(db_url, tid)
    state = rebuild(events)
    results = Counter(e.match_id for e in events if isinstance(e, MatchResult))
    rounds = Counter(e.round for e in events if isinstance(e, RoundPaired))
    assert sorted(rounds) == list(range(1, state.planned_rounds + 1))
    assert set(rounds.values()) == {1}, rounds  # every round paired exactly once
    paired = [p.match_id for e in events if isinstance(e, RoundPaired) for p in e.pairings]
    matches = [m for m in paired if m is not None]
    assert len(set(matches)) == len(matches)  # a match id (a room) is never reused
    assert set(results) == set(matches) and max(results.values()) == 1
    return {"state": state, "matches": len(matches)}


def _wait_phase(url: str, tid: str, done: Any, seconds: float) -> dict[str, Any]:
    """Poll the tournament until ``done(t)`` holds; it must stay running meanwhile."""
    deadline = time.monotonic() + seconds
    while not done(t := _call(f"{url}/api/tournaments/{tid}")["tournament"]):
        assert t["phase"] in ("running", "finished"), t
        assert time.monotonic() < deadline, t
        time.sleep(0.05)
    return dict(t)


@pytest.mark.slow
def test_kill_nine_of_the_pairing_instance_loses_and_doubles_nothing(
    backend: Backend, tmp_path: Path
) -> None:
    procs = {name: _serve(backend, name, tmp_path / name) for name in ("i_a", "i_b")}
    try:
        url_a = procs["i_a"][1]
        token = _call(f"{url_a}/api/identity", "POST", {})["token"]
        body = {"name": "Fault Cup", "format": "swiss", "max_players": 16,
                "computer_level": "baseline", "target_score": 100}  # fmt: skip
        tid = _call(f"{url_a}/api/tournaments", "POST", body, token)["tournament"]["id"]
        _call(f"{url_a}/api/tournaments/{tid}/start", "POST", {}, token)
        # Round 2 is paired and its matches are being played: kill whoever pairs.
        _wait_phase(procs["i_b"][1], tid, lambda t: t["round"] >= 2, 60)
        victim = backend.holder(tid)
        assert victim in procs
        survivor = next(name for name in procs if name != victim)
        procs[victim][0].send_signal(signal.SIGKILL)
        procs[victim][0].wait(timeout=10)
        # The survivor carries on once the victim's lease runs out ...
        deadline = time.monotonic() + 30
        while backend.holder(tid) != survivor:
            assert time.monotonic() < deadline, "the survivor never took the lease"
            time.sleep(0.05)
        # ... and is held still while the victim restarts: a round of computer matches
        # takes less time than a restart under load, so the victim would otherwise come
        # back to a finished tournament. Nothing moves now: the log is read as it stays.
        procs[survivor][0].send_signal(signal.SIGSTOP)
        frozen = rebuild(asyncio.run(_events(backend.db_url, tid)))
        paired = len(frozen.rounds)
        assert frozen.phase is Phase.RUNNING and 2 <= paired < 5, (frozen.phase, paired)
        # It comes straight back under its own name, to this tournament mid-way; the
        # survivor's lease runs out meanwhile, as a stalled holder's does.
        procs[victim] = _serve(backend, victim, tmp_path / victim)
        procs[survivor][0].send_signal(signal.SIGCONT)
        t = _wait_phase(procs[victim][1], tid, lambda t: t["phase"] == "finished", 180)
        assert _call(f"{procs[survivor][1]}/api/tournaments/{tid}")["tournament"] == t
    finally:
        for proc, _ in procs.values():
            if proc.poll() is None:
                proc.send_signal(signal.SIGCONT)  # a stopped process ignores SIGTERM
                proc.terminate()
                proc.wait(timeout=10)
    assert t["finish"] == "completed"
    audit = asyncio.run(_audit(backend.db_url, tid))
    state = audit["state"]
    assert state.phase is Phase.FINISHED
    assert len(state.rounds) == state.planned_rounds == 5  # ceil(log2 16) + 1
    assert audit["matches"] == 5 * 8
    assert [s.rank for s in state.standings()] == list(range(1, 17))
