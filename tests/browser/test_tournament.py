"""A tournament in the page: created from the lobby's form (its creator playing unless
they say not), joined from two browsers, computers fill the empty places, the start
takes each person to their table (which names the tournament and leads back to it), the
bracket shows the result of a finished match, and a finished knockout its final
standings."""

from __future__ import annotations

import itertools
import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from .helpers import EN, actionable, close_result, status
from .public import ROOM_URL, enter_lobby, me

pytestmark = pytest.mark.browser

TOURNAMENT_URL = re.compile(r"/t/[\w-]+$")
CREATE = """async (body) => {
    const token = localStorage.getItem('ginrummy.token');
    const r = await fetch('/api/tournaments', {method: 'POST', body: JSON.stringify(body),
        headers: {Authorization: 'Bearer ' + token, 'Content-Type': 'application/json'}});
    return (await r.json()).tournament.id;
}"""


def test_a_knockout_from_the_lobby_to_a_result_in_the_bracket(
    server: Any, new_page: Any, artifacts: Path
) -> None:
    ann = new_page()
    enter_lobby(ann, server.url, "Ann Cup")
    section = ann.get_by_role("region", name=re.compile("^Tournaments"))
    section.get_by_role("textbox", name="Name", exact=True).fill("Browser Cup")
    section.get_by_role("combobox", name="Places", exact=True).select_option("4")
    section.get_by_role("combobox", name="Rules", exact=True).select_option("first-to-knock")
    section.get_by_role("combobox", name="Empty places at the start").select_option("beginner")
    expect(section.get_by_role("checkbox", name="I will play in it")).to_be_checked()
    section.get_by_role("button", name="Create and play").click()  # the default: she plays
    expect(ann).to_have_url(TOURNAMENT_URL)
    tournament_url = ann.url
    expect(ann.get_by_role("heading", level=1)).to_have_text("Browser Cup")
    players = ann.get_by_role("region", name=re.compile("^Players"))
    expect(players).to_contain_text("Ann Cup")  # in by creating, no Join
    expect(ann.get_by_role("button", name="Leave")).to_be_visible()
    expect(ann.get_by_text("You are not playing in this tournament")).to_have_count(0)

    bob = new_page(locale="de-DE")
    enter_lobby(bob, server.url, "Bob Cup", field="Dein Spitzname", change="Spitznamen ändern")
    listed = bob.get_by_role("region", name=re.compile("^Turniere"))
    listed.get_by_role("link", name="Browser Cup").click()
    expect(bob).to_have_url(ann.url)
    bob.get_by_role("button", name="Anmelden").click()
    expect(players).to_contain_text("Bob Cup")  # live on ann's page

    ann.get_by_role("button", name="Start now").click()
    for page in (ann, bob):  # each person is taken to their table
        expect(page).to_have_url(ROOM_URL)
    expect(ann.get_by_role("group", name=EN.hand).get_by_role("button")).to_have_count(10)
    # the table names its tournament, a link to the tournament's page, whose title (its
    # description) is the tournament's round; the info bar says the match's round once
    to_tournament = ann.get_by_role("link", name="Browser Cup", exact=True)
    expect(to_tournament).to_have_attribute("href", tournament_url.removeprefix(server.url))
    expect(to_tournament).to_have_accessible_description("Round 1 of the tournament")
    expect(ann.locator(".match-info")).to_contain_text(re.compile(r"^Browser Cup · Round \d+ · "))
    assert not re.search(r"round \d+ · round", ann.locator(".match-info").inner_text(), re.I)
    to_bob = bob.get_by_role("link", name="Browser Cup", exact=True)
    expect(to_bob).to_have_accessible_description("Runde 1 des Turniers")
    ann.screenshot(path=str(artifacts / "tournament-table.png"))

    back = ann.get_by_role("link", name="Back to the tournament")
    # Ann's turn, or her match is over already: the computer she plays may take the first
    # upcard and knock before she moves (first to knock: that is the match).
    expect(status(ann)).to_have_text(actionable(EN), timeout=15_000)
    if EN.match_over not in status(ann).inner_text():
        expect(back).to_have_count(0)  # offered once the match is over
        ann.get_by_role("button", name="Resign").click()  # on her turn: nothing moves meanwhile
        ann.get_by_role("button", name="Yes, resign").click()
    expect(status(ann)).to_contain_text("The match is over")
    ann.screenshot(path=str(artifacts / "tournament-table-over.png"), full_page=True)
    back.click()
    expect(ann).to_have_url(tournament_url)
    bracket = ann.get_by_role("region", name="Bracket")
    semis = bracket.get_by_role("list", name="Round 1 · Semi-finals")
    # The result is recorded by the pairing instance's next look (every second); slow
    # under load, so wait longer than the default 5 s. Each match reads "A versus B – result"
    # (Ann wins only when the computer knocked first and she undercut it).
    expect(semis.get_by_role("listitem").filter(has_text="Ann Cup")).to_have_text(
        re.compile(r"^Ann Cup versus (\w+ \d) – (\1|Ann Cup) wins \d+:\d+$", re.I),
        timeout=30_000,
    )
    final = bracket.get_by_role("list", name="Round 2 · Final")
    expect(final.get_by_role("listitem")).to_have_text("To be decided")
    expect(bracket.get_by_role("link", name="Watch")).to_have_count(1)  # bob's match runs on
    ann.screenshot(path=str(artifacts / "tournament-bracket.png"), full_page=True)
    assert not ann.errors and not bob.errors


