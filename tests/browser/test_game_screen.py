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
    actionable,
    chouette_role,
    join_chouette,
    open_chouette,
    play_round,
    status,
)
from .public import enter_lobby
from .test_chouette import Seat, play_until_captain_decides, wait_all_seated
from .test_device import device_page
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


def on_touch(new_page: Any, page: Any) -> Any:
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
    expect(status(phone)).to_be_visible()
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
    join_chouette(bob, link, "Bob")
    join_chouette(cleo, link, "Cleo")
    seats: list[Seat] = [("Ann", ann, CH_EN), ("Bob", bob, CH_EN), ("Cleo", cleo, CH_EN)]
    wait_all_seated(seats)
    parts = {chouette_role(page, w): (name, page, w) for name, page, w in seats}
    assert set(parts) == {"box", "captain", "partner"}, parts
    play_until_captain_decides(seats, parts["captain"], rng)
    captain_name, captain, _ = parts["captain"]
    _, partner, _ = parts["partner"]
    partner.get_by_role("group", name=re.compile(captain_name)).get_by_role("button").first.click()
    suggest = partner.get_by_role("button", name=re.compile("^" + re.escape(CH_EN.suggest)))
    suggest.first.click()
    expect(captain.get_by_role("complementary", name=CH_EN.advice)).to_be_visible()
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
    for _, page, _w in seats:
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
    ann.get_by_role("button", name="Start now").click()
    expect(ann).to_have_url(re.compile(r"/r/[\w-]+$"))
    expect(status(ann)).to_have_text(actionable(EN), timeout=15_000)
    expect(ann.get_by_role("link", name="Screen Cup")).to_be_visible()
    problems = check_sizes(ann, "mouse", [(1366, 768)], SEAT_PARTS, whole=False)
    ann.screenshot(path=str(artifacts / "game-screen-tournament-1366x768.png"))
    phone = on_touch(new_page, ann)
    expect(status(phone)).to_have_text(actionable(EN), timeout=15_000)
    problems += check_sizes(phone, "touch", [(390, 844)], SEAT_PARTS, whole=False)
    phone.screenshot(path=str(artifacts / "game-screen-tournament-390x844.png"))
    assert not problems, "\n".join(problems)
    assert not ann.errors and not phone.errors
