"""Label in name (WCAG 2.5.3): every button and link of the device table has an accessible
name that begins with the text it shows, in both languages, so that a voice-control user
can say what they see ("2♥, take the discard" for the pile that shows 2♥ and "Take the
discard"; "K♠, King of spades" for the card that shows K♠). Issue 19, item 4."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
from playwright.sync_api import expect

from .helpers import DE, EN, Words, actionable, decide, status
from .test_device import device_page
from .test_solo import start_solo

pytestmark = pytest.mark.browser

# The text a control shows, read from the page: its text, where a card face counts as what
# its corner shows (the renderer writes it as data-label beside the drawing), without text
# that is not shown (display: none, visibility: hidden, the visually hidden class).
SHOWN = """els => els.map((el) => {
  const shown = (node) => {
    if (node.nodeType === Node.TEXT_NODE) return node.textContent;
    if (!(node instanceof Element)) return "";
    if (node.dataset && node.dataset.label) return ` ${node.dataset.label} `;
    if (node instanceof SVGElement) return "";
    const style = getComputedStyle(node);
    if (style.display === "none" || style.visibility === "hidden") return "";
    if (node.classList.contains("visually-hidden")) return "";
    const inline = style.display.startsWith("inline") || style.display === "contents";
    const inner = [...node.childNodes].map(shown).join("");
    return inline ? inner : ` ${inner} `;
  };
  return shown(el).replace(/\\s+/g, " ").trim();
})"""

# One line of an ARIA snapshot naming a control: `- button "Pass"`, `- link "Lobby":`.
CONTROL = re.compile(r'^\s*- (button|link) "((?:[^"\\]|\\.)*)"')


def names(snapshot: str, role: str) -> list[str]:
    """The accessible names of ``role`` in an ARIA snapshot, in document order."""
    found = [CONTROL.match(line) for line in snapshot.splitlines()]
    return [m.group(2).replace('\\"', '"') for m in found if m and m.group(1) == role]


def begins_with(name: str, shown: str) -> bool:
    """Whether ``name`` begins with the words of ``shown`` (case and punctuation aside, as
    speech recognition hears them)."""

    def words(text: str) -> list[str]:
        return re.findall(r"[\w♠♥♦♣]+", text.lower())

    said, seen = words(name), words(shown)
    return said[: len(seen)] == seen


def check_labels(page: Any, where: str) -> int:
    """Every button and link in the page's main part (the table); how many were checked."""
    main = page.get_by_role("main")
    snapshot = main.aria_snapshot()
    checked = 0
    for role in ("button", "link"):
        shown: list[str] = main.get_by_role(role).evaluate_all(SHOWN)
        named = names(snapshot, role)
        assert len(shown) == len(named), (where, role, shown, named)
        for text, name in zip(shown, named, strict=True):
            assert text, f"{where}: the {role} {name!r} shows no text"
            said = f"{where}: the {role} shows {text!r} but is named {name!r}"
            assert begins_with(name, text), said
            checked += 1
    return checked


@pytest.mark.parametrize("w", [EN, DE], ids=["en", "de"])
def test_every_control_of_the_table_is_named_as_it_shows(
    server: Any, new_page: Any, w: Words
) -> None:
    rng = random.Random(2)
    page = device_page(new_page, locale="de-DE" if w is DE else "en-US")
    start_solo(page, server.url, target="200", w=w)
    st = status(page, w)
    seen: set[str] = set()
    # The decisions with a card on the discard pile to take, the hand's cards to play, and
    # the end of the round with its buttons and links; the upcard's decision too when the
    # deal gives it to this seat (a random deal may not, in a round or two).
    wanted = {w.draw, w.discard}
    ends = {w.press_next, w.match_over}  # a round's end, or the match's after one round
    for _ in range(400):
        expect(st).to_have_text(actionable(w), timeout=15_000)
        text = st.inner_text()
        # At a decision the table waits for this seat: nothing re-renders meanwhile.
        moments = (w.match_over, w.press_next, w.upcard, w.draw, w.discard)
        moment = next(k for k in moments if k in text)
        if moment not in seen:
            assert check_labels(page, moment) > 0
            seen.add(moment)
        if moment == w.match_over or (moment == w.press_next and wanted <= seen):
            break
        decide(page, rng, w)  # at a round's end: "Next round"
    assert wanted <= seen and ends & seen, seen
    assert not page.errors  # type: ignore[attr-defined]


def test_the_page_links_its_help_for_agents_without_fetching_it(server: Any, new_page: Any) -> None:
    page = new_page()
    page.goto(server.url + "/")
    expect(page.get_by_role("button", name="Play against the computer")).to_be_enabled()
    link = page.evaluate(
        """() => [...document.head.querySelectorAll('link[rel="help"]')]
          .map((l) => [l.getAttribute("href"), l.getAttribute("type")])"""
    )
    assert link == [["/llms.txt", "text/plain"]]
    # A link only: a first visit does not fetch it (it costs no bytes there).
    fetched = page.evaluate(
        """() => performance.getEntriesByType("resource")
          .filter((e) => new URL(e.name).pathname === "/llms.txt").length"""
    )
    assert fetched == 0
    # And it is there for whoever follows it.
    answer = page.request.get(server.url + "/llms.txt")
    assert answer.ok and answer.headers["content-type"].startswith("text/plain")
