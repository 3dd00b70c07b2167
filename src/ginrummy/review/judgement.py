"""The judgement of one decision: the value of each choice, the best one, the
expert's, how much the choice played loses, its grade, how sure that grade is and
what kind of error it is.

:func:`judge` takes the seat's view and the action played, nothing else: the
judgement is a function of what the seat could know (and of the generator).

Grades (docs/review.md, "Grades and how sure they are"): the loss is the best
choice's estimated value less the played choice's, in expected round points, with a
confidence interval from the sampling (``confidence.Loss``); an apparent error is
measured again on fresh worlds, which alone give the verdict. The grade is the band
of the estimate (an *inaccuracy* from 3 points, a *mistake* from 6, a *blunder* from
12), but an error only when the interval's low end is above 0: a loss that the
sampling cannot tell from none is graded ``good``, and marked ``unsure``.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from enum import StrEnum
from statistics import NormalDist

from ginrummy.bots.base import Chooser, mask_of
from ginrummy.bots.evaluation import neighbours
from ginrummy.engine import Action, ActionKind, SeatView
from ginrummy.review.confidence import Loss, loss_of
from ginrummy.review.rollout import (
    EXPERT,
    Budget,
    ChoiceValue,
    Evaluator,
    estimate,
    points,
    sample,
)


@dataclass(frozen=True, slots=True)
class Thresholds:
    """Expected round points lost at which each grade starts, and the confidence of
    the loss's two-sided interval: an error is graded only when the interval's low
    end is above 0 (at 0.90, a one-sided 95 % bound)."""

    inaccuracy: float = 3.0
    mistake: float = 6.0
    blunder: float = 12.0
    level: float = 0.90

    @property
    def z(self) -> float:
        """The interval's half-width in standard errors for many worlds (the normal
        quantile; fewer worlds use Student's t, a little wider)."""
        return NormalDist().inv_cdf(0.5 + self.level / 2)

    def start(self, grade: Grade) -> float:
        """The loss at which ``grade`` starts (0 for good and best)."""
        return {
            Grade.INACCURACY: self.inaccuracy,
            Grade.MISTAKE: self.mistake,
            Grade.BLUNDER: self.blunder,
        }.get(grade, 0.0)


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


class Certainty(StrEnum):
    """How sure a grade is, from the loss's interval (docs/review.md)."""

    SURE = "sure"  # the whole interval agrees: an error at least this bad, or no error
    LIKELY = "likely"  # the estimate says so; the interval reaches into another grade
    UNSURE = "unsure"  # the estimate says error, but the interval reaches 0: graded good


def band_of(loss: float, thresholds: Thresholds = THRESHOLDS) -> Grade:
    """The grade of a loss of ``loss`` points known without error.

    >>> band_of(2.9), band_of(3.0), band_of(11.9), band_of(12.0)
    (<Grade.GOOD: 'good'>, <Grade.INACCURACY: 'inaccuracy'>, <Grade.MISTAKE: 'mistake'>, \
<Grade.BLUNDER: 'blunder'>)
    """
    if loss >= thresholds.blunder:
        return Grade.BLUNDER
    if loss >= thresholds.mistake:
        return Grade.MISTAKE
    if loss >= thresholds.inaccuracy:
        return Grade.INACCURACY
    return Grade.GOOD


def grade_of(loss: Loss, thresholds: Thresholds = THRESHOLDS) -> tuple[Grade, Certainty]:
    """The grade of a measured loss, and how sure it is: the band of the estimate,
    an error only when the interval's low end is above 0.

    >>> from ginrummy.review.confidence import Loss
    >>> grade_of(Loss(15.75, 3.0, 64, 0.9, 10.75, 20.75))  # large and certain
    (<Grade.BLUNDER: 'blunder'>, <Certainty.LIKELY: 'likely'>)
    """
    band = band_of(loss.estimate, thresholds)
    if band is Grade.GOOD:
        sure = loss.high < thresholds.inaccuracy
        return Grade.GOOD, Certainty.SURE if sure else Certainty.LIKELY
    if loss.low <= 0:  # within the sampling's noise of the best: no verdict
        return Grade.GOOD, Certainty.UNSURE
    sure = loss.low >= thresholds.start(band)
    return band, Certainty.SURE if sure else Certainty.LIKELY


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
class _Confirmed:
    """The verdict of the confirmation's worlds."""

    top: Action  # the best rival there: the best choice
    loss: Loss  # against it, with an interval that holds for all rivals together
    grade: Grade
    certainty: Certainty
    rival_doubt: bool  # good and sure against ``top``, likely for another rival's interval


