"""Learn with tips (docs/rules.md §6): three tips, then off; off after a reload."""

from __future__ import annotations

import random
import re
import time
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from .helpers import DE, EN, actionable, decide, status
from .public import my_turn
from .test_solo import start_solo

pytestmark = pytest.mark.browser


def tips_left(box: Any, w: Any) -> int:
    """The number of tips left, as the tip box shows it (within 5 s: while the coach
    thinks, the box says so instead for a moment)."""
    pattern = r"(\d+) left" if w is EN else r"noch (\d+)"
    deadline = time.monotonic() + 5
    while not (found := re.search(pattern, text := box.inner_text())):
        assert time.monotonic() < deadline, text
        time.sleep(0.05)
    return int(found.group(1))


@pytest.mark.parametrize("w", [EN, DE], ids=["en", "de"])
def test_tips_count_down_as_the_server_says_then_off_also_after_reload(
    server: Any, new_page: Any, artifacts: Path, w: Any
) -> None:
    """The server decides whether tips are allowed, whether they are on and how many are
    left (the ``tips`` message); the page shows the switch only when allowed, shows
    what is left and counts nothing itself. Tips belong to one socket: after a reload
    they are off. Needs the server side of the ``tips`` message (the socket branch)."""
    page = new_page(locale="en-US" if w is EN else "de-DE")
    start_solo(page, server.url, "100", w, verified=True)
    my_turn(page, w)  # the person decides: no round's result (modal) lies over the switch
    toggle = page.get_by_role("button", name=w.tips)
    expect(toggle).to_have_attribute("aria-pressed", "false")
    toggle.click()
    expect(toggle).to_have_attribute("aria-pressed", "true")
    rng = random.Random(1)
    box = page.get_by_role("complementary", name="Tip" if w is EN else "Tipp")
    expect(box).to_contain_text(re.compile(r"\d+ left" if w is EN else r"noch \d+"))
    left = tips_left(box, w)
    assert left > 0
    shot = True
    while left > 0:
        # The deal is random: the computer may end the round; a new round is no decision.
        expect(status(page, w)).to_have_text(actionable(w))
        if w.your_turn not in status(page, w).inner_text():
            decide(page, rng, w, knock=False)
            continue
        if toggle.get_attribute("aria-pressed") == "false":
            break  # the computer ended the round first (a knock): tips end with the round
        expect(box).to_contain_text(
            re.compile("deadwood|meld" if w is EN else "Restpunkte|gemeldet")
        )
        if shot:
            page.screenshot(path=str(artifacts / f"tips-{'en' if w is EN else 'de'}.png"))
            shot = False
        decide(page, rng, w, knock=False)
        left -= 1
        if left:
            # The count shown is the server's: one less after each decision.
            expect(box).to_contain_text(
                re.compile(rf"\b{left} left" if w is EN else rf"noch {left}\b")
            )
    expect(toggle).to_have_attribute("aria-pressed", "false")
    page.reload()
    expect(page.get_by_role("button", name=w.tips)).to_have_attribute("aria-pressed", "false")
    assert not page.errors
