"""The match review in the browser: play, resign, open the review from the match's end,
watch its progress, step through it by button and by arrow key, see a judged decision;
the player page lists the match with a link to the same review."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from .conftest import Server
from .helpers import EN, actionable, decide, status
from .test_solo import start_solo

pytestmark = pytest.mark.browser

JUDGED = re.compile(r"^(best of the choices checked|good|inaccuracy|mistake|blunder)$")


@pytest.fixture(scope="module")
def review_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server whose reviews play two worlds per decision: quick enough for a test."""
    srv = Server(tmp_path_factory.mktemp("review-server"), env={"GINRUMMY_REVIEW_SAMPLES": "2"})
    srv.start()
    yield srv
    srv.stop()


def _step_heading(page: Any) -> Any:
    return page.get_by_role("heading", name=re.compile(r"\(step \d+ of \d+\)$"))


def test_review_a_match_by_button_and_by_keyboard(
    review_server: Any, new_page: Any, artifacts: Path
) -> None:
    page = new_page()
    rng = random.Random(5)
    # One whole round (its end shows both hands in the review), then a few decisions. A
    # deal where the computer ends the first round before the person decided anything
    # leaves no decision of it to review: such a game is played again.
    did = ""
    for _ in range(5):
        start_solo(page, review_server.url, verified=True)
        decided = 0
        for _ in range(200):
            did = decide(page, rng)
            if did in ("next_round", "match_over"):
                break
            decided += 1
        if decided:
            break
    for _ in range(4 if did == "next_round" else 0):
        did = decide(page, rng, knock=False)  # a round's end here may end the match too
        if did in ("next_round", "match_over"):
            break
    # The computer moves after the person's last decision: its knock may end the round
    # (its result dialog then covers the table: on to the next round) or the match (the
    # Resign button goes with it). Resign on the person's own turn, when nothing moves.
    resigned = False
    for _ in range(5):
        expect(status(page)).to_have_text(actionable(EN), timeout=15_000)
        text = status(page).inner_text()
        if EN.match_over in text:
            break
        if EN.press_next in text:
            decide(page, rng)
            continue
        page.get_by_role("button", name="Resign", exact=True).click()
        page.get_by_role("alertdialog").get_by_role("button", name="Yes, resign").click()
        resigned = True
        break
    expect(status(page)).to_contain_text(EN.match_over)

    page.get_by_role("link", name="Review the match").click()
    expect(page).to_have_url(re.compile(r"/r/[^/]+/review/one$"))
    # The progress bar, while the server works (it may be quick: then the review shows).
    bar = page.get_by_role("progressbar")
    heading = _step_heading(page)
    expect(bar.or_(heading)).to_be_visible()
    if bar.count():
        assert 0 <= int(bar.get_attribute("aria-valuenow") or "-1") <= 100
    expect(heading).to_have_text(re.compile(r"step 1 of"), timeout=60_000)
    expect(page.get_by_role("heading", name="Match review: Seat one")).to_be_visible()
    expect(page.get_by_role("region", name="Summary")).to_contain_text(re.compile(r"\w"))
    graph = page.get_by_role("img", name=re.compile(r"round points of round 1|Round 1 had no"))
    expect(graph).to_be_visible()
    expect(page.get_by_role("img", name=re.compile(r"^Hand \(deadwood \d+\): "))).to_be_visible()

    prev = page.get_by_role("button", name="Previous decision")
    following = page.get_by_role("button", name="Next decision")
    expect(prev).to_be_disabled()
    following.click()
    expect(heading).to_have_text(re.compile(r"step 2 of"))
    prev.click()
    expect(heading).to_have_text(re.compile(r"step 1 of"))
    page.keyboard.press("ArrowRight")
    expect(heading).to_have_text(re.compile(r"step 2 of"))
    page.keyboard.press("ArrowLeft")
    expect(heading).to_have_text(re.compile(r"step 1 of"))

    # Step on until a decision with a choice is judged (a forced one is not).
    grade = page.locator("#review-grade")
    for _ in range(40):
        if JUDGED.match(grade.inner_text()):
            break
        page.keyboard.press("ArrowRight")
    else:
        pytest.fail("no judged decision in the first 40 steps")
    expect(page.get_by_text("The expert's choice")).to_be_visible()
    assert page.locator("#review-played").inner_text().strip()
    page.screenshot(path=str(artifacts / "review.png"), full_page=True)

    # How sure each verdict is: the summary counts the sure errors and the unclear
    # decisions; a decision not played best says how sure its grade is, with the loss,
    # its interval and the worlds it rests on (then back to where we were).
    summary = page.get_by_role("region", name="Summary")
    expect(summary).to_contain_text(
        re.compile(r"Sure: \d+ of \d+\. Unclear \(graded good\): \d+\.")
    )
    verdict = page.get_by_text(
        re.compile(
            r"^(Sure|Likely|Unclear): estimated (loss|gain) \d+\.\d( ± \d+\.\d)? points "
            r"(over the other choice )?\("
        )
    )
    moved = 0
    while not verdict.count() and moved < 80:
        page.keyboard.press("ArrowRight")
        moved += 1
    expect(verdict).to_be_visible()
    page.screenshot(path=str(artifacts / "review-certainty.png"), full_page=True)
    text = verdict.inner_text()
    shown = grade.inner_text()
    assert re.search(r"\d+ sampled deals\)|one sampled deal", text)
    if text.startswith("Unclear"):  # an apparent error the worlds cannot confirm
        assert shown == "good"
        expect(page.get_by_text(re.compile(r"^Better: "))).to_be_visible()
    else:
        assert shown in ("good", "inaccuracy", "mistake", "blunder")
        assert ("range or above" in text or "but not down to 0" in text) == (shown != "good")
    page.get_by_role("button", name="Deutsch").click()
    expect(
        page.get_by_text(
            re.compile(r"^(Sicher|Wahrscheinlich|Unklar): geschätzter (Verlust|Gewinn) \d+,\d")
        )
    ).to_be_visible()
    expect(page.get_by_role("region", name="Zusammenfassung")).to_contain_text(
        re.compile(r"Sicher: \d+ von \d+\. Unklar \(als gut gewertet\): \d+\.")
    )
    page.get_by_role("button", name="English").click()
    for _ in range(moved):
        page.keyboard.press("ArrowLeft")

    # The first round's end: both hands.
    end = page.get_by_role("heading", name=re.compile(r"^End of round 1 "))
    for _ in range(200):
        if end.count():
            break
        following.click()
    expect(end).to_be_visible()
    for hand in ("Hand of the reviewed seat", "The opponent's hand"):
        expect(page.get_by_role("img", name=re.compile(rf"^{hand}: \w"))).to_be_visible()
    page.screenshot(path=str(artifacts / "review-round-end.png"), full_page=True)

    # German, by the language switch.
    page.get_by_role("button", name="Deutsch").click()
    expect(page.get_by_role("button", name="Nächste Entscheidung")).to_be_visible()
    expect(page.get_by_role("button", name="Vorige Entscheidung")).to_be_visible()
    page.screenshot(path=str(artifacts / "review-de.png"), full_page=True)
    page.get_by_role("button", name="English").click()

    # The player page lists the match, newest first, with the same review.
    me = page.evaluate(
        "async () => (await (await fetch('/api/me', {headers: {Authorization:"
        " 'Bearer ' + localStorage.getItem('ginrummy.token')}})).json()).player.id"
    )
    page.goto(f"{review_server.url}/p/{me}")
    matches = page.get_by_role("region", name="Recent matches")
    expect(matches.get_by_role("row")).to_have_count(2)
    expect(matches).to_contain_text("lost (by resignation)" if resigned else "Computer")
    matches.get_by_role("link", name="Review").click()
    expect(_step_heading(page)).to_have_text(re.compile(r"step 1 of"))
    assert not page.errors
