"""A rated match between two browsers, ended by a resignation, changes both ratings:
seen on the statistics pages (with the rating chart) and the leaderboard."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from .helpers import DE, EN, close_result, status
from .public import create_table, enter_lobby, join_from_lobby

pytestmark = pytest.mark.browser


def test_resigning_a_rated_match_changes_both_ratings(
    clock_server: Any, new_page: Any, artifacts: Path
) -> None:
    ann = new_page()
    host = enter_lobby(ann, clock_server.url, "Ann Rated", account=True)  # rated: accounts
    assert round(host["rating"]) == 1500
    create_table(ann, timer="off")
    bob = new_page(locale="de-DE")
    guest = enter_lobby(
        bob,
        clock_server.url,
        "Bob Rated",
        field="Dein Spitzname",
        change="Spitznamen ändern",
        account=True,
    )
    join_from_lobby(bob, host["tag"], join="Beitreten")
    expect(bob.get_by_role("group", name=DE.hand).get_by_role("button")).to_have_count(10)
    expect(ann.get_by_text("rated", exact=True)).to_be_visible()

    bob.get_by_role("button", name="Aufgeben", exact=True).click()
    bob.get_by_role("alertdialog").get_by_role("button", name="Ja, aufgeben").click()
    expect(status(bob, DE)).to_contain_text("Du hast aufgegeben.")
    expect(status(ann)).to_contain_text(f"{EN.match_over}: you win.")
    expect(status(ann)).to_contain_text("resigned.")

    # Ann's statistics page: higher rating, one match, one win, a chart.
    close_result(ann)  # the match's result, modal
    ann.get_by_role("navigation").get_by_role("link", name="Lobby").click()
    ann.get_by_role("link", name="Your statistics").click()
    expect(ann).to_have_url(re.compile(r"/p/p_[\w-]+$"))
    expect(ann.get_by_role("heading", level=1)).to_contain_text(host["tag"])
    rating = ann.get_by_role("region", name="Rating", exact=True)
    expect(rating).not_to_contain_text("1500")
    expect(
        ann.get_by_role("img", name=re.compile(r"Rating history .* from 1500 to 1[6-9]\d\d"))
    ).to_be_visible()
    best = ann.get_by_role("link", name="won: the opponent resigned")
    expect(best).to_have_attribute("href", re.compile(r"^/r/"))
    ann.screenshot(path=str(artifacts / "stats-page.png"), full_page=True)

    # Bob's: lower.
    bob.goto(f"{clock_server.url}/p/{guest['id']}")
    expect(bob.get_by_role("img", name=re.compile(r"von 1500 auf 1[0-4]\d\d"))).to_be_visible()

    ann.get_by_role("navigation").get_by_role("link", name="Leaderboard").click()
    board = ann.get_by_role("table")
    rows = board.get_by_role("row")
    expect(rows.filter(has_text=host["tag"])).to_have_count(1)
    expect(rows.filter(has_text=guest["tag"])).to_have_count(1)
    texts = rows.all_inner_texts()
    ann_row = next(i for i, t in enumerate(texts) if host["tag"] in t)
    bob_row = next(i for i, t in enumerate(texts) if guest["tag"] in t)
    assert ann_row < bob_row
    ann.screenshot(path=str(artifacts / "leaderboard.png"), full_page=True)
    assert not ann.errors and not bob.errors
