"""The learned discard (bots/learned.py), master's base: the expert's candidates, the
shipped weights, legal and blind to hidden cards, and the expert's own play elsewhere."""

from __future__ import annotations

import json
import random
from dataclasses import replace
from pathlib import Path

import pytest

from ginrummy.bots import LEVELS, PortableRandom
from ginrummy.bots.expert import EXPERT, PLAN, Expert
from ginrummy.bots.knowledge import read
from ginrummy.bots.learned import (
    CANDIDATES,
    FEATURES,
    SPREAD,
    WEIGHTS,
    Learned,
    discard_candidates,
    discard_features,
    learned_value,
)
from ginrummy.bots.master import Master
from ginrummy.engine import ActionKind, Phase, Rules, SeatView, view_for_seat
from ginrummy.engine.melds import deadwood_of_mask

from .helpers import hidden_twin, positions

ROOT = Path(__file__).resolve().parents[2]
LEARNED = Learned()
EXPERT_PLAYER = Expert()


def discards(seed: int, level: str = "expert", rules: Rules | None = None) -> list[SeatView]:
    """The views of real play where a plain discard is a choice."""
    out = []
    for match in positions(seed, level, rules):
        seat = match.turn
        assert seat is not None
        view = view_for_seat(match, seat)
        if view.table.round_phase is Phase.DISCARD:
            out.append(view)
    return out


def test_the_weights_are_the_fitted_ones_of_the_bench() -> None:
    shipped = json.loads((ROOT / "bench" / "learned_q.json").read_text())
    assert tuple(shipped["names"]) == FEATURES
    assert tuple(shipped["weights"]) == WEIGHTS


def test_master_starts_from_the_learned_discard() -> None:
    master = LEVELS["master"].choose
    assert isinstance(master, Master) and isinstance(master.expert, Learned)
    assert master.expert.weights == WEIGHTS


def test_candidates_are_the_experts_best_within_the_spread_its_choice_first() -> None:
    seen = 0
    for seed in range(3):
        for i, view in enumerate(discards(seed)):
            know = read(view)
            odds = EXPERT_PLAYER.odds(know)
            cards = discard_candidates(EXPERT_PLAYER, view, know, odds)
            choice = EXPERT_PLAYER(view, PortableRandom(i))
            if choice.kind is not ActionKind.DISCARD:
                continue
            seen += 1
            assert cards[0] == choice.card
            assert 1 <= len(cards) <= CANDIDATES and len(set(cards)) == len(cards)
            scored = EXPERT_PLAYER.scores(know.hand, know, odds)
            assert all(scored[c.index][1] <= scored[cards[0].index][1] + SPREAD for c in cards)
            assert view.taken not in cards
    assert seen > 50


def test_features_are_the_hands_quantities() -> None:
    for view in discards(4)[:40]:
        know = read(view)
        odds = EXPERT_PLAYER.odds(know)
        assert odds is not None
        cards = discard_candidates(EXPERT_PLAYER, view, know, odds)
        late = 1.0 - min(know.stock_size, 31) / 31
        for card, row in zip(cards, discard_features(know, odds, cards), strict=True):
            named = dict(zip(FEATURES, row, strict=True))
            left = know.hand & ~card.bit
            assert named["deadwood"] == deadwood_of_mask(left)
            assert named["value"] == card.value
            assert named["value*late"] == card.value * late
            assert named["knockable"] == float(named["deadwood"] <= 10)
            assert named["deadwood<=4"] == float(named["deadwood"] <= 4)
            assert named["danger*wall"] == (named["danger"] if know.stock_size <= 5 else 0.0)
            assert named["outs"] >= 0.0


def test_the_learned_player_is_the_expert_outside_close_discards() -> None:
    differ = same_discards = 0
    for seed in range(4):
        for k, match in enumerate(positions(seed, "expert")):
            seat = match.turn
            assert seat is not None
            view = view_for_seat(match, seat)
            mine = LEARNED(view, PortableRandom(k))
            theirs = EXPERT_PLAYER(view, PortableRandom(k))
            assert mine in view.legal_actions
            if theirs.kind is not ActionKind.DISCARD:
                assert mine == theirs  # draws, knocks and gins: the expert's
            elif mine != theirs:
                differ += 1
                assert mine.kind is ActionKind.DISCARD and mine.card != view.taken
            else:
                same_discards += 1
    assert differ > 0 and same_discards > differ  # it changes some discards, not most


def test_the_expert_score_as_weights_discards_as_the_expert() -> None:
    # The expert's own score in these features (its weights negated: higher is better)
    # picks the expert's card, so the features are what the expert scores.
    late = EXPERT.potential - (EXPERT.late_potential or 0.0)
    own = dict.fromkeys(FEATURES, 0.0)
    own.update(
        {
            "deadwood": -1.0,
            "outs": EXPERT.potential,
            "danger": -EXPERT.danger,
            "outs*late": -late,
            "danger*wall": -PLAN.wall_danger,
        }
    )
    player = Learned(tuple(own[name] for name in FEATURES))
    for seed in range(3):
        for k, view in enumerate(discards(seed)):
            assert player(view, PortableRandom(k)) == EXPERT_PLAYER(view, PortableRandom(k))


def test_the_discard_reads_only_the_view() -> None:
    # The same view with the hidden cards dealt differently: the same discard.
    rng = random.Random(7)
    checked = 0
    for k, match in enumerate(positions(5, "expert")):
        seat = match.turn
        assert seat is not None
        if match.round is None or match.round.phase is not Phase.DISCARD:
            continue
        twin = hidden_twin(match, seat, rng)
        a = LEARNED(view_for_seat(match, seat), PortableRandom(k))
        b = LEARNED(view_for_seat(twin, seat), PortableRandom(k))
        assert a == b
        checked += 1
    assert checked > 20


def test_a_value_is_the_plain_sum_and_bad_weights_are_refused() -> None:
    assert learned_value((1.0, -2.0), (3.0, 0.5)) == 2.0
    with pytest.raises(ValueError):
        learned_value((1.0,), (1.0, 2.0))
    with pytest.raises(ValueError, match="a discard needs 12 weights, not 2"):
        Learned((1.0, 2.0))
    with pytest.raises(ValueError, match="needs the expert's inference"):
        Learned(plan=replace(PLAN, inference=None))
