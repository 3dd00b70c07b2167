"""The first visit fetches what the start page shows and no more (issue 19, item 6; the
150 KB budget of `ginrummy bench web`): the modules of the pages it does not show (the
lobby, the leaderboard, a player's page, a tournament, a review, a chouette table) are
loaded the first time one of them is shown (web/js/pages.js), and then it works."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

# Modules only the pages a first visit does not show need (web/js/pages.js loads them).
ON_DEMAND = (
    "pages/public.js",
    "pages/tournament.js",
    "pages/review.js",
    "pages/chouette.js",
    "publicplay.js",
    "tournamentplay.js",
    "lobby.js",
    "stats.js",
    "tournament.js",
    "review.js",
    "reviewjob.js",
    "chouette/play.js",
    "chouette/state.js",
    "chouette/table.js",
)


def modules(requests: list[str]) -> set[str]:
    prefix = "/static/js/"
    return {url.split(prefix, 1)[1] for url in requests if prefix in url}


def test_the_start_page_fetches_no_other_page_and_the_lobby_loads_when_shown(
    server: Any, new_page: Any
) -> None:
    page = new_page()
    asked: list[str] = []
    page.on("request", lambda request: asked.append(request.url))
    page.goto(server.url)
    expect(page.get_by_role("button", name="Play against the computer")).to_be_enabled()
    page.wait_for_load_state("networkidle")
    first = modules(asked)
    assert {"main.js", "pages.js", "pages/home.js", "routes.js", "site.json"} <= first
    assert not first & set(ON_DEMAND), sorted(first & set(ON_DEMAND))

    page.get_by_role("navigation", name="Pages").get_by_role("link", name="Lobby").click()
    expect(page.get_by_role("heading", name="Quick match")).to_be_visible()
    expect(page.get_by_role("heading", name=re.compile(r"^Tournaments"))).to_be_visible()
    lobby = modules(asked) - first
    assert {"pages/public.js", "publicplay.js", "lobby.js", "tournament.js"} <= lobby
    assert not lobby & {"pages/review.js", "pages/chouette.js", "review.js"}

    page.get_by_role("navigation", name="Pages").get_by_role("link", name="Leaderboard").click()
    expect(page.get_by_role("heading", name="Leaderboard")).to_be_visible()
    assert page.errors == []
