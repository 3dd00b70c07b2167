"""The table as a game screen (issue 19, items 1 and 2): the whole playing surface in the
window at every common size, no scrolling, and cards and buttons big enough to read and
hit. Measured from bounding boxes on a device game (Play against the computer) with the
largest hand a round has (11 cards), tips on and the "played on this device" note shown,
in English and German, at four desktop and tablet sizes with a mouse and four phone sizes
(upright, small, the smallest: 320×568, and sideways) as a touch screen. One game per
language: the touch screen resumes it from the browser's storage (docs/device.md), and
each check only resizes."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from .conftest import ARTIFACTS
from .helpers import DE, EN, Words, actionable, decide, open_room, play_round, status
from .public import my_turn
from .test_device import NOTICE, device_page
from .test_solo import start_solo

pytestmark = pytest.mark.browser

# (width, height) of the window.
MOUSE_SIZES = [(1280, 720), (1366, 768), (1920, 1080), (768, 1024)]
TOUCH_SIZES = [(390, 844), (360, 640), (320, 568), (844, 390)]
# The smallest target: WCAG 2.2's 2.5.8 anywhere, 44 px (2.5.5, platform guides) by touch.
MIN_TARGET = {"mouse": 24.0, "touch": 44.0}
# The height in CSS px of a card's rank in its corner, at least: about 9 pt, legible at
# arm's length on a phone.
MIN_RANK = 12.0
# Shown, but allowed below the fold on a phone (issue 19: secondary parts go beside or
# below the table, never above the hand).
SECONDARY = ("tip", "device note", "note button")
# What is pressed: each at least MIN_TARGET large, wherever it lies.
TARGETS = ("button", "pile", "note button")
# Rounding of layout boxes.
SLACK = 0.5


def in_window(left: float, top: float, right: float, bottom: float, w: int, h: int) -> bool:
    """Whether a box lies wholly in a ``w``×``h`` window (within ``SLACK``)."""
    return left >= -SLACK and top >= -SLACK and right <= w + SLACK and bottom <= h + SLACK


TIP = {"en": "Tip", "de": "Tipp"}
LARGE = {"en": "Large cards", "de": "Große Karten"}
DEVICE_NOTE = {"en": NOTICE, "de": "nicht vom Server geprüft"}

# Everything the one-screen check needs, read in one go (the layout cannot change between
# two reads): the document's scroll state, then a named box per part of the table.
MEASURE = """() => {
  const box = (el) => {
    const r = el.getBoundingClientRect();
    return { x: r.left, y: r.top, w: r.width, h: r.height };
  };
  const name = (el) => el.getAttribute("aria-label") || el.textContent.trim().slice(0, 40);
  const parts = [];
  // Whether a press in the middle of a part reaches it (nothing lies over it there).
  const reached = (el, r) => el.contains(document.elementFromPoint(r.x + r.w / 2, r.y + r.h / 2));
  const add = (kind, el) => {
    if (el) parts.push({ kind, name: name(el), ...box(el), reached: reached(el, box(el)) });
  };
  const felt = document.querySelector("main .felt");
  const hand = document.querySelectorAll('main [role="group"][data-drop="hand"] > button');
  for (const el of hand) add("hand card", el);
  for (const el of felt ? felt.querySelectorAll(".piles > .pile") : []) add("pile", el);
  add("status", document.getElementById("game-status"));
  add("score", document.querySelector("main .infobar .scores"));
  for (const el of felt ? felt.querySelectorAll(":scope > .opponent") : []) add("opponent", el);
  add("tip", felt?.querySelector(".tip-box"));
  add("device note", document.querySelector("main .device-notes"));
  add("timer", document.querySelector("main .timer"));
  for (const el of document.querySelectorAll("main .table-screen button:not([disabled])")) {
    // Every button shown (not those of a closed disclosure, as the fair mark's).
    // The device note's close button is a part of the note (secondary: it may lie below
    // the fold on a phone), still a target to hit.
    const kind = el.closest(".device-notes") ? "note button" : "button";
    if (!el.closest('[data-drop="hand"]') && el.checkVisibility()) add(kind, el);
  }
  return {
    scrollX: window.scrollX, scrollY: window.scrollY,
    docWidth: document.documentElement.scrollWidth,
    docHeight: document.documentElement.scrollHeight,
    width: window.innerWidth, height: window.innerHeight, parts,
  };
}"""

# Per hand card: the strip of it no other card covers (up to the next card of its row),
# whether a press in that strip's middle reaches it, and the height of its rank.
HIT_AREAS = """(cards) => cards.map((el, i) => {
  const r = el.getBoundingClientRect();
  const next = cards[i + 1]?.getBoundingClientRect();
  const sameRow = next && Math.abs(next.top - r.top) < r.height / 2;
  const right = sameRow ? Math.min(r.right, next.left) : r.right;
  const width = right - r.left;
  const hit = document.elementFromPoint(r.left + width / 2, r.top + r.height / 2);
  const rank = el.querySelector(".card-index")?.getBoundingClientRect().height ?? 0;
  const name = el.getAttribute("aria-label");
  return { name, width, height: r.height, reached: el.contains(hit), rank };
})"""

# Whether every point of a card's box, a little inside its edge, reaches that card: it is
# whole on screen, nothing over it.
WHOLE = """(el) => {
  const r = el.getBoundingClientRect();
  const points = [];
  for (const fx of [0.03, 0.5, 0.97]) for (const fy of [0.03, 0.5, 0.97]) {
    points.push([r.left + fx * r.width, r.top + fy * r.height]);
  }
  return points.filter(([x, y]) => !el.contains(document.elementFromPoint(x, y)));
}"""

SETTLE = "() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))"


def fmt(part: dict[str, Any]) -> str:
    where = f"x={part['x']:.0f} y={part['y']:.0f} {part['w']:.0f}×{part['h']:.0f}"
    return f"{part['kind']} {part['name']!r} at {where}"


# The parts each kind of table must show.
DEVICE_PARTS = ("hand card", "pile", "status", "score", "opponent", "tip", "device note")
SEAT_PARTS = ("hand card", "pile", "status", "score", "opponent")
WATCHER_PARTS = ("pile", "status", "score", "opponent")


def one_screen_problems(
    page: Any,
    kind: str,
    size: tuple[int, int],
    needed: tuple[str, ...] = DEVICE_PARTS,
    whole: bool = True,
) -> list[str]:
    """What keeps the table from being one screen at ``size``: a scrolled or scrolling
    document, a ``needed`` part missing or outside the window, a card or button too small
    to hit, a rank too small to read. Empty when all is well. ``whole``: the document is
    no taller than the window with a mouse (a room's chat may lie below the fold)."""
    width, height = size
    page.set_viewport_size({"width": width, "height": height})
    page.evaluate(SETTLE)
    m = page.evaluate(MEASURE)
    at = f"{width}×{height} ({kind})"
    problems = []
    if m["scrollY"] != 0 or m["scrollX"] != 0:
        problems.append(f"{at}: the document is scrolled to {m['scrollX']}, {m['scrollY']}")
    # With a mouse (laptop, desktop, tablet) all of it fits: the document is no taller
    # than the window. On a phone the tip and the note may reach below the fold (checked
    # part by part below). Wider than the window, never.
    if whole and kind == "mouse" and m["docHeight"] > m["height"]:
        problems.append(f"{at}: the document is {m['docHeight']} px high, the window {m['height']}")
    if m["docWidth"] > m["width"]:
        problems.append(f"{at}: the document is {m['docWidth']} px wide, the window {m['width']}")
    kinds = {p["kind"] for p in m["parts"]}
    for part_kind in needed:
        if part_kind not in kinds:
            problems.append(f"{at}: no {part_kind} on the table")
    for part in m["parts"]:
        least = MIN_TARGET[kind]
        if part["kind"] in TARGETS and (part["w"] < least - SLACK or part["h"] < least - SLACK):
            problems.append(f"{at}: {fmt(part)} is smaller than {least:.0f}×{least:.0f}")
        if kind == "touch" and part["kind"] in SECONDARY:
            if part["w"] < 1 or part["h"] < 1:
                problems.append(f"{at}: {fmt(part)} is not shown")
            continue
        x, y = part["x"], part["y"]
        if not in_window(x, y, x + part["w"], y + part["h"], m["width"], m["height"]):
            problems.append(f"{at}: {fmt(part)} is not wholly in the window")
        if part["kind"] in ("button", "note button") and not part["reached"]:
            problems.append(f"{at}: a press in the middle of {fmt(part)} misses it")
    cards = page.locator('main [role="group"][data-drop="hand"] > button')
    for card in cards.evaluate_all(HIT_AREAS):
        least = MIN_TARGET[kind]
        if card["width"] < least - SLACK or card["height"] < least - SLACK:
            problems.append(
                f"{at}: hand card {card['name']!r} shows a {card['width']:.0f}×{card['height']:.0f}"
                f" strip to press, less than {least:.0f}×{least:.0f}"
            )
        if not card["reached"]:
            problems.append(f"{at}: a press in the middle of {card['name']!r}'s strip misses it")
        if card["rank"] < MIN_RANK:
            problems.append(
                f"{at}: the rank of {card['name']!r} is {card['rank']:.1f} px high,"
                f" under {MIN_RANK:.0f}"
            )
    if problems:  # what it looked like, for the person reading the failure
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / f"one-screen-problem-{kind}-{width}x{height}.png"))
    return problems


