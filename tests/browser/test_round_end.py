"""The end of a round on the device table, played as an AI agent would (role and name only):
"Next round" is clicked the moment it shows, or after a small random pause, and the next
round starts every time; a render between the press and the release of the click (a
presence message, a clock, the other seat's move) does not lose it (issue 19, item 4)."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
from playwright.sync_api import expect

from .helpers import EN, actionable, decide, play_round, status
from .test_device import device_page
from .test_solo import start_solo

pytestmark = pytest.mark.browser


def round_number(page: Any) -> int:
    found = re.search(r"Round (\d+) is over", status(page).inner_text())
    assert found, status(page).inner_text()
    return int(found.group(1))


@pytest.mark.parametrize("pause", ["at_once", "random"])
def test_next_round_starts_the_next_round_every_time(
    server: Any, new_page: Any, pause: str
) -> None:
    rng = random.Random(19)
    page = device_page(new_page)
    start_solo(page, server.url, target="200")
    st = status(page)
    rounds = 0
    while rounds < 4:
        play_round(page, rng)
        expect(st).to_contain_text(re.compile(f"{EN.press_next}|{EN.match_over}"))
        if EN.match_over in st.inner_text():
            break
        n = round_number(page)
        button = page.get_by_role("button", name=EN.next_round)
        if pause == "random":
            page.wait_for_timeout(rng.uniform(0, 400))
        button.click()
        # The next round is dealt: its first decision (or the computer's) is in the status.
        expect(st).not_to_contain_text(EN.press_next, timeout=3_000)
        expect(page.get_by_text(f"Round {n + 1}", exact=True)).to_be_visible()
        rounds += 1
    assert rounds >= 2
    assert not page.errors  # type: ignore[attr-defined]


# A render of the page now, as any message or clock tick makes one (the page's debugging
# handle, web/js/main.js).
RENDER = "() => window.ginrummy.store.update((s) => ({ ...s }))"


def test_a_render_between_press_and_release_does_not_lose_the_click(
    server: Any, new_page: Any
) -> None:
    rng = random.Random(7)
    page = device_page(new_page)
    start_solo(page, server.url, target="200")
    st = status(page)
    for _ in range(2):
        play_round(page, rng)
        expect(st).to_contain_text(EN.press_next)
        n = round_number(page)
        button = page.get_by_role("button", name=EN.next_round)
        button.scroll_into_view_if_needed()
        box = button.bounding_box()
        assert box is not None
        page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        page.mouse.down()
        page.evaluate(RENDER)
        page.mouse.up()
        expect(st).not_to_contain_text(EN.press_next, timeout=3_000)
        expect(page.get_by_text(f"Round {n + 1}", exact=True)).to_be_visible()
    assert not page.errors  # type: ignore[attr-defined]


# The test's watchers: every line the live region "Announcements" gets, and every move of
# the computer (seat two) the page is told of, each with the time it came.
WATCH = """(log) => {
  window.__said = [];
  window.__moves = [];
  new MutationObserver((records) => {
    for (const record of records) {
      for (const node of record.addedNodes) {
        window.__said.push([performance.now(), node.textContent]);
      }
    }
  }).observe(log, { childList: true });
  // A move the page was told of before the watch began was announced before it too.
  let last = window.ginrummy.store.get().animation?.version ?? null;
  window.ginrummy.store.subscribe((s) => {
    const a = s.animation;
    if (a && a.seat === "two" && a.action && a.version !== last) {
      last = a.version;
      window.__moves.push([performance.now(), a.action]);
    }
  });
}"""


def test_each_computer_move_is_announced_once_within_a_second(server: Any, new_page: Any) -> None:
    rng = random.Random(11)
    page = device_page(new_page)
    start_solo(page, server.url, target="200")
    log = page.get_by_role("log", name="Announcements")
    expect(log).to_have_attribute("aria-live", "polite")
    log.evaluate(WATCH)
    st = status(page)
    for _ in range(12):
        expect(st).to_have_text(actionable(EN))
        if EN.press_next in st.inner_text() or EN.match_over in st.inner_text():
            break
        decide(page, rng)
    expect(st).to_have_text(actionable(EN))
    page.wait_for_timeout(1_000)  # the last move's announcement has had its second
    moves: list[list[Any]] = page.evaluate("window.__moves")
    said: list[list[Any]] = page.evaluate("window.__said")
    assert moves, "the computer made no move"
    name = "Casual"
    # A move's line names the mover first ("Casual discards 7 of hearts."); a round's
    # end and a deal start otherwise.
    about_moves = [line for line in said if line[1].startswith(name)]
    # One line per move, no repeats, each within a second of the move.
    assert len(about_moves) == len(moves), (moves, said)
    for (at, action), (when, text) in zip(moves, about_moves, strict=True):
        assert 0 <= when - at < 1_000, (action, text, when - at)
        assert text.strip(), action
