"""The showdown after a knock and the round's points (docs/rules.md §3.4, §3.5, §7)."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from ginrummy.engine import (
    HandSizeError,
    NotAKnockError,
    Rules,
    ShowdownKind,
    Side,
    parse_cards,
    settle,
)
from ginrummy.engine.cards import to_mask
from ginrummy.engine.showdown import defender_reply

from . import oracle
from .helpers import texts
from .strategies import meld_dense_hand

STANDARD = Rules()


def test_example_7_1_undercut_knock_7_defender_5_scores_27():
    # knocker  2c 3c 4c | 5d 5h 5s | 9h Th Jh | 7s            -> K = 7
    # defender 6d 7d 8d | Kc Kd Kh | 8h Qh laid off on 9h-Jh | Ad 4s -> D = 5
    s = settle(
        parse_cards("2c 3c 4c 5d 5h 5s 9h Th Jh 7s"),
        parse_cards("6d 7d 8d Kc Kd Kh 8h Qh Ad 4s"),
        STANDARD,
    )
    assert s.kind is ShowdownKind.UNDERCUT
    assert (s.knocker_deadwood, s.defender_deadwood) == (7, 5)
    assert s.winner is Side.DEFENDER
    assert (s.base_points, s.bonus, s.multiplier, s.points) == (2, 25, 1, 27)
    assert texts([lo.card for lo in s.layoffs]) == ["8h", "Qh"]
    assert texts(s.defender_deadwood_cards) == ["4s", "Ad"]


def test_example_7_2_william_hill_knocker_scores_36():
    # knocker  4c 4d 4h | 7s 8s 9s | Ac As 6c 2d                 -> K = 10
    # defender Kc Qd Jh 7c Ad Ah 2c 2h 3d, 6s laid off on 7s-9s  -> D = 46
    s = settle(
        parse_cards("4c 4d 4h 7s 8s 9s Ac As 6c 2d"),
        parse_cards("Kc Qd Jh 7c Ad Ah 2c 2h 3d 6s"),
        STANDARD,
    )
    assert s.kind is ShowdownKind.KNOCK
    assert (s.knocker_deadwood, s.defender_deadwood, s.points) == (10, 46, 36)
    assert s.winner is Side.KNOCKER
    assert [(str(lo.card), str(lo.onto)) for lo in s.layoffs] == [("6s", "7s 8s 9s")]
    assert sorted(str(m) for m in s.knocker.melds) == ["4c 4d 4h", "7s 8s 9s"]


def test_example_7_3_layoff_chain_at_both_ends_of_a_run():
    # knocker  2h 3h 4h | Tc Td Ts | Jc Jd Js | 2c          -> K = 2
    # defender Ah 5h 6h laid off on 2h-4h (both ends, 5h then 6h) | 9c 9d Kh Qs 8c 7d
    s = settle(
        parse_cards("2h 3h 4h Tc Td Ts Jc Jd Js 2c"),
        parse_cards("Ah 5h 6h 9c 9d Kh Qs 8c 7d 3s"),
        STANDARD,
    )
    assert texts([lo.card for lo in s.layoffs]) == ["5h", "6h", "Ah"]
    assert {str(lo.onto) for lo in s.layoffs} == {"2h 3h 4h"}
    assert s.defender_deadwood == 9 + 9 + 10 + 10 + 8 + 7 + 3
    assert (s.kind, s.points) == (ShowdownKind.KNOCK, 56 - 2)


def test_example_7_5_defender_may_not_take_a_card_out_of_a_knocker_meld():
    # knocker  Qc Qd Qh Qs | 2c 3c 4c 5c | As 2s            -> K = 3 (a set of three: 13)
    # defender Kd Jd would make Jd-Qd-Kd with the Qd, which stays in the knocker's set
    #          3h 3s 3d | Kd Jd 5s 9s Kc 8s 9c              -> D = 61
    s = settle(
        parse_cards("Qc Qd Qh Qs 2c 3c 4c 5c As 2s"),
        parse_cards("Kd Jd 5s 9s 3h 3s 3d Kc 8s 9c"),
        STANDARD,
    )
    assert sorted(str(m) for m in s.knocker.melds) == ["2c 3c 4c 5c", "Qc Qd Qh Qs"]
    assert s.layoffs == ()
    assert texts(s.defender_deadwood_cards) == texts(parse_cards("Kd Jd 5s 9s Kc 8s 9c"))
    assert (s.kind, s.knocker_deadwood, s.defender_deadwood, s.points) == (
        ShowdownKind.KNOCK,
        3,
        61,
        58,
    )


def test_undercut_on_a_tie():
    # knocker  2c 3c 4c | 5d 6d 7d | 8h 9h Th | 4s   -> K = 4
    # defender Kc Kd Kh | Qc Qd Qh | Js Jd Jc | 4h   -> D = 4: D <= K, the defender wins 25
    s = settle(
        parse_cards("2c 3c 4c 5d 6d 7d 8h 9h Th 4s"),
        parse_cards("Kc Kd Kh Qc Qd Qh Js Jd Jc 4h"),
        STANDARD,
    )
    assert (s.kind, s.winner) == (ShowdownKind.UNDERCUT, Side.DEFENDER)
    assert (s.knocker_deadwood, s.defender_deadwood, s.points) == (4, 4, 25)
    bonus20 = settle(
        parse_cards("2c 3c 4c 5d 6d 7d 8h 9h Th 4s"),
        parse_cards("Kc Kd Kh Qc Qd Qh Js Jd Jc 4h"),
        Rules.preset("standard", undercut_bonus=10),
    )
    assert bonus20.points == 10


def test_no_layoffs_after_gin():
    # knocker  2h 3h 4h | Tc Td Ts | Jc Jd Js Jh         -> gin
    # defender Ah 5h would fit the run, Kc ... stay deadwood: 1+5+10+9+8+7+6+5+4+3 = 58
    s = settle(
        parse_cards("2h 3h 4h Tc Td Ts Jc Jd Js Jh"),
        parse_cards("Ah 5h Kc 9d 8s 7c 6d 5s 4d 3s"),
        STANDARD,
    )
    assert s.kind is ShowdownKind.GIN
    assert s.layoffs == ()
    assert (s.knocker_deadwood, s.defender_deadwood) == (0, 58)
    assert (s.base_points, s.bonus, s.points) == (58, 25, 83)


def test_a_fourth_card_is_laid_off_on_a_set():
    # knocker  9c 9d 9h | 2c 3c 4c | Kd Kh Ks | As        -> K = 1
    # defender 9s laid off on the nines | Qd Jh 8s 7h 6h 2d 3d 5s Tc -> D = 61
    s = settle(
        parse_cards("9c 9d 9h 2c 3c 4c Kd Kh Ks As"),
        parse_cards("9s Qd Jh 8s 7h 6h 2d 3d 5s Tc"),
        STANDARD,
    )
    assert [(str(lo.card), str(lo.onto)) for lo in s.layoffs] == [("9s", "9c 9d 9h")]
    assert (s.knocker_deadwood, s.defender_deadwood, s.points) == (1, 61, 60)


def test_the_defender_reply_alone_matches_the_showdown():
    # The example of §7.1 again: against the knocker's melds the defender melds
    # 6d 7d 8d and the kings, lays off 8h and Qh on 9h-Jh, and keeps Ad 4s: D = 5.
    s = settle(
        parse_cards("2c 3c 4c 5d 5h 5s 9h Th Jh 7s"),
        parse_cards("6d 7d 8d Kc Kd Kh 8h Qh Ad 4s"),
        STANDARD,
    )
    arrangement, lays, deadwood = defender_reply(
        to_mask(parse_cards("6d 7d 8d Kc Kd Kh 8h Qh Ad 4s")), s.knocker.meld_masks
    )
    assert deadwood == s.defender_deadwood == 5
    assert arrangement == s.defender
    assert [bit for bit, _ in lays] == [lo.card.bit for lo in s.layoffs]


def test_the_knocker_leaves_a_run_unmelded_when_that_blocks_layoffs():
    # knocker  Ac 2c 3c | 4d 5d 6d | 7h 7c 7s | 2s
    # defender 4c 5c 3d 7d | Kc Kd Kh | Qs Qh Qd
    #   all melded:       K = 2, the defender lays off 4c 5c on Ac-3c and 3d 7d on 4d-6d,
    #                     D = 0: undercut, the knocker loses 2 + 25
    #   Ac 2c 3c unmatched: K = 8, only 3d 7d go on 4d-6d, D = 9: the knocker wins 1
    s = settle(
        parse_cards("Ac 2c 3c 4d 5d 6d 7h 7c 7s 2s"),
        parse_cards("4c 5c Kc Kd Kh Qs Qh Qd 3d 7d"),
        STANDARD,
    )
    assert (s.kind, s.winner) == (ShowdownKind.KNOCK, Side.KNOCKER)
    assert (s.knocker_deadwood, s.defender_deadwood, s.points) == (8, 9, 1)
    assert texts(s.knocker.unmatched) == ["2c", "2s", "3c", "Ac"]
    assert texts([lo.card for lo in s.layoffs]) == ["3d", "7d"]


def test_oklahoma_doubling_doubles_points_and_bonus():
    # knocker  2c 3c 4c | 5d 6d 7d | 8h 9h Th | 4s   -> K = 4
    # defender Kc Kd Kh | Qc Qd Qh | Js Jd Jc | 3h   -> D = 3: undercut 1 + 25, doubled 52
    rules = Rules.preset("oklahoma")
    s = settle(
        parse_cards("2c 3c 4c 5d 6d 7d 8h 9h Th 4s"),
        parse_cards("Kc Kd Kh Qc Qd Qh Js Jd Jc 3h"),
        rules,
        knock_limit=5,
        doubled=True,
    )
    assert (s.kind, s.base_points, s.bonus, s.multiplier, s.points) == (
        ShowdownKind.UNDERCUT,
        1,
        25,
        2,
        52,
    )
    with pytest.raises(NotAKnockError, match="above the knock limit 3"):
        settle(
            parse_cards("2c 3c 4c 5d 6d 7d 8h 9h Th 4s"),
            parse_cards("Kc Kd Kh Qc Qd Qh Js Jd Jc 3h"),
            rules,
            knock_limit=3,
        )
    with pytest.raises(NotAKnockError, match=r"\(gin only\)"):
        settle(
            parse_cards("2c 3c 4c 5d 6d 7d 8h 9h Th As"),
            parse_cards("Kc Kd Kh Qc Qd Qh Js Jd Jc 3h"),
            rules,
            knock_limit=0,
        )


def test_big_gin_scores_the_big_gin_bonus():
    # knocker  2c 3c 4c 5c | 6d 7d 8d | Th Td Ts Tc  (11 cards, all melded)
    # defender Kh Qh Js 9h 9s 8c 2h 3h 4h As -> own run 2h-4h, D = 10+10+10+9+9+8+1 = 57
    rules = Rules.preset("standard", big_gin_bonus=31)
    s = settle(
        parse_cards("2c 3c 4c 5c 6d 7d 8d Th Td Ts Tc"),
        parse_cards("Kh Qh Js 9h 9s 8c 2h 3h 4h As"),
        rules,
    )
    assert (s.kind, s.defender_deadwood, s.bonus, s.points) == (ShowdownKind.BIG_GIN, 57, 31, 88)
    with pytest.raises(NotAKnockError, match="all 11 cards melded"):
        settle(
            parse_cards("2c 3c 4c 5c 6d 7d 8d Th Td Ts Kc"),
            parse_cards("Kh Qh Js 9h 9s 8c 2h 3h 4h As"),
            rules,
        )


def test_hand_sizes_are_checked():
    ten = parse_cards("2c 3c 4c 5d 6d 7d 8h 9h Th 4s")
    other = parse_cards("Kc Kd Kh Qc Qd Qh Js Jd Jc 3h")
    with pytest.raises(HandSizeError, match="Big Gin with 11 is off"):
        settle((*ten, parse_cards("As")[0]), other, STANDARD)
    with pytest.raises(HandSizeError, match="got 9"):
        settle(ten[:9], other, STANDARD)
    with pytest.raises(HandSizeError, match="defender must hold 10 cards, got 9"):
        settle(ten, other[:9], STANDARD)


# --- settle against the brute-force oracle of §3.4 ------------------------------------


@st.composite
def knock_situation(draw: st.DrawFn):
    size = draw(st.sampled_from((10, 10, 10, 11)))
    knocker = draw(meld_dense_hand(size, max_single_rank=draw(st.sampled_from((3, 5, 13)))))
    k_dw = oracle.min_deadwood(frozenset(knocker))
    if size == 11:
        assume(k_dw == 0)
    limit = draw(st.sampled_from((10, 10, 10, 0, 3, 5, 7, 9)))
    assume(k_dw <= limit)
    defender = draw(meld_dense_hand(10, exclude=frozenset(knocker), near=knocker))
    return knocker, defender, limit


@settings(
    max_examples=70,
    deadline=None,
    suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow],
)
@given(
    knock_situation(),
    st.sampled_from((0, 10, 25)),
    st.sampled_from((20, 25)),
    st.booleans(),
)
def test_settle_equals_the_brute_force_oracle(situation, undercut_bonus, gin_bonus, doubled):
    knocker, defender, limit = situation
    rules = Rules.preset(
        "standard", undercut_bonus=undercut_bonus, gin_bonus=gin_bonus, big_gin_bonus=50
    )
    s = settle(knocker, defender, rules, knock_limit=limit, doubled=doubled)
    want = oracle.settle_oracle(
        knocker,
        defender,
        knock_limit=limit,
        gin_bonus=gin_bonus,
        undercut_bonus=undercut_bonus,
        big_gin_bonus=50,
        doubled=doubled,
    )
    assert want is not None
    assert (s.kind.value, s.knocker_deadwood, s.defender_deadwood, s.points, s.winner.value) == (
        want.kind,
        want.knocker_deadwood,
        want.defender_deadwood,
        want.points,
        want.winner,
    )
    # the breakdown is consistent with itself
    assert s.knocker.deadwood == s.knocker_deadwood <= limit
    laid = [lo.card for lo in s.layoffs]
    assert s.defender_deadwood == oracle.total(s.defender_deadwood_cards)
    assert set(laid) <= set(s.defender.unmatched)
    for meld in s.knocker.melds:
        extended = [*meld.cards, *(lo.card for lo in s.layoffs if lo.onto == meld)]
        assert oracle.valid_meld(extended)
    assert s.points == (s.base_points + s.bonus) * s.multiplier


@settings(max_examples=25, deadline=None)
@given(meld_dense_hand(10, max_single_rank=13), st.data())
def test_settle_refuses_exactly_the_hands_above_the_limit(knocker, data):
    defender = data.draw(meld_dense_hand(10, exclude=frozenset(knocker)))
    k_dw = oracle.min_deadwood(frozenset(knocker))
    if k_dw > 10:
        with pytest.raises(NotAKnockError, match=f"deadwood {k_dw} is above the knock limit 10"):
            settle(knocker, defender, STANDARD)
    else:
        assert settle(knocker, defender, STANDARD).knocker_deadwood <= 10
