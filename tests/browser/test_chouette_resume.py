"""The start page's running games bring a player back to their chouette seat
(docs/protocol.md, ``GET /api/me``): a table still waiting for players, then one under
way, each a link to its /c/<id> page. Every click goes by role and accessible name."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from .helpers import CH_DE, CH_EN, chouette_role, join_chouette, open_chouette, status

pytestmark = pytest.mark.browser


def test_the_start_page_brings_each_player_back_to_their_chouette_seat(
    server: Any, new_page: Any
) -> None:
    ann = new_page()
    link = open_chouette(ann, server.url, "Ann", ["friend", "bot:casual"], "standard")
    ann.goto(server.url + "/")
    ann.get_by_role("link", name="Resume: chouette waiting for players").click()
    expect(ann).to_have_url(link)
    expect(status(ann)).to_contain_text(CH_EN.waiting)
    bob = new_page(locale="de-DE")
    join_chouette(bob, link, "Bob", CH_DE)
    part = chouette_role(bob, CH_DE)
    bob.goto(server.url + "/")
    bob.get_by_role("link", name="Weiterspielen: Chouette mit Ann, Gelegenheitsspieler").click()
    expect(bob).to_have_url(link)
    assert chouette_role(bob, CH_DE) == part  # the same seat again
    ann.goto(server.url + "/")
    ann.get_by_role("link", name="Resume: chouette with Bob, Casual").click()
    expect(ann).to_have_url(link)
    expect(status(ann)).to_contain_text(re.compile(f"{CH_EN.box}|{CH_EN.captain}|{CH_EN.partner}"))
    for page in (ann, bob):
        assert not page.errors