def play_to_draw(page: Any, rng: random.Random, w: Words) -> None:
    """Play (never knocking) until the person is to draw: the hand's ten cards, the stock
    and the discard pile as buttons."""
    st = status(page, w)
    for _ in range(200):
        expect(st).to_have_text(
            re.compile("|".join(re.escape(x) for x in (w.your_turn, w.press_next))), timeout=15_000
        )
        text = st.inner_text()
        if w.draw in text and w.upcard not in text:
            return
        decide(page, rng, w, knock=False)
    pytest.fail("the person was never to draw")


def tips_on(page: Any, w: Words, lang: str) -> None:
    """Switch tips on and wait for the tip itself (it may change the table's height)."""
    toggle = page.get_by_role("button", name=w.tips)
    if toggle.get_attribute("aria-pressed") != "true":
        toggle.click()
    expect(toggle).to_have_attribute("aria-pressed", "true")
    expect(page.get_by_role("complementary", name=TIP[lang])).to_contain_text(f"{TIP[lang]}:")


def hand(page: Any, w: Words) -> Any:
    return page.get_by_role("group", name=w.hand).get_by_role("button")


def check_sizes(
    page: Any,
    kind: str,
    sizes: list[tuple[int, int]],
    needed: tuple[str, ...] = DEVICE_PARTS,
    whole: bool = True,
) -> list[str]:
    return [
        problem
        for size in sizes
        for problem in one_screen_problems(page, kind, size, needed, whole)
    ]


