"""Accounts in Chromium with its virtual authenticator (the DevTools WebAuthn domain):
a guest with a game creates an account with a passkey and still sees the game; a second
browser signs in with the same passkey, a third with a one-time code; a device is
signed out after a confirmation with the passkey (docs/accounts.md). Every click goes
by role and accessible name."""

from __future__ import annotations

import re
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
    srv = Server(tmp_path_factory.mktemp("accounts"), env=limits_off)
    srv.start()
    yield srv
    srv.stop()


def test_an_account_with_a_passkey_on_three_browsers(
    server: Server, new_page: Callable[..., Any]
) -> None:
    first = new_page()
    first.goto(home_url(server))
    # a guest's game, before the account
    room = first.evaluate(
        """async () => {
            const { api } = await import('/static/js/api.js');
            return (await api.createRoom({})).room;
        }"""
    )
    cdp, authenticator_id = authenticator(first)
    first.reload()
    dialog = open_account(first)
    dialog.get_by_label(EN["account.name"]).fill("Henrike")
    dialog.get_by_role("button", name=EN["account.create"]).click()
    # the page reloads as the account's: the guest's game is still listed
    resume = first.get_by_role("region", name=EN["home.resume.title"])
    expect(resume.get_by_role("link")).to_have_count(1)
    dialog = open_account(first)
    expect(dialog.get_by_text("Signed in as Henrike.")).to_be_visible()
    dialog.get_by_role("button", name=EN["account.close"]).click()

    # a second browser, the same passkey (a synced passkey: copied to its authenticator)
    (credential,) = cdp.send("WebAuthn.getCredentials", {"authenticatorId": authenticator_id})[
        "credentials"
    ]
    second = new_page()
    second.goto(home_url(server))
    cdp2, authenticator2 = authenticator(second)
    cdp2.send(
        "WebAuthn.addCredential", {"authenticatorId": authenticator2, "credential": credential}
    )
    dialog2 = open_account(second)
    dialog2.get_by_role("button", name=EN["account.sign_in_passkey"]).click()
    expect(
        second.get_by_role("region", name=EN["home.resume.title"]).get_by_role("link")
    ).to_have_count(1)
    assert second.evaluate(
        "async () => (await (await import('/static/js/api.js')).api.me()).games.map(g => g.room)"
    ) == [room]

    # a third browser, without a passkey: a code shown on the first
    dialog = open_account(first)
    dialog.get_by_role("button", name=EN["account.show_code"]).click()
    grouped = r"[A-Z0-9]{4}-[A-Z0-9]{4}-[A-Z0-9]{4}"
    shown = dialog.get_by_text(re.compile(f"Type {grouped} on the other device"))
    code = re.search(grouped, shown.inner_text())
    assert code is not None
    third = new_page()
    third.goto(home_url(server))
    dialog3 = open_account(third)
    dialog3.get_by_label(EN["account.code"]).fill(code.group(0))
    dialog3.get_by_role("button", name=EN["account.sign_in_code"]).click()
    expect(
        third.get_by_role("region", name=EN["home.resume.title"]).get_by_role("link")
    ).to_have_count(1)

    # the first signs the third out, confirming with the passkey: the token stops
    # working at once (the passkey syncs back with the second's sign count, as a synced
    # passkey would; a copy answering with an old count is refused as a clone). The
    # third's token is read now and tried from outside the page: the signed-out page
    # may navigate at any moment, which would cut a script run in it.
    token = third.evaluate("() => localStorage.getItem('ginrummy.token')")
    assert token
    (synced,) = cdp2.send("WebAuthn.getCredentials", {"authenticatorId": authenticator2})[
        "credentials"
    ]
    cdp.send(
        "WebAuthn.removeCredential",
        {"authenticatorId": authenticator_id, "credentialId": synced["credentialId"]},
    )
    cdp.send("WebAuthn.addCredential", {"authenticatorId": authenticator_id, "credential": synced})
    first.reload()
    dialog = open_account(first)
    devices = dialog.get_by_role("button", name=re.compile(r"^Sign out "))
    expect(devices).to_have_count(3)
    devices.nth(2).click()  # another device: confirmed with the passkey first
    expect(dialog.get_by_role("button", name=re.compile(r"^Sign out "))).to_have_count(2)
    me = third.request.get(server.url + "/api/me", headers={"Authorization": f"Bearer {token}"})
    assert me.status == 401
    assert not first.errors and not second.errors  # type: ignore[attr-defined]
