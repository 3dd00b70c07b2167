"""``ginrummy bench chromium`` times the levels in a page and asks the game's own decider,
which thinks in a module Web Worker, while it watches the page (the figures themselves
are bench/RESULTS.md's, not asserted here)."""

from __future__ import annotations

from typing import Any

import pytest

from ginrummy.benchmarks.chromium import measure

pytestmark = pytest.mark.browser


def test_the_levels_are_timed_in_the_page_and_the_worker_answers_every_question(
    server: Any, browser: Any
) -> None:
    options = {"decisions": 24, "seed": 3, "levels": ["beginner", "master"], "asks": 4}
    got = measure(browser, server.url, {**options, "think": "master"})
    assert got["decisions"] == 24
    for level in ("beginner", "master", "coach"):
        times = got[level]
        assert 0 <= times["median_ms"] <= times["p99_ms"] <= times["max_ms"], (level, times)
    worker = got["worker"]
    assert (worker["level"], worker["asks"], worker["where"]) == ("master", 4, "worker")
    assert 0 < worker["answer"]["median_ms"] <= worker["answer"]["max_ms"]
    assert worker["longest_task_ms"] >= 0 and worker["long_tasks"] >= 0


def test_an_unknown_level_fails_in_the_page_before_any_work(server: Any, browser: Any) -> None:
    with pytest.raises(Exception, match="nobody"):
        measure(
            browser,
            server.url,
            {"decisions": 4, "seed": 1, "levels": ["nobody"], "asks": 1, "think": "master"},
        )
