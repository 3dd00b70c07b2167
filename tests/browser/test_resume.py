"""Resume: the server killed (SIGKILL) and restarted on the same data dir mid-round; the
page reconnects by itself and the game goes on. An invite link leads into its room while
the solo game stays resumable."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from .conftest import Server
from .helpers import EN, actionable, close_result, decide, hand_cards, status
from .test_solo import start_solo

pytestmark = pytest.mark.browser


def test_server_killed_and_restarted_mid_round(new_page: Any, tmp_path: Path) -> None:
    srv = Server(tmp_path)
    srv.start()
    try:
        page = new_page()
        rng = random.Random(5)
        start_solo(page, srv.url, "100", verified=True)
        for _ in range(5):
            decide(page, rng, knock=False)
        expect(status(page)).to_have_text(actionable(EN))  # the computer may have ended the round
        before = sorted(hand_cards(page))
        text_before = status(page).inner_text()
        srv.kill()
        expect(status(page)).to_contain_text("Connection lost")
        srv.start()
        expect(status(page)).to_have_text(text_before, timeout=20_000)
        assert sorted(hand_cards(page)) == before
        expect(page.get_by_role("log", name="Announcements")).to_contain_text("Connected again.")
        # The game continues to the end of the round.
        for _ in range(300):
            did = decide(page, rng)
            if did in ("next_round", "match_over"):
                break
        else:
            pytest.fail("the round did not end after the restart")
        assert not page.errors
    finally:
        srv.stop()


def test_invite_link_leads_into_the_room_and_solo_stays_resumable(
    server: Any, new_page: Any
) -> None:
    host = new_page()
    host.goto(server.url + "/")
    host.get_by_role("button", name="Open a room").click()
    link = host.get_by_role("textbox", name="Invite link").input_value()

    guest = new_page()
    start_solo(guest, server.url, "100")
    solo_url = guest.url
    guest.goto(link)
    guest.get_by_role("button", name="Take the seat").click()
    expect(guest.get_by_role("group", name="Your hand").get_by_role("button")).to_have_count(10)
    guest.get_by_role("link", name="Gin Rummy").first.click()
    resume = guest.get_by_role("link", name=re.compile(r"^Resume: game against"))
    expect(resume).to_have_count(1)
    resume.click()
    expect(guest).to_have_url(solo_url)
    expect(guest.get_by_role("group", name="Your hand")).to_be_visible()


def test_a_finished_server_match_is_no_running_game(
    server: Any, new_page: Any, artifacts: Path
) -> None:
    """A verified game played to its end (resigned) leaves "Your running games"; a game
    still under way stays there."""
    page = new_page()
    start_solo(page, server.url, "100", verified=True)
    running = page.url
    start_solo(page, server.url, "100", verified=True)
    finished = page.url
    assert finished != running
    page.get_by_role("button", name="Resign", exact=True).click()
    page.get_by_role("alertdialog").get_by_role("button", name="Yes, resign").click()
    expect(status(page)).to_contain_text(EN.match_over)
    close_result(page)

    page.get_by_role("link", name="Gin Rummy").first.click()
    games = page.get_by_role("region", name="Your running games").get_by_role("link")
    expect(games).to_have_count(1)
    expect(games).to_have_text(re.compile(r"^Resume: game against"))
    expect(games).to_have_attribute("href", running.removeprefix(server.url))
    page.get_by_role("region", name="Your running games").screenshot(
        path=str(artifacts / "home-running-games.png")
    )
    assert not page.errors
