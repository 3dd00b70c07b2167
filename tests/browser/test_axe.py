"""Every page view held to WCAG 2.2 AA by axe-core (issue 19, item 4; docs/accessibility.md).

axe-core (pinned in package.json, installed by `npm ci` into node_modules/) runs in the page
with its WCAG 2.0, 2.1 and 2.2 A and AA rules, none left out, over every view a person
reaches: home, lobby, leaderboard, a player's statistics, the device table and its device
statistics, a room table as seat and as spectator, the chouette table as box, captain and
partner, a tournament's page and table, the review, the verify page, and the round's and
the match's results. Each view is checked in English and German at 1366×768 and 390×844,
on the same page: the viewport is resized and the language switched by the page's own
switch (a switch keeps the game). A test fails on any violation and lists each one by view,
rule, impact, help text and the elements it found, so that it is quick to fix.
"""

from __future__ import annotations

import json
import os
import random
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from fairness.helpers import fair_match  # tests/ is on the path (rootdir)

from .conftest import ROOT, Server
from .helpers import (
    CH_EN,
    EN,
    actionable,
    decide,
    open_chouette,
    status,
    use_setting,
)
from .public import create_table, enter_lobby, join_from_lobby
from .test_chouette import (
    advised_table,
    play_to_match_end,
)
from .test_device import device_page
from .test_solo import start_solo
from .test_tournament import CREATE

pytestmark = pytest.mark.browser

AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
# WCAG 2.0, 2.1 and 2.2, levels A and AA (2.2 adds only AA rules to axe-core's A set).
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]
SIZES = [(1366, 768), (390, 844)]
LANGUAGES = {"en": "English", "de": "Deutsch"}

# A failed check is a violation, also for the rules axe-core leaves to a person's review
# when they fail (duplicate-id-aria, bypass: "reviewOnFail"), which would otherwise be
# reported as "incomplete" and pass unseen.
RUN = """async (tags) => {
  axe.configure({rules: axe.getRules(tags).map((r) => ({id: r.ruleId, reviewOnFail: false}))});
  const result = await axe.run(document, {runOnly: {type: "tag", values: tags}});
  return result.violations.map((v) => ({
    id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.map((n) => ({
      target: n.target.map(String).join(" "),
      why: [...n.any, ...n.all, ...n.none].map((c) => c.message).join("; "),
    })),
  }));
}"""


@pytest.fixture(scope="module")
def axe_script() -> Path:
    """axe-core's script; without it the check cannot run: a failure in CI, else a skip."""
    if not AXE.exists():
        if os.environ.get("CI") == "true":
            pytest.fail(
                f"axe-core is required in CI: {AXE} is missing (make node_modules/.installed)"
            )
        pytest.skip(f"axe-core is not installed ({AXE}); run `npm ci`")
    return AXE


