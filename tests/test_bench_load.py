"""``ginrummy bench load`` drives real server processes and reports its figures."""

from __future__ import annotations

import json
import random
import subprocess
import sys

import pytest

from ginrummy.benchmarks.load import choose

# A server, a service or a bench: the system layer (tests/conftest.py).
pytestmark = pytest.mark.system

BENCH = [sys.executable, "-m", "ginrummy", "bench", "load"]


def test_choose_plays_only_what_the_view_allows() -> None:
    view = {
        "legal_actions": ["discard 2c", "discard Kh", "discard 9d"],
        "arrangement": {"deadwood_cards": ["2c", "9d", "Kh"]},
    }
    rng = random.Random(1)
    assert choose(view, rng) == "discard Kh"
    assert choose({"legal_actions": ["take", "pass"]}, rng) == "pass"
    assert choose({"legal_actions": ["discard 5s", "knock 5s"]}, rng) == "knock 5s"
    assert choose({"legal_actions": []}, rng) is None


def test_bench_load_runs_games_without_errors() -> None:
    done = subprocess.run(
        [*BENCH, "--games", "3", "--think", "0", "--seconds", "3", "--warmup", "1"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    result = json.loads(done.stdout)
    assert result["games"] == 3 and result["sockets"] == 6
    assert result["moves"] > 0
    assert result["errors"] == 0, result["error_codes"]
    assert result["rtt_ms"]["p99"] >= result["rtt_ms"]["p50"] > 0
    assert result["servers_died"] == []
    # The load generator shares the machine: its own cost is reported beside the server's.
    for key in ("loadgen_cpu_percent", "server_cpu_ms_per_move", "loadgen_cpu_ms_per_move"):
        assert result[key] > 0, key


def test_bench_load_refuses_several_instances_without_shared_backends() -> None:
    done = subprocess.run(
        [*BENCH, "--instances", "2"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        env={"PATH": "/usr/bin:/bin"},
    )
    assert done.returncode != 0
    assert "DATABASE_URL" in done.stderr
