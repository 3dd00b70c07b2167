"""Helpers for public play: nickname, lobby tables, the test clock, frames, accounts; and
the person's turn at a table against the computer."""

from __future__ import annotations

import contextlib
import json
import re
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from playwright.sync_api import expect

from . import helpers

if TYPE_CHECKING:
    from .conftest import Server

ROOM_URL = re.compile(r"/r/[\w-]+$")

# The page's English words by key (web/js/i18n/en.json), as the accounts tests name things.
EN: dict[str, Any] = json.loads(
    (Path(__file__).parents[2] / "src/ginrummy/web/js/i18n/en.json").read_text(encoding="utf-8")
)


def post_json(url: str, body: dict[str, Any], token: str | None = None) -> dict[str, Any]:
    """POST ``body`` to the server as JSON (as ``token``'s device); its JSON answer. An
    error status raises (urllib's ``HTTPError``)."""
    headers = {"Content-Type": "application/json"}
    if token is not None:
        headers["Authorization"] = f"Bearer {token}"
    request = urllib.request.Request(
        url, data=json.dumps(body).encode(), headers=headers, method="POST"
    )
    with urllib.request.urlopen(request, timeout=10) as answer:
        data: dict[str, Any] = json.loads(answer.read())
        return data


def advance_clock(server: Any, seconds: float) -> None:
    """Move the server's test clock (GINRUMMY_TEST_CLOCK=1) forward."""
    post_json(f"{server.url}/api/test/clock", {"advance": seconds})


def me(page: Any) -> dict[str, Any]:
    """This browser's player summary, as the server sees it."""
    data: dict[str, Any] = page.evaluate(
        """async () => {
            const token = localStorage.getItem('ginrummy.token');
            const r = await fetch('/api/me', {headers: {Authorization: 'Bearer ' + token}});
            return r.json();
        }"""
    )
    return data["player"]  # type: ignore[no-any-return]


def enter_lobby(
    page: Any,
    url: str,
    nickname: str,
    *,
    lobby: str = "Lobby",
    field: str = "Your nickname",
    change: str = "Change nickname",
    account: bool = False,
) -> dict[str, Any]:
    """Open the lobby, take ``nickname``; returns the player summary (tag, id, rating).
    ``account``: the browser is an account of that name first (``sign_in_as``), as rated
    play needs, and the page is then the server's ``localhost`` one."""
    if account:
        url = sign_in_as(page, url, nickname)
    page.goto(url + "/")
    page.get_by_role("navigation").get_by_role("link", name=lobby).click()
    expect(page).to_have_url(re.compile(r"/lobby$"))
    you = page.get_by_role("region", name=re.compile("^(You|Du)$"))
    # The player has loaded (its statistics link shows) before the nickname is typed.
    expect(
        you.get_by_role("link", name=re.compile("Your statistics|Deine Statistik"))
    ).to_be_visible()
    if not account:  # an account keeps the name it was made with
        page.get_by_role("textbox", name=field).fill(nickname)
        # A click that a re-render of the lobby falls between (the button replaced under
        # the pointer) is lost, as it would be for a person, who clicks again.
        for _ in range(2):
            page.get_by_role("button", name=change).click()
            with contextlib.suppress(AssertionError):
                expect(you).to_contain_text(nickname, timeout=5_000)
                break
    expect(you).to_contain_text(nickname)
    player = me(page)
    assert player["name"] == nickname, player
    return player


def create_table(
    page: Any,
    *,
    timer: str = "30",
    public: bool = True,
    words: tuple[str, str] = ("Create table", "Move timer"),
) -> str:
    """Create a table from the lobby; returns the room's URL."""
    create, timer_label = words
    region = page.get_by_role("region", name=create)
    if not public:
        region.get_by_role("radio", name=re.compile("Private|Privat")).check()
    region.get_by_role("combobox", name=timer_label).select_option(timer)
    region.get_by_role("button", name=create).click()
    expect(page).to_have_url(ROOM_URL)
    return str(page.url)


def join_from_lobby(page: Any, host_tag: str, join: str = "Join") -> None:
    """In the lobby, join the open table of ``host_tag`` (the list updates live)."""
    item = page.get_by_role("listitem").filter(has_text=host_tag)
    item.get_by_role("button", name=join).click()
    expect(page).to_have_url(ROOM_URL)


def record_frames(page: Any, sink: list[dict[str, Any]]) -> None:
    def on_ws(ws: Any) -> None:
        ws.on("framereceived", lambda payload: sink.append(json.loads(payload)))

    page.on("websocket", on_ws)


