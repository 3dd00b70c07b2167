"""The score sheet on a phone (issue 19, items 1 and 7; web/js/sheet.js): after a few
rounds of a match whose preset pays boxes (the most columns the sheet has), its dialog
does not scroll sideways at 360×640 and 390×844, in English and German, every cell lies in
the window, and it stays a table with its full column headers for a screen reader."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from .helpers import EN, play_round, status, use_setting
from .test_one_screen import SETTLE, in_window

pytestmark = pytest.mark.browser

PHONES = [(360, 640), (390, 844)]
ROUND = {"en": "Round", "de": "Runde"}
# How a round was won, under its winner's name on a phone.
KINDS = {
    "en": re.compile("(Knock|Gin|Big gin|Undercut|Void round)$"),
    "de": re.compile("(Klopfen|Gin|Big Gin|Unterbietung|Runde ohne Punkte)$"),
}

# The dialog's and the table's container's overflow, and every cell's box.
FITS = """(dialog) => {
  const box = (el) => el.getBoundingClientRect().toJSON();
  const scroller = dialog.querySelector(".sheet-scroll");
  return {
    dialog: { scroll: dialog.scrollWidth, client: dialog.clientWidth },
    scroller: scroller && { scroll: scroller.scrollWidth, client: scroller.clientWidth },
    doc: document.documentElement.scrollWidth,
    width: innerWidth, height: innerHeight,
    cells: [...dialog.querySelectorAll("th, td")].map((el) => ({
      text: el.innerText, ...box(el),
    })),
  };
}"""

# The shown column headers' accessible names (what a screen reader reads with each cell)
# and their shown text, in order.
HEADERS = """(table) => [...table.querySelectorAll("thead th")]
  .filter((th) => th.checkVisibility()).map((th) => ({
  label: th.getAttribute("aria-label") || th.innerText.replace(/\\s+/g, " ").trim(),
  shown: th.innerText.replace(/\\s+/g, " ").trim(),
}))"""


def sheet_problems(page: Any, size: tuple[int, int], lang: str) -> list[str]:
    width, height = size
    page.set_viewport_size({"width": width, "height": height})
    page.evaluate(SETTLE)
    dialog = page.locator("dialog.sheet-dialog")
    m = dialog.evaluate(FITS)
    at = f"{width}×{height} ({lang})"
    problems = []
    for part in ("dialog", "scroller"):
        got = m[part]
        if got is None:
            problems.append(f"{at}: no {part}")
        elif got["scroll"] > got["client"]:
            problems.append(f"{at}: the {part} is {got['scroll']} px wide inside {got['client']}")
    if m["doc"] > width:
        problems.append(f"{at}: the page is {m['doc']} px wide")
    for c in m["cells"]:
        if not in_window(c["left"], c["top"], c["right"], c["bottom"], width, height):
            where = f"x {c['left']:.0f}–{c['right']:.0f}, y {c['top']:.0f}–{c['bottom']:.0f}"
            problems.append(f"{at}: the cell {c['text']!r} lies outside the window at {where}")
    return problems


def open_classic_room(page: Any, url: str) -> None:
    """A room against the computer with the preset that pays a box per round won."""
    page.goto(url + "/")
    region = page.get_by_role("region", name="Play with a friend")
    region.get_by_role("combobox", name="Rules").select_option("classic")
    region.get_by_role("combobox", name="Second seat").select_option(label="Computer: Casual")
    page.get_by_role("button", name="Open a room").click()
    expect(page.get_by_role("group", name="Your hand")).to_be_visible()


def test_the_score_sheet_fits_a_phone_in_both_languages(
    server: Any, new_page: Any, artifacts: Path
) -> None:
    page = new_page(width=390, height=844, has_touch=True, is_mobile=True)
    open_classic_room(page, server.url)
    rng = random.Random(31)
    for n in range(3):  # three rounds, unless the server's random deals end the match sooner
        play_round(page, rng)
        if EN.match_over in status(page).inner_text():
            break
        if n < 2 and EN.press_next in status(page).inner_text():
            page.get_by_role("button", name=EN.next_round).click()
            expect(status(page)).not_to_contain_text(EN.press_next)
    finished = page.evaluate(
        "() => window.ginrummy.store.get().view.table.rounds.filter((r) => r.result).length"
    )
    assert finished >= 1, finished
    problems: list[str] = []
    for lang, title, close in (
        ("en", "Score sheet", "Close the score sheet"),
        ("de", "Punkteblatt", "Punkteblatt schließen"),
    ):
        if lang == "de":
            use_setting(page, "Deutsch")
        result = page.get_by_role("dialog").filter(has_not=page.locator(".sheet-dialog"))
        if result.count() and result.first.is_visible():
            page.keyboard.press("Escape")  # the round's result, to reach the info bar
        page.get_by_role("button", name=title).click()
        sheet = page.get_by_role("dialog", name=title)
        expect(sheet).to_be_visible()
        table = sheet.get_by_role("table", name=title)
        expect(table.locator("tbody tr")).to_have_count(finished)  # every finished round
        for size in PHONES:
            problems += sheet_problems(page, size, lang)
            page.screenshot(path=str(artifacts / f"score-sheet-{lang}-{size[0]}x{size[1]}.png"))
        # A table still, of fewer columns, each named in full (the name shown may be cut
        # short); how each round was won read with its winner.
        heads = table.evaluate(HEADERS)
        you, total, won = {"en": ("You", "Total", "Won by"), "de": ("Du", "Summe", "Gewonnen von")}[
            lang
        ]
        assert [h["label"] for h in heads][:3] == [ROUND[lang], won, f"{total} {you}"], heads
        assert len(heads) == 4 and heads[3]["label"].startswith(total), heads
        for h in heads:
            expect(table.get_by_role("columnheader", name=h["label"], exact=True)).to_have_count(1)
        first = table.locator("tbody tr").first
        expect(first.get_by_role("cell")).to_have_count(3)
        expect(first.get_by_role("cell").first).to_have_text(KINDS[lang])
        sheet.get_by_role("button", name=close).click()
        expect(sheet).to_be_hidden()
        page.set_viewport_size({"width": 390, "height": 844})
    assert not problems, "\n".join(problems)
    assert not page.errors