def _join(page: Any, url: str) -> None:
    page.goto(url)
    page.get_by_role("button", name="Join").click()
    expect(page.get_by_role("button", name="Leave")).to_be_visible()


def test_winners_are_taken_from_their_table_to_the_next_round(server: Any, new_page: Any) -> None:
    pages = [new_page() for _ in range(4)]
    ann, bob, cat, dan = pages
    for page, name in zip(pages, ("Ann Four", "Bob Four", "Cat Four", "Dan Four"), strict=True):
        enter_lobby(page, server.url, name)
    body = {"name": "Four Cup", "format": "knockout", "max_players": 4}
    tid = ann.evaluate(CREATE, body)
    url = f"{server.url}/t/{tid}"
    for page in (ann, bob, cat):
        _join(page, url)
    dan.goto(url)
    dan.get_by_role("button", name="Join").click()  # the last place: the tournament starts
    for page in pages:
        expect(page).to_have_url(ROOM_URL)
    # seeds in join order: ann-dan and bob-cat; ann and cat resign
    assert ann.url == dan.url and bob.url == cat.url and ann.url != bob.url
    first_round = {page.url for page in pages}
    for loser in (ann, cat):
        loser.get_by_role("button", name="Resign").click()
        loser.get_by_role("button", name="Yes, resign").click()
    final = re.compile(  # a room that is not one of round one
        r"/r/(?!(" + "|".join(re.escape(u.rsplit("/", 1)[1]) for u in first_round) + r")$)[\w-]+$"
    )
    for winner in (bob, dan):  # taken from the finished table to the final
        expect(winner).to_have_url(final)
    assert bob.url == dan.url
    expect(bob.get_by_role("group", name=EN.hand).get_by_role("button")).to_have_count(10)
    to_tournament = bob.get_by_role("link", name="Four Cup", exact=True)
    expect(to_tournament).to_have_accessible_description("Round 2 of the tournament")
    expect(to_tournament).to_have_attribute("href", f"/t/{tid}")
    # ann, out in round one, watches the bracket while the final is played to the end
    ann.goto(url)
    bracket = ann.get_by_role("region", name="Bracket")
    final_list = bracket.get_by_role("list", name="Round 2 · Final")
    expect(final_list.get_by_role("listitem")).to_have_text("Bob Four versus Dan Four Watch")
    expect(bracket.get_by_role("link", name="Watch")).to_have_count(1)
    expect(ann.get_by_role("table", name="Final standings")).to_have_count(0)  # not yet
    dan.get_by_role("button", name="Resign").click()
    dan.get_by_role("button", name="Yes, resign").click()
    expect(final_list.get_by_role("listitem")).to_have_text(
        re.compile(r"^Bob Four versus Dan Four – Bob Four wins \d+:\d+$"), timeout=30_000
    )  # live: no reload
    expect(ann.get_by_text("Winner: Bob Four")).to_be_visible()
    expect(bracket.get_by_role("link", name="Watch")).to_have_count(0)
    # every entrant's place: no third-place match, so both losing semi-finalists are third
    standings = ann.get_by_role("table", name="Final standings")
    rows = standings.get_by_role("row")
    expect(rows).to_have_count(5)  # the header and four players
    expect(standings.get_by_role("columnheader")).to_have_text(
        ["Place", "Player", "Reached", "Game points"]
    )
    for n, (place, name, reached) in enumerate(
        [
            ("1", "Bob Four", "Won the tournament"),
            ("2", "Dan Four", "Final"),
            ("3", "Ann Four", "Semi-finals"),
            ("3", "Cat Four", "Semi-finals"),
        ],
        start=1,
    ):
        cells = rows.nth(n).get_by_role("cell")
        expect(cells.nth(0)).to_have_text(place)
        expect(rows.nth(n).get_by_role("rowheader")).to_have_text(name)
        expect(cells.nth(1)).to_have_text(reached)
    # the final's room played its one match: no "New match" at the table, the way back
    expect(status(bob)).to_contain_text("The match is over")
    expect(bob.get_by_role("button", name=EN.new_match)).to_have_count(0)
    bob.get_by_role("link", name="Back to the tournament").click()
    expect(bob).to_have_url(url)
    expect(bob.get_by_role("table", name="Final standings")).to_be_visible()
    assert not any(page.errors for page in pages)


