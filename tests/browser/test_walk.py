"""A screen-reader walk of one whole round, keyboard only (issue 19, item 4;
docs/accessibility.md "A round with the keyboard and a screen reader").

From the home page, "Play against the computer" and one whole round on the device table,
with nothing but Tab, Shift+Tab and Enter. At each step the walk reads what a screen reader
is given: the focused element's role, name and description as Chromium's accessibility
tree has them (not the DOM's attributes), every text the status region "Game status" took
since the last step (it is a polite live region: each change is read), and the lines added
to the polite live region "Announcements". It asserts the essentials: the status names
whose turn it is and what is expected, each of the computer's moves is announced once, and
the round's result is said and the focus is on "Next round".

The walk is recorded: ``pytest -s tests/browser/test_walk.py`` prints each language's steps
as a Markdown table, from which the walk in docs/accessibility.md was written by hand.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

import pytest
from playwright.sync_api import expect

from .helpers import DE, EN, Words, actionable, status
from .test_device import device_page

pytestmark = pytest.mark.browser

# What a screen reader is told, collected in the page: each new text of the status region
# and each line added to the announcer, in order (the page is not changed by it).
LISTEN = """
window.walkHeard = { status: [], said: [] };
document.addEventListener("DOMContentLoaded", () => {
  let last = "";
  const heard = () => {
    const el = document.getElementById("game-status");
    const text = el ? el.textContent.replace(/\\s+/g, " ").trim() : "";
    if (text && text !== last) window.walkHeard.status.push(text);
    last = text;
  };
  new MutationObserver(heard).observe(document.body, {
    subtree: true, childList: true, characterData: true,
  });
  new MutationObserver((records) => {
    for (const r of records) for (const n of r.addedNodes) {
      window.walkHeard.said.push(n.textContent.trim());
    }
  }).observe(document.getElementById("announcer"), { childList: true });
});
"""
TAKE_HEARD = "() => { const h = window.walkHeard; const o = {...h}; "
TAKE_HEARD += "window.walkHeard = { status: [], said: [] }; return o; }"

# The computer's pace (the page's own is 600 ms, pages/tableparts.js): slow enough that
# each of its moves is drawn and heard, and the status of its turn is drawn before its
# answer (the tests' 50 ms may fall into one frame); a third of the page's, as a round
# has about twenty of its moves.
PACE = "window.ginrummyDeviceDelayMs = 200"
MOST_TABS = 60
HAND_CARD = "[data-drop=hand] > button"
# Which way the button named so lies from the focus: "Shift+Tab" when before it.
TOWARDS = """(name) => {
  const to = [...document.querySelectorAll("button")].find(
    (b) => (b.getAttribute("aria-label") || b.textContent.trim()) === name);
  const at = document.activeElement;
  if (!to || !at || at === document.body || at.tagName === "MAIN") return "Tab";
  return at.compareDocumentPosition(to) & Node.DOCUMENT_POSITION_PRECEDING ? "Shift+Tab" : "Tab";
}"""
MOST_TURNS = 60


@dataclass(frozen=True)
class Focus:
    """The focused element as the accessibility tree gives it to a screen reader."""

    role: str
    name: str
    description: str = ""
    states: tuple[str, ...] = ()

    def said(self) -> str:
        extra = [self.description] if self.description else []
        return ", ".join([self.name or "(no name)", self.role, *extra, *self.states])


@dataclass(frozen=True)
class Step:
    """One step of the walk: the keys pressed, then what was focused and heard."""

    keys: str
    focus: Focus
    status: tuple[str, ...]
    said: tuple[str, ...]


@dataclass
class Walk:
    """Presses keys on a page and records what each press makes a screen reader say."""

    page: Any
    cdp: Any
    steps: list[Step] = field(default_factory=list)

    def focused(self) -> Focus:
        got = self.cdp.send("Runtime.evaluate", {"expression": "document.activeElement"})
        tree = self.cdp.send(
            "Accessibility.getPartialAXTree",
            {"objectId": got["result"]["objectId"], "fetchRelatives": False},
        )
        node = tree["nodes"][0]
        value = lambda key: str((node.get(key) or {}).get("value") or "")  # noqa: E731
        states = []
        for prop in node.get("properties", []):
            on = prop["value"].get("value")
            if prop["name"] in ("disabled", "expanded", "pressed") and on in (True, "true"):
                states.append(prop["name"])
            elif prop["name"] in ("expanded", "pressed") and on in (False, "false"):
                states.append(f"not {prop['name']}")
        return Focus(value("role"), value("name"), value("description"), tuple(states))

    def record(self, keys: str) -> Step:
        heard = self.page.evaluate(TAKE_HEARD)
        step = Step(keys, self.focused(), tuple(heard["status"]), tuple(heard["said"]))
        self.steps.append(step)
        return step

    def tab_to(self, name: str) -> tuple[str, int]:
        """Tab (or Shift+Tab, when it lies before the focus) until the focus is on the
        enabled button named ``name``; the key and how many presses it took."""
        key = self.page.evaluate(TOWARDS, name)
        if self.focused().name == name:
            return key, 0
        for n in range(1, MOST_TABS + 1):
            self.page.keyboard.press(key)
            f = self.focused()
            if f.role == "button" and f.name == name and "disabled" not in f.states:
                return key, n
        pytest.fail(f"{MOST_TABS} presses of {key} never reached the button {name!r}")

    def press(self, name: str, key: str = "Enter") -> str:
        """Tab to a button and press it; the keys, for the step's record."""
        tab, n = self.tab_to(name)
        self.page.keyboard.press(key)
        return {0: key, 1: f"{tab}, {key}"}.get(n, f"{tab} ×{n}, {key}")


