"""A tournament in the page: created from the lobby's form, joined from two browsers,
computers fill the empty places, the start takes each person to their table, and the
bracket shows the result of a finished match."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from .helpers import EN, status
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
    section.get_by_role("button", name="Create tournament").click()
    expect(ann).to_have_url(TOURNAMENT_URL)
    expect(ann.get_by_role("heading", level=1)).to_have_text("Browser Cup")
    ann.get_by_role("button", name="Join").click()
    players = ann.get_by_role("region", name=re.compile("^Players"))
    expect(players).to_contain_text("Ann Cup")

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
    ann.screenshot(path=str(artifacts / "tournament-table.png"))

    ann.get_by_role("button", name="Resign").click()
    ann.get_by_role("button", name="Yes, resign").click()
    ann.goto(server.url + "/lobby")
    ann.get_by_role("region", name=re.compile("^Tournaments")).get_by_role(
        "link", name="Browser Cup"
    ).click()
    bracket = ann.get_by_role("region", name="Bracket")
    # The result is recorded by the pairing instance's next look (every second); slow
    # under load, so wait longer than the default 5 s.
    expect(bracket).to_contain_text(re.compile(r"wins \d+:\d+"), timeout=30_000)
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
    # ann, out in round one, watches the bracket while the final is played to the end
    ann.goto(url)
    bracket = ann.get_by_role("region", name="Bracket")
    expect(bracket.get_by_role("region", name="Round 2")).to_contain_text("Bob Four")
    expect(bracket.get_by_role("link", name="Watch")).to_have_count(1)
    dan.get_by_role("button", name="Resign").click()
    dan.get_by_role("button", name="Yes, resign").click()
    expect(bracket.get_by_role("region", name="Round 2")).to_contain_text(
        re.compile(r"Bob Four wins \d+:\d+"), timeout=30_000
    )  # live: no reload
    expect(ann.get_by_text("Winner: Bob Four")).to_be_visible()
    expect(bracket.get_by_role("link", name="Watch")).to_have_count(0)
    # the final's room played its one match: no "New match" at the table
    expect(status(bob)).to_contain_text("The match is over")
    expect(bob.get_by_role("button", name=EN.new_match)).to_have_count(0)
    assert not any(page.errors for page in pages)


def test_a_swiss_of_one_person_and_computers_runs_to_the_end(
    server: Any, new_page: Any, artifacts: Path
) -> None:
    ann, watcher = new_page(), new_page()
    enter_lobby(ann, server.url, "Ann Swiss")
    enter_lobby(watcher, server.url, "Wat Swiss")
    body = {
        "name": "Swiss Cup", "format": "swiss", "max_players": 4,
        "rules_preset": "first-to-knock", "computer_level": "beginner",
    }  # fmt: skip
    tid = ann.evaluate(CREATE, body)
    url = f"{server.url}/t/{tid}"
    _join(ann, url)
    watcher.goto(url)
    expect(watcher.get_by_role("region", name=re.compile("^Players"))).to_contain_text("Ann Swiss")
    standings = watcher.get_by_role("region", name="Standings")
    ann.get_by_role("button", name="Start now").click()
    expect(standings.get_by_role("row")).to_have_count(5)  # live: the header and four players
    rooms: list[str] = []
    for number in (1, 2, 3):  # three rounds for four players; ann resigns each match
        expect(ann).to_have_url(ROOM_URL)
        expect(ann).not_to_have_url(re.compile("|".join(map(re.escape, rooms)) or "^$"))
        rooms.append(ann.url)
        expect(standings.get_by_role("region", name=f"Round {number}")).to_be_visible()
        expect(ann.get_by_role("group", name=EN.hand).get_by_role("button")).to_have_count(10)
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