def my_turn(page: Any, w: helpers.Words = helpers.EN, timeout: float = 15_000) -> int:
    """Wait until the person decides at a table against the computer; returns how many
    rounds of the match being played ended before that (mostly none).

    The deal is random and the computer may end a round before the person decides
    anything: as non-dealer it can take the first upcard and knock or go gin at once
    (against ``casual`` about 1 deal in 600). The person then goes on to the next round
    by its button, as a person would, and waits again (as ``my_turn`` of the server
    tests, tests/server/helpers.py). Should such a round end the match (gin at once can
    score more than a target of 50), the person starts a new match by its button, as
    offered, and the count starts again."""
    st = helpers.status(page, w)
    ended = 0
    for _ in range(10):  # ten rounds in a row ended so: never, in practice
        expect(st).to_have_text(helpers.actionable(w), timeout=timeout)
        text = str(st.inner_text())
        if w.match_over in text:
            page.get_by_role("button", name=w.new_match, exact=True).click()
            expect(st).not_to_contain_text(w.match_over, timeout=timeout)
            ended = 0
            continue
        if w.press_next not in text:
            return ended
        page.get_by_role("button", name=w.next_round).click()
        expect(st).not_to_contain_text(w.press_next, timeout=timeout)
        ended += 1
    raise AssertionError("every round ended before the person decided anything")


# -- rated play counts accounts only (issue 22, part 1) ------------------------------------


def localhost(url: str) -> str:
    """The server's URL by the name ``localhost``: a passkey's RP ID is a host name, never
    an IP address (docs/accounts.md, "The relying party")."""
    return url.replace("://127.0.0.1:", "://localhost:")


def account_token(url: str, name: str) -> str:
    """A new identity made an account named ``name`` through the server's HTTP API, with a
    passkey in software (``tests/server/softkey.py``, as the server tests make theirs), for
    the ``localhost`` relying party; returns its device token. The sign-up in the page, by
    Chromium's virtual authenticator and the account dialog, is what
    ``tests/browser/test_accounts.py`` and the other sign-up tests check; a test that only
    needs an account need not pay for its dialog and reload."""
    from server.softkey import SoftKey  # tests/ is on the path (rootdir)

    base = localhost(url)
    token = str(post_json(f"{base}/api/identity", {})["token"])
    options = post_json(f"{base}/api/account/passkeys/options", {"name": name}, token)["options"]
    key = SoftKey(rp_id="localhost", origin=base)  # the request's own host and origin
    post_json(f"{base}/api/account/passkeys", {"credential": key.create(options)}, token)
    return token


def sign_in_as(page: Any, url: str, name: str) -> str:
    """Make this browser an account named ``name`` (``account_token``) before any page of
    the site runs: its device token is kept where a sign-up leaves it (localStorage
    ``ginrummy.token``, web/js/api.js), so every page then loaded is the account's.
    Returns the site's ``localhost`` URL, the origin that holds the token."""
    base = localhost(url)
    token = account_token(base, name)
    page.goto(f"{base}/api/health")  # a document of the site's origin, without the app
    page.evaluate("token => localStorage.setItem('ginrummy.token', token)", token)
    return base


def home_url(server: Server) -> str:
    """The start page's URL by the name ``localhost`` (a passkey's RP ID is a host name)."""
    return f"http://localhost:{server.port}/"


def authenticator(page: Any) -> tuple[Any, str]:
    """Chromium's virtual authenticator for ``page``: its CDP session and authenticator id."""
    cdp = page.context.new_cdp_session(page)
    cdp.send("WebAuthn.enable")
    made = cdp.send(
        "WebAuthn.addVirtualAuthenticator",
        {
            "options": {
                "protocol": "ctap2",
                "transport": "internal",
                "hasResidentKey": True,
                "hasUserVerification": True,
                "isUserVerified": True,
                "automaticPresenceSimulation": True,
            }
        },
    )
    return cdp, made["authenticatorId"]


def open_account(page: Any) -> Any:
    """Open the account dialog by its button; returns the dialog once it is visible."""
    page.get_by_role("button", name=EN["account.open"], exact=True).click()
    dialog = page.get_by_role("dialog", name=EN["account.title"])
    expect(dialog).to_be_visible()
    return dialog


def signed_in(new_page: Callable[..., Any], server: Server, name: str) -> Any:
    """A new page on the start page as an account named ``name`` (``sign_in_as``), checked."""
    page = new_page()
    page.goto(sign_in_as(page, server.url, name) + "/")
    dialog = open_account(page)
    expect(dialog.get_by_text(f"Signed in as {name}.")).to_be_visible()
    dialog.get_by_role("button", name=EN["account.close"]).click()
    return page