def settled(page: Any, w: Words) -> str:
    """Wait until the person has something to do (the computer has moved, if it was its
    turn) and the announcer has had its say; the status's text."""
    st = status(page, w)
    expect(st).to_have_text(actionable(w), timeout=20_000)
    page.wait_for_timeout(150)  # an announcement comes with the render that follows
    return str(st.inner_text())


def highest_deadwood(page: Any, w: Words) -> str:
    """The name of the hand's highest card the page calls deadwood (else its highest)."""
    cards = (
        page.get_by_role("group", name=w.hand)
        .get_by_role("button")
        .evaluate_all(
            "els => els.map(e => [e.getAttribute('aria-label'),"
            " e.getAttribute('aria-description') || ''])"
        )
    )
    order = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
    rank = lambda name: order.index(name.split(",")[0][:-1])  # noqa: E731
    loose = [n for n, d in cards if d.endswith(("deadwood", "Restkarte"))]
    return str(max(loose or [n for n, _ in cards], key=rank))


def table_md(steps: list[Step]) -> str:
    lines = ["| # | keys | focus (name, role, description, state) | status | announced |"]
    lines.append("|---|---|---|---|---|")
    for i, s in enumerate(steps, 1):
        cells = [str(i), s.keys, s.focus.said(), " / ".join(s.status), " ".join(s.said)]
        lines.append("| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |")
    return "\n".join(lines)


