"""Four layout faults a player's-eye review found, each measured from bounding boxes: the
other side's name on a phone when it is disconnected, the match result's links under its
sticky "New match", the chat's "Report or block" chip past the chat panel's edge, and an
eleven-card hand with large cards below the fold of an 800×600 window."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from .helpers import DE, EN, decide, open_room, setting, status, use_setting
from .public import create_table, enter_lobby, my_turn
from .test_device import device_page
from .test_one_screen import HIT_AREAS, SETTLE, hand, in_window, play_to_draw
from .test_result_screen import resign
from .test_solo import start_solo

pytestmark = pytest.mark.browser

# ---------------------------------------------------------------- the other side's name

# A long name, as people choose them (names have up to 20 characters).
LONG_NAME = "Maximilian Sternberg"
# How much of a cut name must still be read: its first characters, then the ellipsis.
READ_CHARS = 6

# The name's box, the box of its first ``READ_CHARS`` characters as laid out (a range
# measures them also where the box clips them), and each badge's box and whether its
# text is cut.
NAME_LINE = """([name, chars]) => {
  const range = document.createRange();
  const text = name.firstChild;
  range.setStart(text, 0);
  range.setEnd(text, Math.min(chars, text.length));
  const line = name.parentElement;
  return {
    name: name.getBoundingClientRect().toJSON(),
    chars: range.getBoundingClientRect().toJSON(),
    ellipsis: parseFloat(getComputedStyle(name).fontSize) * 0.9,
    line: line.getBoundingClientRect().toJSON(),
    badges: [...line.querySelectorAll(".badge")].map((b) => ({
      text: b.textContent,
      cut: b.scrollWidth > b.clientWidth + 1,
      ...b.getBoundingClientRect().toJSON(),
    })),
  };
}"""


def name_line_problems(page: Any, name: str, width: int, height: int) -> list[str]:
    """What keeps the other side's line from being read: its name cut to fewer than its
    first ``READ_CHARS`` characters, a badge cut or outside the window."""
    fan = page.get_by_role("img", name=re.compile(f"^Hand of {re.escape(name)}"))
    row = fan.locator("xpath=..")
    shown = row.get_by_text(name, exact=True)
    m = shown.evaluate(f"(el) => ({NAME_LINE})([el, {READ_CHARS}])")
    problems = []
    need = m["chars"]["right"] + m["ellipsis"]
    if m["name"]["right"] < need - 0.5:
        problems.append(
            f"{width}×{height}: the name is {m['name']['width']:.0f} px wide, its first"
            f" {READ_CHARS} characters and an ellipsis need"
            f" {need - m['name']['left']:.0f}"
        )
    for badge in m["badges"]:
        if badge["cut"]:
            problems.append(f"{width}×{height}: the badge {badge['text']!r} is cut")
        if badge["width"] < 1 or not in_window(
            badge["left"], badge["top"], badge["right"], badge["bottom"], width, height
        ):
            problems.append(f"{width}×{height}: the badge {badge['text']!r} is not in the window")
    return problems


def test_a_disconnected_opponents_name_stays_readable_on_a_phone(
    server: Any, new_page: Any, artifacts: Path
) -> None:
    """On a phone the other side's line (its name, the dealer's badge, its rating, its
    tag and "disconnected") keeps the name's first characters and every badge whole."""
    ann = new_page(width=390, height=844, has_touch=True, is_mobile=True)
    link = open_room(ann, server.url, "Ann")
    friend = new_page()
    friend.goto(link)
    friend.get_by_role("textbox", name="Your name").fill(LONG_NAME)
    friend.get_by_role("button", name="Take the seat").click()
    expect(hand(friend, EN)).to_have_count(10)
    expect(hand(ann, EN)).to_have_count(10)
    fan = ann.get_by_role("img", name=re.compile(f"^Hand of {re.escape(LONG_NAME)}"))
    row = fan.locator("xpath=..")
    friend.close()
    expect(row.get_by_text("disconnected", exact=True)).to_be_visible()
    problems = []
    for width, height in [(390, 844), (360, 640)]:
        ann.set_viewport_size({"width": width, "height": height})
        ann.evaluate(SETTLE)
        problems += name_line_problems(ann, LONG_NAME, width, height)
        ann.screenshot(path=str(artifacts / f"layout-opponent-{width}x{height}.png"))
    assert not problems, "\n".join(problems)
    assert not ann.errors


