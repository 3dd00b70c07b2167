"""``ginrummy bench web``'s figure for the click to a hand: p50, max and who acted first."""

from __future__ import annotations

from ginrummy.benchmarks.web import summary


def test_summary_gives_p50_max_and_the_runs_the_person_acted_first() -> None:
    samples = [
        {"hand_ms": 40.0, "move_ms": 40.0},  # the person's decision came with the hand
        {"hand_ms": 90.04, "move_ms": 700.0},
        {"hand_ms": 60.0, "move_ms": 650.0},
    ]
    assert summary(samples) == {
        "hand_ms": {"p50": 60.0, "max": 90.0},
        "move_ms": {"p50": 650.0, "max": 700.0},
        "person_first": 1,
    }
