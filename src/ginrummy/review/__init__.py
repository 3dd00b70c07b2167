"""The match review (docs/review.md): every decision of one seat, judged by the
expert's sampling of the cards that seat could not see.

>>> from ginrummy.review import THRESHOLDS
>>> THRESHOLDS.inaccuracy, THRESHOLDS.mistake, THRESHOLDS.blunder
(3.0, 6.0, 12.0)
"""

from ginrummy.review.judgement import (
    THRESHOLDS,
    Certainty,
    Grade,
    Judgement,
    Pattern,
    Thresholds,
    judge,
)
from ginrummy.review.replay import Decision, RoundEnd, decisions
from ginrummy.review.report import FORMAT, Review, ReviewedRound, review_match
from ginrummy.review.rollout import EVALUATORS, EXPERT, MASTER, Budget, ChoiceValue, Evaluator
from ginrummy.review.summary import Summary

__all__ = [
    "EVALUATORS",
    "EXPERT",
    "FORMAT",
    "MASTER",
    "THRESHOLDS",
    "Budget",
    "Certainty",
    "ChoiceValue",
    "Decision",
    "Evaluator",
    "Grade",
    "Judgement",
    "Pattern",
    "Review",
    "ReviewedRound",
    "RoundEnd",
    "Summary",
    "Thresholds",
    "decisions",
    "judge",
    "review_match",
]