# ---------------------------------------------------------------- the match's result

# Each link and button of the open result but its primary one ("New match") and its close
# button: whether a press anywhere on the part of it shown in the result's scrolling area
# reaches it (nothing, the sticky button neither, lies over it there).
COVERED = """() => {
  const dialog = document.querySelector("main dialog.result-dialog[open]");
  const area = dialog.querySelector(".round-end").getBoundingClientRect();
  const out = [];
  for (const el of dialog.querySelectorAll("a, button:not(.primary):not(.dialog-close)")) {
    const r = el.getBoundingClientRect();
    const left = Math.max(r.left, area.left), right = Math.min(r.right, area.right);
    const top = Math.max(r.top, area.top), bottom = Math.min(r.bottom, area.bottom);
    if (right - left < 1 || bottom - top < 1) continue;  // scrolled out of sight
    const missed = [];
    for (const fx of [0.05, 0.3, 0.5, 0.7, 0.95]) for (const fy of [0.1, 0.5, 0.9]) {
      const x = left + fx * (right - left), y = top + fy * (bottom - top);
      const hit = document.elementFromPoint(x, y);
      const what = hit?.textContent?.trim().slice(0, 20);
      if (!el.contains(hit)) missed.push(`${x.toFixed(0)},${y.toFixed(0)} (${what})`);
    }
    if (missed.length) out.push(`${el.textContent.trim()}: covered at ${missed.join(" ")}`);
  }
  return out;
}"""

RESULT_SIZES = [(1366, 768), (1280, 720), (390, 844), (360, 640), (844, 390)]


@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_match_results_links_are_not_covered_by_its_new_match_button(
    server: Any, new_page: Any, artifacts: Path, lang: str
) -> None:
    """The match's result against the computer (resigned in the first round the person
    decides in): "New match" in the window without scrolling, and the record's download
    before it never lies under it, in English and German, on a laptop and a phone."""
    w = EN if lang == "en" else DE
    page = device_page(new_page, locale="en-US" if lang == "en" else "de-DE")
    page.set_viewport_size({"width": 1366, "height": 768})
    start_solo(page, server.url, "200", w)
    expect(hand(page, w).first).to_be_visible()
    # Round 1 played to its end, so that the result has a round's hands and calculation
    # besides the totals (taller than the window), then resigned in round 2.
    rng = random.Random(7)
    for _ in range(400):
        if decide(page, rng, w) == "next_round":
            break
    my_turn(page, w)
    resign(page, w)
    dialog = page.get_by_role("dialog")
    new_match = dialog.get_by_role("button", name=w.new_match)
    record = dialog.get_by_role(
        "button",
        name="Download the match record" if lang == "en" else "Partieprotokoll herunterladen",
    )
    expect(record).to_be_visible()
    problems = []
    for width, height in RESULT_SIZES:
        page.set_viewport_size({"width": width, "height": height})
        page.evaluate(SETTLE)
        at = f"{width}×{height} [{lang}]"
        box = new_match.bounding_box()
        assert box is not None
        if not in_window(
            box["x"], box["y"], box["x"] + box["width"], box["y"] + box["height"], width, height
        ):
            problems.append(f"{at}: 'New match' at y={box['y']:.0f} is not in the window")
        problems += [f"{at}: {p}" for p in page.evaluate(COVERED)]
        page.screenshot(path=str(artifacts / f"layout-result-{lang}-{width}x{height}.png"))
    assert not problems, "\n".join(problems)
    assert not page.errors


# ---------------------------------------------------------------- the chat's chips