@pytest.mark.parametrize("lang", ["en", "de"])
def test_one_round_with_the_keyboard_and_a_screen_reader(
    server: Any, new_page: Any, lang: str
) -> None:
    w = EN if lang == "en" else DE
    locale = "en-US" if lang == "en" else "de-DE"
    page = device_page(new_page, locale=locale, width=1366, height=768)
    page.context.add_init_script(PACE)
    page.context.add_init_script(LISTEN)
    walk = Walk(page, page.context.new_cdp_session(page))
    page.goto(server.url + "/")
    play = "Play against the computer" if lang == "en" else "Gegen den Computer spielen"
    expect(page.get_by_role("button", name=play)).to_be_enabled()

    # 1. From the top of the home page to the game: the new page's content (its <main>)
    # takes the focus.
    keys = walk.press(play)
    expect(status(page, w)).to_be_visible()
    expect(page.locator("main")).to_be_focused()
    opponent = str(page.locator("main .opponent .player-name").first.inner_text())
    mine = re.compile(re.escape(w.your_turn))
    theirs = re.compile(re.escape(opponent) + (" ist dran" if lang == "de" else "'s turn"))

    # The computer may end round 1 before the person decides anything (as non-dealer it
    # can take the first upcard and knock at once): the person goes on to the next round
    # by "Next round", with the keyboard too, and the walk is of that round.
    n = 1
    while w.press_next in settled(page, w):
        walk.record(keys)
        keys = walk.press(w.next_round)
        expect(status(page, w)).not_to_contain_text(w.press_next)
        n += 1
    walked = len(walk.steps)  # the steps before are of the rounds skipped

    # 2. The round: each of the person's decisions is a step, with what it made the page
    # say until the person has something to do again (the computer's answer included).
    computer_turns = 0
    drew = False
    for _ in range(MOST_TURNS):
        text = settled(page, w)
        if drew:  # the stock is no button now: the card drawn takes the focus, and is read
            expect(page.locator("main [data-drop=hand] > .fresh")).to_be_focused()
        step = walk.record(keys)
        # The control pressed gone (a pile, a card, "Pass"), the focus stays in the hand:
        # never on the page's body, where a screen reader says nothing.
        if len(walk.steps) > 1 and w.press_next not in text:
            assert step.focus.role == "button", step
            expect(page.locator(f"main {HAND_CARD}:focus")).to_have_count(1)
        # Whose turn it is and what is expected, in the status the whole time.
        assert step.status, f"the status said nothing after {keys}: {walk.steps[-2:]}"
        # The computer's moves (counted in the last step too: as dealer it may take the
        # upcard the person passed and knock at once, and that step ends the round).
        their_moves = [line for line in step.said if line.startswith(opponent)]
        if their_moves:
            computer_turns += 1
            # Each move of the computer announced once, and one turn of it (one discard)
            # between two of the person's decisions.
            assert len(set(their_moves)) == len(their_moves), step.said
            discards = [m for m in their_moves if re.search(r" discards | legt .* ab", m)]
            assert len(discards) <= 1, step.said
            # While it moved, the status said it was its turn.
            assert any(theirs.search(s) for s in step.status), step
        if w.press_next in text:
            break
        assert mine.search(step.status[-1]), step
        drew = False
        if w.upcard in text or w.last_discard in text:
            keys = walk.press(w.pass_)
        elif w.draw in text:
            keys = walk.press(w.draw_stock)
            drew = True
        elif w.can_gin in text:
            keys = walk.press(w.gin)
        elif w.can_knock in text:
            keys = walk.press(w.knock)
        elif w.discard in text:
            keys = walk.press(highest_deadwood(page, w))
        else:
            pytest.fail(f"no decision in the status {text!r}")
    else:
        pytest.fail(f"the round did not end in {MOST_TURNS} turns")

    # 3. The round's result: said once, the status says what is next, the focus on
    # "Next round" in the result's dialog.
    end = walk.steps[-1]
    assert end.focus.role == "button" and end.focus.name == w.next_round, end
    said = [line for step in walk.steps[walked:] for line in step.said]
    over = "Round over." if lang == "en" else "Runde vorbei."
    results = [line for line in said if line.startswith(over)]
    assert len(results) == 1, said
    # Who scored how many, or that nobody did: the deal is the page's own, and a round
    # may end with two stock cards left.
    void = "Void round" if lang == "en" else "Runde ohne Punkte"
    assert re.search(r"\d", results[0]) or void in results[0], results
    # (Said at the round's end; on a loaded machine a later re-render of the score line
    # may be the last text heard in the same step.)
    assert any(w.press_next in line for line in end.status), end
    expect(status(page, w)).to_contain_text(w.press_next)
    dialog = page.get_by_role("dialog", name=re.compile(str(n)))
    expect(dialog).to_be_visible()
    expect(dialog.get_by_role("button", name=w.next_round)).to_be_focused()
    assert computer_turns >= 1

    # 4. On to the next round: Enter on the focused "Next round".
    page.keyboard.press("Enter")
    expect(status(page, w)).not_to_contain_text(w.press_next)
    settled(page, w)
    nxt = walk.record("Enter")
    assert nxt.focus.role == "button", nxt
    expect(page.locator(f"main {HAND_CARD}").first).to_be_focused()  # the new hand's first
    dealt = f"Round {n + 1} is dealt" if lang == "en" else f"Runde {n + 1} ist gegeben"
    assert any(line.startswith(dealt) for line in nxt.said), nxt

    print(f"\n\n### The walk in {lang}, against {opponent}\n\n{table_md(walk.steps)}\n")
    assert not page.errors
