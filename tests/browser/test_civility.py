"""Civility in the page (docs/accounts.md, "Civility"): a report made at the table reaches
the operators' page; the operator bans the reported person, whose quick match then says
so in words while the reporter's still works; a block keeps the blocked person's chat
out of the blocker's page; a non-operator opening /admin reads "operators only". Three
people with accounts made through the API (``public.sign_in_as``; signing up in the page
is test_accounts.py's); every click by role and accessible name; the dialog and the
operators' page held to WCAG 2.2 AA by axe-core, as every other view
(tests/browser/test_axe.py)."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from .conftest import Server
from .public import EN, home_url, me, open_account, signed_in
from .test_axe import AXE, Audit

pytestmark = pytest.mark.browser

OPERATOR = "Opal"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    srv = Server(tmp_path_factory.mktemp("civility"))
    srv.start()
    yield srv
    srv.stop()


def _send(page: Any, text: str) -> None:
    page.get_by_role("textbox", name=EN["chat.message"]).fill(text)
    page.get_by_role("button", name=EN["chat.send"], exact=True).click()


def test_report_block_ban_and_the_operators_page(
    server: Server, new_page: Callable[..., Any]
) -> None:
    axe = Audit(AXE, shots=None)
    opal = signed_in(new_page, server, OPERATOR)
    # Operators are named by player id (GINRUMMY_OPERATORS): Opal's is known only now,
    # so the server starts again with it, as an operator would restart theirs.
    operator_id = me(opal)["id"]
    server.stop()
    server.extra_env = {"GINRUMMY_OPERATORS": operator_id}
    server.start()
    rita = signed_in(new_page, server, "Rita")
    bert = signed_in(new_page, server, "Bert")

    # Rita opens a room for two, Bert takes the other seat; both at the table.
    room = rita.evaluate(
        """async () => {
            const { api } = await import('/static/js/api.js');
            return (await api.createRoom({kind: 'room', opponent: 'friend', name: 'Rita'})).room;
        }"""
    )
    bert.evaluate(
        "async (room) => (await import('/static/js/api.js')).api.join(room, 'Bert')", room
    )
    rita.goto(home_url(server) + f"r/{room}")
    bert.goto(home_url(server) + f"r/{room}")
    rita_log = rita.get_by_role("log", name=EN["chat.title"])
    bert_log = bert.get_by_role("log", name=EN["chat.title"])
    _send(bert, "you play like a potato")
    expect(rita_log).to_contain_text("you play like a potato", timeout=10_000)

    # Rita reports Bert from the table: a reason, a note, a clear confirmation.
    peer = re.compile(r"^Report or block Bert")
    rita.get_by_role("region", name=EN["chat.title"], exact=True).get_by_role(
        "button", name=peer
    ).first.click()
    dialog = rita.get_by_role("dialog", name=re.compile("^Bert"))
    expect(dialog).to_be_visible()
    dialog.get_by_role("radio", name=EN["civility.reason.chat"]).check()
    if AXE.exists():
        assert not axe.run(rita), axe.run(rita)
    dialog.get_by_role("textbox", name=EN["civility.note"]).fill("rude all game")
    dialog.get_by_role("button", name=EN["civility.send_report"]).click()
    expect(dialog.get_by_role("status")).to_contain_text("Thank you. Your report about Bert")

    # ... and blocks him: his lines go from her page, his new ones never come.
    dialog.get_by_role("button", name=re.compile(r"^Block Bert")).click()
    expect(dialog.get_by_role("button", name=re.compile(r"^Unblock Bert"))).to_be_visible()
    dialog.get_by_role("button", name=EN["civility.close"]).click()
    expect(rita_log).not_to_contain_text("potato")
    _send(bert, "still there?")
    expect(bert_log).to_contain_text("still there?")
    _send(rita, "hello room")
    expect(rita_log).to_contain_text("hello room")  # after Bert's line in the room's order
    expect(rita_log).not_to_contain_text("still there?")
    expect(bert_log).to_contain_text("hello room")

    # The blocked list in Rita's account dialog (the start page's), with Unblock.
    rita.goto(home_url(server))
    account = open_account(rita)
    blocked = account.get_by_role("region", name=EN["civility.blocked_title"])
    expect(blocked.get_by_role("button", name=re.compile(r"^Unblock Bert"))).to_be_visible()
    account.get_by_role("button", name=EN["account.close"]).click()
    # Bert's player page has the same dialog, which knows he is blocked.
    rita.goto(home_url(server) + f"p/{me(bert)['id']}")
    rita.get_by_role("button", name=peer).click()
    dialog = rita.get_by_role("dialog", name=re.compile("^Bert"))
    expect(dialog.get_by_role("button", name=re.compile(r"^Unblock Bert"))).to_be_visible()
    dialog.get_by_role("button", name=EN["civility.close"]).click()

    # The operator sees the report with its evidence, and bans Bert for 10 minutes.
    opal.goto(home_url(server) + "admin")
    expect(opal.get_by_role("heading", name=EN["admin.title"])).to_be_visible()
    reports = opal.get_by_role("region", name=EN["admin.reports"])
    expect(reports.get_by_role("heading", name=re.compile("^Report about Bert"))).to_contain_text(
        EN["civility.reason.chat"]
    )
    expect(reports).to_contain_text("rude all game")
    reports.get_by_text(EN["admin.evidence"]).click()
    expect(reports.get_by_text(re.compile(r"^Bert\S*: you play like a potato$"))).to_be_visible()
    reports.get_by_role("button", name=re.compile(r"^Act on the report about Bert")).click()
    action = opal.get_by_role("region", name=EN["admin.act"])
    action.get_by_role("combobox", name=EN["admin.action"]).select_option(
        label=EN["admin.action.ban"]
    )
    action.get_by_role("spinbutton", name=re.compile("^Minutes")).fill("10")
    # No reason: refused in words, nothing done.
    action.get_by_role("button", name=EN["admin.carry_out"]).click()
    expect(opal.get_by_text(EN["admin.reason_needed"])).to_be_visible()
    action.get_by_role("textbox", name=EN["admin.reason"]).fill("abuse in chat")
    action.get_by_role("button", name=EN["admin.carry_out"]).click()
    expect(opal.get_by_text("Done: Ban.")).to_be_visible()
    expect(reports).to_contain_text(EN["admin.no_reports"])
    audit = opal.get_by_role("region", name=EN["admin.audit"])
    expect(audit.get_by_role("row").filter(has_text="abuse in chat")).to_have_count(1)
    history = opal.get_by_role("region", name=EN["admin.history"])
    expect(history).to_contain_text("Play locked until")
    if AXE.exists():
        axe(opal, "operators' page")
        axe.check()
        expect(opal.get_by_role("heading", name=EN["admin.title"])).to_be_visible()

    # Bert's quick match says why and for how long; Rita's still works.
    bert.goto(home_url(server) + "lobby")
    bert.get_by_role("button", name=EN["lobby.quick"], exact=True).click()
    notice = bert.get_by_role("alert").filter(has_text="Quick match and rated play are locked")
    expect(notice).to_contain_text("10 minutes more. Reason: abuse in chat.")
    rita.goto(home_url(server) + "lobby")
    rita.get_by_role("button", name=EN["lobby.quick"], exact=True).click()
    expect(rita.get_by_role("region", name=EN["lobby.quick"])).to_contain_text(
        EN["lobby.quick.waiting"]
    )
    rita.get_by_role("button", name=EN["lobby.quick.cancel"]).click()


def test_a_non_operator_reads_operators_only(server: Server, new_page: Callable[..., Any]) -> None:
    guest = new_page()
    guest.goto(home_url(server) + "admin")
    expect(guest.get_by_role("alert")).to_have_text(EN["admin.operators_only"])
    assert not guest.get_by_role("region", name=EN["admin.reports"]).count()
    if AXE.exists():
        axe = Audit(AXE, shots=None)
        axe(guest, "operators' page, refused")
        axe.check()
        expect(guest.get_by_role("alert")).to_have_text(EN["admin.operators_only"])