@pytest.fixture(scope="module")
def axe_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server of this module's own (its leaderboard holds only this module's players),
    whose reviews play two worlds per decision: quick enough for a test."""
    srv = Server(tmp_path_factory.mktemp("axe-server"), env={"GINRUMMY_REVIEW_SAMPLES": "2"})
    srv.start()
    yield srv
    srv.stop()


# `make screenshots` (GINRUMMY_SCREENSHOTS=docs/screenshots): the table views a person plays
# in, saved in English at both sizes as the viewport shows them (nothing scrolled) while
# they are audited: docs/screenshots/<name>-<width>x<height>.png.
SHOTS = {
    "device table, after a move": "device-table",
    "round results (device)": "device-round-result",
    "room table, seat": "room-seat",
    "room table, spectator": "room-spectator",
    "chouette table, box": "chouette-box",
    "chouette table, captain": "chouette-captain",
    "chouette table, partner": "chouette-partner",
    "tournament table": "tournament-table",
    "tournament page, finished": "tournament-page",
}


def screenshots_dir() -> Path | None:
    """Where `make screenshots` wants the table views saved (none: not saved)."""
    where = os.environ.get("GINRUMMY_SCREENSHOTS")
    return (ROOT / where) if where else None


@dataclass
class Audit:
    """The violations found so far, by view; `check` fails with all of them at once."""

    script: Path
    found: dict[str, list[str]] = field(default_factory=dict)
    rules: dict[str, set[str]] = field(default_factory=dict)  # rule: where it failed
    shots: Path | None = field(default_factory=screenshots_dir)

    def __call__(self, page: Any, view: str) -> None:
        """Check the page as it is, in both languages at both sizes; ends in English at
        the first size (as the tests drive the page by its English names)."""
        for lang in ("en", "de"):
            switch_language(page, lang)
            for width, height in SIZES:
                page.set_viewport_size({"width": width, "height": height})
                settle(page)
                if self.shots is not None and lang == "en" and view in SHOTS:
                    self.shots.mkdir(parents=True, exist_ok=True)
                    page.screenshot(path=str(self.shots / f"{SHOTS[view]}-{width}x{height}.png"))
                where = f"{view} [{lang} {width}×{height}]"
                for v in self.run(page):
                    self.rules.setdefault(v["id"], set()).add(where)
                    lines = [f"{v['id']} ({v['impact']}): {v['help']}"]
                    lines += [f"    {n['target']}: {n['why']}" for n in v["nodes"][:6]]
                    if len(v["nodes"]) > 6:
                        lines.append(f"    … and {len(v['nodes']) - 6} more")
                    key = "\n".join(lines)
                    self.found.setdefault(key, []).append(where)
        switch_language(page, "en")
        page.set_viewport_size({"width": SIZES[0][0], "height": SIZES[0][1]})

    def run(self, page: Any) -> list[dict[str, Any]]:
        if not page.evaluate("() => typeof window.axe === 'object'"):
            page.add_script_tag(path=str(self.script))
        violations: list[dict[str, Any]] = page.evaluate(RUN, TAGS)
        return violations

    def check(self) -> None:
        report = [f"{', '.join(where)}:\n  {violation}" for violation, where in self.found.items()]
        assert not report, f"{len(report)} WCAG 2.2 AA violation(s):\n" + "\n".join(report)


@pytest.fixture
def audit(axe_script: Path) -> Audit:
    return Audit(axe_script)


def switch_language(page: Any, lang: str) -> None:
    """The page's own language switch (it keeps the game); waits for the page to speak it."""
    html = page.locator("html")
    if html.get_attribute("lang") != lang:
        use_setting(page, LANGUAGES[lang])  # (a result's dialog closed and opened again)
    expect(html).to_have_attribute("lang", lang)
    # (in a narrow window's closed settings menu it is hidden, still there)
    switch = page.get_by_role("button", name=LANGUAGES[lang], exact=True, include_hidden=True)
    expect(switch).to_have_attribute("aria-pressed", "true")


def settle(page: Any) -> None:
    """Two animation frames: the layout of the new size is done and painted."""
    page.evaluate("() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))")


def wait_for_decision(page: Any) -> str:
    """Wait until the page's seat decides (nothing re-renders meanwhile); the status text."""
    st = status(page)
    expect(st).to_have_text(actionable(EN), timeout=15_000)
    return str(st.inner_text())


def test_home_lobby_room_seat_and_spectator_results_statistics_leaderboard(
    axe_server: Server, new_page: Any, audit: Audit
) -> None:
    """The pages of play between people: a room from the lobby, joined and watched, ended
    by a resignation (rated: the statistics and the leaderboard have something to show)."""
    url = axe_server.url
    ann = new_page()
    ann.goto(url + "/")
    expect(ann.get_by_role("button", name="Play against the computer")).to_be_enabled()
    audit(ann, "home")
    host = enter_lobby(ann, url, "Ann Axe", account=True)  # rated play: accounts
    create_table(ann, timer="off")
    expect(status(ann)).to_contain_text("Waiting for a second player")
    audit(ann, "room table, waiting for a second player")

    bob = new_page()
    guest = enter_lobby(bob, url, "Bob Axe", account=True)
    expect(bob.get_by_role("listitem").filter(has_text=host["tag"])).to_be_visible()
    audit(bob, "lobby, a table listed")
    join_from_lobby(bob, host["tag"])
    expect(ann.get_by_role("group", name=EN.hand).get_by_role("button")).to_have_count(10)

    eve = new_page()
    eve.goto(url + "/lobby")
    eve.get_by_role("listitem").filter(has_text=host["tag"]).get_by_role(
        "link", name="Watch"
    ).click()
    expect(status(eve)).to_contain_text("You are watching.")
    # A line of chat and a quick phrase: the log has lines, the mute buttons show.
    ann.get_by_role("textbox", name="Message").fill("Hello Bob")
    ann.get_by_role("button", name="Send", exact=True).click()
    bob.get_by_role("button", name="Good game!").click()
    expect(eve.get_by_role("log", name="Chat")).to_contain_text("Good game!")
    audit(eve, "room table, spectator")
    # Nobody moves while the seats are checked: the table waits for a person.
    for page in (ann, bob):
        audit(page, "room table, seat")

    bob.get_by_role("button", name="Resign", exact=True).click()
    expect(bob.get_by_role("alertdialog")).to_be_visible()
    audit(bob, "room table, resign dialog")
    bob.get_by_role("alertdialog").get_by_role("button", name="Yes, resign").click()
    expect(status(ann)).to_contain_text(f"{EN.match_over}: you win.")
    expect(ann.get_by_role("heading", name="Match over")).to_be_visible()
    audit(ann, "match results (room)")
    expect(status(eve)).to_contain_text(EN.match_over)
    audit(eve, "match results (spectator)")

    ann.goto(f"{url}/p/{host['id']}")
    expect(ann.get_by_role("img", name=re.compile(r"Rating history"))).to_be_visible()
    audit(ann, "statistics (own player page)")
    ann.goto(f"{url}/p/{guest['id']}")
    expect(ann.get_by_role("heading", level=1)).to_contain_text(guest["tag"])
    audit(ann, "player page (another player)")
    ann.goto(url + "/leaderboard")
    expect(ann.get_by_role("table").get_by_role("row").filter(has_text=host["tag"])).to_be_visible()
    audit(ann, "leaderboard")
    assert not ann.errors and not bob.errors and not eve.errors
    audit.check()


