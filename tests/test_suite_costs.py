"""The suite's cost meter (tests/suite_costs.py) counts a child's CPU and sums a run."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from suite_costs import Sampler, summary, tree_cpu_seconds

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="Linux's /proc")


BURN = "import time\nt = time.process_time()\nwhile time.process_time() - t < {s}: pass\n"


def test_a_child_process_that_ended_during_the_test_counts() -> None:
    with Sampler(os.getpid(), every=0.05) as sampler:
        start = sampler.begin()
        subprocess.run([sys.executable, "-c", BURN.format(s=0.6)], check=True)
        assert 0.4 <= sampler.spent_since(start) < 1.5
    assert not sampler.thread.is_alive()  # it stops reading /proc once closed


def test_a_process_is_counted_once_and_only_for_what_it_used_during_the_test() -> None:
    with Sampler(os.getpid(), every=0.05) as sampler:
        burn = BURN.format(s=0.4) + "print('burnt', flush=True)\ntime.sleep(30)"
        child = subprocess.Popen([sys.executable, "-c", burn], stdout=subprocess.PIPE, text=True)
        try:
            # The child burns before the test starts, then sleeps: the test starts once it
            # says so (not after a fixed wait, which a loaded machine outlasts).
            assert child.stdout is not None and child.stdout.readline() == "burnt\n"
            time.sleep(0.1)  # a sample of the sleeping child before the test starts
            start = sampler.begin()
            time.sleep(0.3)
            assert sampler.spent_since(start) < 0.2
        finally:
            child.kill()
            child.communicate()  # waits, and closes its pipe
        start = sampler.begin()  # a test after its end: its time is not counted again
        assert sampler.spent_since(start) < 0.2


def test_an_unknown_process_costs_nothing() -> None:
    assert tree_cpu_seconds(2**22 + 1) == 0.0


def test_the_plugin_writes_a_line_a_test(tmp_path: Path) -> None:
    (tmp_path / "test_two.py").write_text("def test_a():\n    pass\n\ndef test_b():\n    pass\n")
    out = tmp_path / "costs.jsonl"
    env = {**os.environ, "GINRUMMY_TEST_COSTS": str(out)}
    here = Path(__file__).parent
    cmd = [sys.executable, "-m", "pytest", "-q", "-p", "no:xdist", "-p", "suite_costs"]
    cmd += ["-p", "no:cacheprovider", str(tmp_path)]
    done = subprocess.run(
        cmd, env={**env, "PYTHONPATH": str(here)}, cwd=tmp_path, capture_output=True, check=False
    )
    assert done.returncode == 0, done.stdout.decode()
    lines = [json.loads(x) for x in out.read_text().splitlines()]
    assert [x["test"].split("::")[1] for x in lines] == ["test_a", "test_b"]
    assert all(x["wall"] >= 0 and x["cpu"] >= 0 for x in lines)


def test_the_summary_sums_by_part_and_lists_the_costliest() -> None:
    rows: list[dict[str, object]] = [
        {"test": "tests/a/test_x.py::t1", "layer": "unit", "wall": 1.0, "cpu": 2.0},
        {"test": "tests/a/test_y.py::t2", "layer": "browser", "wall": 4.0, "cpu": 9.5},
        {"test": "tests/test_z.py::t3", "layer": "unit", "wall": 0.5, "cpu": 0.25},
    ]
    text = summary(rows, top=2)
    assert text.splitlines()[0] == "3 tests: CPU 12 s, wall (summed over workers) 6 s"
    assert "tests/a" in text and "layer browser" in text
    costliest = text.split("costliest tests by CPU:")[1].splitlines()[1:]
    assert [line.split()[-1] for line in costliest] == [
        "tests/a/test_y.py::t2",
        "tests/a/test_x.py::t1",
    ]
