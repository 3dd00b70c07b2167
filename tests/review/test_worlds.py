"""Sampled worlds agree with everything the view shows and hide nothing it shows."""

from __future__ import annotations

import random

import pytest

from ginrummy.bots.worlds import WorldError, sample_worlds
from ginrummy.engine import Phase, Rules, Seat, StockRule, view_for_seat
from ginrummy.review import Decision, decisions

from .helpers import bot_match, first_rounds

VARIANTS = {  # rules and the seed of an expert-vs-expert match under them
    "standard": (Rules.preset("standard"), 5),
    "oklahoma": (Rules.preset("oklahoma"), 5),
    # 11-card deal (opening discard, no upcard), taking the last discard to knock (in
    # round 2 of seed 4), Big Gin: every phase a decision may be in. Expert against
    # expert: `strong` knocks at once and rarely lets a round reach the wall.
    "eleven": (
        Rules(eleven_card_deal=True, stock_rule=StockRule.LAST_DISCARD, big_gin_bonus=31),
        4,
    ),
}


@pytest.mark.parametrize("seat", list(Seat))
@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_each_world_shows_the_seat_exactly_its_view(seat, variant):
    rules, seed = VARIANTS[variant]
    record = first_rounds(bot_match(seed, two="expert", rules=rules), 3)
    for d in decisions(record, seat):
        if not isinstance(d, Decision):
            continue
        for world in sample_worlds(d.view, 3, random.Random(1)):
            assert view_for_seat(world, seat) == d.view
            rnd = world.round
            assert rnd is not None
            opponent = rnd.hands[seat.other]
            assert opponent.bit_count() == d.view.table.hand_sizes[seat.other]
            for card in d.view.opponent_known:
                assert opponent & card.bit


def test_the_eleven_card_variant_reaches_the_rare_phases():
    rules, seed = VARIANTS["eleven"]
    record = first_rounds(bot_match(seed, two="expert", rules=rules), 3)
    views = [d.view for seat in Seat for d in decisions(record, seat) if isinstance(d, Decision)]
    assert any(v.table.round_phase is Phase.LAST_DISCARD for v in views)
    assert any(v.table.round_phase is Phase.DISCARD and not v.moves for v in views)


def test_worlds_differ_in_the_hidden_cards_and_repeat_for_a_seed():
    record = first_rounds(bot_match(5), 1)
    view = next(d for d in decisions(record, Seat.ONE) if isinstance(d, Decision)).view
    a = sample_worlds(view, 4, random.Random(7))
    b = sample_worlds(view, 4, random.Random(7))
    assert [w.round.hands for w in a] == [w.round.hands for w in b]  # type: ignore[union-attr]
    assert len({w.round.hands for w in a}) > 1  # type: ignore[union-attr]
    assert len({w.round.stock for w in a}) > 1  # type: ignore[union-attr]


def test_a_view_without_a_decision_has_no_world():
    record = first_rounds(bot_match(5), 1)
    end = list(decisions(record, Seat.ONE))[-1]
    with pytest.raises(WorldError):
        sample_worlds(end.view, 1, random.Random(1))
