"""Rated play counts accounts only (issue 22): a guest's lobby offers no control that the
server would refuse. The quick match, the table form's "Rated" and the tournament form's
"Rated matches" are disabled for a guest, each saying why (its accessible description)
next to a button that opens the account dialog; an account has them all."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from .public import EN, enter_lobby

pytestmark = pytest.mark.browser

REASON = EN["lobby.rated.account_needed"]
TOURNAMENTS = re.compile(r"^Tournaments \(\d+\)$")


def _controls(page: Any) -> dict[str, Any]:
    """The lobby's controls of rated play, by the panel they are in."""
    return {
        "quick": page.get_by_role("region", name=EN["lobby.quick"]).get_by_role(
            "button", name=EN["lobby.quick"], exact=True
        ),
        "table": page.get_by_role("region", name=EN["lobby.create"]).get_by_role(
            "checkbox", name=EN["lobby.rated.label"]
        ),
        "tournament": page.get_by_role("region", name=TOURNAMENTS).get_by_role(
            "checkbox", name=EN["tournament.form.rated"]
        ),
    }


def test_a_guest_is_shown_why_rated_play_is_closed_and_the_way_to_an_account(
    server: Any, new_page: Any
) -> None:
    page = new_page()
    enter_lobby(page, server.url, "Gina Guest")
    for what, control in _controls(page).items():
        expect(control, what).to_be_disabled()
        expect(control, what).to_have_accessible_description(REASON)
    for region in (EN["lobby.quick"], EN["lobby.create"], TOURNAMENTS):
        expect(
            page.get_by_role("region", name=region).get_by_role(
                "button", name=EN["lobby.rated.account_open"]
            ),
            str(region),
        ).to_be_visible()
    # The way to an account is the account dialog, here in the lobby.
    page.get_by_role("region", name=EN["lobby.quick"]).get_by_role(
        "button", name=EN["lobby.rated.account_open"]
    ).click()
    dialog = page.get_by_role("dialog", name=EN["account.title"])
    expect(dialog).to_be_visible()
    dialog.get_by_role("button", name=EN["account.close"]).click()
    expect(dialog).to_be_hidden()
    # Nothing was refused: no red banner.
    expect(page.get_by_text(EN["error.account_required"])).to_have_count(0)
    assert not page.errors


def test_an_account_has_the_quick_match_and_rated_boxes(server: Any, new_page: Any) -> None:
    page = new_page()
    enter_lobby(page, server.url, "Arno Account", account=True)
    for what, control in _controls(page).items():
        expect(control, what).to_be_enabled()
        expect(control, what).to_have_accessible_description("")
    expect(page.get_by_role("button", name=EN["lobby.rated.account_open"])).to_have_count(0)
    expect(page.get_by_text(REASON)).to_have_count(0)
    assert not page.errors
