"""Reordering the own hand by keyboard (Alt + arrow), by dragging and by the sort buttons,
as a person does."""

from __future__ import annotations

import random
import time
from typing import Any

import pytest
from playwright.sync_api import expect

from .helpers import RANK_WORDS, decide, hand_cards
from .public import my_turn
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
    my_turn(page)  # the person decides: no round's result (modal) lies over the hand
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


SUITS = ["clubs", "diamonds", "spades", "hearts"]  # black and red alternating


def _rank_of(name: str) -> int:
    # "K♠, King of spades": the face's label, then the card in words.
    word = name.split(", ", 1)[-1].split(maxsplit=1)[0]
    return RANK_WORDS.get(word) or int(word)


def _by_suit(name: str) -> tuple[int, int]:
    return SUITS.index(name.rsplit(maxsplit=1)[-1]), _rank_of(name)


def _by_rank(name: str) -> tuple[int, int]:
    return _rank_of(name), SUITS.index(name.rsplit(maxsplit=1)[-1])


def test_sort_the_hand_by_suit_and_by_rank_and_keep_that_order(server: Any, new_page: Any) -> None:
    page = new_page()
    start_solo(page, server.url)
    my_turn(page)  # the person decides: no round's result (modal) lies over the hand
    hand = page.get_by_role("group", name="Your hand")
    expect(hand.get_by_role("button")).to_have_count(10)
    before = hand_cards(page)
    page.get_by_role("button", name="Sort by rank").click()
    _wait_for_order(page, sorted(before, key=_by_rank))
    # By keyboard, as every button.
    page.get_by_role("button", name="Sort by suit").focus()
    page.keyboard.press("Enter")
    by_suit = sorted(before, key=_by_suit)
    _wait_for_order(page, by_suit)
    # The sorted order is kept like a dragged one: through a move, and back on request.
    decide(page, random.Random(2), knock=False)
    after = hand_cards(page)
    assert [c for c in after if c in by_suit] == [c for c in by_suit if c in after]
    page.get_by_role("button", name="Sort automatically").click()
    expect(page.get_by_role("button", name="Sort automatically")).to_have_count(0)
    assert not page.errors
