"""What each test costs: its wall time and the CPU time of its whole process tree.

A pytest plugin for the suite's own budget (bench/RESULTS.md, "The suite's time"): with
``GINRUMMY_TEST_COSTS=<file>`` set, every test appends one JSON line to ``<file>``:
its node id, its layer, its wall time (setup, call and teardown) and the CPU seconds
spent meanwhile by the pytest process and everything it started (servers, Chromium,
Node), read from Linux's ``/proc`` at the test's start and end and every second between
(each reading scans every process of the machine; with a reading every 0.2 s a run of
the whole suite took 17½ minutes against 15 without the meter). Wall time on a shared
machine says how busy the machine was; CPU time says what the test itself asks of it,
so it is what the suite's 2-core budget is made of. Summarise a run with
``python tests/suite_costs.py <file>``.

Off by default: nothing is read or written unless the variable is set.
"""

from __future__ import annotations

import json
import os
import sys
import threading
import time
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path

import pytest

ENV = "GINRUMMY_TEST_COSTS"
TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


Key = tuple[int, int]  # a process: its pid and its start time (a pid is used again)


def _stat(pid: int) -> tuple[int, Key, float] | None:
    """(parent pid, the process's key, its own CPU seconds), or None when it is gone."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    # The command name is in parentheses and may hold spaces: split after its end.
    fields = text[text.rindex(")") + 2 :].split()
    ppid, started = int(fields[1]), int(fields[19])
    return ppid, (pid, started), (int(fields[11]) + int(fields[12])) / TICKS


def tree_cpu(root: int) -> dict[Key, float]:
    """The own CPU seconds of ``root`` and of each live descendant.

    Own time only: a process's reaped children are left out, as each was counted while it
    lived (a browser's time would be counted again when the driver that reaped it ends)."""
    stats: dict[int, tuple[int, Key, float]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            got = _stat(int(entry.name))
            if got is not None:
                stats[int(entry.name)] = got
    children: dict[int, list[int]] = defaultdict(list)
    for pid, (ppid, _, _) in stats.items():
        children[ppid].append(pid)
    tree: dict[Key, float] = {}
    todo = [root]
    while todo:
        pid = todo.pop()
        if pid in stats:
            tree[stats[pid][1]] = stats[pid][2]
        todo.extend(children.get(pid, ()))
    return tree


def tree_cpu_seconds(root: int) -> float:
    """The own CPU seconds of ``root`` and every live descendant, summed."""
    return sum(tree_cpu(root).values())


class Sampler:
    """Reads the tree every ``every`` seconds in a thread, so that a process that ends
    during a test still counts with what it used until shortly before its end (one that
    lives less than ``every`` is missed)."""

    def __init__(self, root: int, every: float = 1.0) -> None:
        self.root, self.every = root, every
        self.lock = threading.Lock()
        self.latest: dict[Key, float] = {}
        self.touched: set[Key] = set()
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._run, name="test-costs", daemon=True)
        self.thread.start()

    def __enter__(self) -> Sampler:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Stop reading (each reading scans every process of the machine)."""
        self.stop.set()
        self.thread.join()

    def _run(self) -> None:
        while not self.stop.wait(self.every):
            self.sample()

    def sample(self) -> dict[Key, float]:
        now = tree_cpu(self.root)
        with self.lock:
            self.latest.update(now)
            self.touched.update(now)
        return now

    def begin(self) -> dict[Key, float]:
        """A test starts: the tree as it is, and a fresh set of processes seen."""
        now = tree_cpu(self.root)
        with self.lock:
            self.latest.update(now)
            self.touched = set(now)
        return now

    def spent_since(self, start: dict[Key, float]) -> float:
        """CPU seconds used by the processes seen since ``start`` was taken."""
        self.sample()
        with self.lock:
            return sum(max(self.latest[k] - start.get(k, 0.0), 0.0) for k in self.touched)


class Costs:
    """Writes a line a test to ``path``."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.sampler = Sampler(os.getpid())

    def pytest_unconfigure(self) -> None:
        self.sampler.close()

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_protocol(self, item: pytest.Item) -> Iterator[None]:
        cpu0, wall0 = self.sampler.begin(), time.monotonic()
        yield
        cpu, wall = self.sampler.spent_since(cpu0), time.monotonic() - wall0
        layer = next(
            (m for m in ("browser", "system", "unit") if item.get_closest_marker(m)), "unit"
        )
        line = {"test": item.nodeid, "layer": layer, "wall": round(wall, 3), "cpu": round(cpu, 2)}
        with self.path.open("a") as out:
            out.write(json.dumps(line) + "\n")


def pytest_configure(config: pytest.Config) -> None:
    target = os.environ.get(ENV)
    if target and Path("/proc/self/stat").exists():
        config.pluginmanager.register(Costs(Path(target)), "ginrummy-test-costs")


def summary(lines: list[dict[str, object]], top: int = 25) -> str:
    """The run's CPU and wall time by directory and layer, and the costliest tests."""
    out: list[str] = []
    cpu_all = sum(float(str(x["cpu"])) for x in lines)
    wall_all = sum(float(str(x["wall"])) for x in lines)
    out.append(
        f"{len(lines)} tests: CPU {cpu_all:.0f} s, wall (summed over workers) {wall_all:.0f} s"
    )
    groups: dict[str, list[float]] = defaultdict(lambda: [0, 0.0, 0.0])
    for x in lines:
        test = str(x["test"])
        top_dir = "/".join(test.split("::", maxsplit=1)[0].split("/")[:2])
        for key in (top_dir, f"layer {x['layer']}"):
            g = groups[key]
            g[0] += 1
            g[1] += float(str(x["cpu"]))
            g[2] += float(str(x["wall"]))
    out.append(f"{'part':<34}{'tests':>6}{'CPU s':>9}{'wall s':>9}")
    for key, (n, cpu, wall) in sorted(groups.items(), key=lambda kv: -kv[1][1]):
        out.append(f"{key:<34}{int(n):>6}{cpu:>9.0f}{wall:>9.0f}")
    out.append(f"\nthe {top} costliest tests by CPU:")
    for x in sorted(lines, key=lambda x: -float(str(x["cpu"])))[:top]:
        out.append(f"{float(str(x['cpu'])):>7.1f} {float(str(x['wall'])):>7.1f}  {x['test']}")
    return "\n".join(out)


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: python tests/suite_costs.py <file written with GINRUMMY_TEST_COSTS>")
    rows = [json.loads(line) for line in Path(sys.argv[1]).read_text().splitlines() if line]
    print(summary(rows))