@pytest.mark.parametrize("lang", ["en", "de"])
def test_device_table_is_one_screen_at_every_size(
    server: Any, new_page: Any, artifacts: Path, lang: str
) -> None:
    """At each of the eight sizes, with the mouse and by touch, in both languages: when the
    person is to draw (ten cards, the piles are the buttons) and when they have drawn
    (eleven cards, the largest hand): every hand card, both piles, the status, the score,
    the other side, the tip, the device note and every enabled button lie wholly in the
    window, the document neither scrolled nor taller or wider than the window; each
    card shows a strip of at least 24 px (44 px by touch) that a press reaches, each
    button is at least that large, and each rank is legible."""
    w = EN if lang == "en" else DE
    locale = "en-US" if lang == "en" else "de-DE"
    rng = random.Random(19)
    page = device_page(new_page, locale=locale, width=1366, height=768)
    start_solo(page, server.url, "100", w)
    expect(page.get_by_text(DEVICE_NOTE[lang])).to_be_visible()
    play_to_draw(page, rng, w)
    tips_on(page, w, lang)
    expect(hand(page, w)).to_have_count(10)
    # The game as this browser saved it, for a touch screen to resume it at this point.
    saved = page.context.storage_state()
    problems = check_sizes(page, "mouse", MOUSE_SIZES)

    page.get_by_role("button", name=w.draw_stock).click()
    expect(hand(page, w)).to_have_count(11)
    expect(status(page, w)).to_contain_text(w.discard)
    tips_on(page, w, lang)
    problems += check_sizes(page, "mouse", MOUSE_SIZES)
    page.set_viewport_size({"width": 1366, "height": 768})
    page.screenshot(path=str(artifacts / f"one-screen-{lang}-1366x768.png"))

    touch = device_page(
        new_page,
        locale=locale,
        width=390,
        height=844,
        has_touch=True,
        is_mobile=True,
        storage_state=saved,
    )
    touch.goto(page.url)
    expect(hand(touch, w)).to_have_count(10)
    tips_on(touch, w, lang)
    problems += check_sizes(touch, "touch", TOUCH_SIZES)
    touch.get_by_role("button", name=w.draw_stock).click()
    expect(hand(touch, w)).to_have_count(11)
    tips_on(touch, w, lang)
    problems += check_sizes(touch, "touch", TOUCH_SIZES)
    for width, height in TOUCH_SIZES:
        touch.set_viewport_size({"width": width, "height": height})
        touch.screenshot(path=str(artifacts / f"one-screen-{lang}-{width}x{height}.png"))
    assert not problems, "\n".join(problems)
    assert not page.errors and not touch.errors


