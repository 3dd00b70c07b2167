"""``is_legal`` (the fast check ``apply`` uses) agrees with ``legal_actions`` everywhere."""

from __future__ import annotations

import random

import pytest

from ginrummy.engine import (
    DECK,
    PRESETS,
    Action,
    ActionKind,
    IllegalActionError,
    MatchPhase,
    Rules,
    apply_match,
    deal,
    draw_first_dealer,
    match_legal_actions,
    new_match,
    shuffled_deck,
)
from ginrummy.engine.round import is_legal

ALL_ACTIONS = [
    Action(kind, card)
    for kind in ActionKind
    for card in (DECK if kind.takes_card else [None])  # type: ignore[list-item]
]

VARIANTS = [
    *(Rules.preset(p) for p in PRESETS),
    Rules.preset("standard", big_gin_bonus=31, stock_rule="last_discard"),
    Rules.preset("standard", eleven_card_deal=True, big_gin_bonus=50),
]


# Ids the same in every process (pytest-xdist's workers must collect the same tests).
@pytest.mark.parametrize("rules", VARIANTS, ids=[f"{r.name}-{i}" for i, r in enumerate(VARIANTS)])
def test_is_legal_matches_legal_actions_in_random_games(rules: Rules) -> None:
    rng = random.Random(11)
    states = 0
    for _ in range(4):
        match = new_match(rules, draw_first_dealer(rng))
        match = deal(match, shuffled_deck(rng))
        while match.phase is MatchPhase.ROUND:
            assert match.round is not None
            legal = set(match_legal_actions(match))
            for action in ALL_ACTIONS:
                assert is_legal(match.round, action) == (action in legal), (action, match.round)
            states += 1
            illegal = [a for a in ALL_ACTIONS if a not in legal]
            with pytest.raises(IllegalActionError):
                apply_match(match, rng.choice(illegal))
            match = apply_match(match, rng.choice(sorted(legal, key=str)))
    assert states > 50
