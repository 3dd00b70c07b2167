"""Sampled worlds agree with everything the view shows and hide nothing it shows."""

from __future__ import annotations

import random

import pytest

from ginrummy.bots.worlds import BELIEF, Belief, WorldError, just_taken, sample_worlds
from ginrummy.engine import ActionKind, Phase, Rules, Seat, StockRule, view_for_seat
from ginrummy.engine.melds import deadwood_of_mask
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


FILTERED = Belief(improve_cap=3, particles=4, fit=3.0)  # as the master may draw them


@pytest.mark.parametrize("belief", [BELIEF, FILTERED], ids=["plain", "filtered"])
@pytest.mark.parametrize("seat", list(Seat))
@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_each_world_shows_the_seat_exactly_its_view(seat, variant, belief):
    rules, seed = VARIANTS[variant]
    record = first_rounds(bot_match(seed, two="expert", rules=rules), 3)
    for d in decisions(record, seat):
        if not isinstance(d, Decision):
            continue
        worlds = sample_worlds(d.view, 3, random.Random(1), belief)
        assert len(worlds) == 3
        for world in worlds:
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


def _melded_last_discards(belief: Belief) -> tuple[int, int]:
    """Over the worlds of many decisions right after an opponent's discard: in how many
    the discarded card would have sat in a meld of the opponent's hand, and of how many."""
    melded = total = 0
    for seed in (5, 6, 7):
        record = first_rounds(bot_match(seed, two="expert"), 3)
        for d in decisions(record, Seat.ONE):
            if not isinstance(d, Decision):
                continue
            theirs = [m for m in d.view.moves if m.seat is Seat.TWO]
            if not theirs or theirs[-1].kind is not ActionKind.DISCARD:
                continue
            thrown = theirs[-1].card
            assert thrown is not None
            for world in sample_worlds(d.view, 12, random.Random(3), belief):
                hand = world.round.hands[Seat.TWO]  # type: ignore[union-attr]
                kept = deadwood_of_mask(hand | thrown.bit)
                melded += kept < deadwood_of_mask(hand) + thrown.value
                total += 1
    return melded, total


def test_filtered_hands_explain_the_opponents_last_discard():
    """A player rarely throws a card that melds with its hand: the filtered belief keeps
    fewer such hands than the plain one, on the same decisions."""
    plain, n = _melded_last_discards(Belief(improve_cap=3))
    filtered, m = _melded_last_discards(FILTERED)
    assert n == m > 1000
    assert filtered < 0.7 * plain, (plain, filtered, n)


def test_a_belief_is_checked():
    for bad in (
        {"improve_cap": -1},
        {"particles": 0},
        {"fit": 0.0},
        {"knocked": 0.0},
        {"knocked": 2.0},
    ):
        with pytest.raises(ValueError):
            Belief(**bad)  # type: ignore[arg-type]
    record = first_rounds(bot_match(5), 1)
    view = next(d for d in decisions(record, Seat.ONE) if isinstance(d, Decision)).view
    with pytest.raises(ValueError, match="52"):
        sample_worlds(view, 14, random.Random(1), FILTERED)
    assert len(sample_worlds(view, 60, random.Random(1))) == 60  # no particles: no limit


def test_the_card_just_taken_is_read_from_the_pile():
    """A take shows no card; the belief reads it from the pile, and the opponent holds it."""
    taken = stock = 0
    for seed in (5, 6):
        record = first_rounds(bot_match(seed, two="expert"), 3)
        for d in decisions(record, Seat.ONE):
            if not isinstance(d, Decision):
                continue
            draws = [
                m
                for m in d.view.moves
                if m.seat is Seat.TWO
                and m.kind in (ActionKind.TAKE, ActionKind.DRAW_DISCARD, ActionKind.DRAW_STOCK)
            ]
            card = just_taken(d.view)
            if draws and draws[-1].kind is ActionKind.DRAW_STOCK:
                assert card is None
                stock += 1
            elif draws:
                assert card is not None and card in d.view.opponent_known
                taken += 1
    assert taken > 5 and stock > 5