def test_focused_card_is_whole_and_above_its_neighbours(server: Any, new_page: Any) -> None:
    """WCAG 2.4.11: a card of the overlapping hand that has the keyboard focus is not
    covered by the next one: every point of it, a little inside its edge, reaches it.
    The middle card is tried (a neighbour on each side), with the mouse's and the touch
    screen's overlap."""
    for kind, (width, height) in (("mouse", (1280, 720)), ("touch", (360, 640))):
        extra = {"has_touch": True, "is_mobile": True} if kind == "touch" else {}
        page = device_page(new_page, width=width, height=height, **extra)
        start_solo(page, server.url)
        cards = hand(page, EN)
        # The person's decision: no computer move re-renders the hand while it is measured
        # (a card measured as it is replaced is detached: a box of zeros), no round's
        # result (modal) lies over it.
        my_turn(page)
        expect(cards).to_have_count(10)
        page.keyboard.press("Tab")  # the keyboard was used: focus shows (:focus-visible)
        middle = cards.nth(4)
        middle.focus()
        expect(middle).to_be_focused()
        page.evaluate(SETTLE)
        missed = middle.evaluate(WHOLE)
        assert not missed, f"{kind}: the focused card is covered at {missed}"
        # The same card unfocused: the next one lies over its right part (what the
        # focus must undo).
        cards.nth(5).focus()
        page.evaluate(SETTLE)
        assert middle.evaluate(WHOLE), f"{kind}: an unfocused card is not overlapped at all"
        assert not page.errors


def test_large_cards_setting_is_kept_and_the_hand_still_fits_across(
    server: Any, new_page: Any
) -> None:
    """The "Large cards" switch in the top bar makes the hand's cards at least a fifth
    larger, is remembered after a reload (like the four-colour deck), and the larger
    hand still lies across the window without sideways scrolling."""
    page = device_page(new_page, width=1366, height=768)
    start_solo(page, server.url)
    cards = hand(page, EN)
    # The person's decision: no computer move re-renders the hand while it is measured,
    # no round's result (modal) lies over the switch.
    my_turn(page)
    expect(cards).to_have_count(10)
    before = cards.first.bounding_box()
    switch = page.get_by_role("button", name="Large cards")
    expect(switch).to_have_attribute("aria-pressed", "false")
    switch.click()
    expect(switch).to_have_attribute("aria-pressed", "true")
    page.evaluate(SETTLE)
    after = cards.first.bounding_box()
    assert before is not None and after is not None
    assert after["width"] >= 1.2 * before["width"], (before, after)
    page.reload()
    expect(cards).to_have_count(10)
    expect(page.get_by_role("button", name="Large cards")).to_have_attribute("aria-pressed", "true")
    expect(status(page)).to_have_text(actionable(EN), timeout=15_000)
    page.evaluate(SETTLE)  # the reloaded page laid out at the remembered size
    again = cards.first.bounding_box()
    assert again is not None and abs(again["width"] - after["width"]) < 1, (after, again)
    boxes = cards.evaluate_all("els => els.map((e) => e.getBoundingClientRect().toJSON())")
    outside = [b for b in boxes if b["left"] < -SLACK or b["right"] > 1366 + SLACK]
    assert not outside, f"large cards outside the window's width: {outside}"
    assert page.evaluate("document.documentElement.scrollWidth") <= 1366
    switch = page.get_by_role("button", name="Large cards")
    switch.click()
    expect(switch).to_have_attribute("aria-pressed", "false")
    assert not page.errors


