"""The summary: counts, the kind of error that lost most and from which turn, de/en."""

from __future__ import annotations

import pytest

from ginrummy.engine import parse_action
from ginrummy.review import Certainty, Grade, Judgement, Pattern
from ginrummy.review.summary import summarise
from ginrummy.review.texts import TEXTS, render

A = parse_action("discard 7h")
B = parse_action("discard Kd")


def _judged(grade: Grade, loss: float, pattern: Pattern | None) -> Judgement:
    return Judgement((), A, B, B, loss, 1.0, grade, pattern)


def test_the_summary_counts_grades_and_names_the_costliest_pattern():
    summary = summarise(
        [
            (2, _judged(Grade.MISTAKE, 7.0, Pattern.BROKE_MELD)),
            (8, _judged(Grade.MISTAKE, 6.5, Pattern.KEPT_HIGH_DEADWOOD)),
            (9, _judged(Grade.BLUNDER, 13.0, Pattern.KEPT_HIGH_DEADWOOD)),
            (3, _judged(Grade.GOOD, 2.0, None)),
            (4, _judged(Grade.BEST, 0.0, None)),
            (10, _judged(Grade.MISTAKE, 6.0, Pattern.FED_OPPONENT)),
        ]
    )
    assert summary.counts == {"inaccuracy": 0, "mistake": 3, "blunder": 1}
    assert summary.points_lost == 32.5
    assert summary.pattern is Pattern.KEPT_HIGH_DEADWOOD
    assert summary.pattern_points == 19.5 and summary.pattern_turn == 8
    assert summary.text("en") == (
        "3 mistakes, 1 blunder; most points lost by holding high deadwood from turn 8 "
        "(19.5 points)."
    )
    assert summary.text("de") == (
        "3 Fehler, 1 Patzer; die meisten Punkte verloren durch das Behalten hoher "
        "Restpunkte ab Zug 8 (19,5 Punkte)."
    )
    data = summary.to_dict()
    assert data["key"] == "summary" and data["params"]["pattern"] == "kept_high_deadwood"
    assert data["text"]["en"] == summary.text("en")


def test_a_clean_review_says_so():
    summary = summarise([(1, _judged(Grade.BEST, 0.0, None))])
    assert summary.pattern is None and summary.key == "summary_clean"
    assert summary.text("de") == "Keine Ungenauigkeiten, Fehler oder Patzer."
    assert summary.text("en") == "No inaccuracies, mistakes or blunders."


def test_every_text_has_both_languages_and_every_pattern_a_phrase():
    from ginrummy.review.texts import PATTERNS

    assert all(set(t) == {"de", "en"} for t in TEXTS.values())
    assert set(PATTERNS) == {p.value for p in Pattern}
    one = {"grade": "inaccuracy", "played": "draw discard", "best": "draw stock", "loss": 3.31}
    assert render("decision", one, "en") == (
        "Inaccuracy: draw discard loses 3.3 points against draw stock."
    )


def test_the_summary_says_how_many_errors_are_sure_and_how_many_unclear():
    sure = Judgement((), A, B, B, 13.0, 0.5, Grade.BLUNDER, Pattern.BROKE_MELD, Certainty.SURE)
    likely = Judgement((), A, B, B, 7.0, 3.0, Grade.MISTAKE, Pattern.BROKE_MELD, Certainty.LIKELY)
    unclear = Judgement((), A, B, B, 5.0, 4.0, Grade.GOOD, None, Certainty.UNSURE)
    data = summarise([(1, sure), (2, likely), (3, unclear), (4, unclear)]).to_dict()
    assert (data["sure"], data["unclear"]) == ({"inaccuracy": 0, "mistake": 0, "blunder": 1}, 2)
    assert data["certainty"]["text"] == {
        "en": "Sure: 1 of 2. Unclear (graded good): 2.",
        "de": "Sicher: 1 von 2. Unklar (als gut gewertet): 2.",
    }


@pytest.mark.parametrize(
    ("key", "params", "en"),
    [
        (
            "verdict_sure_error",
            {"estimate": 18.8, "error": 0.4, "low": 18.0, "high": 19.5, "worlds": 16,
             "level": 90, "band": "blunder"},
            "Sure: estimated loss 18.8 ± 0.4 points (90 % interval 18.0 to 19.5, 16 sampled "
            "deals). Even the interval's low end is in the blunder range or above.",
        ),
        (
            "verdict_unsure",
            {"estimate": 5.0, "error": 3.3, "low": -0.6, "high": 10.5, "worlds": 64,
             "level": 90},
            "Unclear: estimated loss 5.0 ± 3.3 points (90 % interval -0.6 to 10.5, 64 sampled "
            "deals). The estimate looks like an error, but the interval reaches 0: the sampled "
            "deals cannot tell it from no loss, so it is graded good.",
        ),
        (
            "verdict_likely_good",
            {"estimate": 2.0, "worlds": 1, "level": 90, "start": 3.0},
            "Likely: estimated loss 2.0 points (one sampled deal: no interval). The estimate is "
            "below an inaccuracy (3.0 points); the interval reaches above it.",
        ),
        (
            "verdict_likely_good_rival",
            {"estimate": 1.0, "error": 0.5, "low": 0.2, "high": 1.8, "worlds": 64,
             "level": 90, "start": 3.0},
            "Likely: estimated loss 1.0 ± 0.5 points (90 % interval 0.2 to 1.8, 64 sampled "
            "deals). Below an inaccuracy (3.0 points), but another choice's interval reaches "
            "above it.",
        ),
    ],
)  # fmt: skip
def test_a_verdict_says_how_sure_it_is_with_its_numbers(key, params, en):
    assert render(key, params, "en") == en
    assert render(key, params, "de").startswith(
        {"verdict_sure_error": "Sicher: geschätzter Verlust 18,8 ± 0,4 Punkte (90-%-Intervall "
         "18,0 bis 19,5, 16 ausgeloste", "verdict_unsure": "Unklar: geschätzter Verlust 5,0 ± 3,3",
         "verdict_likely_good": "Wahrscheinlich: geschätzter Verlust 2,0 Punkte (eine",
         "verdict_likely_good_rival": "Wahrscheinlich: geschätzter Verlust 1,0 ± 0,5"}[key]
    )  # fmt: skip


def test_a_move_that_looked_better_than_the_other_choice_is_said_to_gain_not_to_lose():
    """A negative loss (the move played beat the best other choice checked) reads as the
    gain it is, its interval turned round: never "estimated loss -8.1"."""
    params = {"estimate": -8.1, "error": 5.5, "low": -17.8, "high": 1.6, "worlds": 16,
              "level": 90, "start": 3.0}  # fmt: skip
    en, de = render("verdict_sure_good", params, "en"), render("verdict_sure_good", params, "de")
    assert "estimated gain 8.1 ± 5.5 points over the other choice (90 % interval -1.6 to 17.8" in en
    assert "Gewinn 8,1 ± 5,5 Punkte gegenüber der anderen Wahl (90-%-Intervall -1,6 bis 17,8" in de
    assert "-8" not in en and "loss" not in en and "Verlust" not in de
    rough = render(
        "verdict_likely_good", {"estimate": -2.0, "worlds": 1, "level": 90, "start": 3.0}, "en"
    )
    assert rough.startswith("Likely: estimated gain 2.0 points over the other choice (one sampled")
