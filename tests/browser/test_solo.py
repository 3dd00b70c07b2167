"""A whole match against the computer, played by role and name only."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from .helpers import DE, EN, decide, hand_cards, status

pytestmark = pytest.mark.browser


def start_solo(
    page: Any, url: str, target: str = "50", w: Any = EN, *, verified: bool = False
) -> None:
    """Start a game against the computer: on the device, or ``verified`` on the server."""
    page.goto(url + "/")
    solo = page.get_by_role("region", name="Play alone" if w is EN else "Allein spielen")
    target_name = "Target score" if w is EN else "Zielpunktzahl"
    solo.get_by_role("combobox", name=target_name).select_option(target)
    if verified:
        play = (
            "Play a verified game on the server"
            if w is EN
            else "Geprüfte Partie auf dem Server spielen"
        )
    else:
        play = "Play against the computer" if w is EN else "Gegen den Computer spielen"
    page.get_by_role("button", name=play).click()
    expect(status(page, w)).to_be_visible()


def test_home_page_in_english_and_german(server: Any, new_page: Any, artifacts: Path) -> None:
    en = new_page(locale="en-US")
    en.goto(server.url + "/")
    expect(en.get_by_role("heading", name="How Gin Rummy works")).to_be_visible()
    expect(en.get_by_role("button", name="Play against the computer")).to_be_enabled()
    expect(en.get_by_role("button", name="Open a room")).to_be_visible()
    expect(en.get_by_role("combobox", name="Computer level")).to_contain_text("Casual")
    # Said plainly: how the deck is shuffled (players' first complaint is "rigged").
    en.get_by_text("How is the deck shuffled?").click()
    expect(en.get_by_text("cryptographically secure random generator")).to_be_visible()
    en.screenshot(path=str(artifacts / "home-en.png"), full_page=True)

    de = new_page(locale="de-DE")
    de.goto(server.url + "/")
    expect(de.get_by_role("heading", name="So funktioniert Gin Rummy")).to_be_visible()
    # Every text of the page speaks the page's language, the skip link too.
    expect(de.get_by_role("link", name="Zum Inhalt springen")).to_have_count(1)
    expect(de.get_by_role("link", name="Skip to content")).to_have_count(0)
    expect(de.get_by_role("button", name="Gegen den Computer spielen")).to_be_enabled()
    expect(de.get_by_role("button", name="Raum eröffnen")).to_be_visible()
    expect(de.get_by_text("Wie wird gemischt?")).to_be_visible()
    de.screenshot(path=str(artifacts / "home-de.png"), full_page=True)

    # Switchable and remembered.
    de.get_by_role("button", name="English").click()
    expect(de.get_by_role("heading", name="How Gin Rummy works")).to_be_visible()
    de.reload()
    expect(de.get_by_role("heading", name="How Gin Rummy works")).to_be_visible()
    assert not en.errors and not de.errors


def test_the_level_menu_says_how_each_level_plays(server: Any, new_page: Any) -> None:
    """Each level has a character (docs/computer-players.md); the menu says it in
    the page's language as the chosen level's description."""
    en = new_page(locale="en-US")
    en.goto(server.url + "/")
    level = en.get_by_role("combobox", name="Computer level")
    # The ladder in order, the server's default chosen (the menu was once left showing
    # nothing: its options came after the first render, and the value with them was lost).
    expect(level).to_have_value("casual")
    expect(level.get_by_role("option")).to_have_text(
        ["Beginner", "Casual", "Strong", "Expert", "Master"]
    )
    expect(level).to_have_accessible_description(re.compile("^Chases melds"))
    level.select_option(label="Beginner")
    expect(level).to_have_accessible_description(re.compile("^Counts points only"))
    level.select_option(label="Strong")
    expect(level).to_have_accessible_description(re.compile("knocks as soon as it may"))
    level.select_option(label="Expert")
    expect(level).to_have_accessible_description(re.compile("^Reads your hand"))
    expect(en.get_by_text("Reads your hand from what you take")).to_be_visible()
    level.select_option(label="Master")
    expect(level).to_have_accessible_description(re.compile("^Learned from thousands of"))
    # Another render (the page's language) keeps the level chosen.
    en.get_by_role("button", name="Deutsch").click()
    stufe = en.get_by_role("combobox", name="Spielstärke des Computers")
    expect(stufe).to_have_value("master")
    expect(stufe.get_by_role("option")).to_have_text(
        ["Anfänger", "Gelegenheitsspieler", "Stark", "Experte", "Meister"]
    )
    expect(stufe).to_have_accessible_description(re.compile("^Hat aus Tausenden zu Ende"))
    en.get_by_role("button", name="English").click()

    de = new_page(locale="de-DE")
    de.goto(server.url + "/")
    stufe = de.get_by_role("combobox", name="Spielstärke des Computers")
    stufe.select_option(label="Stark")
    expect(stufe).to_have_accessible_description(re.compile("klopft aber, sobald er darf"))
    stufe.select_option(label="Anfänger")
    expect(stufe).to_have_accessible_description(re.compile("^Zählt nur Punkte"))
    assert not en.errors and not de.errors


def test_full_match_against_the_computer(server: Any, new_page: Any, artifacts: Path) -> None:
    page = new_page()
    rng = random.Random(7)
    start_solo(page, server.url)
    page.screenshot(path=str(artifacts / "table-desktop.png"))
    # Ten cards in hand, unless the computer ended the first round before the person
    # acted (the deal is random: it may take the upcard and knock): then its result.
    result = page.get_by_role("heading", name=re.compile(r"Round \d+: result"))
    cards = page.get_by_role("group", name="Your hand").get_by_role("button")
    expect(cards.nth(9).or_(result)).to_be_visible()
    log = page.get_by_role("log", name="Announcements")
    shots: list[int] = []

    def round_end() -> None:
        expect(result).to_be_visible()
        if not shots:
            page.screenshot(path=str(artifacts / "round-end.png"), full_page=True)
        shots.append(1)

    for _ in range(600):
        if decide(page, rng, on_round_end=round_end) == "match_over":
            break
    else:
        pytest.fail("the match did not end")
    expect(page.get_by_role("heading", name="Match over")).to_be_visible()
    expect(page.get_by_role("table", name="Final totals")).to_be_visible()
    page.screenshot(path=str(artifacts / "match-end.png"), full_page=True)
    # The computer's moves were announced in words.
    assert re.search(r"(discards|draws from the stock|passes)", log.inner_text())
    page.get_by_role("button", name="New match").click()
    expect(status(page)).to_contain_text(re.compile(r"Score: You 0, .* 0\."))
    assert not page.errors


def test_phone_sized_table_in_german(server: Any, new_page: Any, artifacts: Path) -> None:
    page = new_page(locale="de-DE", width=360, height=740, is_mobile=True, has_touch=True)
    page.goto(server.url + "/")
    page.screenshot(path=str(artifacts / "home-phone-de.png"), full_page=True)
    start_solo(page, server.url, "100", DE)
    hand = page.get_by_role("group", name="Deine Hand")
    # Ten cards, unless the computer ended the first round before the person acted.
    result = page.get_by_role("heading", name=re.compile(r"Runde \d+: Ergebnis"))
    expect(hand.get_by_role("button").nth(9).or_(result)).to_be_visible()
    rng = random.Random(3)
    for _ in range(6):
        decide(page, rng, DE, knock=False)
        no_scroll = page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
        assert no_scroll, "the page scrolls sideways on a phone"
    # Every hand card is on screen and big enough to tap (checked on our turn: nothing moves).
    # The deal is random: the computer may have ended the round; play on to our turn.
    for _ in range(10):
        if DE.your_turn in status(page, DE).inner_text():
            break
        decide(page, rng, DE, knock=False)
    expect(status(page, DE)).to_contain_text("Du bist dran")
    for card in hand.get_by_role("button").all():
        box = card.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 360
        assert box["height"] >= 60
    assert len(hand_cards(page, DE)) in (10, 11)
    page.screenshot(path=str(artifacts / "table-phone-de.png"), full_page=True)
    assert not page.errors
