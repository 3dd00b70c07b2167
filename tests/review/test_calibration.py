"""Grades agree with the numbers: a large, certain loss is never good, a loss within
the sampling's noise is never an error, and the reported interval covers the loss."""

from __future__ import annotations

import random
from statistics import NormalDist

import pytest

from ginrummy.engine import MatchRecord, Seat, parse_action
from ginrummy.review import Budget, Decision, Grade, decisions, judge, review_match
from ginrummy.review.confidence import loss_of
from ginrummy.review.judgement import Certainty, grade_of
from ginrummy.review.rollout import points, rollout_player, sample

from .helpers import bot_match, first_rounds, scenario

_record = scenario


def _last(record: MatchRecord) -> Decision:
    return [d for d in decisions(record, Seat.ONE) if isinstance(d, Decision)][-1]


# Both pass on the upcard Ah; seat one draws Qs: 9s Ts Js Qs and Kd is gin.
KNOCK_NOT_GIN = _record("Ah", "Qs", "pass, pass, draw stock, knock Qs")  # knocks with Kd out
# The upcard Qh melds with nothing; seat one takes it and throws 7h out of its set
# (deadwood 34) where knocking with Kd was there.
USELESS_TAKE = _record("Qh", "2c", "take, discard 7h")
# Seat one draws Qs and breaks its run instead of going gin.
BROKEN_RUN = _record("Ah", "Qs", "pass, pass, draw stock, discard Ts")
# Seat one draws Kc: knocking with Kd out or with Kc out is the same hand but for a suit
# that nothing it saw tells apart.
TWIN_KNOCK = _record("Ah", "Kc", "pass, pass, draw stock, knock Kc")


@pytest.mark.parametrize(
    ("record", "better"),
    [(KNOCK_NOT_GIN, "gin Kd"), (USELESS_TAKE, "knock Kd"), (BROKEN_RUN, "gin Kd")],
    ids=["knock_not_gin", "useless_take_throws_a_set_card", "broken_run"],
)
def test_a_large_certain_loss_is_never_graded_good(record, better):
    d = _last(record)
    j = judge(d.view, d.played, Budget(), random.Random(3))
    assert str(j.best) == better
    assert j.measured is not None and j.measured.low > 0  # certain
    assert j.grade is Grade.BLUNDER and j.certainty is Certainty.SURE
    assert j.loss >= 12 and j.measured.low >= 12


def test_the_interval_covers_the_loss_measured_on_many_worlds():
    # A knock or gin ends the round at once, so a world's points are cheap; 3000
    # worlds of the review's own model pin the loss down to a few tenths of a point
    # (the review's 90 % interval is several points wide).
    d = _last(KNOCK_NOT_GIN)
    rng = random.Random(11)
    worlds = sample(d.view, 3000, rng)
    player = rollout_player()
    gin = points(d.view, parse_action("gin Kd"), worlds, player)
    knock = points(d.view, d.played, worlds, player)
    truth = loss_of(gin, knock, 0.999)
    assert truth.high - truth.low < 2.0
    covered = 0
    for seed in range(10):
        j = judge(d.view, d.played, Budget(), random.Random(seed))
        assert j.measured is not None and str(j.best) == "gin Kd"
        covered += j.measured.low <= truth.estimate <= j.measured.high
    assert covered >= 7  # 90 % intervals: 10 seeds, at most a few misses


def test_playing_the_best_choice_is_graded_best():
    d = _last(_record("Ah", "Qs", "pass, pass, draw stock, gin Kd"))
    j = judge(d.view, d.played, Budget(), random.Random(3))
    assert j.grade is Grade.BEST and j.loss == 0 and j.pattern is None


def test_a_twin_of_the_best_choice_is_not_an_error():
    d = _last(TWIN_KNOCK)
    for seed in range(4):
        j = judge(d.view, d.played, Budget(), random.Random(seed))
        assert j.grade in (Grade.BEST, Grade.GOOD), (seed, j.best, j.measured)


def test_a_loss_within_noise_is_never_called_an_error():
    # Paired differences of mean 0 (the choices are equal) and a spread like the
    # review's (a standard deviation of 25 round points): some estimates pass 6
    # points, but the verdict needs the interval clear of 0.
    rng = random.Random(5)
    spread = NormalDist(0, 25)
    mistakes = big = 0
    for _ in range(400):
        best = tuple(round(x) for x in spread.samples(16, seed=rng.random()))
        loss = loss_of(best, (0,) * 16, 0.90)
        grade, certainty = grade_of(loss)
        big += loss.estimate >= 6
        mistakes += grade.is_error
        assert certainty is not Certainty.SURE or not grade.is_error or loss.low > 0
    assert big > 40  # the estimates alone would call many of these mistakes
    assert mistakes <= 0.06 * 400  # the one-sided 95 % bound: about 1 in 20