def _against_rivals(
    points: dict[Action, tuple[int, ...]],
    played: Action,
    rivals: list[ChoiceValue],
    thresholds: Thresholds,
) -> _Confirmed:
    """The verdict on the confirmation's worlds (``points``): ``good`` is sure only
    when no rival's interval reaches an inaccuracy."""
    losses = [
        (loss_of(points[c.action], points[played], thresholds.level, len(rivals)), c.action)
        for c in rivals
    ]
    loss, top = max(losses, key=lambda la: la[0].estimate)  # the first on a tie
    grade, certainty = grade_of(loss, thresholds)
    doubt = any(other.high >= thresholds.inaccuracy for other, _ in losses)
    rival_doubt = grade is Grade.GOOD and certainty is Certainty.SURE and doubt
    if rival_doubt:
        certainty = Certainty.LIKELY
    return _Confirmed(top, loss, grade, certainty, rival_doubt)


def _confirm(
    view: SeatView,
    mine: ChoiceValue,
    rivals: list[ChoiceValue],
    budget: Budget,
    rng: random.Random,
    player: Chooser,
    thresholds: Thresholds,
) -> tuple[dict[Action, tuple[int, ...]], _Confirmed]:
    """Play the choice made and its rivals on fresh worlds, batch by batch while the
    verdict is not sure (up to the budget): the points each scored there, and the
    verdict those worlds alone give."""
    extra: dict[Action, tuple[int, ...]] = {c.action: () for c in (mine, *rivals)}
    confirmed = None
    for _ in range(budget.confirm_rounds):
        fresh = sample(view, budget.confirm, rng)
        for action in extra:
            extra[action] += points(view, action, fresh, player)
        confirmed = _against_rivals(extra, mine.action, rivals, thresholds)
        if confirmed.certainty is Certainty.SURE:
            break
    assert confirmed is not None, "a confirmation plays one batch at least"
    return extra, confirmed


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
    certainty: Certainty | None = None  # None for forced and best decisions
    measured: Loss | None = None  # the loss with its interval; None for forced and best
    # Good and sure against the best choice, only likely for another rival's interval.
    rival_doubt: bool = False

    def value_of(self, action: Action) -> ChoiceValue:
        return next(c for c in self.choices if c.action == action)

    @property
    def unclear(self) -> bool:
        """The estimate says error, but the sampling cannot tell it from none."""
        return self.certainty is Certainty.UNSURE


def judge(
    view: SeatView,
    played: Action,
    budget: Budget,
    rng: random.Random,
    thresholds: Thresholds = THRESHOLDS,
    evaluator: Evaluator = EXPERT,
) -> Judgement:
    """Judge playing ``played`` in ``view``: the seat's view is all it gets.

    The reference (expert's) choice comes first from ``rng`` (the expert draws from
    it only to check a knock), then the worlds of the estimate, then those of the
    confirmation, batch by batch."""
    if not isinstance(view, SeatView):  # a state would hand over the hidden cards
        raise TypeError(f"judge takes a seat's view (SeatView), not {type(view).__name__}")
    expert = evaluator.reference()(view, random.Random(rng.getrandbits(64)))
    if len(view.legal_actions) == 1:
        only = ChoiceValue(played, 0.0, ())
        return Judgement((only,), played, played, expert, 0.0, 0.0, Grade.FORCED, None)
    player = evaluator.rollout()
    choices = estimate(view, (played, expert), sample(view, budget.samples, rng), budget, player)
    full = max(len(c.points) for c in choices)
    # The best is the highest estimate among the choices played on every world.
    best = max((c for c in choices if len(c.points) == full), key=lambda c: c.mean)
    if best.action == played:
        return Judgement(choices, played, played, expert, 0.0, 0.0, Grade.BEST, None)
    mine = next(c for c in choices if c.action == played)
    loss = loss_of(best.points, mine.points, thresholds.level)
    rival_doubt = False
    if loss.estimate >= thresholds.inaccuracy and budget.confirm:
        # It looks like an error: play it on fresh worlds against every *rival* (each
        # choice played on every world that looked better by an inaccuracy at least,
        # best first), and let those worlds alone give the verdict, since they took no
        # part in choosing the rivals.
        rivals = sorted(
            (
                c
                for c in choices
                if len(c.points) == full
                and c.action != played
                and c.mean - mine.mean >= thresholds.inaccuracy
            ),
            key=lambda c: -c.mean,
        )  # stable: ties keep the legal actions' order
        extra, confirmed = _confirm(view, mine, rivals, budget, rng, player, thresholds)
        choices = tuple(c.extended(extra[c.action]) if c.action in extra else c for c in choices)
        best = next(c for c in choices if c.action == confirmed.top)
        loss, grade, certainty = confirmed.loss, confirmed.grade, confirmed.certainty
        rival_doubt = confirmed.rival_doubt
    else:
        grade, certainty = grade_of(loss, thresholds)
    pattern = pattern_of(view, played, best.action) if grade.is_error else None
    return Judgement(
        choices,
        played,
        best.action,
        expert,
        max(loss.estimate, 0.0),
        loss.error,
        grade,
        pattern,
        certainty,
        loss,
        rival_doubt,
    )
