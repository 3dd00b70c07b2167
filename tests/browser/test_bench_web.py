"""``ginrummy bench web``'s click to a hand (issue 11) reads real marks from the page:
the hand with its cards, then an enabled legal action, online and with the network cut."""

from __future__ import annotations

from typing import Any

import pytest

from ginrummy.benchmarks.web import device_visits

pytestmark = pytest.mark.browser


def test_click_to_hand_marks_both_moments_online_and_offline(server: Any, browser: Any) -> None:
    marks = device_visits(browser, server.url + "/")
    assert set(marks) == {"online", "offline", "online_at_once", "offline_at_once"}
    for where, got in marks.items():
        # A hand comes first; a legal action with it (the person moves first) or after it.
        assert 0 < got["hand_ms"] <= got["move_ms"], (where, got)
        assert got["move_ms"] < 10_000, (where, got)
