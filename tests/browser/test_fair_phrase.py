"""A person's own seed phrase (docs/fairness.md §5a): set at the fair-deal mark before a
round, the next round's seat seed is derived from it; the server shows that seed back and
the round's record holds it, and the verify page says it is the phrase's."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from ginrummy.engine import Seat
from ginrummy.fairness import phrase_seat_seed

from .helpers import DE, EN, actionable, play_round, play_until, status
from .public import my_turn
from .test_solo import start_solo

pytestmark = pytest.mark.browser

PHRASE = "Grüne Äpfel ♥ im Mai, 42 Mal"
CONFIRMED_ROUND_2 = """() => Object.entries(
    JSON.parse(localStorage.getItem('ginrummy.seeds') || '{}'))
  .filter(([key, kept]) => key.endsWith('/2') && kept.confirmed)
  .map(([key, kept]) => [key, kept.seed])"""


def test_a_seed_phrase_gives_the_next_rounds_seed_and_the_record_holds_it(
    server: Any, new_page: Any, artifacts: Path
) -> None:
    page = new_page(locale="en-US")
    start_solo(page, server.url, target="100", verified=True)
    # The person's decision, or round 1 over already (the computer may knock on its
    # first turn): nothing moves while the seed is set. A round's result is closed first
    # (its dialog lies over the table), as a person would.
    expect(status(page)).to_have_text(actionable(EN), timeout=15_000)
    result = page.get_by_role("dialog")
    if result.is_visible():
        page.keyboard.press("Escape")
        expect(result).to_be_hidden()
    page.get_by_text("Your own seed", exact=True).click()
    box = page.get_by_role("textbox", name="Your seed phrase (optional)")
    expect(page.get_by_role("button", name="Forget my phrase")).to_be_hidden()
    box.fill(PHRASE)
    page.get_by_role("button", name="Use this phrase").click()
    expect(page.get_by_role("status").filter(has_text="A seed phrase is set")).to_be_visible()
    expect(page.get_by_role("button", name="Forget my phrase")).to_be_visible()
    page.screenshot(path=str(artifacts / "fair-phrase.png"))
    assert page.evaluate("localStorage.getItem('ginrummy.seedPhrase')") == PHRASE

    rng = random.Random(5)
    assert play_until(page, rng, {"next_round", "match_over"}) == "next_round"
    # Round 2's seed was derived from the phrase, sent, and shown back by the server.
    page.wait_for_function(f"({CONFIRMED_ROUND_2})().length === 1")
    ((key, sent),) = page.evaluate(CONFIRMED_ROUND_2)
    room, match, _ = key.rsplit("/", 2)
    derived = {seat: phrase_seat_seed(PHRASE, room, int(match), 2, seat).hex() for seat in Seat}
    assert sent in derived.values()

    play_round(page, rng)
    response = page.request.get(f"{server.url}/api/rooms/{room}/record?round=2")
    assert response.ok, response.status
    seeds = response.json()["fair"]["seeds"]
    held = [seat for seat in Seat if seeds[seat.label] == derived[seat]]
    assert len(held) == 1 and seeds[held[0].label] == sent  # the person's seat only

    with page.expect_popup() as popup:
        page.get_by_role("link", name="Verify round 2").click()
    verify = popup.value
    result = verify.get_by_role("status")
    expect(result).to_contain_text("Round 2: fair – the deck follows from the seeds.")
    expect(result).to_contain_text(
        "Round 2: your seat's seed in the record is the one your seed phrase gives."
    )
    verify.screenshot(path=str(artifacts / "fair-phrase-verified.png"))
    assert not page.errors


def test_the_phrase_box_in_german_and_forgetting_the_phrase(server: Any, new_page: Any) -> None:
    page = new_page(locale="de-DE")
    start_solo(page, server.url, w=DE, verified=True)
    my_turn(page, DE)  # the person decides: no round's result (modal) lies over the page
    page.get_by_text("Dein eigener Startwert", exact=True).click()
    page.get_by_role("textbox", name="Deine Startwert-Phrase (optional)").fill("  ")
    page.get_by_role("button", name="Diese Phrase verwenden").click()
    assert page.evaluate("localStorage.getItem('ginrummy.seedPhrase')") is None  # blank: refused
    page.get_by_role("textbox", name="Deine Startwert-Phrase (optional)").fill("lang und geheim")
    page.get_by_role("button", name="Diese Phrase verwenden").click()
    expect(
        page.get_by_role("status").filter(has_text="Startwert-Phrase ist festgelegt")
    ).to_be_visible()
    page.get_by_role("button", name="Meine Phrase vergessen").click()
    expect(page.get_by_role("button", name="Meine Phrase vergessen")).to_be_hidden()
    assert page.evaluate("localStorage.getItem('ginrummy.seedPhrase')") is None
    assert not page.errors
