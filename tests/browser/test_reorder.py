"""Reordering the own hand by keyboard (Alt + arrow) and by dragging, as a person does."""

from __future__ import annotations

import time
from typing import Any

import pytest
from playwright.sync_api import expect

from .helpers import hand_cards
from .test_solo import start_solo

pytestmark = pytest.mark.browser


def _wait_for_order(page: Any, expected: list[str], timeout: float = 5.0) -> None:
    deadline = time.monotonic() + timeout
    while True:
        now = hand_cards(page)
        if now == expected:
            return
        assert time.monotonic() < deadline, f"hand order {now}, expected {expected}"
        time.sleep(0.05)


def test_reorder_the_hand_by_keyboard_and_by_drag(server: Any, new_page: Any) -> None:
    page = new_page()
    start_solo(page, server.url)
    hand = page.get_by_role("group", name="Your hand")
    expect(hand.get_by_role("button")).to_have_count(10)
    before = hand_cards(page)

    # Keyboard: Alt + Right moves the focused card one place to the right.
    hand.get_by_role("button", name=before[0], exact=True).focus()
    page.keyboard.press("Alt+ArrowRight")
    moved = [before[1], before[0], *before[2:]]
    _wait_for_order(page, moved)
    page.keyboard.press("Alt+ArrowLeft")
    _wait_for_order(page, before)

    # Drag: the last card dropped on the left half of the first card goes first.
    last = hand.get_by_role("button", name=before[-1], exact=True)
    first = hand.get_by_role("button", name=before[0], exact=True)
    box = first.bounding_box()
    assert box is not None
    last.drag_to(first, target_position={"x": 4, "y": box["height"] / 2})
    _wait_for_order(page, [before[-1], *before[:-1]])
    # Reordering changes nothing in the game: still ten cards, no move was sent.
    expect(hand.get_by_role("button")).to_have_count(10)
    assert not page.errors
