"""A match's result on one screen (issue 19, item 1): at the end of a match against the
computer and of a room between two people, in English and German, the result's dialog,
its heading and each of its buttons lie in the window at all seven sizes of the table
tests (tests/browser/test_one_screen.py), with the document not scrolled. The chouette
table's result is measured in tests/browser/test_chouette_screen.py the same way."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from .helpers import DE, EN, Words, open_room, status
from .public import my_turn
from .test_chouette_screen import result_problems
from .test_one_screen import MOUSE_SIZES, TOUCH_SIZES
from .test_solo import start_solo

pytestmark = pytest.mark.browser

SIZES = MOUSE_SIZES + TOUCH_SIZES


def resign(page: Any, w: Words) -> None:
    """Resign the match by the page's own button and its confirmation."""
    en = w is EN
    page.get_by_role("button", name="Resign" if en else "Aufgeben", exact=True).click()
    page.get_by_role("alertdialog").get_by_role(
        "button", name="Yes, resign" if en else "Ja, aufgeben"
    ).click()
    expect(status(page, w)).to_contain_text(w.match_over)


@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_match_result_against_the_computer_fits_every_size(
    server: Any, new_page: Any, lang: str
) -> None:
    w = EN if lang == "en" else DE
    page = new_page(locale="en-US" if lang == "en" else "de-DE", width=1366, height=768)
    start_solo(page, server.url, "50", w)
    expect(page.get_by_role("group", name=w.hand).get_by_role("button").first).to_be_visible()
    my_turn(page, w)  # the person decides: no round's result (modal) lies over "Resign"
    resign(page, w)
    problems = result_problems(page, SIZES, f"device [{lang}]")
    assert not problems, "\n".join(problems)
    assert not page.errors  # type: ignore[attr-defined]


def test_the_match_result_of_a_room_fits_every_size_for_both_seats(
    server: Any, new_page: Any
) -> None:
    ann = new_page(width=1366, height=768)
    link = open_room(ann, server.url, "Ann")
    bea = new_page(locale="de-DE", width=390, height=844, has_touch=True, is_mobile=True)
    bea.goto(link)
    bea.get_by_role("textbox", name="Dein Name").fill("Bea")
    bea.get_by_role("button", name="Platz einnehmen").click()
    expect(bea.get_by_role("group", name=DE.hand).get_by_role("button")).to_have_count(10)
    resign(bea, DE)
    expect(status(ann)).to_contain_text(EN.match_over)
    problems = result_problems(ann, SIZES, "room, the winner [en]")
    problems += result_problems(bea, SIZES, "room, the one who resigned [de]")
    assert not problems, "\n".join(problems)
    assert not ann.errors and not bea.errors  # type: ignore[attr-defined]
