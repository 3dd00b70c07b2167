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


def test_a_refused_name_is_told_at_the_name_field(
    server: Any, new_page: Any, artifacts: Path
) -> None:
    page = new_page(width=WIDTH, height=HEIGHT)
    page.goto(server.url + "/")
    name = page.get_by_role("textbox", name="Your name")
    name.fill("<b>Ü</b>")
    open_room = page.get_by_role("button", name="Open a room")
    open_room.scroll_into_view_if_needed()
    assert page.evaluate("window.scrollY") > 0  # below the fold: the page was scrolled
    open_room.click()

    error = page.get_by_role("alert").filter(has_text=REFUSED)
    expect(error).to_have_count(1)
    expect(error).to_be_in_viewport()
    in_sight(error)
    # Said with the field: marked invalid, described by the error, focused.
    expect(name).to_have_attribute("aria-invalid", "true")
    expect(name).to_have_accessible_description(REFUSED)
    expect(name).to_be_focused()
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
    page = new_page(width=WIDTH, height=HEIGHT)
    page.goto(server.url + "/")
    name = page.get_by_role("textbox", name="Your name")
    name.fill("<b>Ü</b>")
    page.mouse.wheel(0, 2000)  # read on, away from the form
    page.get_by_role("button", name="Play a verified game on the server").click()
    error = page.get_by_role("alert").filter(has_text=REFUSED)
    expect(error).to_be_in_viewport()
    in_sight(error)
    expect(name).to_have_accessible_description(REFUSED)
    expect(name).to_be_focused()


def test_a_refused_name_for_a_chouette_is_told_at_the_name_field(
    server: Any, new_page: Any
) -> None:
    page = new_page(width=WIDTH, height=HEIGHT)
    page.goto(server.url + "/")
    name = page.get_by_role("textbox", name="Your name")
    name.fill("<b>Ü</b>")
    page.get_by_role("combobox", name="Players").select_option("3")
    page.get_by_role("button", name="Open a room").click()
    error = page.get_by_role("alert").filter(has_text=re.compile(r"^That did not work"))
    expect(error).to_be_in_viewport()
    in_sight(error)
    expect(name).to_have_attribute("aria-invalid", "true")
    expect(name).to_be_focused()
