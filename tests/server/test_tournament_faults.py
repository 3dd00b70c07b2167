"""A 16-player Swiss tournament across two server processes on one SQLite file: the
instance that pairs is killed with ``kill -9`` mid-tournament, the other carries on
once its lease runs out, and the log is audited: contiguous, one result per match,
every round complete, finished as planned."""

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
from pathlib import Path
from typing import Any

import pytest

from ginrummy.server.store import open_store
from ginrummy.tournament import MatchResult, Phase, RoundPaired, from_record, rebuild

ROOT = Path(__file__).resolve().parents[2]


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


def _serve(db: Path, name: str, data_dir: Path) -> tuple[subprocess.Popen[bytes], str]:
    port = _free_port()
    env = {
        **os.environ, "GINRUMMY_DB": f"sqlite:///{db}", "GINRUMMY_INSTANCE_ID": name,
        "GINRUMMY_LEASE_TTL": "2", "GINRUMMY_LEASE_RENEW": "0.5",
        "GINRUMMY_TOURNAMENT_TICK": "0.2", "GINRUMMY_BOT_DELAY": "0",
    }  # fmt: skip
    env.pop("DATABASE_URL", None)
    env.pop("REDIS_URL", None)
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


def _holder(db: Path, tid: str) -> str | None:
    with sqlite3.connect(db) as conn:
        row = conn.execute("SELECT holder FROM leases WHERE room = ?", (f"t:{tid}",)).fetchone()
    return None if row is None else str(row[0])


async def _audit(db: Path, tid: str) -> dict[str, Any]:
    store = open_store(f"sqlite:///{db}")
    await store.open()
    try:
        stored = await store.load_tournament(tid)
    finally:
        await store.close()
    assert stored is not None
    assert [e.seq for e in stored.events] == list(range(1, len(stored.events) + 1))
    events = [from_record(e.kind, e.payload) for e in stored.events]
    state = rebuild(events)
    results = Counter(e.match_id for e in events if isinstance(e, MatchResult))
    paired = [p.match_id for e in events if isinstance(e, RoundPaired) for p in e.pairings]
    matches = [m for m in paired if m is not None]
    assert len(set(matches)) == len(matches)  # a match id (a room) is never reused
    assert set(results) == set(matches) and max(results.values()) == 1
    return {"state": state, "matches": len(matches)}


@pytest.mark.slow
def test_kill_nine_of_the_pairing_instance_loses_and_doubles_nothing(tmp_path: Path) -> None:
    db = tmp_path / "shared.sqlite3"
    a, url_a = _serve(db, "i_a", tmp_path / "a")
    b, url_b = _serve(db, "i_b", tmp_path / "b")
    try:
        token = _call(f"{url_a}/api/identity", "POST", {})["token"]
        body = {"name": "Fault Cup", "format": "swiss", "max_players": 16,
                "computer_level": "baseline", "target_score": 100}  # fmt: skip
        tid = _call(f"{url_a}/api/tournaments", "POST", body, token)["tournament"]["id"]
        _call(f"{url_a}/api/tournaments/{tid}/start", "POST", {}, token)
        deadline = time.monotonic() + 60
        while True:  # the first round is decided: kill whoever pairs
            t = _call(f"{url_b}/api/tournaments/{tid}")["tournament"]
            if t["round"] >= 2 and t["phase"] == "running":
                break
            assert t["phase"] == "running" and time.monotonic() < deadline, t
            time.sleep(0.05)
        holder = _holder(db, tid)
        assert holder in ("i_a", "i_b")
        victim, survivor = (a, url_b) if holder == "i_a" else (b, url_a)
        victim.send_signal(signal.SIGKILL)
        victim.wait(timeout=10)
        deadline = time.monotonic() + 120
        while (t := _call(f"{survivor}/api/tournaments/{tid}")["tournament"])[
            "phase"
        ] != "finished":
            assert time.monotonic() < deadline, t
            time.sleep(0.2)
        assert _holder(db, tid) != holder  # the survivor took the lease over
    finally:
        for proc in (a, b):
            if proc.poll() is None:
                proc.terminate()
                proc.wait(timeout=10)
    audit = asyncio.run(_audit(db, tid))
    state = audit["state"]
    assert state.phase is Phase.FINISHED and t["finish"] == "completed"
    assert len(state.rounds) == state.planned_rounds == 5  # ceil(log2 16) + 1
    assert audit["matches"] == 5 * 8
    assert [s.rank for s in state.standings()] == list(range(1, 17))
