"""The table as a game screen (issue 19, items 1 and 2), what tests/browser/test_one_screen.py
leaves out: a round's and a match's result in the window without scrolling, the chouette
and the tournament tables on one screen, the settings menu of a narrow window and the
device note's close button, and bad input: a window resized or turned in the middle of a
move, a font twice as large."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from .helpers import (
    CH_EN,
    EN,
    Words,
    actionable,
    decide,
    open_chouette,
    play_round,
    status,
)
from .public import enter_lobby, my_turn
from .test_chouette import advised_table
from .test_device import NOTICE, device_page
from .test_one_screen import SEAT_PARTS, SETTLE, SLACK, check_sizes
from .test_solo import start_solo
from .test_tournament import CREATE

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


def on_touch(new_page: Any, page: Any, w: Words = EN) -> Any:
    """The same person's table on a phone (a touch screen, 390×844): a new browser with the
    page's storage (its token) opens the page's address."""
    phone = new_page(
        width=390,
        height=844,
        has_touch=True,
        is_mobile=True,
        storage_state=page.context.storage_state(),
    )
    phone.goto(page.url)
    expect(status(phone, w)).to_be_visible()
    return phone


def test_chouette_table_is_one_screen_as_box_captain_and_partner(
    server: Any, new_page: Any, artifacts: Path
) -> None:
    """Three people at a chouette table while the captain decides, a partner's suggestion
    shown: the box, the captain and the advising partner (the captain's hand, the advice
    buttons) each with every needed part and every enabled button wholly in the window at
    1366×768 with a mouse and at 390×844 by touch, the document not scrolled; the players'
    table and the chats may lie below."""
    rng = random.Random(11)
    ann = new_page(width=1366, height=768)
    link = open_chouette(ann, server.url, "Ann", ["friend", "friend"], "first-to-knock")
    bob, cleo = new_page(width=1366, height=768), new_page(width=1366, height=768)
    parts = advised_table(ann, bob, cleo, link, rng)
    problems = []
    for part in ("box", "captain", "partner"):
        page = parts[part][1]
        problems += [
            f"{part}: {p}"
            for p in check_sizes(page, "mouse", [(1366, 768)], SEAT_PARTS, whole=False)
        ]
        page.screenshot(path=str(artifacts / f"game-screen-chouette-{part}-1366x768.png"))
    for part in ("box", "captain", "partner"):
        phone = on_touch(new_page, parts[part][1])
        expect(phone.get_by_role("group", name=re.compile("hand", re.I))).to_be_visible()
        if part == "partner":
            expect(
                phone.get_by_role("button", name=re.compile("^" + re.escape(CH_EN.suggest))).first
            ).to_be_attached()
        problems += [
            f"{part}: {p}"
            for p in check_sizes(phone, "touch", [(390, 844)], SEAT_PARTS, whole=False)
        ]
        phone.screenshot(path=str(artifacts / f"game-screen-chouette-{part}-390x844.png"))
        assert not phone.errors
    assert not problems, "\n".join(problems)
    for _, page, _w in parts.values():
        assert not page.errors


def test_tournament_table_is_one_screen(server: Any, new_page: Any, artifacts: Path) -> None:
    """A knockout of one person and three computers: the person's table (it names the
    tournament) with every needed part and enabled button wholly in the window at 1366×768
    with a mouse and at 390×844 by touch."""
    ann = new_page(width=1366, height=768)
    enter_lobby(ann, server.url, "Ann Cup")
    body = {
        "name": "Screen Cup", "format": "knockout", "max_players": 4,
        "rules_preset": "standard", "computer_level": "beginner",
    }  # fmt: skip
    tid = ann.evaluate(CREATE, body)
    ann.goto(f"{server.url}/t/{tid}")
    ann.get_by_role("button", name="Join").click()
    # Her seat is taken before she starts it (a start that overtakes the join leaves
    # her out: the computers fill the places and the join is refused).
    expect(ann.get_by_role("region", name=re.compile("^Players"))).to_contain_text("Ann Cup")
    ann.get_by_role("button", name="Start now").click()
    expect(ann).to_have_url(re.compile(r"/r/[\w-]+$"))
    my_turn(ann)  # the person decides: the table is measured, not a round's result
    expect(ann.get_by_role("link", name="Screen Cup")).to_be_visible()
    problems = check_sizes(ann, "mouse", [(1366, 768)], SEAT_PARTS, whole=False)
    ann.screenshot(path=str(artifacts / "game-screen-tournament-1366x768.png"))
    phone = on_touch(new_page, ann)
    expect(status(phone)).to_have_text(actionable(EN), timeout=15_000)
    problems += check_sizes(phone, "touch", [(390, 844)], SEAT_PARTS, whole=False)
    phone.screenshot(path=str(artifacts / "game-screen-tournament-390x844.png"))
    assert not problems, "\n".join(problems)
    assert not ann.errors and not phone.errors


def to_discard(page: Any) -> None:
    """Play (never knocking) until the person has drawn and is to discard: eleven cards."""
    rng = random.Random(7)
    for _ in range(60):
        expect(status(page)).to_have_text(actionable(EN), timeout=15_000)
        text = status(page).inner_text()
        if EN.discard in text and EN.upcard not in text and EN.draw not in text:
            return
        if EN.draw in text and EN.upcard not in text:
            page.get_by_role("button", name=EN.draw_stock).click()
            expect(status(page)).to_contain_text(EN.discard)
            return
        decide(page, rng, knock=False)
    pytest.fail("the person never came to discard")


def turn(page: Any) -> None:
    """The phone turned sideways and upright again, a layout at each."""
    for width, height in [(844, 390), (390, 844)]:
        page.set_viewport_size({"width": width, "height": height})
        page.evaluate(SETTLE)


def test_turning_the_phone_mid_move_keeps_the_focus_and_the_drag(
    server: Any, new_page: Any
) -> None:
    """A card chosen with the keyboard keeps the focus while the window turns sideways and
    back, and Enter then discards it; a card dragged while the window turns is discarded
    where the pile now lies when it is dropped there. No action is lost."""
    page = device_page(new_page, width=390, height=844, **PHONE)
    start_solo(page, server.url, "200")
    to_discard(page)
    cards = page.get_by_role("group", name=EN.hand).get_by_role("button")
    expect(cards).to_have_count(11)
    page.keyboard.press("Tab")  # the keyboard is in use
    chosen = cards.nth(3)
    name = str(chosen.get_attribute("aria-label"))
    chosen.focus()
    turn(page)
    expect(page.get_by_role("button", name=name, exact=True)).to_be_focused()
    page.keyboard.press("Enter")
    expect(cards).to_have_count(10)
    expect(page.get_by_role("button", name=name, exact=True)).to_have_count(0)
    # Again, by dragging: pressed at 390×844, moved, the window turned, dropped on the pile.
    to_discard(page)
    expect(cards).to_have_count(11)
    dragged = cards.nth(5)
    name = str(dragged.get_attribute("aria-label"))
    box = dragged.bounding_box()
    assert box is not None
    page.mouse.move(box["x"] + 8, box["y"] + box["height"] / 2)
    page.mouse.down()
    page.mouse.move(box["x"] + 8, box["y"] - 40, steps=4)
    turn(page)
    pile = page.locator("main .felt .pile.discard").bounding_box()
    assert pile is not None
    page.mouse.move(pile["x"] + pile["width"] / 2, pile["y"] + pile["height"] / 2, steps=4)
    page.mouse.up()
    expect(cards).to_have_count(10)
    expect(page.get_by_role("button", name=name, exact=True)).to_have_count(0)
    assert not page.errors


# Per hand card: the box, and the strip of it no other card covers (as HIT_AREAS in
# test_one_screen.py), in the document's coordinates (the page may scroll down).
STRIPS = """(cards) => cards.map((el, i) => {
  const r = el.getBoundingClientRect();
  const next = cards[i + 1]?.getBoundingClientRect();
  const sameRow = next && Math.abs(next.top - r.top) < r.height / 2;
  const right = sameRow ? Math.min(r.right, next.left) : r.right;
  return { name: el.getAttribute("aria-label"), left: r.left + scrollX, right: right + scrollX,
           top: r.top + scrollY, bottom: r.bottom + scrollY, full: r.right + scrollX };
})"""


# Whether a press in the middle of a card's uncovered strip reaches it.
REACHED = """(el) => {
  const r = el.getBoundingClientRect();
  const next = el.nextElementSibling?.getBoundingClientRect();
  const sameRow = next && Math.abs(next.top - r.top) < r.height / 2;
  const right = sameRow ? Math.min(r.right, next.left) : r.right;
  return el.contains(document.elementFromPoint((r.left + right) / 2, r.top + r.height / 2));
}"""


def strip_problems(page: Any, at: str) -> list[str]:
    """Hand cards whose uncovered strips overlap, lie sideways outside the window, or that
    a press in the middle of the strip (scrolled into view) does not reach."""
    cards = page.get_by_role("group", name=EN.hand).get_by_role("button")
    strips = cards.evaluate_all(STRIPS)
    width = page.evaluate("innerWidth")
    problems = []
    if page.evaluate("document.documentElement.scrollWidth") > width:
        problems.append(f"{at}: the page scrolls sideways")
    for i, a in enumerate(strips):
        if a["left"] < -SLACK or a["full"] > width + SLACK:
            problems.append(f"{at}: {a['name']} lies outside the window's width")
        for b in strips[i + 1 :]:
            apart = (
                a["right"] <= b["left"] + SLACK
                or b["right"] <= a["left"] + SLACK
                or a["bottom"] <= b["top"] + SLACK
                or b["bottom"] <= a["top"] + SLACK
            )
            if not apart:
                problems.append(f"{at}: the strips of {a['name']} and {b['name']} overlap")
    for n in range(len(strips)):
        card = cards.nth(n)
        card.scroll_into_view_if_needed()
        reached = card.evaluate(REACHED)
        if not reached:
            problems.append(f"{at}: a press on {strips[n]['name']}'s strip misses it")
    return problems


def test_text_twice_as_large_keeps_the_whole_hand_apart(
    server: Any, new_page: Any, artifacts: Path
) -> None:
    """The page's text at 200% (the root font size, as a browser's text size does): the
    eleven cards of the hand lie across the window (in more rows if need be), no card's
    uncovered strip overlaps another, and a press on each reaches it, at a laptop's size
    and on a phone; the top bar does not make the page scroll sideways (it wraps or its
    switches go into the settings menu), stays low and keeps its controls in the window."""
    page = device_page(new_page, width=1366, height=768)
    start_solo(page, server.url, "200")
    to_discard(page)
    page.evaluate("document.documentElement.style.fontSize = '200%'")
    problems = []
    for width, height in [(1366, 768), (390, 844)]:
        page.set_viewport_size({"width": width, "height": height})
        page.evaluate("window.scrollTo(0, 0)")
        page.evaluate(SETTLE)
        page.screenshot(path=str(artifacts / f"font-200-{width}x{height}.png"), full_page=True)
        problems += strip_problems(page, f"{width}×{height} at 200%")
        problems += top_bar_problems(page, f"{width}×{height} at 200%")
    assert not problems, "\n".join(problems)
    assert not page.errors


# The top bar and the page's width: whether the page scrolls sideways, the bar's box, and
# each of its visible controls' boxes.
TOP_BAR = """() => {
  const bar = document.getElementById("topbar").getBoundingClientRect();
  const controls = [...document.querySelectorAll("#topbar a, #topbar button")]
    .filter((el) => el.getClientRects().length && getComputedStyle(el).visibility !== "hidden")
    .map((el) => {
      const r = el.getBoundingClientRect();
      const name = el.getAttribute("aria-label") || el.textContent.trim();
      return {name, left: r.left, right: r.right, top: r.top, bottom: r.bottom};
    });
  return {width: innerWidth, height: innerHeight, scrollWidth: document.documentElement.scrollWidth,
    bottom: bar.bottom, right: bar.right, controls};
}"""


def top_bar_problems(page: Any, where: str) -> list[str]:
    """What is wrong with the top bar at a large text size: the page scrolls sideways, the
    bar reaches past the window's edge or takes more than a quarter of its height, or a
    control of it lies outside the window."""
    bar = page.evaluate(TOP_BAR)
    problems = []
    if bar["scrollWidth"] > bar["width"]:
        problems.append(f"{where}: the page is {bar['scrollWidth']} px wide (sideways scroll)")
    if bar["right"] > bar["width"] + 0.5:
        problems.append(f"{where}: the top bar reaches to x = {bar['right']:.0f}")
    if bar["bottom"] > bar["height"] / 4:
        problems.append(f"{where}: the top bar is {bar['bottom']:.0f} px high")
    for c in bar["controls"]:
        if c["left"] < -0.5 or c["right"] > bar["width"] + 0.5 or c["bottom"] > bar["height"]:
            problems.append(f"{where}: the top bar's {c['name']!r} lies outside the window")
    return problems


# The points of an element's middle cross (a pill's rounded corners are not its) that a
# press does not reach: something lies over it there.
CROSS = """(el) => {
  const r = el.getBoundingClientRect();
  const points = [[.5, .5], [.03, .5], [.97, .5], [.5, .03], [.5, .97]];
  return points.map(([fx, fy]) => [r.left + fx * r.width, r.top + fy * r.height])
    .filter(([x, y]) => !el.contains(document.elementFromPoint(x, y)));
}"""
# The top bar's switches, by name, in English.
SWITCHES = ("Four-colour deck", "Large cards", "Deutsch", "English")


def steady_box(locator: Any) -> dict[str, float]:
    """The element's box; asked again should a render replace the element meanwhile."""
    for _ in range(20):
        box = locator.bounding_box()
        if box is not None:
            return dict(box)
        locator.page.wait_for_timeout(50)
    pytest.fail(f"{locator} has no box")