def test_a_creator_who_does_not_play_is_told_so_and_may_join(server: Any, new_page: Any) -> None:
    ann = new_page()
    enter_lobby(ann, server.url, "Ann Host")
    section = ann.get_by_role("region", name=re.compile("^Tournaments"))
    section.get_by_role("textbox", name="Name", exact=True).fill("Host Cup")
    section.get_by_role("checkbox", name="I will play in it").uncheck()
    expect(section.get_by_role("button", name="Create and play")).to_have_count(0)
    section.get_by_role("button", name="Create tournament").click()
    expect(ann).to_have_url(TOURNAMENT_URL)
    expect(ann.get_by_text("You are not playing in this tournament.")).to_be_visible()
    players = ann.get_by_role("region", name=re.compile("^Players"))
    expect(players).not_to_contain_text("Ann Host")
    ann.get_by_role("button", name="Join").click()
    expect(players).to_contain_text("Ann Host")
    expect(ann.get_by_text("You are not playing in this tournament.")).to_have_count(0)

    german = new_page(locale="de-DE")  # the same in German, on a tournament made by the API
    enter_lobby(german, server.url, "Gina Host", field="Dein Spitzname", change="Spitznamen ändern")
    tid = german.evaluate(CREATE, {"name": "Gast Cup", "format": "swiss", "max_players": 4})
    german.goto(f"{server.url}/t/{tid}")
    expect(german.get_by_text("Du spielst in diesem Turnier nicht mit.")).to_be_visible()
    expect(german.get_by_role("button", name="Anmelden")).to_be_visible()
    assert not ann.errors and not german.errors


def test_a_swiss_of_one_person_and_computers_runs_to_the_end(
    server: Any, new_page: Any, artifacts: Path
) -> None:
    ann, watcher = new_page(), new_page()
    enter_lobby(ann, server.url, "Ann Swiss")
    enter_lobby(watcher, server.url, "Wat Swiss")
    # Matches to 100, not first to knock: Ann resigns each one at her first decision, but
    # the computer, offered the upcard first when she deals, may take it and knock before
    # she moves; first to knock, her undercut of that knock (rare, but the deal is random)
    # would win her the match. An undercut scores at most 10 + 25 = 35, short of 100: the
    # match goes on, and she resigns it. (The computers' matches take milliseconds.)
    body = {
        "name": "Swiss Cup", "format": "swiss", "max_players": 4,
        "rules_preset": "standard", "target_score": 100, "computer_level": "beginner",
    }  # fmt: skip
    tid = ann.evaluate(CREATE, body)
    url = f"{server.url}/t/{tid}"
    _join(ann, url)
    watcher.goto(url)
    expect(watcher.get_by_role("region", name=re.compile("^Players"))).to_contain_text("Ann Swiss")
    standings = watcher.get_by_role("region", name="Standings")
    expect(standings.get_by_role("table", name="Standings")).to_have_count(0)  # not yet
    ann.get_by_role("button", name="Start now").click()
    table = standings.get_by_role("table", name="Standings")  # named by its heading
    expect(table.get_by_role("row")).to_have_count(5)  # live: the header and four players
    rooms: list[str] = []
    for number in (1, 2, 3):  # three rounds for four players; ann resigns each match
        expect(ann).to_have_url(ROOM_URL)
        expect(ann).not_to_have_url(re.compile("|".join(map(re.escape, rooms)) or "^$"))
        rooms.append(ann.url)
        expect(standings.get_by_role("region", name=f"Round {number}")).to_be_visible()
        expect(ann.get_by_role("group", name=EN.hand).get_by_role("button")).to_have_count(10)
        # Ann's turn, or the first round is over already: the computer she plays may take
        # the first upcard and knock before she moves (its gin or knock may even reach 100:
        # then her match is over, lost).
        expect(status(ann)).to_have_text(actionable(EN), timeout=15_000)
        if EN.match_over not in status(ann).inner_text():
            close_result(ann)  # the round's result, modal, when the computer knocked
            ann.get_by_role("button", name="Resign").click()
            ann.get_by_role("button", name="Yes, resign").click()
        round_n = standings.get_by_role("region", name=f"Round {number}")
        expect(round_n.get_by_text(re.compile(r"wins \d+:\d+"))).to_have_count(2, timeout=30_000)
        ann_row = standings.get_by_role("row", name=re.compile("Ann Swiss"))
        expect(ann_row.get_by_role("cell").nth(1)).to_have_text("0")  # no match points
    expect(watcher.get_by_text(re.compile(r"Winner: beginner \d", re.I))).to_be_visible()
    expect(standings.get_by_role("row").nth(4)).to_contain_text("Ann Swiss")  # last
    expect(status(ann)).to_contain_text("The match is over")
    expect(ann.get_by_role("button", name=EN.new_match)).to_have_count(0)
    watcher.screenshot(path=str(artifacts / "tournament-swiss.png"), full_page=True)
    ann.goto(f"{server.url}/p/{me(ann)['id']}")  # her statistics list the tournament
    played = ann.get_by_role("region", name="Tournaments")
    row = played.get_by_role("row", name=re.compile("Swiss Cup"))
    expect(row).to_contain_text("4 of 4")
    expect(row.get_by_role("link", name="Swiss Cup")).to_have_attribute("href", f"/t/{tid}")
    assert not ann.errors and not watcher.errors


