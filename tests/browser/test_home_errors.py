"""The start page's errors show where the person is: a name the server refuses, sent by
"Open a room" below the fold (1366x768), is told next to the name field, in sight."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

WIDTH, HEIGHT = 1366, 768
REFUSED = re.compile(r"^That did not work: a name may use letters, digits")


def in_sight(locator: Any) -> None:
    """The whole of ``locator`` is within the window (to a pixel's rounding)."""
    box = locator.bounding_box()
    assert box is not None
    assert -1 < box["y"] < HEIGHT + 1 - box["height"], box
    assert -1 < box["x"] < WIDTH + 1 - box["width"], box


def refused_name(server: Any, new_page: Any) -> tuple[Any, Any]:
    """The start page at 1366x768 with a name the server refuses typed: (page, field)."""
    page = new_page(width=WIDTH, height=HEIGHT)
    page.goto(server.url + "/")
    name = page.get_by_role("textbox", name="Your name")
    name.fill("<b>Ü</b>")
    return page, name


def told_at(page: Any, name: Any, text: re.Pattern[str]) -> None:
    """The error ``text`` is in sight and the field it is about has the focus."""
    error = page.get_by_role("alert").filter(has_text=text)
    expect(error).to_be_in_viewport()
    in_sight(error)
    expect(name).to_be_focused()


def test_a_refused_name_is_told_at_the_name_field(
    server: Any, new_page: Any, artifacts: Path
) -> None:
    page, name = refused_name(server, new_page)
    open_room = page.get_by_role("button", name="Open a room")
    open_room.scroll_into_view_if_needed()
    assert page.evaluate("window.scrollY") > 0  # below the fold: the page was scrolled
    open_room.click()

    expect(page.get_by_role("alert").filter(has_text=REFUSED)).to_have_count(1)
    # Said with the field: in sight, focused, marked invalid, described by the error.
    told_at(page, name, REFUSED)
    expect(name).to_have_attribute("aria-invalid", "true")
    expect(name).to_have_accessible_description(REFUSED)
    in_sight(name)
    in_sight(page.get_by_text("Your name", exact=True))
    expect(page).to_have_url(server.url + "/")
    page.screenshot(path=str(artifacts / "home-refused-name.png"))

    # A good name then opens the room.
    name.fill("Ann")
    open_room.click()
    expect(page).to_have_url(re.compile(r"/r/[^/]+$"))
    assert not page.errors


def test_a_refused_name_for_a_verified_game_is_told_at_the_name_field(
    server: Any, new_page: Any
) -> None:
    page, name = refused_name(server, new_page)
    page.mouse.wheel(0, 2000)  # read on, away from the form
    page.get_by_role("button", name="Play a verified game on the server").click()
    told_at(page, name, REFUSED)
    expect(name).to_have_accessible_description(REFUSED)


def test_a_refused_name_for_a_chouette_is_told_at_the_name_field(
    server: Any, new_page: Any
) -> None:
    page, name = refused_name(server, new_page)
    page.get_by_role("combobox", name="Players").select_option("3")
    page.get_by_role("button", name="Open a room").click()
    told_at(page, name, re.compile(r"^That did not work"))
    expect(name).to_have_attribute("aria-invalid", "true")
