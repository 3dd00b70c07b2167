"""The chouette table as one screen (issue 19, item 1) at every size the issue lists, in
English and German, with the largest hand (11 cards) and the match's result: what
tests/browser/test_game_screen.py measures at two sizes with the hand a decision finds,
here at all seven. Three people: the box, the captain and the advising partner; each
person's table measured with a mouse at 1280×720, 1366×768, 1920×1080 and 768×1024 and, in
a touch browser of the same person (its storage: its token and language), at 390×844,
360×640 and 844×390."""

from __future__ import annotations

import random
import re
import time
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from .helpers import (
    CH_DE,
    CH_EN,
    SHOW_RESULT,
    ChouetteWords,
    actionable,
    decide,
    join_chouette,
    open_chouette,
    status,
    use_setting,
)
from .test_chouette import Seat, play_to_match_end, roles, wait_all_seated
from .test_game_screen import on_touch as phone_of
from .test_one_screen import (
    MOUSE_SIZES,
    SEAT_PARTS,
    SETTLE,
    TOUCH_SIZES,
    check_sizes,
    in_window,
)

pytestmark = pytest.mark.browser

HAND = 'main [role="group"][data-drop="hand"] > button'
# A decision before the draw (the upcard, the stock): not yet eleven cards.
REST = "|".join(
    re.escape(x) for x in (CH_EN.base.upcard, CH_EN.base.draw, CH_DE.base.upcard, CH_DE.base.draw)
)

# The match's result: its dialog's box, its heading and each enabled button of it, the
# document's scroll. (Its links, the record's download and "Verify round n", may lie further
# down in the dialog, which scrolls in itself on a small window; its buttons do not.)
RESULT = """() => {
  const box = (el) => el.getBoundingClientRect().toJSON();
  const dialog = document.querySelector("main dialog.result-dialog[open]");
  return {
    dialog: dialog && box(dialog),
    buttons: dialog
      ? [dialog.querySelector("h2"), ...dialog.querySelectorAll("button:not([disabled])")]
      .filter((el) => el.checkVisibility())
      .map((el) => ({ name: el.getAttribute("aria-label") || el.innerText.trim(), ...box(el) }))
      : [],
    scrollX: scrollX, scrollY: scrollY,
    docWidth: document.documentElement.scrollWidth,
    docHeight: document.documentElement.scrollHeight,
    modal: !!dialog && dialog.matches(":modal"),
    focus: document.activeElement && (document.activeElement.tagName + " " +
      (document.activeElement.getAttribute("aria-label") || document.activeElement.innerText || "")
      .slice(0, 40)),
  };
}"""


def result_problems(page: Any, sizes: list[tuple[int, int]], who: str) -> list[str]:
    """What keeps the match's result from lying in the window: the dialog (it scrolls
    inside itself when long, never the page), its heading or one of its buttons reaching
    outside the window, the dialog no longer modal, the document scrolled or wider than
    the window."""
    problems = []
    for width, height in sizes:
        page.set_viewport_size({"width": width, "height": height})
        page.evaluate(SETTLE)
        m = page.evaluate(RESULT)
        at = f"{who} {width}×{height}"
        if m["dialog"] is None:
            problems.append(f"{at}: no match result shown")
            continue
        if not m["modal"]:
            problems.append(f"{at}: the match result is not modal (moved out of the top layer)")
        if m["scrollX"] or m["scrollY"]:
            problems.append(
                f"{at}: the document is scrolled to {m['scrollX']}, {m['scrollY']}"
                f" ({m['docHeight']} px high, the focus on {m['focus']!r})"
            )
        if m["docWidth"] > width:
            problems.append(f"{at}: the document is {m['docWidth']} px wide")
        for name, r in [("the result", m["dialog"])] + [(b["name"], b) for b in m["buttons"]]:
            if not in_window(r["left"], r["top"], r["right"], r["bottom"], width, height):
                where = f"x {r['left']:.0f}–{r['right']:.0f}, y {r['top']:.0f}–{r['bottom']:.0f}"
                problems.append(f"{at}: {name!r} lies outside the window at {where}")
    return problems


def to_discard(seats: list[Seat], who: Seat, rng: random.Random) -> None:
    """Everyone plays (never knocking) until ``who`` has drawn and is to discard: eleven
    cards in the hand it plays."""
    name, page, _w = who
    deadline = time.monotonic() + 90
    while True:
        for _, other, ow in seats:
            text = status(other, ow.base).inner_text()
            mine = other is page and ow.base.your_turn in text
            if mine and ow.base.discard in text and not re.search(REST, text):
                expect(other.locator(HAND)).to_have_count(11)
                return
            if actionable(ow.base).search(text) and ow.base.press_next not in text:
                decide(other, rng, ow.base, knock=False, timeout=5_000)
        assert time.monotonic() < deadline, f"{name} never came to discard"


