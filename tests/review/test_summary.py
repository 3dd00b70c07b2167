"""The summary: counts, the kind of error that lost most and from which turn, de/en."""

from __future__ import annotations

from ginrummy.engine import parse_action
from ginrummy.review import Grade, Judgement, Pattern
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
