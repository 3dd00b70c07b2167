"""Moves you can follow (issue 19, item 3; web/js/follow.js): the computer's move is
announced once within a second, named in the status and marked on the table until the
person acts; it moves on the table in at most 300 ms, and not at all with reduced motion;
a turn that comes while the page is in the background is in its title, with a sound if
wished (off by default, remembered). On the device table and on a room's (a game against
the computer played on the server: the same rendering code)."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
from playwright.sync_api import expect

from .helpers import EN, actionable, close_result, decide, status
from .test_device import device_page
from .test_solo import start_solo

pytestmark = pytest.mark.browser

COMPUTER = "Casual"
MOVE_MS = 300

# Every line of the live region "Announcements" with its time, and each move with the time
# the page was told of it and the animations running right after the page drew the move's
# view (this listener runs after the page's own, web/js/main.js).
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
  let last = window.ginrummy.store.get().animation?.version ?? null;
  window.ginrummy.store.subscribe((s) => {
    const a = s.animation;
    if (!a || a.kind !== "action") return;
    if (a.version !== last) {
      last = a.version;
      window.__moves.push({ at: performance.now(), seat: a.seat, action: a.action, anims: null });
    }
    const move = window.__moves.at(-1);
    if (move && a.version === s.version && move.anims === null) {
      move.anims = document.getAnimations().map((x) => x.effect.getComputedTiming().endTime);
    }
  });
}"""

# Every line the live region holds (some came before the watch began).
SAID = "[...document.getElementById('announcer').children].map((line) => line.textContent)"

# Shown moving: the other side's draws and discards, anyone's knock or gin.
MOVING = re.compile(r"^(draw stock|draw discard|take|discard |knock|gin|big gin)")


def watch(page: Any) -> None:
    log = page.get_by_role("log", name="Announcements")
    expect(log).to_have_attribute("aria-live", "polite")
    log.evaluate(WATCH)


def moves(page: Any) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = page.evaluate("window.__moves")
    return found


def computer_moves(page: Any) -> list[dict[str, Any]]:
    return [m for m in moves(page) if m["seat"] == "two"]


def play_until_computer_moved(page: Any, rng: random.Random, count: int) -> None:
    """The person's decisions until the computer has drawn or discarded ``count`` times."""
    for _ in range(200):
        if sum(1 for m in computer_moves(page) if MOVING.match(m["action"])) >= count:
            return
        if decide(page, rng) == "match_over":
            break
    pytest.fail(f"the computer did not move {count} times")


def table(page: Any, kind: str, url: str) -> None:
    start_solo(page, url, target="200", verified=kind == "room")
    expect(status(page)).to_have_text(actionable(EN))


@pytest.mark.parametrize("kind", ["device", "room"])
def test_a_computer_move_is_said_once_named_and_marked_until_the_person_acts(
    server: Any, new_page: Any, kind: str
) -> None:
    rng = random.Random(3)
    page = device_page(new_page)
    table(page, kind, server.url)
    watch(page)
    st = status(page)
    discards = takes = 0
    for _ in range(150):
        if discards >= 2 and takes >= 1:
            break
        expect(st).to_have_text(actionable(EN))
        text = st.inner_text()
        state = page.evaluate("window.ginrummy.store.get()")
        last = state["lastMoves"]
        taken = [m for m in last if m["action"] in ("take", "draw discard")]
        if taken and state["view"]["legal_actions"]:
            # A face-up card the computer took is marked in its row and named.
            card = page.locator(f'main .opponent [data-card="{taken[-1]["top"]}"]')
            expect(card).to_have_class(re.compile(r"\blast-move\b"))
            assert f"{COMPUTER} takes" in text, text
            takes += 1
        if EN.draw in text and last and last[-1]["action"].startswith("discard "):
            # The computer's discard is marked on the pile and named first in the status.
            card = last[-1]["action"].split()[1]
            marked = page.locator("main .pile.discard .card.last-move")
            expect(marked).to_have_attribute("data-card", card)
            said = [line for line in page.evaluate(SAID) if "discards" in line]
            assert said and text.startswith(said[-1].split(" discards")[0]), (text, said)
            assert said[-1] in text, (said[-1], text)
            # ... until the person acts.
            page.get_by_role("button", name=EN.draw_stock).click()
            expect(marked).to_have_count(0)
            expect(st).not_to_contain_text(said[-1])
            discards += 1
            continue
        if decide(page, rng) == "match_over":
            break
    assert discards >= 2, "the computer never discarded before the person's draw"
    assert takes >= 1, "the computer never took a face-up card"
    page.wait_for_timeout(1_000)  # the last move's announcement has had its second
    said: list[list[Any]] = page.evaluate("window.__said")
    made = computer_moves(page)
    about = [line for line in said if line[1].startswith(COMPUTER)]
    # One line per move of the computer, no repeats, each within a second of the move.
    assert len(about) == len(made), (made, about)
    for move, (when, line) in zip(made, about, strict=True):
        assert 0 <= when - move["at"] < 1_000, (move, line)
    assert not page.errors  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("kind", "motion"),
    [("device", "reduce"), ("device", "no-preference"), ("room", "no-preference")],
)
def test_moves_are_shown_moving_briefly_and_not_with_reduced_motion(
    server: Any, new_page: Any, kind: str, motion: str
) -> None:
    rng = random.Random(5)
    page = device_page(new_page)
    page.emulate_media(reduced_motion=motion)
    table(page, kind, server.url)
    watch(page)
    play_until_computer_moved(page, rng, 4)
    shown = [m for m in moves(page) if MOVING.match(m["action"]) and m["seat"] == "two"]
    if motion == "reduce":
        assert all(m["anims"] == [] for m in shown), shown
    else:
        # Each of the computer's draws and discards is shown moving, none longer than 300 ms.
        assert all(m["anims"] for m in shown), shown
        assert all(0 < end <= MOVE_MS for m in shown for end in m["anims"]), shown
    assert not page.errors  # type: ignore[attr-defined]


