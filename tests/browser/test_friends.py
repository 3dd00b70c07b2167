"""Friends in Chromium (docs/accounts.md, "Friends"): two people with accounts (made
through the API, ``public.sign_in_as``; signing up in the page is test_accounts.py's)
befriend each other from the Friends dialog, one challenges with rules and target, the
other accepts in the dialog that shows on their page, both land seated in the same room
and a move is played. Every click by role and name."""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from .conftest import Server
from .helpers import try_decide
from .public import EN, home_url, signed_in

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    limits_off = {"GINRUMMY_LIMIT_ACCOUNTS": "0", "GINRUMMY_LIMIT_SIGN_INS": "0"}
    srv = Server(tmp_path_factory.mktemp("friends"), env=limits_off)
    srv.start()
    yield srv
    srv.stop()


def _friends(page: Any) -> Any:
    page.get_by_role("button", name=EN["friends.open"], exact=True).click()
    dialog = page.get_by_role("dialog", name=EN["friends.title"])
    expect(dialog).to_be_visible()
    return dialog


def test_two_friends_challenge_accept_and_play(
    server: Server, new_page: Callable[..., Any]
) -> None:
    ann = signed_in(new_page, server, "Annika")
    expect(ann.get_by_role("button", name=EN["friends.open"])).to_be_visible()
    bob = signed_in(new_page, server, "Bodo")
    expect(bob.get_by_role("button", name=EN["friends.open"])).to_be_visible()

    # Annika asks Bodo by name; Bodo accepts the request
    dialog = _friends(ann)
    dialog.get_by_label(EN["friends.add_name"]).fill("bodo")
    dialog.get_by_role("button", name=EN["friends.add"]).click()
    expect(dialog.get_by_text("Waiting for Bodo to accept.")).to_be_visible()
    bob_dialog = _friends(bob)
    bob_dialog.get_by_role("button", name="Accept Annika").click()
    expect(bob_dialog.get_by_text("Annika: online")).to_be_visible()
    bob_dialog.get_by_role("button", name=EN["account.close"]).click()

    # Annika's list shows Bodo (news of the friendship reaches her open dialog)
    expect(dialog.get_by_role("button", name="Challenge Bodo", exact=True)).to_be_visible()
    dialog.get_by_role("button", name="Challenge Bodo", exact=True).click()
    form = dialog.get_by_role("group", name="Challenge Bodo")
    form.get_by_label(EN["friends.rules"]).select_option("classic")
    form.get_by_label(EN["friends.target"]).select_option("50")
    form.get_by_role("button", name=EN["friends.send_challenge"]).click()

    # Bodo's page shows the challenge; he accepts: both are seated in one room
    challenge = bob.get_by_role("dialog", name="Annika challenges you")
    expect(challenge).to_be_visible()
    expect(challenge.get_by_text("Classic, to 50 points")).to_be_visible()
    challenge.get_by_role("button", name=EN["friends.accept"]).click()
    expect(bob).to_have_url(re.compile(r"/r/[\w-]+$"))
    expect(ann).to_have_url(re.compile(r"/r/[\w-]+$"))
    assert ann.url == bob.url
    hand = "Your hand"
    expect(bob.get_by_role("group", name=hand).get_by_role("button")).to_have_count(10)
    expect(ann.get_by_role("group", name=hand).get_by_role("button")).to_have_count(10)

    # a move: whoever is to play does one thing
    rng = random.Random(7)
    done = None
    for _ in range(40):
        done = try_decide(ann, rng) or try_decide(bob, rng)
        if done:
            break
        ann.wait_for_timeout(250)
    assert done in ("upcard", "draw", "discard"), done

    # a third friend sees Annika playing, with a link to watch her game
    cleo = signed_in(new_page, server, "Cleo")
    expect(cleo.get_by_role("button", name=EN["friends.open"])).to_be_visible()
    dialog = _friends(cleo)
    dialog.get_by_label(EN["friends.add_name"]).fill("Annika")
    dialog.get_by_role("button", name=EN["friends.add"]).click()
    ann.evaluate("async () => (await import('/static/js/api.js')).api.befriend({name: 'Cleo'})")
    expect(dialog.get_by_text("Annika: playing")).to_be_visible()
    watch = dialog.get_by_role("link", name="Watch Annika's game")
    expect(watch).to_have_attribute("href", "/r/" + ann.url.rsplit("/r/", 1)[1])
    assert not ann.errors and not bob.errors and not cleo.errors  # type: ignore[attr-defined]


def test_a_guest_asked_from_a_player_page_is_asked_to_create_an_account(
    server: Server, new_page: Callable[..., Any]
) -> None:
    ann = signed_in(new_page, server, "Frieda")
    expect(ann.get_by_role("button", name=EN["friends.open"])).to_be_visible()
    pid = ann.evaluate("async () => (await (await import('/static/js/api.js')).api.me()).player.id")
    guest = new_page()
    guest.goto(home_url(server) + f"p/{pid}")
    guest.get_by_role("button", name=EN["friends.add"]).click()
    dialog = guest.get_by_role("dialog", name=EN["friends.title"])
    expect(dialog.get_by_text(EN["friends.need_account"])).to_be_visible()
    expect(dialog.get_by_role("button", name=EN["account.open"])).to_be_visible()
