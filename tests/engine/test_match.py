"""A match: dealers, target score, first-to-knock, end-of-match bonuses (docs/rules.md §3.7, §4)."""

from __future__ import annotations

import pytest

from ginrummy.engine import (
    IllegalActionError,
    MatchPhase,
    ResultKind,
    Rules,
    Seat,
    deal,
    match_legal_actions,
    new_match,
    parse_action,
)
from ginrummy.engine import apply_match as apply

from .helpers import deck_of, match_of, play_match

ONE, TWO = Seat.ONE, Seat.TWO

# GIN: the non-dealer takes the upcard Qh and goes gin with Qs: +30
# non-dealer 2c 3c 4c | 5d 6d 7d | 9h Th Jh | Qs   (+ Qh -> 9h-Qh)
# dealer     Kc Kd Ks | Tc Td Ts | Js Jd Jc | 5h   -> D = 5, gin 5 + 25 = 30
GIN = deck_of("2c 3c 4c 5d 6d 7d 9h Th Jh Qs", "Kc Kd Ks Tc Td Ts Js Jd Jc 5h", "Qh")
GIN_ACTIONS = ["take", "gin Qs"]

# VOID: no meld anywhere; both pass, then each draws the stock and discards that card
# non-dealer Ac 2d 3h 4s 5c 6d 7h 8s 9c Td, dealer Jc Qd Kh As 2c 3d 4h 5s 6c 7d, upcard 8h
VOID = deck_of("Ac 2d 3h 4s 5c 6d 7h 8s 9c Td", "Jc Qd Kh As 2c 3d 4h 5s 6c 7d", "8h")
VOID_ACTIONS = ["pass", "pass"]
for _card in VOID[21:50]:  # 29 draws: the last one leaves two stock cards
    VOID_ACTIONS += ["draw stock", f"discard {_card}"]


def test_example_7_6_void_round_and_the_dealer_changes():
    m = deal(new_match(Rules(), ONE), VOID)
    assert (m.phase, m.round.dealer, m.turn, m.round_number) == (MatchPhase.ROUND, ONE, TWO, 1)
    m = play_match(m, *VOID_ACTIONS[:-2])
    assert len(m.round.stock) == 3
    m = play_match(m, "draw stock")
    assert len(m.round.stock) == 2
    m = play_match(m, VOID_ACTIONS[-1])
    assert m.phase is MatchPhase.DEAL
    assert m.rounds[0].result.kind is ResultKind.VOID
    assert (m.scores.one, m.scores.two, m.rounds_won.one, m.rounds_won.two) == (0, 0, 0, 0)
    assert m.next_dealer is TWO
    assert (m.turn, m.round_number, match_legal_actions(m)) == (None, 1, ())
    m = deal(m, GIN)
    assert (m.round.dealer, m.round_number) == (TWO, 2)


def test_scores_accumulate_and_100_wins_in_standard():
    rounds = [(GIN, GIN_ACTIONS)] * 7
    m = match_of(Rules(), ONE, *rounds[:6])
    # dealers alternate ONE, TWO, ...: the non-dealer wins 30 each time
    assert (m.scores.one, m.scores.two) == (90, 90)
    assert [r.dealer for r in m.rounds] == [ONE, TWO] * 3
    assert [r.scores.two for r in m.rounds] == [30, 30, 60, 60, 90, 90]
    m = play_match(deal(m, GIN), *GIN_ACTIONS)
    assert m.phase is MatchPhase.OVER
    r = m.result
    assert (r.winner, r.totals.two, r.totals.one, r.margin) == (TWO, 120, 90, 30)
    assert (r.box_bonus.two, r.game_bonus.two, r.shutout_bonus.two) == (0, 0, 0)


def test_classic_adds_box_game_and_shutout_bonuses_at_match_end():
    classic = Rules.preset("classic", target_score=30)
    m = match_of(classic, ONE, (GIN, GIN_ACTIONS))
    r = m.result
    # two: 30 points + box 25 (one round) + game 100 + shutout 100 (one scored nothing)
    assert (r.winner, r.round_points.two, r.rounds_won.two) == (TWO, 30, 1)
    assert (r.box_bonus.two, r.game_bonus.two, r.shutout_bonus.two) == (25, 100, 100)
    assert (r.totals.two, r.totals.one) == (255, 0)

    classic50 = Rules.preset("classic", target_score=50)
    m = match_of(classic50, ONE, (GIN, GIN_ACTIONS), (GIN, GIN_ACTIONS), (GIN, GIN_ACTIONS))
    r = m.result
    # two won rounds 1 and 3 (60), one won round 2 (30): no shutout
    assert (r.winner, r.round_points.two, r.round_points.one) == (TWO, 60, 30)
    assert (r.box_bonus.two, r.box_bonus.one) == (50, 25)
    assert (r.game_bonus.two, r.game_bonus.one, r.shutout_bonus.two) == (100, 0, 0)
    assert (r.totals.two, r.totals.one, r.margin) == (210, 55, 155)


def test_first_to_knock_one_scoring_round_decides_void_rounds_are_redealt():
    rules = Rules.preset("first-to-knock")
    m = match_of(rules, ONE, (VOID, VOID_ACTIONS))
    assert (m.phase, m.next_dealer) == (MatchPhase.DEAL, TWO)
    m = play_match(deal(m, GIN), *GIN_ACTIONS)  # dealer two: seat one wins the gin
    assert m.phase is MatchPhase.OVER
    assert (m.result.winner, m.result.totals.one, m.result.totals.two) == (ONE, 30, 0)
    assert len(m.rounds) == 2


def test_loser_of_the_round_deals_next():
    rules = Rules.preset("standard", next_dealer="loser")
    m = match_of(rules, ONE, (GIN, GIN_ACTIONS))
    assert m.next_dealer is ONE  # two won, one lost and deals again
    m = match_of(Rules(), ONE, (GIN, GIN_ACTIONS))
    assert m.next_dealer is TWO  # alternation
    # a void round alternates under the loser rule
    m = match_of(rules, ONE, (VOID, VOID_ACTIONS))
    assert m.next_dealer is TWO


def test_after_a_void_round_the_same_dealer_deals_again():
    rules = Rules.preset("standard", after_void="same")
    m = match_of(rules, ONE, (VOID, VOID_ACTIONS))
    assert m.next_dealer is ONE
    m = play_match(deal(m, GIN), *GIN_ACTIONS)
    assert m.next_dealer is TWO  # a scoring round alternates as usual


def test_match_refuses_actions_out_of_turn():
    m = new_match(Rules(), TWO)
    assert (m.phase, m.turn, m.round_number, m.is_over) == (MatchPhase.DEAL, None, 0, False)
    with pytest.raises(IllegalActionError, match="no round is being played; deal first") as err:
        apply(m, parse_action("take"))
    assert err.value.phase == "deal"
    m = deal(m, GIN)
    assert m.round.dealer is TWO
    assert [str(a) for a in match_legal_actions(m)] == ["take", "pass"]
    with pytest.raises(IllegalActionError, match="a round is under way"):
        deal(m, GIN)
    m = match_of(Rules.preset("standard", target_score=10), ONE, (GIN, GIN_ACTIONS))
    assert m.is_over
    with pytest.raises(IllegalActionError, match="the match is over"):
        apply(m, parse_action("take"))
    with pytest.raises(IllegalActionError, match="the match is over"):
        deal(m, GIN)
    assert match_legal_actions(m) == ()