def on_touch(new_page: Any, page: Any, w: ChouetteWords) -> Any:
    """The same person's table in a touch browser (390×844) with the page's storage."""
    phone = phone_of(new_page, page, w.base)
    expect(status(phone, w.base)).to_contain_text(re.compile(f"{w.box}|{w.captain}|{w.partner}"))
    return phone


def result_on_touch(new_page: Any, page: Any, w: ChouetteWords) -> Any:
    """The same person's table in a touch browser once the match is over: its result
    shown (a page opened after the end offers it by a button)."""
    phone = phone_of(new_page, page, w.base)
    expect(status(phone, w.base)).to_contain_text(w.base.match_over)
    reopen = phone.get_by_role("button", name=SHOW_RESULT)
    if reopen.count() > 0:
        reopen.click()
    return phone


@pytest.mark.parametrize("lang", ["en", "de"])
def test_chouette_table_and_match_result_are_one_screen_at_every_size(
    server: Any, new_page: Any, artifacts: Path, lang: str
) -> None:
    """The captain to discard (eleven cards, for the captain and the partner who advises
    on them), then the box to discard (eleven cards of its own): every needed part and
    enabled button of each person's table wholly in the window at each size, the document
    not scrolled; then, the match over (first to knock), its result with every button in
    the window."""
    w = CH_EN if lang == "en" else CH_DE
    rng = random.Random(37)
    ann = new_page(width=1366, height=768)
    link = open_chouette(ann, server.url, "Ann", ["friend", "friend"], "first-to-knock")
    bob, cleo = new_page(width=1366, height=768), new_page(width=1366, height=768)
    join_chouette(bob, link, "Bob")
    join_chouette(cleo, link, "Cleo")
    seats: list[Seat] = [("Ann", ann, CH_EN), ("Bob", bob, CH_EN), ("Cleo", cleo, CH_EN)]
    wait_all_seated(seats)
    if lang == "de":
        for _, page, _w in seats:
            use_setting(page, "Deutsch")
        seats = [(name, page, w) for name, page, _w in seats]
    parts = roles(seats)
    phones = {part: on_touch(new_page, parts[part][1], w) for part in parts}

    def measure(part: str, why: str) -> list[str]:
        page = parts[part][1]
        found = check_sizes(page, "mouse", MOUSE_SIZES, SEAT_PARTS, whole=False)
        found += check_sizes(phones[part], "touch", TOUCH_SIZES, SEAT_PARTS, whole=False)
        for size in ((1366, 768), (390, 844)):
            shot = page if size[0] > 800 else phones[part]
            shot.set_viewport_size({"width": size[0], "height": size[1]})
            shot.screenshot(path=str(artifacts / f"chouette-{lang}-{why}-{part}-{size[0]}.png"))
        return [f"{part} ({why}): {p}" for p in found]

    problems: list[str] = []
    to_discard(seats, parts["captain"], rng)
    for part in ("captain", "partner"):
        expect(phones[part].locator(HAND)).to_have_count(11)
        problems += measure(part, "captain-11")
    problems += measure("box", "captain-11")
    to_discard(seats, parts["box"], rng)
    expect(phones["box"].locator(HAND)).to_have_count(11)
    problems += measure("box", "box-11")

    # The phones are closed while the match is played out (six browsers drawing every
    # move cost more than the rest of the test) and opened again on its result, as a
    # person who picks up the phone again would.
    errors = [e for phone in phones.values() for e in phone.errors]
    for phone in phones.values():
        phone.context.close()
    play_to_match_end(seats, rng)
    phones = {part: result_on_touch(new_page, parts[part][1], w) for part in parts}
    for part, (_, page, _w) in parts.items():
        expect(page.get_by_role("dialog")).to_be_visible()
        expect(phones[part].get_by_role("dialog")).to_be_visible()
        problems += result_problems(page, MOUSE_SIZES, part)
        problems += result_problems(phones[part], TOUCH_SIZES, f"{part} (touch)")
        page.set_viewport_size({"width": 1366, "height": 768})
        page.screenshot(path=str(artifacts / f"chouette-{lang}-result-{part}-1366.png"))
        phones[part].set_viewport_size({"width": 360, "height": 640})
        phones[part].screenshot(path=str(artifacts / f"chouette-{lang}-result-{part}-360.png"))
    assert not problems, "\n".join(problems)
    for page in [p for _, p, _w in seats] + list(phones.values()):
        errors += page.errors
    assert not errors
