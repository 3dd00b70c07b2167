"""The judgement of one decision: the value of each choice, the best one, the
expert's, how much the choice played loses, its grade and what kind of error it is.

:func:`judge` takes the seat's view and the action played, nothing else: the
judgement is a function of what the seat could know (and of the generator).

Grades (docs/review.md, "Thresholds"): the loss is the best choice's estimated value
less the played choice's, in expected round points; an apparent error is measured
again on fresh worlds, which alone give the verdict. A decision is an *inaccuracy*
from 3 points lost, a *mistake* from 6, a *blunder* from 12, and only when the loss is
at least 2.5 times its standard error: a smaller loss cannot be told from the noise
of the sampling.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from enum import StrEnum

from ginrummy.bots.base import mask_of
from ginrummy.bots.evaluation import neighbours
from ginrummy.bots.expert import Expert
from ginrummy.engine import Action, ActionKind, SeatView
from ginrummy.review.rollout import (
    Budget,
    ChoiceValue,
    estimate,
    paired,
    points,
    rollout_player,
    sample,
)


@dataclass(frozen=True, slots=True)
class Thresholds:
    """Expected round points lost at which each grade starts, and how many standard
    errors the loss must be to count at all."""

    inaccuracy: float = 3.0
    mistake: float = 6.0
    blunder: float = 12.0
    z: float = 2.5


THRESHOLDS = Thresholds()


class Grade(StrEnum):
    FORCED = "forced"  # one legal action: nothing to judge
    BEST = "best"  # the played choice has the best estimate
    GOOD = "good"  # it loses less than an inaccuracy, or not clearly
    INACCURACY = "inaccuracy"
    MISTAKE = "mistake"
    BLUNDER = "blunder"

    @property
    def is_error(self) -> bool:
        return self in (Grade.INACCURACY, Grade.MISTAKE, Grade.BLUNDER)


def grade_of(loss: float, error: float, thresholds: Thresholds = THRESHOLDS) -> Grade:
    """The grade of a loss of ``loss`` points with standard error ``error``.

    >>> grade_of(13.0, 2.0), grade_of(13.0, 7.0), grade_of(-1.0, 0.0)
    (<Grade.BLUNDER: 'blunder'>, <Grade.GOOD: 'good'>, <Grade.GOOD: 'good'>)
    """
    if loss <= 0 or loss < thresholds.z * error:
        return Grade.GOOD
    if loss >= thresholds.blunder:
        return Grade.BLUNDER
    if loss >= thresholds.mistake:
        return Grade.MISTAKE
    if loss >= thresholds.inaccuracy:
        return Grade.INACCURACY
    return Grade.GOOD


class Pattern(StrEnum):
    """What kind of error a graded decision is (from the view and the two choices)."""

    TOOK_DISCARD = "took_discard"  # took the upcard or discard; the stock (or pass) was better
    LEFT_DISCARD = "left_discard"  # left the upcard or discard that was better to take
    MISSED_GIN = "missed_gin"
    MISSED_KNOCK = "missed_knock"
    EARLY_KNOCK = "early_knock"  # knocked (or went gin) when playing on was better
    BROKE_MELD = "broke_meld"  # discarded a card of a meld of the hand
    FED_OPPONENT = "fed_opponent"  # discarded a card that melds with the opponent's known cards
    KEPT_HIGH_DEADWOOD = "kept_high_deadwood"  # threw a lower card than the better discard
    OTHER_DISCARD = "other_discard"


_TAKES = (ActionKind.TAKE, ActionKind.DRAW_DISCARD)
_LEAVES = (ActionKind.PASS, ActionKind.DRAW_STOCK)
_GINS = (ActionKind.GIN, ActionKind.BIG_GIN)
_ENDS = (ActionKind.KNOCK, *_GINS)


def pattern_of(view: SeatView, played: Action, best: Action) -> Pattern:
    """The kind of error of playing ``played`` where ``best`` was better."""
    kind, better = played.kind, best.kind
    if kind in _TAKES:
        return Pattern.TOOK_DISCARD
    if kind in _LEAVES:
        return Pattern.LEFT_DISCARD
    if better in _GINS and kind not in _GINS:
        return Pattern.MISSED_GIN
    if better is ActionKind.KNOCK and kind is ActionKind.DISCARD:
        return Pattern.MISSED_KNOCK
    if kind in _ENDS and better is ActionKind.DISCARD:
        return Pattern.EARLY_KNOCK
    card = played.card
    assert card is not None  # a discard, knock or gin
    if view.arrangement.unmatched_mask & card.bit == 0:
        return Pattern.BROKE_MELD
    if neighbours(card.index) & mask_of(view.opponent_known):
        return Pattern.FED_OPPONENT
    if best.card is not None and best.card.value > card.value:
        return Pattern.KEPT_HIGH_DEADWOOD
    return Pattern.OTHER_DISCARD


@dataclass(frozen=True, slots=True)
class Judgement:
    """One decision judged: each choice's value (in the order of the legal actions)
    and the verdict on the choice played."""

    choices: tuple[ChoiceValue, ...]
    played: Action
    best: Action
    expert: Action
    loss: float  # expected round points lost against the best choice (>= 0)
    error: float  # the loss's standard error (over the worlds that gave the verdict)
    grade: Grade
    pattern: Pattern | None  # set for inaccuracies, mistakes and blunders

    def value_of(self, action: Action) -> ChoiceValue:
        return next(c for c in self.choices if c.action == action)


def judge(
    view: SeatView,
    played: Action,
    budget: Budget,
    rng: random.Random,
    thresholds: Thresholds = THRESHOLDS,
) -> Judgement:
    """Judge playing ``played`` in ``view``: the seat's view is all it gets.

    The expert's choice comes first from ``rng`` (the expert draws from it only to
    check a knock), then the worlds of the estimate, then those of a confirmation."""
    if not isinstance(view, SeatView):  # a state would hand over the hidden cards
        raise TypeError(f"judge takes a seat's view (SeatView), not {type(view).__name__}")
    expert = Expert()(view, random.Random(rng.getrandbits(64)))
    if len(view.legal_actions) == 1:
        only = ChoiceValue(played, 0.0, ())
        return Judgement((only,), played, played, expert, 0.0, 0.0, Grade.FORCED, None)
    player = rollout_player()
    choices = estimate(view, (played, expert), sample(view, budget.samples, rng), budget, player)
    full = max(len(c.points) for c in choices)
    # The best is the highest estimate among the choices played on every world.
    best = max((c for c in choices if len(c.points) == full), key=lambda c: c.mean)
    if best.action == played:
        return Judgement(choices, played, played, expert, 0.0, 0.0, Grade.BEST, None)
    mine = next(c for c in choices if c.action == played)
    loss, error = paired(best.points, mine.points)
    if loss >= thresholds.inaccuracy and loss >= error and budget.confirm:
        # It looks like an error, by more than its noise: play both on fresh worlds,
        # and let those alone give the verdict, since they took no part in choosing
        # the best of several.
        fresh = sample(view, budget.confirm, rng)
        extra_best = points(view, best.action, fresh, player)
        extra_mine = points(view, played, fresh, player)
        loss, error = paired(extra_best, extra_mine)
        best, mine = best.extended(extra_best), mine.extended(extra_mine)
        choices = tuple(
            best if c.action == best.action else mine if c.action == played else c for c in choices
        )
    grade = grade_of(loss, error, thresholds)
    pattern = pattern_of(view, played, best.action) if grade.is_error else None
    return Judgement(choices, played, best.action, expert, max(loss, 0.0), error, grade, pattern)
