"""Chat at the table: plain text only (a script-injection attempt stays text), quick
phrases in the reader's language, mute per opponent, rate limit, watchers read only."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from .helpers import DE, EN, status
from .public import create_table, enter_lobby

pytestmark = pytest.mark.browser

IMG = "<img src=x onerror=window.__pwned=1>"
SCRIPT = "<script>window.__pwned=2</script>"


def send(page: Any, text: str, field: str = "Message", button: str = "Send") -> None:
    page.get_by_role("textbox", name=field).fill(text)
    page.get_by_role("button", name=button, exact=True).click()


def test_chat_is_text_with_phrases_mute_and_rate_limit(
    clock_server: Any, new_page: Any, artifacts: Path
) -> None:
    ann = new_page(width=1280)
    host = enter_lobby(ann, clock_server.url, "Ann Chat")
    link = create_table(ann, timer="off", public=False)
    bob = new_page(locale="de-DE", width=360, height=780)
    bob.goto(link)
    bob.get_by_role("button", name="Platz einnehmen").click()
    expect(bob.get_by_role("group", name=DE.hand).get_by_role("button")).to_have_count(10)
    expect(status(ann)).to_contain_text(re.compile("turn"))

    ann_log = ann.get_by_role("log", name="Chat")
    bob_log = bob.get_by_role("log", name="Chat")
    send(ann, IMG)
    send(ann, SCRIPT)
    expect(bob_log).to_contain_text(IMG)
    expect(bob_log).to_contain_text(SCRIPT)
    expect(ann_log).to_contain_text(SCRIPT)
    # Shown as literal text: no element was made from it, nothing ran.
    for page in (ann, bob):
        assert page.evaluate("window.__pwned") is None
        assert page.locator(".chat-log img, .chat-log script").count() == 0

    bob.get_by_role("button", name="Gutes Spiel!").click()
    expect(bob_log).to_contain_text("Gutes Spiel!")
    expect(ann_log).to_contain_text("Good game!")
    send(bob, "Hallo Ann", field="Nachricht", button="Senden")
    expect(ann_log).to_contain_text("Hallo Ann")
    ann.screenshot(path=str(artifacts / "chat-desktop.png"), full_page=True)
    bob.screenshot(path=str(artifacts / "chat-phone.png"), full_page=True)

    # Bob mutes Ann: her new messages no longer show for him (the earlier ones neither).
    mute = bob.get_by_role("button", name=re.compile(f"{re.escape(host['tag'])} stummschalten"))
    mute.click()
    expect(mute).to_have_attribute("aria-pressed", "true")
    expect(bob_log).not_to_contain_text(SCRIPT)
    bob.wait_for_timeout(1100)  # the chat rate limit: one a second
    send(ann, "only for me")
    expect(ann_log).to_contain_text("only for me")
    expect(bob_log).to_contain_text("Hallo Ann")
    expect(bob_log).not_to_contain_text("only for me")
    mute.click()
    expect(bob_log).to_contain_text("only for me")

    # Too many messages at once: the server refuses, the page says so.
    for n in range(7):
        send(ann, f"spam {n}")
    expect(ann.get_by_role("alert")).to_contain_text("Slow down")
    for page in (ann, bob):
        assert not page.errors


def test_watchers_read_but_do_not_write_unless_allowed(clock_server: Any, new_page: Any) -> None:
    ann = new_page()
    enter_lobby(ann, clock_server.url, "Ann Quiet")
    link = create_table(ann, timer="off", public=False)
    bob = new_page()
    bob.goto(link)
    bob.get_by_role("button", name="Take the seat").click()
    expect(bob.get_by_role("group", name=EN.hand).get_by_role("button")).to_have_count(10)
    send(bob, "hello watchers")
    expect(bob.get_by_role("log", name="Chat")).to_contain_text("hello watchers")
    eve = new_page()
    eve.goto(link)
    expect(status(eve, EN)).to_contain_text("You are watching.")
    expect(eve.get_by_role("log", name="Chat")).to_contain_text("hello watchers")
    expect(eve.get_by_role("textbox", name="Message")).to_have_count(0)
    expect(eve.get_by_text("Only the players can chat at this table.")).to_be_visible()


def test_watchers_chat_where_the_table_allows_it(clock_server: Any, new_page: Any) -> None:
    """A watcher with a nickname writes, and the players read it as a watcher's line; one
    without a nickname is told how to get one."""
    ann = new_page()
    enter_lobby(ann, clock_server.url, "Ann Open")
    region = ann.get_by_role("region", name="Create table")
    region.get_by_role("checkbox", name="Watchers may chat").check()
    link = create_table(ann, timer="off", public=False)
    bob = new_page()
    bob.goto(link)
    bob.get_by_role("button", name="Take the seat").click()
    expect(bob.get_by_role("group", name=EN.hand).get_by_role("button")).to_have_count(10)

    eve = new_page()
    enter_lobby(eve, clock_server.url, "Eve Rail")
    eve.goto(link)
    expect(status(eve, EN)).to_contain_text("You are watching.")
    send(eve, "hello from the rail")
    for page in (ann, bob, eve):
        log = page.get_by_role("log", name="Chat")
        expect(log).to_contain_text("hello from the rail")
        expect(log).to_contain_text("Eve Rail")
        expect(log).to_contain_text("(watching)")
    assert not eve.get_by_role("alert").filter(has_text="cannot chat").count()

    zed = new_page()  # never chose a nickname: no identity in this browser
    zed.goto(link)
    expect(status(zed, EN)).to_contain_text("You are watching.")
    expect(zed.get_by_role("log", name="Chat")).to_contain_text("hello from the rail")
    expect(zed.get_by_role("textbox", name="Message")).to_have_count(0)
    expect(
        zed.get_by_text("Watchers may chat at this table once they have a nickname")
    ).to_be_visible()