# The page as in a background tab (Playwright's page is always visible): the document's
# visibility read as hidden, and the change announced as the browser would.
HIDE = """(hidden) => {
  const values = { visibilityState: hidden ? "hidden" : "visible", hidden };
  for (const [key, value] of Object.entries(values)) {
    Object.defineProperty(document, key, { get: () => value, configurable: true });
  }
  document.dispatchEvent(new Event("visibilitychange"));
}"""

# A Web Audio stand-in that counts the tones played.
AUDIO = """window.__tones = 0;
window.AudioContext = class {
  constructor() { this.currentTime = 0; this.destination = {}; }
  createOscillator() {
    window.__tones += 1;
    return { frequency: {}, connect: (node) => node, start() {}, stop() {} };
  }
  createGain() {
    const gain = { setValueAtTime() {}, exponentialRampToValueAtTime() {} };
    return { gain, connect: (node) => node };
  }
};"""

YOUR_TURN_TITLE = "● Your turn – Gin Rummy"


def act_and_wait_for_turn(page: Any, rng: random.Random) -> None:
    """The person's decisions until the turn has passed to the computer and come back as
    the person's turn. A round the computer ends on its turn (the deal is random) has its
    result closed and the next round is played the same way."""
    st = status(page)
    for _ in range(20):
        decide(page, rng, knock=False)
        if page.evaluate("window.ginrummy.store.get().view.table.turn") != "two":
            continue
        expect(st).to_have_text(actionable(EN))
        if EN.your_turn in st.inner_text():
            return
        close_result(page)  # the computer ended the round: decide() starts the next
    pytest.fail("the turn never came back to the person after the computer's")


def test_a_turn_in_the_background_is_in_the_title_and_the_sound_is_remembered(
    server: Any, new_page: Any
) -> None:
    rng = random.Random(8)
    page = device_page(new_page)
    page.context.add_init_script(AUDIO)
    # The computer's pace: long enough to see the title between the person's move and its.
    page.context.add_init_script("window.ginrummyDeviceDelayMs = 700")
    table(page, "device", server.url)
    sound = page.get_by_role("button", name="Turn sound")
    expect(sound).to_have_attribute("aria-pressed", "false")
    page.evaluate(HIDE, True)
    act_and_wait_for_turn(page, rng)
    expect(page).to_have_title(YOUR_TURN_TITLE)
    assert page.evaluate("window.__tones") == 0  # off by default
    # Seen again: the title is the table's.
    page.evaluate(HIDE, False)
    expect(page).to_have_title("• Gin Rummy")
    # The sound, switched on, plays once as a sample and is remembered.
    sound.click()
    expect(sound).to_have_attribute("aria-pressed", "true")
    page.wait_for_function("window.__tones > 0")
    page.reload()
    expect(status(page)).to_have_text(actionable(EN))
    sound = page.get_by_role("button", name="Turn sound")
    expect(sound).to_have_attribute("aria-pressed", "true")
    assert page.evaluate("window.__tones") == 0
    # In the background again: the turn comes with the title and the sound; the person's
    # move takes the title's mark away.
    page.evaluate(HIDE, True)
    act_and_wait_for_turn(page, rng)
    expect(page).to_have_title(YOUR_TURN_TITLE)
    assert page.evaluate("window.__tones") > 0
    decide(page, rng, knock=False)
    expect(page).not_to_have_title(YOUR_TURN_TITLE)
    assert not page.errors  # type: ignore[attr-defined]
