"""``ginrummy bench deploy`` restarts every instance under play and audits every log: a
tiny run (4 games, 2 instances on PostgreSQL and a private Redis, a few seconds each
way). It needs PostgreSQL and ``redis-server``; with ``CI=true`` a missing one fails."""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
import sys

import pytest

from ginrummy.benchmarks.deploy import Restart
from ginrummy.benchmarks.fault_client import BACKOFF_MAX_S, retry_delay
from ginrummy.benchmarks.faults import SLOWEST, Stats
from ginrummy.benchmarks.serverside import Tally, parse

from .test_postgres import PG_URL, need_postgres

BENCH = [sys.executable, "-m", "ginrummy", "bench", "deploy"]


def test_a_wait_counts_as_during_a_restart_if_it_overlaps_one() -> None:
    restart = Restart(0, signalled=10.0, exited=11.0, ready=14.0, status=0)
    assert restart.overlaps(9.5, 0.6) and restart.overlaps(13.9, 5.0)
    assert not restart.overlaps(9.0, 0.5) and not restart.overlaps(14.1, 0.1)


def test_the_clients_back_off_exponentially_with_jitter() -> None:
    rng = random.Random(3)
    firsts = {round(retry_delay(0, rng), 4) for _ in range(20)}
    assert len(firsts) > 10 and all(0.1 <= d <= 0.2 for d in firsts)
    assert all(BACKOFF_MAX_S / 2 <= retry_delay(40, rng) <= BACKOFF_MAX_S for _ in range(20))


def test_the_summary_keeps_the_steps_of_the_longest_waits_only() -> None:
    stats = Stats()
    for n in range(SLOWEST + 3):
        wait = [0.5, 4.0, 0.1, 2.0, 3.0, 0.2, 6.0, 1.0][n]
        stats.timeline(100.0, 100.0 + wait, [("closed 1012", 100.25), ("welcome", 101.5)])
    assert [w for w, _ in stats.slowest] == [6.0, 4.0, 3.0, 2.0, 1.0]
    assert stats.slowest[0][1] == ["+0.25s closed 1012", "+1.50s welcome", "+6.00s answered"]


def _scrape(hellos: list[float], appends: list[float]) -> str:
    """A server's metrics text with ``hellos`` and ``appends`` observed (seconds)."""
    from prometheus_client import CollectorRegistry, Histogram, generate_latest

    from ginrummy.server.metrics import MOVE_BUCKETS, STORE_BUCKETS

    r = CollectorRegistry()
    hello = Histogram("ginrummy_hello_seconds", "h", buckets=MOVE_BUCKETS, registry=r)
    store = Histogram("ginrummy_store_seconds", "s", ["op"], buckets=STORE_BUCKETS, registry=r)
    for s in hellos:
        hello.observe(s)
    for s in appends:
        store.labels("append_events").observe(s)
    return generate_latest(r).decode()


def test_the_servers_figures_count_from_the_start_and_across_processes() -> None:
    tally = Tally()
    tally.start(parse(_scrape([0.01] * 10, [0.002] * 4)))  # before measuring: not counted
    tally.add(parse(_scrape([0.01] * 10 + [0.02, 3.0], [0.002] * 4 + [0.004])))
    tally.add(parse(_scrape([1.5, 6.0], [])))  # a process started during the run
    summary = tally.summary()
    assert summary["hellos"] == 4
    assert summary["hello_mean_ms"] == pytest.approx(1000 * (0.02 + 3.0 + 1.5 + 6.0) / 4, 0.01)
    assert summary["hellos_slower"] == {"over_1s": 3, "over_2.5s": 2, "over_5s": 1}
    assert summary["store"] == {"append_events": {"calls": 1, "mean_ms": 4.0}}
    assert summary["moves"] == 0 and summary["move_mean_ms"] is None


@pytest.mark.system  # a server process
def test_bench_deploy_loses_nothing_across_a_rolling_restart() -> None:
    need_postgres()
    if shutil.which("redis-server") is None:
        if os.environ.get("CI") == "true":
            pytest.fail("redis-server is required in CI for the deploy bench")
        pytest.skip("redis-server not installed")
    args = ["--games", "4", "--think", "0.3", "--warmup", "2", "--between", "1"]
    # A grace period of 6 s: the sockets are told over 2.25 s (server/drain.py), not 8.5.
    args += ["--after", "2", "--bot-delay", "0.1", "--drain-s", "6", "--db", PG_URL]
    done = subprocess.run([*BENCH, *args], capture_output=True, text=True, timeout=240, check=False)
    assert done.returncode == 0, (done.stdout[-3000:], done.stderr[-2000:])
    result = json.loads(done.stdout)
    assert [r["exit_status"] for r in result["restarts"]] == [0, 0]  # drained in time
    assert result["acknowledged_actions"] > 0
    assert result["lost_actions"] == 0 and result["duplicated_actions"] == 0
    assert result["violations"] == 0, result["violation_list"]
    saw = result["clients_saw"]
    assert saw["errors_a_person_would_see"] == 0, saw
    # Every socket the restarts closed was told to come back (1012), none just dropped.
    assert set(saw["close_codes"]) == {"1012"}, saw
    during = result["move_rtt"]["during_restarts"]
    assert during["moves"] > 0 and result["wait_goal_met"], result
    assert result["slowest_waits"][0]["steps"][-1].endswith("answered"), result
    measured = result["servers_measured"]  # the new processes' hellos at least
    assert measured["hellos"] > 0 and measured["store"]["append_events"]["calls"] > 0, measured
