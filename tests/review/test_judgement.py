"""Judgements: grades by the documented thresholds, an obvious blunder marked, the
same review for the same seed."""

from __future__ import annotations

import random

import pytest

from ginrummy.engine import (
    DECK,
    MatchRecord,
    RoundRecord,
    Rules,
    Seat,
    parse_action,
    parse_cards,
    replay_match,
)
from ginrummy.review import (
    THRESHOLDS,
    Budget,
    Decision,
    Grade,
    Pattern,
    Thresholds,
    decisions,
    judge,
    review_match,
)
from ginrummy.review.judgement import grade_of, pattern_of

from .helpers import TINY, bot_match, first_rounds


@pytest.mark.parametrize(
    ("loss", "error", "grade"),
    [
        (0.0, 0.0, Grade.GOOD),  # BEST is for the best choice itself, not a loss of 0
        (-2.0, 1.0, Grade.GOOD),
        (2.9, 0.1, Grade.GOOD),
        (3.0, 0.1, Grade.INACCURACY),
        (5.9, 1.0, Grade.INACCURACY),
        (6.0, 1.0, Grade.MISTAKE),
        (11.9, 1.0, Grade.MISTAKE),
        (12.0, 1.0, Grade.BLUNDER),
        (40.0, 15.0, Grade.BLUNDER),
        (40.0, 16.1, Grade.GOOD),  # not 2.5 standard errors: cannot be told from noise
        (6.0, 2.4, Grade.MISTAKE),
        (6.0, 2.41, Grade.GOOD),
    ],
)
def test_grades_follow_the_documented_thresholds(loss, error, grade):
    assert grade_of(loss, error) is grade


def test_thresholds_are_the_documented_ones_and_can_be_changed():
    assert (THRESHOLDS.inaccuracy, THRESHOLDS.mistake, THRESHOLDS.blunder) == (3, 6, 12)
    assert THRESHOLDS.z == 2.5
    strict = Thresholds(inaccuracy=1, mistake=2, blunder=4, z=0)
    assert grade_of(4.0, 9.0, strict) is Grade.BLUNDER


def _scenario() -> MatchRecord:
    # Seat one (non-dealer) is dealt   3c 4c 5c | 7d 7h 7s | 9s Ts Js | Kd
    # and the first upcard Qs makes 9s Ts Js Qs: gin with Kd. It takes the upcard and
    # then throws 7h out of its set instead of going gin.
    one = parse_cards("3c 4c 5c 7d 7h 7s 9s Ts Js Kd")
    two = parse_cards("Ac 2d 4h 6h 8h Jh Kh 2s 5s Ks")
    up = parse_cards("Qs")
    front = one + two + up
    deck = front + tuple(c for c in DECK if c not in front)
    actions = tuple(parse_action(a) for a in ("take", "discard 7h"))
    return MatchRecord(Rules.preset("standard"), Seat.TWO, (RoundRecord(deck, Seat.TWO, actions),))


def test_throwing_a_melded_card_instead_of_gin_is_a_blunder():
    review = review_match(_scenario(), Seat.ONE, budget=Budget(6, 2, 2, 4), seed=1)
    take, throw = review.rounds[0].decisions
    assert take.judgement.grade is Grade.BEST
    j = throw.judgement
    assert str(j.best) == "gin Kd" and str(j.expert) == "gin Kd"
    assert j.grade is Grade.BLUNDER and j.pattern is Pattern.MISSED_GIN
    assert j.loss >= THRESHOLDS.blunder
    assert review.summary.counts == {"inaccuracy": 0, "mistake": 0, "blunder": 1}
    assert review.summary.pattern is Pattern.MISSED_GIN


def test_the_pattern_names_a_broken_meld_and_a_card_kept_too_high():
    decision = [d for d in decisions(_scenario(), Seat.ONE) if isinstance(d, Decision)][1]
    view = decision.view
    assert pattern_of(view, parse_action("discard 7h"), parse_action("discard Kd")) is (
        Pattern.BROKE_MELD
    )
    assert pattern_of(view, parse_action("gin Kd"), parse_action("discard 7h")) is (
        Pattern.EARLY_KNOCK
    )


def test_a_judgement_is_a_function_of_the_view_and_the_seed():
    record = first_rounds(bot_match(21), 1)
    d = next(
        d
        for d in decisions(record, Seat.ONE)
        if isinstance(d, Decision) and len(d.view.legal_actions) > 2
    )
    a = judge(d.view, d.played, TINY, random.Random(5))
    assert a == judge(d.view, d.played, TINY, random.Random(5))
    assert a.choices != judge(d.view, d.played, TINY, random.Random(6)).choices
    assert [c.action for c in a.choices] == list(d.view.legal_actions)
    assert a.played is d.played and a.expert in d.view.legal_actions


def test_the_same_seed_gives_the_same_review_whatever_the_workers():
    record = first_rounds(bot_match(22), 1)
    one = review_match(record, Seat.TWO, budget=TINY, seed=9).to_dict()
    assert one == review_match(record, Seat.TWO, budget=TINY, seed=9, workers=2).to_dict()
    assert one != review_match(record, Seat.TWO, budget=TINY, seed=10).to_dict()


def test_judge_refuses_anything_but_a_seat_view():
    match = replay_match(_scenario())
    with pytest.raises(TypeError, match="SeatView"):
        judge(match, parse_action("take"), TINY, random.Random(1))  # type: ignore[arg-type]