def test_round_result_keeps_next_round_in_the_window(server: Any, new_page: Any) -> None:
    """After a round, its result (both hands, the calculation) may be longer than the
    window, but the "Next round" button stays in it without scrolling, at a laptop's
    size and on a phone upright and sideways."""
    rng = random.Random(5)
    page = device_page(new_page, width=360, height=640, has_touch=True, is_mobile=True)
    start_solo(page, server.url, "200")
    play_round(page, rng)
    expect(status(page)).to_contain_text(EN.press_next)
    button = page.get_by_role("button", name=EN.next_round)
    for width, height in [(1366, 768), (390, 844), (360, 640), (844, 390)]:
        page.set_viewport_size({"width": width, "height": height})
        page.evaluate(SETTLE)
        box = button.bounding_box()
        assert box is not None
        assert page.evaluate("window.scrollY") == 0
        inside = box["y"] >= 0 and box["y"] + box["height"] <= height + SLACK
        assert inside, (
            f"{width}×{height}: 'Next round' at y={box['y']:.0f}, {box['height']:.0f} high"
        )
    button.click()
    expect(status(page)).not_to_contain_text(EN.press_next)
    assert not page.errors


def test_room_table_is_one_screen_for_a_seat_and_a_watcher(
    server: Any, new_page: Any, artifacts: Path
) -> None:
    """A room of two people with a spectator, the chat beside or below the table: the
    seat to discard (eleven cards) by mouse at the four desktop and tablet sizes, the other
    seat (ten cards) by touch at the four phone sizes, and the spectator (both hands
    face down, no buttons) at all eight: every needed part wholly in the window, the
    document not scrolled, cards and buttons large enough to hit."""
    ann = new_page(width=1366, height=768)
    link = open_room(ann, server.url, "Ann")
    bob = new_page(width=390, height=844, has_touch=True, is_mobile=True)
    bob.goto(link)
    bob.get_by_role("textbox", name="Your name").fill("Bob")
    bob.get_by_role("button", name="Take the seat").click()
    expect(hand(bob, EN)).to_have_count(10)
    eve = new_page(width=1366, height=768)
    eve.goto(link)
    expect(status(eve)).to_contain_text("You are watching.")
    # Play until one seat has drawn: that seat holds eleven cards, the other ten.
    rng = random.Random(23)
    drawn = None
    for _ in range(60):
        for page in (ann, bob):
            text = status(page).inner_text()
            if EN.your_turn in text and EN.discard in text and EN.upcard not in text:
                drawn = page
                break
            if actionable(EN).search(text) and EN.press_next not in text:
                decide(page, rng, knock=False, timeout=5_000)
        if drawn is not None:
            break
        ann.wait_for_timeout(100)
    assert drawn is not None, "no seat came to discard"
    other = bob if drawn is ann else ann
    expect(hand(drawn, EN)).to_have_count(11)
    expect(hand(other, EN)).to_have_count(10)
    sizes = MOUSE_SIZES if drawn is ann else TOUCH_SIZES
    kinds = "mouse" if drawn is ann else "touch"
    problems = check_sizes(drawn, kinds, sizes, SEAT_PARTS, whole=False)
    problems += check_sizes(
        other,
        "touch" if other is bob else "mouse",
        TOUCH_SIZES if other is bob else MOUSE_SIZES,
        SEAT_PARTS,
        whole=False,
    )
    problems += check_sizes(eve, "mouse", MOUSE_SIZES + TOUCH_SIZES, WATCHER_PARTS, whole=False)
    eve.set_viewport_size({"width": 1366, "height": 768})
    eve.screenshot(path=str(artifacts / "one-screen-watcher-1366x768.png"))
    ann.set_viewport_size({"width": 1366, "height": 768})
    ann.screenshot(path=str(artifacts / "one-screen-room-1366x768.png"))
    bob.set_viewport_size({"width": 390, "height": 844})
    bob.screenshot(path=str(artifacts / "one-screen-room-390x844.png"))
    assert not problems, "\n".join(problems)
    assert not ann.errors and not bob.errors and not eve.errors