def test_the_chats_report_chip_stays_inside_the_chat_panel(
    clock_server: Any, new_page: Any, artifacts: Path
) -> None:
    """At 1366 px the chat lies beside the table, 320 px wide: the chip "Report or block
    <name>#<tag>" about the other player (a long name) and "Mute …" wrap or are cut inside
    the panel, never past its edge, and the page is no wider than the window."""
    ann = new_page(width=1366, height=768)
    enter_lobby(ann, clock_server.url, "Ann Chips")
    link = create_table(ann, timer="off")
    bob = new_page()
    them = enter_lobby(bob, clock_server.url, LONG_NAME)
    bob.goto(link)
    bob.get_by_role("button", name="Take the seat").click()
    expect(hand(bob, EN)).to_have_count(10)
    chat = ann.get_by_role("region", name="Chat", exact=True)
    report = chat.get_by_role("button", name=f"Report or block {them['tag']}")
    mute = chat.get_by_role("button", name=f"Mute {them['tag']}")
    expect(report).to_be_visible()
    ann.evaluate(SETTLE)
    panel = chat.bounding_box()
    assert panel is not None
    problems = []
    for chip in (report, mute):
        box = chip.bounding_box()
        assert box is not None
        if (
            box["x"] < panel["x"] - 0.5
            or box["x"] + box["width"] > panel["x"] + panel["width"] + 0.5
        ):
            problems.append(
                f"{chip.get_attribute('aria-label') or chip.inner_text()!r} reaches from"
                f" x={box['x']:.0f} to {box['x'] + box['width']:.0f}, the panel from"
                f" {panel['x']:.0f} to {panel['x'] + panel['width']:.0f}"
            )
    if ann.evaluate("document.documentElement.scrollWidth") > 1366:
        problems.append("the page is wider than the window")
    ann.screenshot(path=str(artifacts / "layout-chat-1366x768.png"))
    assert not problems, "\n".join(problems)
    assert not ann.errors and not bob.errors


# ---------------------------------------------------------------- large cards


def test_eleven_large_cards_fit_in_an_800_by_600_window(
    server: Any, new_page: Any, artifacts: Path
) -> None:
    """With "Large cards" on, at 800×600 with a mouse, the hand of eleven cards (after the
    draw) lies wholly in the window, in one row across it, each card showing a strip of at
    least 24 px that a press reaches; the cards are still larger than without the switch."""
    page = device_page(new_page, width=800, height=600)
    start_solo(page, server.url, "100")
    play_to_draw(page, random.Random(3), EN)
    page.get_by_role("button", name=EN.draw_stock).click()
    cards = hand(page, EN)
    expect(cards).to_have_count(11)
    expect(status(page)).to_contain_text(EN.discard)
    page.evaluate(SETTLE)
    normal = cards.first.bounding_box()
    use_setting(page, "Large cards")
    expect(setting(page, "Large cards")).to_have_attribute("aria-pressed", "true")
    page.keyboard.press("Escape")
    page.evaluate(SETTLE)
    large = cards.first.bounding_box()
    assert normal is not None and large is not None
    problems = []
    if large["width"] <= normal["width"]:
        problems.append(
            f"large cards {large['width']:.0f} px wide, normal ones {normal['width']:.0f}"
        )
    boxes = cards.evaluate_all("els => els.map((e) => e.getBoundingClientRect().toJSON())")
    for n, b in enumerate(boxes, start=1):
        if not in_window(b["left"], b["top"], b["right"], b["bottom"], 800, 600):
            where = f"x {b['left']:.0f}–{b['right']:.0f}, y {b['top']:.0f}–{b['bottom']:.0f}"
            problems.append(f"hand card {n} lies outside the 800×600 window at {where}")
    if len({round(b["top"]) for b in boxes}) > 1:
        problems.append(
            f"the hand lies in more than one row: {sorted({round(b['top']) for b in boxes})}"
        )
    for card in cards.evaluate_all(HIT_AREAS):
        if card["width"] < 24 - 0.5 or not card["reached"]:
            problems.append(
                f"{card['name']!r} shows a {card['width']:.0f} px strip, reached: {card['reached']}"
            )
    if page.evaluate("window.scrollY") != 0:
        problems.append("the page is scrolled")
    page.screenshot(path=str(artifacts / "layout-large-cards-800x600.png"))
    assert not problems, "\n".join(problems)
    assert not page.errors