def test_a_phone_keeps_the_switches_in_a_settings_menu(server: Any, new_page: Any) -> None:
    """On a phone the top bar shows a "Settings" button, not a bar scrolling sideways: it
    opens a menu with every switch (its name and pressed state kept), wholly in the
    window and 44 px high; a switch works from it; Escape closes it and gives the focus
    back to the button. On a laptop's window the switches are in the bar, no button."""
    page = device_page(new_page, width=390, height=844, **PHONE)
    start_solo(page, server.url)
    my_turn(page)  # the person decides: no round's result (modal) lies over the page
    menu = page.get_by_role("button", name="Settings")
    expect(menu).to_have_attribute("aria-expanded", "false")
    for name in SWITCHES:
        expect(page.get_by_role("button", name=name, exact=True)).to_be_hidden()
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    box = steady_box(menu)
    assert box["x"] + box["width"] <= 390 + SLACK and box["height"] >= 44
    menu.click()
    expect(menu).to_have_attribute("aria-expanded", "true")
    for name in SWITCHES:
        switch = page.get_by_role("button", name=name, exact=True)
        expect(switch).to_be_visible()
        b = steady_box(switch)
        assert b["x"] >= 0 and b["x"] + b["width"] <= 390 + SLACK, (name, b)
        assert b["y"] + b["height"] <= 844 and b["height"] >= 44 - SLACK, (name, b)
    large = page.get_by_role("button", name="Large cards", exact=True)
    expect(large).to_have_attribute("aria-pressed", "false")
    # The menu lies over the table: a press anywhere on each switch reaches it.
    for name in SWITCHES:
        switch = page.get_by_role("button", name=name, exact=True)
        missed = switch.evaluate(CROSS)
        assert not missed, f"the table lies over {name!r} at {missed}"
    large.click()
    expect(large).to_have_attribute("aria-pressed", "true")
    expect(menu).to_have_attribute("aria-expanded", "true")  # open for the next switch
    page.keyboard.press("Escape")
    expect(menu).to_have_attribute("aria-expanded", "false")
    expect(menu).to_be_focused()
    expect(large).to_be_hidden()
    page.set_viewport_size({"width": 1366, "height": 768})
    expect(menu).to_be_hidden()
    for name in SWITCHES:
        expect(page.get_by_role("button", name=name, exact=True)).to_be_visible()
    expect(large).to_have_attribute("aria-pressed", "true")
    large.click()
    assert not page.errors


