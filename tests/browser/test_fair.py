"""The fair-deal mark at the table (docs/fairness.md): the commitment is shown, the
browser sends its own seed, and after the round a link opens the verify page, which
checks the round's record and finds this browser's seed in it."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from .helpers import play_round, play_until
from .public import my_turn
from .test_solo import start_solo

pytestmark = pytest.mark.browser


def test_the_table_shows_the_commitment_and_links_to_the_verified_round(
    server: Any, new_page: Any, artifacts: Path
) -> None:
    page = new_page(locale="en-US")
    start_solo(page, server.url, target="100", verified=True)
    # The round runs (the next one, should the computer have ended the first at once).
    n = 1 + my_turn(page)
    mark = page.get_by_text(re.compile(r"^Fair deal · [0-9a-f]{8}…$"))
    expect(mark).to_be_visible()
    commitment = mark.get_attribute("title") or ""
    assert re.search(r"SHA-256 [0-9a-f]{64}", commitment), commitment
    expect(page.get_by_role("link", name=f"Verify round {n}")).to_have_count(0)
    rng = random.Random(11)
    play_round(page, rng)
    link = page.get_by_role("link", name=f"Verify round {n}")
    expect(link).to_be_visible()
    page.screenshot(path=str(artifacts / "fair-mark.png"))
    with page.expect_popup() as popup:
        link.click()
    verify = popup.value
    result = verify.get_by_role("status")
    expect(result).to_contain_text("The deal is fair.")
    expect(result).to_contain_text(f"Round {n}: fair – the deck follows from the seeds.")
    expect(result).to_contain_text(f"Round {n}: the record holds the seed this browser sent.")
    verify.screenshot(path=str(artifacts / "fair-verified.png"))
    assert not page.errors


def test_each_finished_round_links_to_the_check_of_that_round(server: Any, new_page: Any) -> None:
    page = new_page(locale="en-US")
    start_solo(page, server.url, target="200", verified=True)
    rng = random.Random(3)
    assert play_until(page, rng, {"next_round", "match_over"}) == "next_round"
    play_round(page, rng)
    first = page.get_by_role("link", name="Verify round 1")
    second = page.get_by_role("link", name="Verify round 2")
    expect(second).to_be_visible()
    assert (first.get_attribute("href") or "").endswith("record%3Fround%3D1")
    assert (second.get_attribute("href") or "").endswith("record%3Fround%3D2")
    with page.expect_popup() as popup:
        first.click()
    result = popup.value.get_by_role("status")
    expect(result).to_contain_text("The deal is fair.")
    expect(result).to_contain_text("Round 1: fair – the deck follows from the seeds.")
    assert not page.errors