def test_the_interval_has_its_stated_coverage():
    rng = random.Random(7)
    spread = NormalDist(8, 20)
    hits = 0
    for _ in range(1000):
        best = tuple(spread.samples(16, seed=rng.random()))
        loss = loss_of(tuple(round(x) for x in best), (0,) * 16, 0.90)
        hits += loss.low <= 8 <= loss.high
    assert 0.87 <= hits / 1000 <= 0.93


def test_an_unsure_verdict_gets_more_worlds_and_a_sure_one_stops():
    budget = Budget(samples=8, screen=2, keep=2, confirm=8, confirm_rounds=4)
    clear = _last(KNOCK_NOT_GIN)
    j = judge(clear.view, clear.played, budget, random.Random(3))
    assert j.certainty is Certainty.SURE and j.measured is not None
    assert j.measured.worlds == 8  # the first batch of fresh worlds settled it
    # Taking the Qh (then knocking with Kd) or passing: close, so often not sure.
    take = next(d for d in decisions(USELESS_TAKE, Seat.ONE) if isinstance(d, Decision))
    one_batch = Budget(samples=8, screen=2, keep=2, confirm=8, confirm_rounds=1)
    capped = 0
    for seed in range(8):
        j = judge(take.view, take.played, budget, random.Random(seed))
        if j.measured is None or j.measured.worlds != 32:
            continue
        capped += 1
        assert j.certainty is not Certainty.SURE  # it went on because it was not sure
        k = judge(take.view, take.played, one_batch, random.Random(seed))
        assert k.measured is not None and k.measured.worlds == 8
        assert k.choices[0].points == j.choices[0].points[: len(k.choices[0].points)]
    assert capped


def test_every_grade_of_a_weak_match_agrees_with_its_own_numbers():
    # The case: a beginner's match against the expert, whose review once said
    # "No inaccuracies, mistakes or blunders" over decisions that lost 5 points and
    # more by its own figures. Every decision's grade must follow from its JSON.
    record = first_rounds(bot_match(3, "beginner", "expert"), 2)
    budget = Budget(samples=4, screen=1, keep=2, confirm=6, confirm_rounds=2)
    data = review_match(record, Seat.ONE, budget=budget, seed=1).to_dict()
    t = data["thresholds"]
    bands = [(t["blunder"], "blunder"), (t["mistake"], "mistake"), (t["inaccuracy"], "inaccuracy")]
    errors = 0
    for rnd in data["rounds"]:
        for d in rnd["decisions"]:
            if d["grade"] in ("forced", "best"):
                assert d["certainty"] is None and d["loss"] == 0 and d["verdict"] is None
                continue
            # The verdict in words says the same as the numbers.
            verdict = d["verdict"]
            kind = "error" if d["grade"] != "good" else "good"
            key = (
                "verdict_unsure"
                if d["certainty"] == "unsure"
                else f"verdict_{d['certainty']}_{kind}"
            )
            high = d["interval"][1]
            if key == "verdict_likely_good" and high is not None and high < t["inaccuracy"]:
                key = "verdict_likely_good_rival"  # not its own interval: another rival's
            assert verdict["key"] == key, d
            assert abs(verdict["params"]["estimate"] - d["estimate"]) <= 0.051
            assert verdict["params"]["worlds"] == d["loss_worlds"]
            estimate, (low, high) = d["estimate"], d["interval"]
            band = next((g for start, g in bands if estimate >= start), "good")
            if low is not None and low > 0:  # a certain loss: graded by its estimate
                assert d["grade"] == band, d
            else:  # a loss the worlds cannot tell from none is no error
                assert d["grade"] == "good", d
            if d["grade"] == "good":
                assert low is None or low <= 0 or estimate < t["inaccuracy"], d
                if band != "good":
                    assert d["certainty"] == "unsure"
                elif high is None or high >= t["inaccuracy"]:
                    assert d["certainty"] == "likely"
                else:  # sure, unless another rival's interval reaches an inaccuracy
                    assert d["certainty"] in ("sure", "likely") and d["rivals"] >= 1
            else:
                errors += 1
                sure = low >= t[d["grade"]]
                assert d["certainty"] == ("sure" if sure else "likely"), d
    assert errors  # the beginner does err
    assert sum(data["summary"]["counts"].values()) == errors


def test_an_error_is_measured_against_every_choice_that_looked_better():
    # Round 5 of the beginner's match: throwing Ac loses about 10 points against Ks
    # (or 7c). With review seed 1, 6h looked best on the first worlds, and on fresh
    # ones it was no better than Ac: measured against it alone, the decision was
    # graded good, and sure. Every rival is now played on the fresh worlds.
    record = bot_match(3, "beginner", "expert")
    (d,) = [
        d
        for d in decisions(record, Seat.ONE)
        if isinstance(d, Decision) and d.round_number == 5 and str(d.played) == "discard Ac"
    ]
    j = judge(d.view, d.played, Budget(), random.Random(f"review:1:5:{d.index}"))
    assert j.measured is not None and j.measured.rivals >= 2
    assert j.grade.is_error and j.measured.low > 0, j.measured
    assert str(j.best) in ("discard Ks", "discard 7c")
