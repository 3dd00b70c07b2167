"""Each offered level's character (docs/computer-players.md, "The levels"), held by
what the levels decide in the same positions, not by their settings alone."""

from __future__ import annotations

import random
from collections.abc import Iterator

from ginrummy.bots import make_bot
from ginrummy.bots.expert import EXPERT
from ginrummy.bots.heuristic import BEGINNER, CASUAL, STRONG
from ginrummy.engine import ActionKind, Phase, SeatView, view_for_seat

from .helpers import positions

TAKES = (ActionKind.TAKE, ActionKind.DRAW_DISCARD)


def views() -> Iterator[SeatView]:
    """The decisions of whole matches between different levels."""
    for seed, level in ((1, "strong"), (2, "casual"), (3, "expert"), (4, "beginner")):
        for match in positions(seed, level):
            seat = match.turn
            assert seat is not None
            yield view_for_seat(match, seat)


def test_no_level_takes_the_upcard_to_make_its_hand_worse() -> None:
    # A negative stock gain would take an upcard that leaves the hand worse than now;
    # two such players could pass the same cards back and forth for ever (the round
    # has no move limit).
    for style in (BEGINNER, CASUAL, STRONG, EXPERT):
        assert style.stock_gain >= 0.0


def test_beginner_casual_and_strong_knock_at_the_first_chance_and_expert_does_not() -> None:
    knocks = dict.fromkeys(("beginner", "casual", "strong", "expert"), 0)
    chances = 0
    for i, view in enumerate(views()):
        kinds = {a.kind for a in view.legal_actions}
        if ActionKind.KNOCK not in kinds or kinds & {ActionKind.GIN, ActionKind.BIG_GIN}:
            continue
        chances += 1
        for level in knocks:
            action = make_bot(level)(view, random.Random(i))
            knocks[level] += action.kind is ActionKind.KNOCK
    assert chances > 20
    assert knocks["beginner"] == knocks["casual"] == knocks["strong"] == chances
    assert knocks["expert"] < chances  # it plays on for gin or an undercut


def test_casual_takes_the_upcard_most_often() -> None:
    takes = dict.fromkeys(("beginner", "casual", "strong", "expert"), 0)
    offers = 0
    for i, view in enumerate(views()):
        if view.table.round_phase not in (Phase.FIRST_UPCARD, Phase.DRAW):
            continue
        if not any(a.kind in TAKES for a in view.legal_actions):
            continue
        offers += 1
        for level in takes:
            takes[level] += make_bot(level)(view, random.Random(i)).kind in TAKES
    assert offers > 100
    others = max(takes["beginner"], takes["strong"], takes["expert"])
    assert takes["casual"] > 1.2 * others  # 297 of 620 offers against 235 at most


def test_beginner_throws_its_highest_loose_card_or_a_careless_one() -> None:
    """The beginner counts points only: when it discards with care, no other discard
    leaves less deadwood; about half of its discards are careless (a random card)."""
    from ginrummy.engine.melds import deadwood_of_mask

    bot = make_bot("beginner")
    best = careless = 0
    for i, view in enumerate(views()):
        if view.table.round_phase is not Phase.DISCARD:
            continue
        if any(a.kind is not ActionKind.DISCARD for a in view.legal_actions):
            continue
        hand = sum(c.bit for c in view.hand)
        left = {a: deadwood_of_mask(hand ^ a.card.bit) for a in view.legal_actions if a.card}
        action = bot(view, random.Random(i))
        if left[action] == min(left.values()):
            best += 1
        else:
            careless += 1
    assert best > 50 and careless > 20
    assert 0.25 < careless / (best + careless) < 0.5  # slips that hit the best card count as best
