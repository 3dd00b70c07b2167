"""Judgements: grades by the documented thresholds, an obvious blunder marked, the
same review for the same seed."""

from __future__ import annotations

import random

import pytest

from ginrummy.bots.master import Master
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
    MASTER,
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
from ginrummy.review.confidence import Loss, t_quantile
from ginrummy.review.judgement import Certainty, grade_of, pattern_of

from .helpers import TINY, bot_match, first_rounds


def _loss(estimate: float, error: float, worlds: int = 16) -> Loss:
    # a loss measured on ``worlds`` worlds with standard error ``error``
    half = t_quantile(0.95, worlds - 1) * error
    return Loss(estimate, error, worlds, 0.90, estimate - half, estimate + half)


@pytest.mark.parametrize(
    ("loss", "error", "grade", "certainty"),
    [
        (0.0, 0.0, Grade.GOOD, Certainty.SURE),  # BEST is for the best choice itself
        (-2.0, 1.0, Grade.GOOD, Certainty.SURE),
        (2.9, 0.01, Grade.GOOD, Certainty.SURE),
        (2.9, 1.0, Grade.GOOD, Certainty.LIKELY),  # an inaccuracy is not excluded
        (3.0, 0.1, Grade.INACCURACY, Certainty.LIKELY),  # its low end is below 3
        (5.9, 1.0, Grade.INACCURACY, Certainty.SURE),  # 5.9 - 1.753 >= 3
        (6.0, 1.0, Grade.MISTAKE, Certainty.LIKELY),
        (11.9, 1.0, Grade.MISTAKE, Certainty.SURE),
        (12.0, 1.0, Grade.BLUNDER, Certainty.LIKELY),
        (20.0, 1.0, Grade.BLUNDER, Certainty.SURE),
        (15.75, 7.0, Grade.BLUNDER, Certainty.LIKELY),  # large and clear of 0: never good
        (40.0, 24.0, Grade.GOOD, Certainty.UNSURE),  # its interval reaches 0: no verdict
        (6.0, 3.4, Grade.MISTAKE, Certainty.LIKELY),
        (6.0, 3.5, Grade.GOOD, Certainty.UNSURE),  # 6 - 1.753 * 3.5 < 0
    ],
)
def test_grades_follow_the_documented_thresholds(loss, error, grade, certainty):
    assert grade_of(_loss(loss, error)) == (grade, certainty)


def test_thresholds_are_the_documented_ones_and_can_be_changed():
    assert (THRESHOLDS.inaccuracy, THRESHOLDS.mistake, THRESHOLDS.blunder) == (3, 6, 12)
    assert THRESHOLDS.level == 0.90 and round(THRESHOLDS.z, 3) == 1.645
    strict = Thresholds(inaccuracy=1, mistake=2, blunder=4)
    assert grade_of(_loss(4.0, 1.0), strict) == (Grade.BLUNDER, Certainty.LIKELY)
    assert grade_of(_loss(4.0, 1.0)) == (Grade.INACCURACY, Certainty.LIKELY)


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


def test_the_master_evaluator_shows_the_masters_choice():
    # Seat one's third decision of bot match 32: with this generator the master
    # throws 8h (its learned discard, bots/learned.py) where the expert throws Qd.
    d = [d for d in decisions(first_rounds(bot_match(32), 1), Seat.ONE) if isinstance(d, Decision)]
    (d,) = [x for x in d if x.index == 2]
    expert = judge(d.view, d.played, TINY, random.Random(1))
    master = judge(d.view, d.played, TINY, random.Random(1), evaluator=MASTER)
    assert (str(expert.expert), str(master.expert)) == ("discard Qd", "discard 8h")
    assert master.expert == Master()(d.view, random.Random(random.Random(1).getrandbits(64)))
    assert len(master.value_of(master.expert).points) >= TINY.samples  # played on all worlds
