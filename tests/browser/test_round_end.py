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
    decisions = 0
    while decisions < 12:
        expect(st).to_have_text(actionable(EN))
        text = st.inner_text()
        if EN.match_over in text:
            break
        if EN.press_next in text:
            if page.evaluate("window.__moves.length"):
                break
            # The deal let the person end the round before the computer moved: the next.
            page.get_by_role("button", name=EN.next_round).click()
            expect(st).not_to_contain_text(EN.press_next)
            continue
        decide(page, rng)
        decisions += 1
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


# Renders all the time, as a stream of messages, clocks and the other side's flights make
# them: every 15 ms (the page's debugging handle, web/js/main.js) from the moment the
# agent finds the button until its click has had its effect. (Rendering so through the
# whole match, while the test's own moves are played, cost 46 s of CPU and tested nothing
# more: the button exists only at the end of a round.)
RENDERING = (
    "() => { window.__renders ="
    " setInterval(() => window.ginrummy.store.update((s) => ({ ...s })), 15); }"
)
RENDERING_STOPS = "() => clearInterval(window.__renders)"


def test_an_agent_holding_the_next_round_button_always_gets_on(server: Any, new_page: Any) -> None:
    """An AI agent finds "Next round" by role and name, keeps that element (as an agent's
    reference into the page), waits a random moment while the page renders again and
    again, and clicks it: the element is still the page's and the next round starts
    (before the render kept its nodes (dom.js morphChildren), it was detached by the
    first render and the click went nowhere)."""
    rng = random.Random(23)
    page = device_page(new_page)
    page.emulate_media(reduced_motion="no-preference")  # the computer's moves fly
    start_solo(page, server.url, target="200")
    st = status(page)
    rounds = 0
    while rounds < 3:
        play_round(page, rng)
        expect(st).to_contain_text(re.compile(f"{EN.press_next}|{EN.match_over}"))
        if EN.match_over in st.inner_text():
            break
        n = round_number(page)
        page.evaluate(RENDERING)
        handle = page.get_by_role("button", name=EN.next_round).element_handle()
        page.wait_for_timeout(rng.uniform(0, 300))
        assert handle.evaluate("(el) => el.isConnected"), "the button was replaced"
        handle.click(timeout=2_000)
        expect(st).not_to_contain_text(EN.press_next, timeout=3_000)
        expect(page.get_by_text(f"Round {n + 1}", exact=True)).to_be_visible()
        page.evaluate(RENDERING_STOPS)
        rounds += 1
    assert rounds >= 2
    assert not page.errors  # type: ignore[attr-defined]


def test_the_focused_button_keeps_the_focus_and_its_node_across_a_frame(
    server: Any, new_page: Any
) -> None:
    rng = random.Random(5)
    page = device_page(new_page)
    start_solo(page, server.url, target="200")
    play_round(page, rng)
    st = status(page)
    expect(st).to_contain_text(re.compile(f"{EN.press_next}|{EN.match_over}"))
    if EN.match_over in st.inner_text():
        pytest.skip("the first round ended the match")
    button = page.get_by_role("button", name=EN.next_round)
    button.focus()
    handle = button.element_handle()
    # Frames of the table and the top bar: the button is the same node and never lost
    # the focus (no focusout; keepingFocus had nothing to give back), and so is the top
    # bar's language switch.
    deutsch = page.get_by_role("button", name="Deutsch").element_handle()
    page.evaluate(
        "() => { window.__blurs = 0;"
        " document.addEventListener('focusout', () => { window.__blurs += 1; }, true); }"
    )
    for _ in range(3):
        page.evaluate(RENDER)
    assert handle.evaluate("(el) => el.isConnected && document.activeElement === el")
    assert deutsch.evaluate("(el) => el.isConnected")
    assert page.evaluate("window.__blurs") == 0
    page.keyboard.press("Enter")
    expect(st).not_to_contain_text(EN.press_next, timeout=3_000)
    assert not page.errors  # type: ignore[attr-defined]
