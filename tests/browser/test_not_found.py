"""A page with nothing to show says why and leads back to the start page: a path of no
page (the server answers it with the page and 404; web/js/pages/notfound.js), and an
unknown room, chouette table, tournament or player (web/js/links.js messagePanel), all
under the site's top bar."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from .public import EN

pytestmark = pytest.mark.browser


def _back_home(page: Any, url: str) -> None:
    """The page's way back to the start page leads there."""
    page.get_by_role("link", name=EN["act.leave"]).click()
    expect(page).to_have_url(re.compile(rf"^{re.escape(url)}/$"))
    expect(page.get_by_role("heading", name=EN["app.title"], level=1)).to_be_visible()


def test_an_unknown_path_is_a_page_not_found_under_the_sites_header(
    server: Any, new_page: Any
) -> None:
    page = new_page()
    answer = page.goto(server.url + "/nonsense")
    assert answer is not None and answer.status == 404
    expect(page.get_by_role("heading", name=EN["notfound.title"])).to_be_visible()
    expect(page.get_by_role("alert")).to_have_text(EN["notfound.text"])
    expect(page.get_by_role("navigation", name=EN["nav.label"])).to_be_visible()
    _back_home(page, server.url)
    assert not page.errors


@pytest.mark.parametrize(
    ("path", "text"),
    [
        ("/t/unknown", EN["tournament.unknown"]),
        ("/p/nobody", EN["stats.unknown"]),
        ("/r/unknown", EN["join.unknown"]),
        ("/c/unknown", EN["join.unknown"]),
    ],
)
def test_an_unknown_tournament_player_or_room_leads_back_to_the_start_page(
    server: Any, new_page: Any, path: str, text: str
) -> None:
    page = new_page()
    page.goto(server.url + path)
    expect(page.get_by_role("alert").filter(has_text=text)).to_be_visible()
    _back_home(page, server.url)
    assert not page.errors
