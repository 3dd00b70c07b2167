"""Computer players: legal, deterministic, and blind to hidden cards."""

from __future__ import annotations

import doctest
import random

import pytest

import ginrummy.bots
from ginrummy.bots import LEVELS, choose, make_bot
from ginrummy.engine import (
    ActionKind,
    MatchPhase,
    Rules,
    Seat,
    apply_match,
    deal,
    draw_first_dealer,
    new_match,
    parse_action,
    shuffled_deck,
    view_for_seat,
)

from .helpers import hidden_twin, positions


def play(a: str, b: str, seed: int, rules: Rules) -> list[str]:
    """One whole match; returns the actions in order (apply refuses illegal ones)."""
    deck_rng = random.Random(seed)
    bots = {Seat.ONE: make_bot(a), Seat.TWO: make_bot(b)}
    rngs = {s: random.Random(f"{seed}:{s.label}") for s in Seat}
    match = new_match(rules, draw_first_dealer(deck_rng))
    log: list[str] = []
    while not match.is_over:
        if match.phase is MatchPhase.DEAL:
            match = deal(match, shuffled_deck(deck_rng))
            continue
        seat = match.turn
        assert seat is not None
        view = view_for_seat(match, seat)
        action = bots[seat](view, rngs[seat])
        assert action in view.legal_actions
        log.append(str(action))
        match = apply_match(match, action)
    return log


# master searches (about 25 ms a decision): tests/bots/test_master.py plays it on fewer
# worlds for the same properties (legal everywhere, deterministic, blind to the hidden
# cards, the last-discard rule); whole matches of it here would take a minute.
QUICK_LEVELS = [k for k in LEVELS if k != "master"]


def test_levels_have_german_and_english_names() -> None:
    assert {"beginner", "casual", "strong", "expert", "random", "baseline"} <= set(LEVELS)
    for key, level in LEVELS.items():
        assert level.key == key
        assert level.names["de"] and level.names["en"]
    assert [k for k, lv in LEVELS.items() if lv.offered] == [
        "beginner",
        "casual",
        "strong",
        "expert",
        "master",
    ]


def test_unknown_level_is_refused_with_the_choices() -> None:
    with pytest.raises(KeyError, match="beginner"):
        make_bot("grandmaster")


@pytest.mark.parametrize("level", QUICK_LEVELS)
def test_level_plays_whole_matches_legally(level: str) -> None:
    for seed in range(2):
        assert play(level, "casual", seed, Rules())


@pytest.mark.parametrize("preset", ["oklahoma", "classic"])
def test_levels_play_other_presets(preset: str) -> None:
    play("strong", "beginner", 3, Rules.preset(preset))
    play("baseline", "random", 3, Rules.preset(preset))


def test_alternative_stock_rule_and_big_gin() -> None:
    rules = Rules.preset("standard", stock_rule="last_discard", big_gin_bonus=31)
    for level in QUICK_LEVELS:
        play(level, "beginner", 5, rules)


@pytest.mark.parametrize("level", QUICK_LEVELS)
def test_level_is_deterministic_for_a_seed(level: str) -> None:
    assert play(level, "strong", 7, Rules()) == play(level, "strong", 7, Rules())


@pytest.mark.parametrize("level", QUICK_LEVELS)
def test_hidden_cards_do_not_change_the_decision(level: str) -> None:
    """Two states that differ only in cards the seat cannot see (the opponent's hidden
    hand, the stock order) give the same view and the same decision for the same rng."""
    shuffle = random.Random(11)
    checked = 0
    for i, match in enumerate(positions(4, "strong")):
        seat = match.turn
        assert seat is not None
        twin = hidden_twin(match, seat, shuffle)
        assert twin.round is not None and match.round is not None
        assert twin.round.hands[seat.other] != match.round.hands[seat.other] or (
            twin.round.stock != match.round.stock
        )
        view, twin_view = view_for_seat(match, seat), view_for_seat(twin, seat)
        assert view == twin_view
        first = choose(level, view, random.Random(i))
        assert choose(level, twin_view, random.Random(i)) == first
        checked += 1
    assert checked > 20


def test_baseline_takes_only_to_complete_a_meld_and_knocks_at_once() -> None:
    bot = make_bot("baseline")
    seen = {"take": 0, "knock": 0}
    for match in positions(2, "baseline"):
        seat = match.turn
        assert seat is not None
        view = view_for_seat(match, seat)
        action = bot(view, random.Random(0))
        kinds = {a.kind for a in view.legal_actions}
        if ActionKind.KNOCK in kinds and ActionKind.GIN not in kinds:
            assert action.kind is ActionKind.KNOCK
            seen["knock"] += 1
        if ActionKind.GIN in kinds:
            assert action.kind is ActionKind.GIN
        if action.kind is ActionKind.DISCARD:
            assert action.card is not view.taken
        if action.kind in (ActionKind.TAKE, ActionKind.DRAW_DISCARD):
            seen["take"] += 1
    assert seen["knock"] > 0


def test_baseline_discards_the_highest_unmatched_card() -> None:
    from ginrummy.bots.simple import completes_meld
    from ginrummy.engine import parse_cards

    hand = parse_cards("5h 6h 7h 2c 3d Kc 9s Qd 4c 8s")
    mask = sum(c.bit for c in hand)
    assert completes_meld(mask, parse_cards("8h")[0])
    assert completes_meld(mask, parse_cards("4h")[0])
    assert not completes_meld(mask, parse_cards("Ks")[0])


def test_random_level_uses_its_rng() -> None:
    match = next(positions(1))
    seat = match.turn
    assert seat is not None
    view = view_for_seat(match, seat)
    picks = {choose("random", view, random.Random(s)) for s in range(20)}
    assert picks == set(view.legal_actions) == {parse_action("take"), parse_action("pass")}


def test_bots_doctests_pass() -> None:
    result = doctest.testmod(ginrummy.bots, optionflags=doctest.ELLIPSIS)
    assert result.attempted and not result.failed
