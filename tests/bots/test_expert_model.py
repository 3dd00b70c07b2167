"""The expert's inference, sampled opponent hands and knock outlook."""

from __future__ import annotations

import random

from ginrummy.bots.evaluation import loose_cards
from ginrummy.bots.expert_model import Inference, holding_odds, knock_outlook, sample_hands
from ginrummy.bots.knowledge import Knowledge
from ginrummy.engine.cards import parse_cards, to_mask
from ginrummy.engine.melds import arrangement_of_mask

ALL = (1 << 52) - 1


def knowledge(hand: str, known: str = "", discarded: str = "", passed: str = "") -> Knowledge:
    """The opponent holds ``known`` and 10 cards in all; the pile is what it discarded."""
    own, opp = to_mask(parse_cards(hand)), to_mask(parse_cards(known))
    thrown, left = to_mask(parse_cards(discarded)), to_mask(parse_cards(passed))
    pile = thrown | left
    return Knowledge(
        hand=own,
        pile=pile,
        top=0,
        opp_known=opp,
        opp_discarded=thrown,
        opp_passed=left,
        opp_hidden=10 - opp.bit_count(),
        opp_stock_draws=8,
        unseen=ALL & ~own & ~pile & ~opp,
        stock_size=31 - 8 - pile.bit_count(),
    )


def index(card: str) -> int:
    return parse_cards(card)[0].index


def test_odds_follow_what_the_opponent_took_and_threw() -> None:
    know = knowledge("2c 3c 4c 9d 9h Ks Qs Jd 5h 6h", known="7s", discarded="Kh", passed="Jh")
    odds = holding_odds(know, Inference())
    assert odds[index("7s")] == 1.0 and odds[index("2c")] == 0.0
    # 6s and 8s meld with the 7s it took; Kd and Kc with the king it threw away.
    assert odds[index("8s")] > odds[index("4d")] > odds[index("Kd")]
    assert odds[index("Jc")] < odds[index("4d")]  # melds with the jack it passed on
    assert abs(sum(odds) - 10) < 0.5  # ten cards in the opponent's hand, in all
    plain = holding_odds(know, Inference(pick=1.0, discard=1.0, passed=1.0))
    assert plain[index("8s")] == plain[index("Kd")]


def test_sampled_hands_fit_the_view_and_follow_the_rng() -> None:
    know = knowledge("2c 3c 4c 9d 9h Ks Qs Jd 5h 6h", known="7s 7d", discarded="Kh")
    odds = holding_odds(know, Inference())
    hands = sample_hands(know, odds, 20, 2, random.Random(5))
    assert hands == sample_hands(know, odds, 20, 2, random.Random(5))
    assert len(set(hands)) > 10
    for hand in hands:
        assert hand.bit_count() == 10
        assert hand & know.opp_known == know.opp_known
        assert hand & ~(know.unseen | know.opp_known) == 0


def test_sampled_hands_improve_with_the_choice_they_had() -> None:
    know = knowledge("2c 3c 4c 9d 9h Ks Qs Jd 5h 6h")
    odds = holding_odds(know, Inference())

    def mean_deadwood(improve: int) -> float:
        hands = sample_hands(know, odds, 200, improve, random.Random(1))
        return sum(loose_cards(h)[0] for h in hands) / len(hands)

    assert mean_deadwood(3) < mean_deadwood(0) - 5


def test_knock_outlook_counts_undercuts_and_points() -> None:
    melds = arrangement_of_mask(to_mask(parse_cards("4c 5c 6c 9d 9h 9s Kd Kh Ks 2d"))).meld_masks
    high = to_mask(parse_cards("Qc Qd Jh Js 8d 7h 5s 3h Ad 2h"))  # 8 points in sight
    gin = to_mask(parse_cards("Ac 2c 3c Qc Qd Qh Jh Js Jd Jc"))  # undercuts any knock
    outlook = knock_outlook(2, melds, [high, gin], bonus=25)
    assert outlook.undercut == 0.5
    assert outlook.points == ((loose_cards(high)[0] - 2) - (25 + 2)) / 2
    # The defender lays off: 3c and 7c on the run, 9c on the nines; Qd 8h 6s 5h stay.
    lays = to_mask(parse_cards("3c 7c 9c Qd 8h Ah Ad As 6s 5h"))
    assert knock_outlook(2, melds, [lays], bonus=25).points == (10 + 8 + 6 + 5) - 2
