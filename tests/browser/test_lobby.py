"""The lobby: nickname, live list of tables, join, watch (no hidden card reaches a
watcher), quick match and the offer to play the computer instead."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from .helpers import DE, EN, decide, status
from .public import ROOM_URL, create_table, enter_lobby, join_from_lobby, record_frames
from .test_room import check_privacy

pytestmark = pytest.mark.browser


def test_nickname_is_validated_and_shown_with_a_tag(clock_server: Any, new_page: Any) -> None:
    page = new_page()
    player = enter_lobby(page, clock_server.url, "Nick Name")
    assert re.fullmatch(r"Nick Name#[\w-]{4}", player["tag"])
    expect(page.get_by_role("region", name="You")).to_contain_text(player["tag"])
    page.get_by_role("textbox", name="Your nickname").fill("x")
    page.get_by_role("button", name="Change nickname").click()
    expect(page.get_by_role("alert")).to_contain_text("at least 2 characters")
    page.get_by_role("textbox", name="Your nickname").fill("<b>bad</b>")
    page.get_by_role("button", name="Change nickname").click()
    expect(page.get_by_role("alert")).to_contain_text("Only letters")
    assert not page.errors


def test_lobby_lists_tables_live_join_and_watch_without_hidden_cards(
    clock_server: Any, new_page: Any, artifacts: Path
) -> None:
    frames: dict[str, list[dict[str, Any]]] = {"ann": [], "bob": [], "eve": []}
    bob = new_page(locale="de-DE")
    enter_lobby(
        bob, clock_server.url, "Bob Lobby", field="Dein Spitzname", change="Spitznamen ändern"
    )
    ann = new_page()
    record_frames(ann, frames["ann"])
    host = enter_lobby(ann, clock_server.url, "Ann Lobby")
    ann.screenshot(path=str(artifacts / "lobby-en.png"), full_page=True)
    create_table(ann, timer="off")
    expect(status(ann)).to_contain_text("Waiting for a second player")
    invite = ann.get_by_role("region", name="Invite a friend")
    expect(invite).to_contain_text("Your table is listed in the lobby.")

    # Bob's lobby shows the new table without a reload.
    tables = bob.get_by_role("region", name=re.compile("Offene Tische"))
    expect(tables).to_contain_text(host["tag"])
    bob.screenshot(path=str(artifacts / "lobby-de.png"), full_page=True)
    record_frames(bob, frames["bob"])
    join_from_lobby(bob, host["tag"], join="Beitreten")
    expect(bob.get_by_role("group", name=DE.hand).get_by_role("button")).to_have_count(10)
    expect(ann.get_by_role("group", name=EN.hand).get_by_role("button")).to_have_count(10)
    # Both seats taken: a public table needs no invite link any more.
    expect(invite).to_have_count(0)

    eve = new_page(width=360, height=780)
    record_frames(eve, frames["eve"])
    eve.goto(clock_server.url + "/lobby")
    match = eve.get_by_role("listitem").filter(has_text=host["tag"])
    match.get_by_role("link", name="Watch").click()
    expect(eve).to_have_url(ROOM_URL)
    expect(status(eve)).to_contain_text("You are watching.")
    expect(eve.get_by_role("group", name=EN.hand)).to_have_count(0)
    # The players see that someone watches.
    expect(ann.get_by_text("1 watching")).to_be_visible()

    rng = random.Random(5)
    moves = 0
    for _ in range(200):
        for page, words in ((ann, EN), (bob, DE)):
            text = status(page, words).inner_text()
            if words.your_turn in text and words.press_next not in text:
                decide(page, rng, words, knock=False)
                moves += 1
        if moves >= 10:
            break
        ann.wait_for_timeout(30)
    assert moves >= 10
    eve.screenshot(path=str(artifacts / "spectator-phone.png"), full_page=True)
    checked = check_privacy(frames, {"ann": "one", "bob": "two", "eve": None})  # type: ignore[dict-item]
    assert checked > 20
    for page in (ann, bob, eve):
        assert not page.errors


def test_quick_match_pairs_two_players(clock_server: Any, new_page: Any) -> None:
    dan = new_page()
    enter_lobby(dan, clock_server.url, "Dan Quick", account=True)  # the quick match is rated
    dan.get_by_role("region", name="Quick match").get_by_role("button", name="Quick match").click()
    expect(dan.get_by_role("status").filter(has_text="Looking for an opponent")).to_be_visible()
    fay = new_page(locale="de-DE")
    enter_lobby(
        fay,
        clock_server.url,
        "Fay Quick",
        field="Dein Spitzname",
        change="Spitznamen ändern",
        account=True,
    )
    fay.get_by_role("button", name="Schnelles Spiel", exact=True).click()
    for page, words in ((dan, EN), (fay, DE)):
        expect(page).to_have_url(ROOM_URL)
        expect(page.get_by_role("group", name=words.hand).get_by_role("button")).to_have_count(10)
    assert dan.url == fay.url
    expect(dan.get_by_role("progressbar", name="Time left")).to_have_count(1)
    assert not dan.errors and not fay.errors


def test_quick_match_offers_the_computer_after_a_visible_wait(
    clock_server: Any, new_page: Any
) -> None:
    page = new_page()
    page.clock.install()
    enter_lobby(page, clock_server.url, "Gus Alone", account=True)  # the quick match is rated
    page.get_by_role("button", name="Quick match", exact=True).click()
    waiting = page.get_by_role("status").filter(has_text="Looking for an opponent")
    expect(waiting).to_contain_text("0 s")
    expect(page.get_by_role("button", name="Play the computer instead")).to_have_count(0)
    page.clock.run_for(5_000)
    expect(waiting).to_contain_text("5 s")
    page.clock.run_for(16_000)
    page.get_by_role("button", name="Play the computer instead").click()
    expect(page).to_have_url(ROOM_URL)
    expect(page.get_by_role("group", name=EN.hand)).to_be_visible()
    expect(status(page)).not_to_contain_text("Waiting for a second player")
    assert not page.errors