def test_device_table_round_and_match_results_and_device_statistics(
    axe_server: Server, new_page: Any, audit: Audit
) -> None:
    """A game against the computer on the device: the table after a move, a round's
    result, the match's after a resignation, and the home page's device statistics."""
    rng = random.Random(4)
    page = device_page(new_page)
    start_solo(page, axe_server.url, target="100")
    decide(page, rng)  # the first decision of a round: the upcard or a draw
    wait_for_decision(page)
    audit(page, "device table, after a move")
    page.get_by_role("button", name=EN.tips).click()
    expect(page.get_by_role("complementary", name="Tip")).to_be_visible()
    audit(page, "device table, with a tip")
    for _ in range(400):
        text = wait_for_decision(page)
        if EN.press_next in text or EN.match_over in text:
            break
        decide(page, rng)
    expect(page.get_by_role("heading", name=re.compile(r"Round \d+: result"))).to_be_visible()
    audit(page, "round results (device)")
    if EN.match_over not in status(page).inner_text():
        page.get_by_role("button", name=EN.next_round).click()
        wait_for_decision(page)
        page.get_by_role("button", name="Resign", exact=True).click()
        page.get_by_role("alertdialog").get_by_role("button", name="Yes, resign").click()
    expect(page.get_by_role("heading", name="Match over")).to_be_visible()
    audit(page, "match results (device)")
    page.goto(axe_server.url + "/")
    expect(page.get_by_role("region", name="Your games on this device")).to_be_visible()
    audit(page, "home, with the device's statistics")
    assert not page.errors
    audit.check()


def test_verified_game_review_and_verify_pages(
    axe_server: Server, new_page: Any, audit: Audit
) -> None:
    """A verified game on the server, resigned after a move: its review; and the verify
    page with a checked record."""
    rng = random.Random(6)
    page = new_page()
    start_solo(page, axe_server.url, verified=True)
    decide(page, rng)
    wait_for_decision(page)
    audit(page, "verified table (server, against the computer)")
    page.get_by_role("button", name="Resign", exact=True).click()
    page.get_by_role("alertdialog").get_by_role("button", name="Yes, resign").click()
    expect(status(page)).to_contain_text(EN.match_over)
    page.get_by_role("link", name="Review the match").click()
    step = page.get_by_role("heading", name=re.compile(r"\(step \d+ of \d+\)$"))
    expect(step).to_have_text(re.compile(r"step 1 of"), timeout=60_000)
    audit(page, "review")

    page.goto(axe_server.url + "/static/verify.html")
    audit(page, "verify page, empty")
    record = fair_match(random.Random(3), rounds=2)
    page.get_by_label("Match record (JSON)").fill(json.dumps(record))
    page.get_by_role("button", name="Check the deals").click()
    expect(page.get_by_role("status")).to_contain_text("All 2 deals are fair.")
    audit(page, "verify page, a record checked")
    assert not page.errors
    audit.check()


