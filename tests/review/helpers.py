"""Records to review: bot matches from a fixed seed, and explicit scenarios."""

from __future__ import annotations

from ginrummy.benchmarks.review import bot_match as benchmark_match
from ginrummy.engine import MatchRecord, Rules
from ginrummy.review import Budget

# Small budgets keep the suite fast; the judgements are still real rollouts.
TINY = Budget(samples=3, screen=1, keep=2, confirm=2)


def bot_match(
    seed: int, one: str = "expert", two: str = "strong", rules: Rules | None = None
) -> MatchRecord:
    """A match between two bots, everything derived from ``seed`` (the benchmark's)."""
    return benchmark_match(one, two, seed, rules)


def first_rounds(record: MatchRecord, n: int) -> MatchRecord:
    return MatchRecord(record.rules, record.first_dealer, record.rounds[:n])