def _centre_y(box: dict[str, float]) -> float:
    return box["y"] + box["height"] / 2


def test_a_knockout_of_eight_is_drawn_as_a_bracket_on_a_phone(
    server: Any, new_page: Any, artifacts: Path
) -> None:
    """Eight computers play it out (the creator does not play); on a 390-px phone each
    round is a column, each match centred between the two it comes from, the bracket
    scrolls sideways inside its own region, the third-place match lies under it, and
    the final standings list all eight."""
    phone = new_page(width=390, height=844)
    enter_lobby(phone, server.url, "Pia Phone")
    body = {
        "name": "Phone Cup", "format": "knockout", "max_players": 8,
        "rules_preset": "first-to-knock", "computer_level": "beginner", "third_place": True,
    }  # fmt: skip
    tid = phone.evaluate(CREATE, body)
    phone.goto(f"{server.url}/t/{tid}")
    expect(phone.get_by_text("You are not playing in this tournament.")).to_be_visible()
    phone.get_by_role("button", name="Start now").click()
    expect(phone.get_by_text(re.compile(r"Winner: beginner \d", re.I))).to_be_visible(
        timeout=60_000
    )
    bracket = phone.get_by_role("region", name="Bracket")
    titles = ["Round 1 · Quarter-finals", "Round 2 · Semi-finals", "Round 3 · Final"]
    rounds = [bracket.get_by_role("list", name=title) for title in titles]
    for matches, count in zip(rounds, (4, 2, 1), strict=True):
        expect(matches.get_by_role("listitem")).to_have_count(count)
        expect(matches.get_by_role("listitem").first).to_have_text(
            re.compile(r"^beginner \d versus beginner \d – beginner \d wins \d+:\d+$", re.I)
        )
    boxes = [[item.bounding_box() for item in r.get_by_role("listitem").all()] for r in rounds]
    for earlier, later in itertools.pairwise(boxes):
        for i, box in enumerate(later):  # a column further right, between its two feeders
            top, bottom = earlier[2 * i], earlier[2 * i + 1]
            assert box["x"] > top["x"] + top["width"] - 1
            assert abs(_centre_y(box) - (_centre_y(top) + _centre_y(bottom)) / 2) < 2
    third = bracket.get_by_role("list", name="Match for third place").get_by_role("listitem")
    expect(third).to_have_text(re.compile(r"^beginner \d versus beginner \d – ", re.I))
    below, region = third.bounding_box(), bracket.bounding_box()
    assert third.evaluate("el => el.scrollHeight <= el.clientHeight")  # its box fits in it
    assert below["y"] > max(b["y"] + b["height"] for b in boxes[0])  # under the columns
    assert below["y"] + below["height"] <= region["y"] + region["height"]  # inside the panel
    # the bracket is wider than the phone: it scrolls inside its own region, not the page
    scroller = bracket.get_by_role("group", name="Bracket")
    widths = scroller.evaluate("el => [el.scrollWidth, el.clientWidth]")
    assert widths[0] > widths[1]
    standings = phone.get_by_role("table", name="Final standings")
    for part in (bracket, standings):  # nothing of the page is wider than the phone
        box = part.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= 390, box
    phone.screenshot(path=str(artifacts / "tournament-bracket-phone.png"), full_page=True)
    places = standings.get_by_role("row").filter(has=phone.get_by_role("rowheader"))
    expect(places).to_have_count(8)
    places_text = [row.get_by_role("cell").first.inner_text() for row in places.all()]
    assert places_text == ["1", "2", "3", "4", "5", "5", "5", "5"]  # third place decided
    scroller.evaluate("el => el.scrollLeft = el.scrollWidth")
    bracket.screenshot(path=str(artifacts / "tournament-bracket-phone-final.png"))
    assert not phone.errors