def test_tournament_page_and_table(axe_server: Server, new_page: Any, audit: Audit) -> None:
    """A knockout of one person and three computers: its page before the start, its table,
    and its bracket with a result."""
    ann = new_page()
    enter_lobby(ann, axe_server.url, "Ann Cup")
    body = {
        "name": "Axe Cup", "format": "knockout", "max_players": 4,
        "rules_preset": "first-to-knock", "computer_level": "beginner",
    }  # fmt: skip
    tid = ann.evaluate(CREATE, body)
    ann.goto(f"{axe_server.url}/lobby")
    tournaments = ann.get_by_role("region", name=re.compile("^Tournaments"))
    expect(tournaments.get_by_role("link", name="Axe Cup")).to_be_visible()
    audit(ann, "lobby, a tournament listed")
    tournaments.get_by_role("link", name="Axe Cup").click()
    ann.get_by_role("button", name="Join").click()
    expect(ann.get_by_role("region", name=re.compile("^Players"))).to_contain_text("Ann Cup")
    audit(ann, "tournament page, before the start")
    ann.get_by_role("button", name="Start now").click()
    expect(ann).to_have_url(re.compile(r"/r/[\w-]+$"))
    # Ann's turn, or her match is over already: the computer she plays may take the first
    # upcard and knock before she moves (first to knock: that is the match).
    text = wait_for_decision(ann)
    audit(ann, "tournament table")
    if EN.match_over not in text:
        ann.get_by_role("button", name="Resign", exact=True).click()
        ann.get_by_role("button", name="Yes, resign").click()
    expect(status(ann)).to_contain_text(EN.match_over)
    ann.goto(f"{axe_server.url}/t/{tid}")
    bracket = ann.get_by_role("region", name="Bracket")
    expect(bracket).to_contain_text(re.compile(r"wins \d+:\d+"), timeout=30_000)
    # The computers' matches end in their own time: wait for the winner (nothing moves on).
    expect(ann.get_by_text(re.compile(r"Winner: "))).to_be_visible(timeout=60_000)
    audit(ann, "tournament page, finished")
    assert not ann.errors
    audit.check()


def test_chouette_as_box_captain_and_partner(
    axe_server: Server, new_page: Any, audit: Audit
) -> None:
    """Three people at a chouette table: the invitation, each part while the captain
    decides with a partner's suggestion shown, and the settlement of the match."""
    rng = random.Random(11)
    ann = new_page()
    link = open_chouette(ann, axe_server.url, "Ann", ["friend", "friend"], "first-to-knock")
    expect(status(ann)).to_contain_text(CH_EN.waiting)
    audit(ann, "chouette table, waiting for players")
    bob, cleo = new_page(), new_page()
    bob.goto(link)
    expect(bob.get_by_role("textbox", name=CH_EN.your_name)).to_be_visible()
    audit(bob, "chouette invitation")
    parts = advised_table(ann, bob, cleo, link, rng)
    seats = list(parts.values())
    for part in ("box", "captain", "partner"):
        audit(parts[part][1], f"chouette table, {part}")
    play_to_match_end(seats, rng)
    _, box, _ = parts["box"]
    expect(box.get_by_role("heading", name=re.compile("Settlement of match 1"))).to_be_visible()
    audit(box, "chouette settlement (box)")
    for _, page, _w in seats:
        assert not page.errors  # type: ignore[attr-defined]
    audit.check()


# Faults of the kinds the app could fall back into, put into the page outside <main> (the
# page re-renders <main> and the top bar, not the rest of <body>).
PLANT = """() => document.body.insertAdjacentHTML("beforeend", `
  <div id="planted">
    <button type="button"><svg width="24" height="24" aria-hidden="true"></svg></button>
    <p style="color: #9a9a9a; background: #fff">Faint text</p>
    <button type="button" aria-label="Take the discard">2 Draw</button>
    <span id="twice">One</span><span id="twice">Two</span>
    <div role="group" aria-labelledby="twice"></div>
  </div>`)"""


def test_the_check_finds_planted_faults(axe_server: Server, new_page: Any, audit: Audit) -> None:
    """The check itself can fail: the home page with a button without a name, faint text,
    a name that does not begin with what its control shows and an id used twice fails it,
    each fault under its rule, in both languages at both sizes."""
    page = new_page()
    page.goto(axe_server.url + "/")
    expect(page.get_by_role("button", name="Play against the computer")).to_be_enabled()
    page.evaluate(PLANT)
    audit(page, "home, with planted faults")
    planted = {"button-name", "color-contrast", "label-content-name-mismatch", "duplicate-id-aria"}
    assert set(audit.rules) == planted, audit.found
    # Every one of them at every language and size: nothing was lost to a switch.
    assert all(len(where) == 4 for where in audit.rules.values()), audit.rules
    with pytest.raises(AssertionError, match="button-name"):
        audit.check()
