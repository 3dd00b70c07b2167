"""Hand judgement over card masks agrees with the engine's meld search."""

from __future__ import annotations

import random

from ginrummy.bots.evaluation import discard_scores, hand_score, loose_cards, potential
from ginrummy.engine import parse_cards
from ginrummy.engine.cards import to_mask
from ginrummy.engine.melds import arrangement_of_mask


def hands(n: int, seed: int) -> list[int]:
    """Random 10- and 11-card masks, every other one drawn from five ranks (many sets)."""
    rng = random.Random(seed)
    out = []
    for i in range(n):
        ranks = rng.sample(range(13), 5)
        pool = [s * 13 + r for r in ranks for s in range(4)] if i % 2 else list(range(52))
        out.append(sum(1 << c for c in rng.sample(pool, rng.choice((10, 11)))))
    return out


def test_loose_cards_is_the_best_arrangement() -> None:
    for mask in hands(3000, 1):
        arrangement = arrangement_of_mask(mask)
        assert loose_cards(mask) == (arrangement.deadwood, arrangement.unmatched_mask)


def test_discard_scores_match_scoring_each_discard_alone() -> None:
    rng = random.Random(2)
    for mask in hands(1500, 3):
        unseen = [i for i in range(52) if not mask >> i & 1]
        live = sum(1 << c for c in rng.sample(unseen, 25))
        weight = rng.choice((0.0, 0.6, 1.0))
        scored = discard_scores(mask, live, weight)
        assert set(scored) == {i for i in range(52) if mask >> i & 1}
        for i, (deadwood, score) in scored.items():
            rest = mask ^ 1 << i
            assert deadwood == arrangement_of_mask(rest).deadwood
            assert score == hand_score(rest, live, weight)


def test_potential_counts_each_out_once_per_sequence_or_gap_it_completes():
    def mask(text: str) -> int:
        return to_mask(parse_cards(text))

    # 2h 3h wants Ah and 4h, 5h 6h wants 4h and 7h, the gap 3h_5h wants 4h again
    assert potential(mask("2h 3h 5h 6h"), mask("Ah 4h 7h 9c")) == 1 + 3 + 1
    # two loose kings: each live king once, however many kings are loose
    assert potential(mask("Kc Kd"), mask("Kh Ks Qs")) == 2
    assert potential(mask("Kc Kd Kh"), mask("Ks")) == 1
    assert potential(mask("Kc 9d"), mask("Kh Ks Td")) == 0
