"""A tournament in the page: created from the lobby's form, joined from two browsers,
computers fill the empty places, the start takes each person to their table, and the
bracket shows the result of a finished match."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from .helpers import EN
from .public import ROOM_URL, enter_lobby

pytestmark = pytest.mark.browser

TOURNAMENT_URL = re.compile(r"/t/[\w-]+$")


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
    expect(bracket).to_contain_text(re.compile(r"wins \d+:\d+"))
    expect(bracket.get_by_role("link", name="Watch")).to_have_count(1)  # bob's match runs on
    ann.screenshot(path=str(artifacts / "tournament-bracket.png"), full_page=True)
    assert not ann.errors and not bob.errors
