"""The move timer (a shrinking bar, the seconds in the status) and fair abandonment
(grace period, then claim or wait), with the server's test clock."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from .helpers import DE, EN, status
from .public import advance_clock, create_table, enter_lobby, join_from_lobby

pytestmark = pytest.mark.browser


def public_match(server: Any, new_page: Any, names: tuple[str, str], timer: str) -> tuple[Any, Any]:
    ann = new_page()
    host = enter_lobby(ann, server.url, names[0])
    create_table(ann, timer=timer)
    bob = new_page(locale="de-DE", width=360, height=780)
    enter_lobby(bob, server.url, names[1], field="Dein Spitzname", change="Spitznamen ändern")
    join_from_lobby(bob, host["tag"], join="Beitreten")
    expect(ann.get_by_role("group", name=EN.hand).get_by_role("button")).to_have_count(10)
    expect(bob.get_by_role("group", name=DE.hand).get_by_role("button")).to_have_count(10)
    return ann, bob


def whose_turn(ann: Any, bob: Any) -> Any:
    for _ in range(200):
        if EN.your_turn in status(ann).inner_text():
            return ann
        if DE.your_turn in status(bob, DE).inner_text():
            return bob
        ann.wait_for_timeout(50)
    raise AssertionError("nobody's turn")


def test_running_out_of_time_loses_the_match(
    clock_server: Any, new_page: Any, artifacts: Path
) -> None:
    ann, bob = public_match(clock_server, new_page, ("Ann Timer", "Bob Timer"), "30")
    bar = ann.get_by_role("progressbar", name="Time left")
    expect(bar).to_have_attribute("aria-valuemax", "30")
    expect(bob.get_by_role("progressbar", name="Restzeit")).to_be_visible()
    mover = whose_turn(ann, bob)
    if mover is ann:
        expect(status(ann)).to_contain_text(re.compile(r"Time left: \d+ s\."))
        expect(status(bob, DE)).to_contain_text(re.compile(r"hat noch \d+ s\."))
    else:
        expect(status(bob, DE)).to_contain_text(re.compile(r"Restzeit: \d+ s\."))
        expect(status(ann)).to_contain_text(re.compile(r"has \d+ s left\."))
    ann.screenshot(path=str(artifacts / "timer-bar.png"))
    bob.screenshot(path=str(artifacts / "timer-bar-phone.png"))
    advance_clock(clock_server, 31)
    expect(status(ann)).to_contain_text(EN.match_over)
    expect(status(bob, DE)).to_contain_text(DE.match_over)
    if mover is ann:
        expect(status(ann)).to_contain_text("You ran out of time.")
        expect(status(bob, DE)).to_contain_text("hat die Zeit überschritten.")
    else:
        expect(status(bob, DE)).to_contain_text("Du hast die Zeit überschritten.")
        expect(status(ann)).to_contain_text("ran out of time.")
    expect(bar).to_have_count(0)
    assert not ann.errors and not bob.errors


def test_abandoned_match_may_be_claimed_after_the_grace_period(
    clock_server: Any, new_page: Any, artifacts: Path
) -> None:
    ann, bob = public_match(clock_server, new_page, ("Ann Stays", "Bob Leaves"), "off")
    bob.context.close()
    expect(
        ann.get_by_text(re.compile(r"Bob Leaves is disconnected\. \d+ s to come back"))
    ).to_be_visible()
    expect(ann.get_by_role("button", name="Claim the match")).to_have_count(0)
    advance_clock(clock_server, 61)
    dialog = ann.get_by_role("alertdialog", name="Your opponent is gone")
    expect(dialog).to_be_visible()
    ann.screenshot(path=str(artifacts / "claim-dialog.png"), full_page=True)
    dialog.get_by_role("button", name="Wait").click()
    expect(dialog).to_have_count(0)
    ann.get_by_role("button", name="Claim the match").click()
    expect(status(ann)).to_contain_text(EN.match_over)
    expect(status(ann)).to_contain_text("left the match and did not come back")
    assert not ann.errors


def test_after_a_forfeit_the_reason_is_spoken_and_new_match_waits_for_the_other(
    clock_server: Any, new_page: Any
) -> None:
    ann, bob = public_match(clock_server, new_page, ("Ann Again", "Bob Again"), "30")
    mover = whose_turn(ann, bob)
    advance_clock(clock_server, 31)
    expect(status(ann)).to_contain_text(EN.match_over)
    # The spoken announcement names the reason the view carries (the event has none).
    said = ann.get_by_role("log", name="Announcements")
    expect(said).to_contain_text("You ran out of time." if mover is ann else "ran out of time.")
    new_match = ann.get_by_role("button", name=EN.new_match)
    expect(status(ann)).to_contain_text("Press “New match”")
    new_match.click()
    # The rematch wish (not readiness for a round) disables the button and is said.
    expect(new_match).to_be_disabled()
    expect(status(ann)).to_contain_text("Waiting for Bob Again to want a rematch.")
    expect(status(ann)).not_to_contain_text("Press “New match”")
    bob.get_by_role("button", name=DE.new_match).click()
    expect(ann.get_by_role("group", name=EN.hand).get_by_role("button")).to_have_count(10)
    assert not ann.errors and not bob.errors