def test_a_narrow_phone_shows_the_whole_top_bar(
    server: Any, new_page: Any, artifacts: Path
) -> None:
    """At a table on a phone narrower than the bar's line (320 and 360 px), in English
    and in German, the bar does not scroll: the home link, the lobby, the leaderboard and
    the settings button are each whole in the window, nothing lies over any of them, and
    the home link keeps its name for a screen reader."""
    page = device_page(new_page, width=360, height=640, **PHONE)
    start_solo(page, server.url)
    my_turn(page)  # the person decides: no round's result (modal) lies over the page
    problems = []
    for lang, settings, home in (
        ("en", "Settings", "Gin Rummy"),
        ("de", "Einstellungen", "Gin Rummy"),
    ):
        if lang == "de":
            page.get_by_role("button", name="Settings").click()
            page.get_by_role("button", name="Deutsch", exact=True).click()
            page.keyboard.press("Escape")
        expect(page.get_by_role("button", name=settings)).to_have_attribute(
            "aria-expanded", "false"
        )
        expect(page.get_by_role("link", name=home, exact=True)).to_be_visible()
        for width, height in ((360, 640), (320, 568)):
            page.set_viewport_size({"width": width, "height": height})
            page.evaluate(SETTLE)
            page.screenshot(path=str(artifacts / f"top-bar-{lang}-{width}.png"))
            where = f"{width}×{height}, {lang}"
            bar = page.locator("#topbar")
            if bar.evaluate("(el) => el.scrollWidth > el.clientWidth + 0.5"):
                problems.append(f"{where}: the top bar scrolls sideways")
            problems += top_bar_problems(page, where)
            links = page.get_by_role("banner").get_by_role("link").all()
            assert len(links) == 3, [link.text_content() for link in links]
            for control in [*links, page.get_by_role("button", name=settings)]:
                missed = control.evaluate(CROSS)
                if missed:
                    problems.append(f"{where}: {control.text_content()!r} is covered at {missed}")
    assert not problems, "\n".join(problems)
    assert not page.errors


def test_the_device_note_can_be_closed_and_stays_closed(server: Any, new_page: Any) -> None:
    """The "played on this device" note's close button hides it; a reload and the next
    game remember that."""
    page = device_page(new_page, width=1366, height=768)
    start_solo(page, server.url)
    my_turn(page)  # the person decides: no round's result (modal) lies over the page
    note = page.get_by_text(NOTICE)
    expect(note).to_be_visible()
    page.get_by_role("button", name="Hide this note").click()
    expect(note).to_have_count(0)
    expect(page.get_by_role("group", name=EN.hand)).to_be_visible()
    page.reload()
    expect(page.get_by_role("group", name=EN.hand).get_by_role("button")).to_have_count(10)
    expect(note).to_have_count(0)
    start_solo(page, server.url)
    expect(page.get_by_role("group", name=EN.hand).get_by_role("button")).to_have_count(10)
    expect(note).to_have_count(0)
    assert not page.errors
