"""Your data in Chromium (docs/accounts.md, "Your data"): an account that played a
person downloads its data (a Playwright download: the account and the game are in it),
then deletes the account after the confirmation; the other person's record of the game
stays readable, with the deleted person anonymous. Clicks go by role and accessible
name."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from .conftest import Server
from .public import EN, home_url, open_account, sign_in_as

pytestmark = pytest.mark.browser

# Bob's browser plays its side over its own socket: hello, then resign once it sees the
# match (Ann need not be at the table for that).
RESIGN = """async (room) => {
    const token = localStorage.getItem('ginrummy.token');
    const ws = new WebSocket(`ws://${location.host}/ws`);
    await new Promise((ok) => ws.addEventListener('open', ok, { once: true }));
    const over = new Promise((ok) => ws.addEventListener('message', (e) => {
        const m = JSON.parse(e.data);
        if (m.type === 'view' && m.view.table.match_result) ok(m.view.table.match_result);
    }));
    ws.send(JSON.stringify({ type: 'hello', room, token }));
    await new Promise((ok) => setTimeout(ok, 500));
    ws.send(JSON.stringify({ type: 'resign' }));
    const result = await over;
    ws.close();
    return result.winner;
}"""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    limits_off = {"GINRUMMY_LIMIT_ACCOUNTS": "0", "GINRUMMY_LIMIT_SIGN_INS": "0"}
    srv = Server(tmp_path_factory.mktemp("yourdata"), env=limits_off)
    srv.start()
    yield srv
    srv.stop()


def _api(page: Any, call: str, *args: Any) -> Any:
    return page.evaluate(
        f"async (args) => (await import('/static/js/api.js')).api.{call}(...args)", list(args)
    )


def test_download_my_data_then_delete_my_account(
    server: Server, new_page: Callable[..., Any], tmp_path: Path
) -> None:
    ann = new_page(accept_downloads=True)
    ann.goto(sign_in_as(ann, server.url, "Henrike") + "/")  # signing up: test_accounts.py
    expect(open_account(ann).get_by_text("Signed in as Henrike.")).to_be_visible()
    bob = new_page()
    bob.goto(home_url(server))
    room = _api(ann, "createRoom", {"kind": "room"})["room"]
    _api(bob, "join", room, "Bob")
    assert bob.evaluate(RESIGN, room) == "one"

    # Download my data: the account and the game are in the file
    dialog = ann.get_by_role("dialog", name=EN["account.title"])
    with ann.expect_download() as download:
        dialog.get_by_role("button", name=EN["data.download"]).click()
    saved = tmp_path / "mine.json"
    download.value.save_as(saved)
    data = json.loads(saved.read_text(encoding="utf-8"))
    assert data["format"] == "ginrummy-export/1"
    assert data["account"]["name"] == "Henrike"
    assert [g["room"] for g in data["games"]] == [room]
    assert [r["room"] for r in data["results"]] == [room]

    # Delete my account: a confirmation that says what happens, then the start page
    dialog.get_by_role("button", name=EN["data.delete"]).click()
    confirm = ann.get_by_role("alertdialog", name=EN["data.confirm_title"])
    expect(confirm).to_contain_text("Deleted player")
    confirm.get_by_role("button", name=EN["data.confirm"]).click()
    ann.wait_for_url(home_url(server))
    dialog = open_account(ann)
    expect(dialog.get_by_role("button", name=EN["account.create"])).to_be_visible()  # a guest

    # Bob's record of the game is readable, and Henrike's name is gone from it
    bob_id = _api(bob, "me")["player"]["id"]
    bob.goto(f"http://localhost:{server.port}/p/{bob_id}")
    expect(bob.get_by_text("Deleted player", exact=False).first).to_be_visible()
    assert "Henrike" not in bob.locator("main").inner_text()
    status = bob.evaluate(f"async () => (await fetch('/api/rooms/{room}/record')).status")
    assert status == 200
    assert not ann.errors and not bob.errors


def test_the_privacy_page_in_english_and_german(
    server: Server, new_page: Callable[..., Any]
) -> None:
    for locale, heading, kept in (
        ("en-US", "Privacy", "What is kept"),
        ("de-DE", "Datenschutz", "Was gespeichert wird"),
    ):
        page = new_page(locale=locale)
        page.goto(home_url(server))
        # linked from the account dialog
        dialog = page.get_by_role("button", name=re.compile("^(Account|Konto)$"))
        dialog.click()
        link = re.compile("^(What we keep and why|Was wir speichern und warum)$")
        page.get_by_role("link", name=link).click()
        expect(page).to_have_url(re.compile(r"/privacy$"))
        expect(page.get_by_role("heading", level=1, name=heading)).to_be_visible()
        expect(page.get_by_role("heading", level=2, name=kept)).to_be_visible()
        assert not page.errors
