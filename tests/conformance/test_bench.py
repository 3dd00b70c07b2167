"""`node src/ginrummy/web/js/engine/bench.mjs` runs and prints the figures of
`ginrummy bench engine`, and `node src/ginrummy/web/js/bots/bench.mjs` those of `ginrummy
bench bots` (short runs; the speed itself is compared by hand, see
docs/browser-engine.md)."""

from __future__ import annotations

import json
import random
import shutil
import subprocess

import pytest

from ginrummy.engine import DECK

from . import harness

# A server, a service or a bench: the system layer (tests/conftest.py).
pytestmark = pytest.mark.system

BENCH = harness.ROOT / "src" / "ginrummy" / "web" / "js" / "engine" / "bench.mjs"
BOTS_BENCH = harness.ROOT / "src" / "ginrummy" / "web" / "js" / "bots" / "bench.mjs"


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_the_node_bench_reads_python_hands_and_prints_every_figure() -> None:
    rng = random.Random(1)
    hands = "".join(" ".join(map(str, rng.sample(DECK, 10))) + "\n" for _ in range(300))
    done = subprocess.run(
        [
            "node",
            str(BENCH),
            "--hands",
            "300",
            "--knocks",
            "30",
            "--seconds",
            "0.2",
            "--hands-from",
            "-",
        ],
        input=hands,
        capture_output=True,
        text=True,
        check=True,
    )
    data = json.loads(done.stdout)
    for key in ("best_arrangement_10", "best_arrangement_and_discards_11", "settle"):
        assert data[key]["median_us"] > 0
    assert data["hands_from"] == "-"
    assert data["random_rounds_per_second"] > 0


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_the_node_bots_bench_times_each_level_named_and_the_coach() -> None:
    done = subprocess.run(
        ["node", str(BOTS_BENCH), "--decisions", "30", "--levels", "beginner,expert"],
        capture_output=True,
        text=True,
        check=True,
    )
    data = json.loads(done.stdout)
    assert data["decisions"] == 30
    assert set(data) == {"decisions", "node", "beginner", "expert", "coach"}
    for level in ("beginner", "expert", "coach"):
        got = data[level]
        assert 0 <= got["median_ms"] <= got["p99_ms"] <= got["max_ms"], (level, got)
        assert got["cpu_median_ms"] <= got["cpu_p99_ms"], (level, got)
