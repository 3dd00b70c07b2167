"""The table as a game screen (issue 19, items 1 and 2), what tests/browser/test_one_screen.py
leaves out: a round's and a match's result in the window without scrolling, the chouette
and the tournament tables on one screen, the settings menu of a narrow window and the
device note's close button, and bad input: a window resized or turned in the middle of a
move, a font twice as large."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from .helpers import EN, play_round, status
from .test_device import device_page
from .test_one_screen import SETTLE, SLACK
from .test_solo import start_solo

pytestmark = pytest.mark.browser

PHONE = {"has_touch": True, "is_mobile": True}

# The box of the result (the round's, or the match's with it) and of its button, the
# document's height and scroll.
RESULT = """() => {
  const box = (el) => el && el.getBoundingClientRect().toJSON();
  const end = document.querySelector("main .round-end");
  return {
    end: box(end), scrollY: window.scrollY, docHeight: document.documentElement.scrollHeight,
    height: window.innerHeight, width: window.innerWidth,
  };
}"""


def result_problems(page: Any, size: tuple[int, int]) -> list[str]:
    """What keeps a round's result from lying wholly in the window at ``size``."""
    width, height = size
    page.set_viewport_size({"width": width, "height": height})
    page.evaluate(SETTLE)
    m = page.evaluate(RESULT)
    at = f"{width}×{height}"
    problems = []
    end = m["end"]
    if end is None:
        return [f"{at}: no result shown"]
    if m["scrollY"] != 0:
        problems.append(f"{at}: the document is scrolled to {m['scrollY']}")
    if m["docHeight"] > height + SLACK:
        problems.append(f"{at}: the document is {m['docHeight']} px high, the window {height}")
    if end["top"] < -SLACK or end["bottom"] > height + SLACK:
        problems.append(f"{at}: the result reaches from y={end['top']:.0f} to {end['bottom']:.0f}")
    return problems


def test_round_result_is_compact_and_in_the_window(
    server: Any, new_page: Any, artifacts: Path
) -> None:
    """A round's result (both hands' melds and deadwood in rows of small cards, the
    calculation in a short table, the match score, "Next round") lies wholly in the window
    at a laptop's size and on a phone upright, the document no taller than the window (on a
    smaller phone it may reach below, "Next round" kept in the window: test_one_screen.py)."""
    rng = random.Random(5)
    page = device_page(new_page, width=390, height=844, **PHONE)
    start_solo(page, server.url, "200")
    play_round(page, rng)
    expect(status(page)).to_contain_text(EN.press_next)
    problems = []
    for size in [(390, 844), (1366, 768)]:
        problems += result_problems(page, size)
        page.screenshot(path=str(artifacts / f"round-result-{size[0]}x{size[1]}.png"))
    assert not problems, "\n".join(problems)
    page.get_by_role("button", name=EN.next_round).click()
    expect(status(page)).not_to_contain_text(EN.press_next)
    assert not page.errors
