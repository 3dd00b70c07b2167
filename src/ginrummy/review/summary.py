"""The summary of a review: how many inaccuracies, mistakes and blunders (and how many
of them sure), the points they lost, the kind of error that lost the most (with the
turn it began), and how many decisions looked like errors that the sampling could not
tell from none."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from ginrummy.review.judgement import Certainty, Grade, Judgement, Pattern
from ginrummy.review.texts import Params, phrase, render

GRADED = (Grade.INACCURACY, Grade.MISTAKE, Grade.BLUNDER)


@dataclass(frozen=True, slots=True)
class Summary:
    counts: dict[str, int]  # per grade of GRADED
    points_lost: float  # by the graded decisions, in expected round points
    pattern: Pattern | None  # the kind of error that lost the most points
    pattern_points: float
    pattern_turn: int | None  # the first turn (of its round) with that kind of error
    sure: dict[str, int] | None = None  # per grade of GRADED, those graded for sure
    unclear: int = 0  # decisions graded good whose estimate said error (unsure)

    @property
    def key(self) -> str:
        return "summary" if self.pattern is not None else "summary_clean"

    @property
    def params(self) -> Params:
        if self.pattern is None:
            return {}
        assert self.pattern_turn is not None
        return {
            **self.counts,
            "pattern": self.pattern.value,
            "turn": self.pattern_turn,
            "points": round(self.pattern_points, 1),
        }

    def text(self, lang: str) -> str:
        return render(self.key, self.params, lang)

    def to_dict(self) -> dict[str, object]:
        return {
            "counts": dict(self.counts),
            "points_lost": round(self.points_lost, 2),
            "pattern": None if self.pattern is None else self.pattern.value,
            "pattern_points": round(self.pattern_points, 2),
            "pattern_turn": self.pattern_turn,
            **phrase(self.key, self.params),
            "sure": dict(self.sure or {g.value: 0 for g in GRADED}),
            "unclear": self.unclear,
            "certainty": self.certainty(),
        }

    def certainty(self) -> dict[str, object]:
        """How many of the errors are sure, and how many decisions are unclear, in
        words (the page shows it under the summary)."""
        params: Params = {
            "sure": sum((self.sure or {}).values()),
            "errors": sum(self.counts.values()),
            "unclear": self.unclear,
        }
        return phrase("summary_certainty", params)


def summarise(judged: Iterable[tuple[int, Judgement]]) -> Summary:
    """The summary of ``(turn, judgement)`` pairs of one seat's decisions."""
    counts = {g.value: 0 for g in GRADED}
    sure = {g.value: 0 for g in GRADED}
    unclear = 0
    lost: dict[Pattern, float] = {}
    first: dict[Pattern, int] = {}
    total = 0.0
    for turn, judgement in judged:
        unclear += judgement.unclear
        if judgement.pattern is None:
            continue
        counts[judgement.grade.value] += 1
        sure[judgement.grade.value] += judgement.certainty is Certainty.SURE
        total += judgement.loss
        pattern = judgement.pattern
        lost[pattern] = lost.get(pattern, 0.0) + judgement.loss
        first[pattern] = min(first.get(pattern, turn), turn)
    if not lost:
        return Summary(counts, 0.0, None, 0.0, None, sure, unclear)
    worst = max(lost, key=lambda p: lost[p])  # the first in Pattern order on a tie
    return Summary(counts, total, worst, lost[worst], first[worst], sure, unclear)
