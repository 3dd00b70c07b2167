"""Meld maths: arrangements, deadwood, best discards (docs/rules.md §2), against an oracle."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from ginrummy.engine import (
    DuplicateCardError,
    Meld,
    MeldKind,
    best_arrangement,
    best_discards,
    is_meld,
    parse_cards,
)
from ginrummy.engine.cards import Suit, to_mask
from ginrummy.engine.melds import (
    all_arrangements,
    card_at,
    deadwood_of_mask,
    discard_deadwoods,
    hand_deadwood,
    meld_choices,
    meld_of,
    melds_in_mask,
    value_of_mask,
)

from . import oracle
from .helpers import texts
from .strategies import any_hand, meld_dense_hand, random_hand

PROPS = settings(max_examples=100, deadline=None)


def test_a_2_3_is_a_run_but_q_k_a_and_k_a_2_are_not():
    # docs/rules.md §7.4: ace is low only.
    assert is_meld(parse_cards("Ah 2h 3h"))
    assert not is_meld(parse_cards("Qh Kh Ah"))
    assert not is_meld(parse_cards("Kh Ah 2h"))
    arrangement = best_arrangement(parse_cards("Qh Kh Ah 5c 9d"))
    assert arrangement.melds == ()
    assert arrangement.deadwood == 10 + 10 + 1 + 5 + 9


def test_is_meld_accepts_sets_of_three_or_four_and_long_runs():
    assert is_meld(parse_cards("7c 7d 7h"))
    assert is_meld(parse_cards("7c 7d 7h 7s"))
    assert is_meld(parse_cards("9s Ts Js Qs Ks"))
    assert not is_meld(parse_cards("7c 7d"))
    assert not is_meld(parse_cards("7c 8d 9h"))  # mixed suits
    assert not is_meld(parse_cards("7c 8c Tc"))  # gap
    assert not is_meld(parse_cards("7c 7d 8c"))
    c7 = parse_cards("7c")[0]
    assert not is_meld([c7, c7, c7])  # a card belongs to at most one place


def test_meld_kind_text_length_and_value():
    run = meld_of(parse_cards("Jd Qd Kd"))
    assert run.kind is MeldKind.RUN
    assert str(run) == "Jd Qd Kd"
    assert (len(run), run.value) == (3, 30)
    kings = meld_of(parse_cards("Kc Kd Kh"))
    assert kings.kind is MeldKind.SET
    assert str(kings) == "Kc Kd Kh"
    aces = Meld(to_mask(parse_cards("As Ac Ad Ah")))
    assert aces.kind is MeldKind.SET
    assert (len(aces), aces.value) == (4, 4)
    assert str(meld_of(parse_cards("Ac 2c 3c"))) == "Ac 2c 3c"
    assert card_at(Suit.HEARTS, 12) == parse_cards("Qh")[0]


def test_best_arrangement_of_the_package_example():
    # 7h 8h 9h | Tc Td Ts | 2c 3d 4s Kh unmatched = 2 + 3 + 4 + 10 = 19
    a = best_arrangement(parse_cards("7h 8h 9h Tc Td Ts 2c 3d 4s Kh"))
    assert a.deadwood == 19
    assert sorted(str(m) for m in a.melds) == ["7h 8h 9h", "Tc Td Ts"]
    assert [str(c) for c in a.unmatched] == ["2c", "3d", "4s", "Kh"]
    assert "deadwood 19" in repr(a)


def test_a_card_of_a_four_set_goes_to_a_run_when_that_is_better():
    # 5h 5c 5d 5s + 3h 4h: the set of three 5c 5d 5s and the run 3h 4h 5h -> deadwood 0
    a = best_arrangement(parse_cards("5h 5c 5d 5s 3h 4h"))
    assert a.deadwood == 0
    assert sorted(str(m) for m in a.melds) == ["3h 4h 5h", "5c 5d 5s"]


def test_a_set_beats_two_runs_or_not_by_value():
    # 7c 8c 9c / 7d 8d 9d / 7h 8h 9h: three runs or three sets, both deadwood 0
    assert best_arrangement(parse_cards("7c 8c 9c 7d 8d 9d 7h 8h 9h")).deadwood == 0
    # 7c 8c 9c 7d 7h: run (7c8c9c, 7d 7h left = 14) or set (7c7d7h, 8c 9c left = 17)
    assert best_arrangement(parse_cards("7c 8c 9c 7d 7h")).deadwood == 14


def test_arrangement_equality_ignores_meld_order():
    hand = parse_cards("7h 8h 9h Tc Td Ts 3s")
    a = best_arrangement(hand)
    same = [b for b in all_arrangements(to_mask(hand)) if b.deadwood == a.deadwood]
    assert len(same) == 1
    assert same[0] == a
    assert same[0].meld_masks != a.meld_masks or len(set(a.meld_masks)) == 2
    assert hash(same[0]) == hash(a)
    assert a != "not an arrangement"
    assert a not in [b for b in all_arrangements(to_mask(hand)) if b.deadwood != a.deadwood]


def test_best_arrangement_rejects_a_repeated_card():
    hand = parse_cards("7h 8h 9h")
    try:
        best_arrangement([*hand, hand[0]])
    except DuplicateCardError as exc:
        assert "same card twice" in str(exc)
    else:
        raise AssertionError("a repeated card was accepted")


def test_empty_hand_has_no_deadwood():
    assert best_arrangement([]).deadwood == 0
    assert hand_deadwood([]) == 0


def test_best_discards_lists_every_card_best_first():
    # 11 cards: 7h 8h 9h | Tc Td Ts | 2c 3d 4s Kh Qs
    options = best_discards(parse_cards("7h 8h 9h Tc Td Ts 2c 3d 4s Kh Qs"))
    assert len(options) == 11
    # the two ten-point cards first (deadwood 19 left), the bigger card value first on ties
    assert [(str(o.card), o.deadwood) for o in options[:2]] == [("Kh", 19), ("Qs", 19)]
    assert [o.deadwood for o in options] == sorted(o.deadwood for o in options)


def _check_arrangement(hand):
    a = best_arrangement(hand)
    assert a.deadwood == oracle.min_deadwood(frozenset(hand))
    covered = set()
    for meld in a.melds:
        assert oracle.valid_meld(meld.cards)
        assert not covered & set(meld.cards)
        covered |= set(meld.cards)
    assert covered <= set(hand)
    assert texts([*covered, *a.unmatched]) == texts(hand)
    assert a.deadwood == oracle.total(a.unmatched)
    assert hand_deadwood(hand) == a.deadwood


@PROPS
@given(st.sampled_from((10, 11)).flatmap(random_hand))
def test_deadwood_of_random_hands_equals_the_oracle(hand):
    _check_arrangement(hand)


@PROPS
@given(st.sampled_from((10, 11)).flatmap(meld_dense_hand))
def test_deadwood_of_meld_dense_hands_equals_the_oracle(hand):
    _check_arrangement(hand)


@settings(max_examples=30, deadline=None)
@given(any_hand(11))
def test_best_discards_match_the_oracle_per_discard(hand):
    options = best_discards(hand)
    assert texts([o.card for o in options]) == texts(hand)
    for o in options:
        assert o.deadwood == oracle.min_deadwood(frozenset(hand) - {o.card})
    assert [o.deadwood for o in options] == sorted(o.deadwood for o in options)


@PROPS
@given(meld_dense_hand(11))
def test_discard_deadwoods_of_meld_dense_hands_match_the_oracle(hand):
    mask = to_mask(hand)
    assert discard_deadwoods(mask) == [
        (c.index, oracle.min_deadwood(frozenset(hand) - {c})) for c in sorted(hand)
    ]


def test_discard_deadwoods_with_sets_whole_split_or_in_runs():
    # Sevens in no run: melded whole after any other discard; a seven discarded
    # leaves two loose sevens; one of four kings discarded leaves a set of three.
    for text in ("7c 7d 7h Kc Kd Kh Ks 2c 4d 9s 5h", "7c 7d 7h 6h 8h 2c 2d 2s Kc Qd Js"):
        mask = to_mask(parse_cards(text))
        assert discard_deadwoods(mask) == [
            (c.index, deadwood_of_mask(mask ^ c.bit)) for c in sorted(parse_cards(text))
        ]
    mask = to_mask(parse_cards("7c 7d 7h 2c 4d 9s"))
    assert dict(discard_deadwoods(mask))[card_at(Suit.CLUBS, 7).index] == 7 + 7 + 2 + 4 + 9
    assert value_of_mask(mask) == 7 * 3 + 2 + 4 + 9


@settings(max_examples=40, deadline=None)
@given(any_hand(10))
def test_every_meld_and_every_arrangement_is_enumerated(hand):
    mask = to_mask(hand)
    assert {frozenset(Meld(m).cards) for m in melds_in_mask(mask)} == set(
        oracle.melds_within(frozenset(hand))
    )
    arrangements = list(all_arrangements(mask))
    assert len(arrangements) == sum(1 for _ in oracle.families(frozenset(hand)))
    assert min(a.deadwood for a in arrangements) == best_arrangement(hand).deadwood
    # each choice before its extensions, every arrangement's deadwood its own
    assert [(a.deadwood, a.meld_masks) for a in arrangements] == meld_choices(mask)
    assert arrangements[0].meld_masks == ()
    for a in arrangements:
        assert a.deadwood == value_of_mask(a.unmatched_mask)


def test_best_arrangement_takes_any_iterable():
    hand = parse_cards("7h 8h 9h Tc Td Ts 2c")
    assert best_arrangement(iter(hand)) == best_arrangement(hand)
    assert best_arrangement(c for c in hand).deadwood == 2


def test_the_deadwood_memo_is_bounded_and_can_be_cleared(monkeypatch):
    from ginrummy.engine import melds

    hands = [parse_cards("7c 7d 7h 2s"), parse_cards("8c 8d 8h 3s"), parse_cards("9c 9d 9h Ks")]
    monkeypatch.setattr(melds, "_CACHE_LIMIT", 2)
    melds.clear_caches()
    assert [hand_deadwood(h) for h in hands] == [2, 3, 10]
    assert len(melds._DEADWOOD_CACHE) <= 2
    assert [hand_deadwood(h) for h in hands] == [2, 3, 10]
    melds.clear_caches()
    assert melds._DEADWOOD_CACHE == {}
