"""What the servers themselves measured during a bench run, read from their ``GET
/metrics`` (docs/operations.md, "Metrics"): how long hellos and moves took and how long
each store operation took, summed over every process of the run.

A process's counters start at zero and die with it, so a rolling restart reads each
instance twice: when the part of the run to measure starts (``Tally.start``, subtracted
later) and just before it is stopped (``Tally.add``); a process started during the run
counts from zero. Only histograms are read (their ``_bucket``, ``_sum`` and ``_count``).
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

HELLO = "ginrummy_hello_seconds"
MOVE = "ginrummy_move_seconds"
STORE = "ginrummy_store_seconds"
SLOW_S = (1.0, 2.5, 5.0)  # hellos and moves slower than these are counted (bucket bounds)

# (metric, op label or "", le bound or "sum"/"count") -> value
Key = tuple[str, str, str]


def parse(text: str) -> dict[Key, float]:
    """The hello and store histograms of one scrape, by (metric, op, le|sum|count)."""
    from prometheus_client.parser import text_string_to_metric_families

    values: dict[Key, float] = {}
    for family in text_string_to_metric_families(text):
        if family.name not in (HELLO, MOVE, STORE):
            continue
        for s in family.samples:
            op = s.labels.get("op", "")
            if s.name.endswith("_bucket"):
                values[(family.name, op, s.labels["le"])] = s.value
            elif s.name.endswith("_sum"):
                values[(family.name, op, "sum")] = s.value
            elif s.name.endswith("_count"):
                values[(family.name, op, "count")] = s.value
    return values


@dataclass
class Tally:
    """The histograms summed over processes, less what each had when measuring began."""

    total: defaultdict[Key, float] = field(default_factory=lambda: defaultdict(float))

    def start(self, scraped: Mapping[Key, float]) -> None:
        """A process already running when measuring begins: its counts so far are not
        part of the run."""
        for key, v in scraped.items():
            self.total[key] -= v

    def add(self, scraped: Mapping[Key, float]) -> None:
        """A process's counts, read just before it stops (or at the end)."""
        for key, v in scraped.items():
            self.total[key] += v

    def summary(self) -> dict[str, Any]:
        """Hellos (how many, mean, how many slower than ``SLOW_S``) and the store's
        operations by the time they took in all (count, mean), the costliest first."""
        t = self.total
        hellos, moves = t[(HELLO, "", "count")], t[(MOVE, "", "count")]
        ops = sorted(
            {op for (name, op, _) in t if name == STORE}, key=lambda op: -t[(STORE, op, "sum")]
        )
        store = {
            op: {
                "calls": round(t[(STORE, op, "count")]),
                "mean_ms": _mean_ms(t[(STORE, op, "sum")], t[(STORE, op, "count")]),
            }
            for op in ops
            if t[(STORE, op, "count")] > 0
        }
        return {
            "hellos": round(hellos),
            "hello_mean_ms": _mean_ms(t[(HELLO, "", "sum")], hellos),
            "hellos_slower": self._slower(HELLO),
            "moves": round(moves),
            "move_mean_ms": _mean_ms(t[(MOVE, "", "sum")], moves),
            "moves_slower": self._slower(MOVE),
            "store": store,
        }

    def _slower(self, metric: str) -> dict[str, int]:
        """How many observations of ``metric`` took longer than each of ``SLOW_S``."""
        t = self.total
        count = t[(metric, "", "count")]
        return {f"over_{b:g}s": round(count - t[(metric, "", _le(b))]) for b in SLOW_S}


def _le(bound: float) -> str:
    """The ``le`` label of a bucket bound as prometheus_client writes it."""
    return "+Inf" if math.isinf(bound) else repr(float(bound))


def _mean_ms(seconds: float, count: float) -> float | None:
    return round(1000 * seconds / count, 2) if count > 0 else None
