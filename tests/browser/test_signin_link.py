"""A sign-in link (docs/accounts.md, "Signing in on another device"): a signed-in
browser shows a one-time code with its link; a second browser opens the link and is the
account's device on the start page; the link used once more says so in words. Every
click goes by role and accessible name."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from .conftest import Server
from .public import EN, authenticator, home_url, open_account

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    limits_off = {"GINRUMMY_LIMIT_ACCOUNTS": "0", "GINRUMMY_LIMIT_SIGN_INS": "0"}
    srv = Server(tmp_path_factory.mktemp("signin"), env=limits_off)
    srv.start()
    yield srv
    srv.stop()


def test_a_second_browser_signs_in_by_the_link_a_signed_in_one_shows(
    server: Server, new_page: Callable[..., Any]
) -> None:
    first = new_page()
    first.goto(home_url(server))
    authenticator(first)
    dialog = open_account(first)
    dialog.get_by_label(EN["account.name"]).fill("Lieselotte")
    dialog.get_by_role("button", name=EN["account.create"]).click()
    dialog = open_account(first)
    expect(dialog.get_by_text("Signed in as Lieselotte.")).to_be_visible()
    dialog.get_by_role("button", name=EN["account.show_code"]).click()
    expect(dialog.get_by_role("button", name=EN["account.copy_link"])).to_be_visible()
    link = dialog.locator("code.signin-link").inner_text()
    assert link.startswith(home_url(server) + "signin#code="), link

    second = new_page()
    second.goto(link)
    expect(second).to_have_url(home_url(server))  # the start page
    dialog2 = open_account(second)
    expect(dialog2.get_by_text("Signed in as Lieselotte.")).to_be_visible()
    assert "code=" not in second.url

    # the link again, in a third browser: used, said in words
    third = new_page()
    third.goto(link)
    expect(
        third.get_by_role("status").filter(has_text=EN["signin.used_or_expired"])
    ).to_be_visible()
    expect(third.get_by_role("link", name=EN["signin.home"])).to_be_visible()
