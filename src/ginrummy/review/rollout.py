"""The value of each legal choice of a decision: rollouts on sampled worlds.

For each sampled world (``worlds.sample_worlds``), each choice is applied and the rest
of the round is played out by the rollout player for both seats; the choice's value
in that world is the round's points for the reviewing seat (positive: it scores,
negative: the opponent scores, 0: a void round). All choices are played on the same
worlds with the same generator seeds (common random numbers), so the differences
between choices do not carry the noise of the worlds themselves.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, replace

from ginrummy.bots.base import Chooser
from ginrummy.bots.expert import PLAN, Expert
from ginrummy.bots.master import Master
from ginrummy.bots.worlds import play_out, sample_worlds
from ginrummy.engine import Action, MatchState, SeatView, apply_match

# The rollout player: the expert without its sampled undercut check before a knock
# (it knocks by its stock table alone), which costs a quarter of the full expert's
# time per rollout and keeps its draws, discards and inference.
_ROLLOUT_PLAN = replace(PLAN, samples=0)


def rollout_player() -> Chooser:
    """A fresh rollout player (it keeps caches: one per process or thread)."""
    return Expert(plan=_ROLLOUT_PLAN)


def expert_player() -> Chooser:
    """The full expert, whose choice the review shows beside the one played."""
    return Expert()


@dataclass(frozen=True, slots=True)
class Evaluator:
    """What a review judges with: the player whose choice it shows as the expert's
    (``reference``) and the player that plays out the rest of the round in both seats
    on every sampled world (``rollout``). Both are factories, since players keep
    caches (one per process or thread), and module-level functions, so that an
    evaluator travels to a process pool.

    This is the seam for a stronger evaluation: a review with another evaluator is
    a different review (its ``name`` is part of the cache key and of the JSON)."""

    name: str
    reference: Callable[[], Chooser]
    rollout: Callable[[], Chooser]


def master_player() -> Chooser:
    """The ``master`` level (``bots/master.py``): the expert's choice checked by
    rollouts on 12 sampled worlds, about 24 ms a decision."""
    return Master()


# The best evaluation the review's time budget allows today (docs/review.md): the
# rollouts are the master's own kind of evaluation (the same worlds, the same rollout
# player), with more worlds; the choice shown beside the one played is the expert's
# until ``master`` is shown to be the stronger player.
EXPERT = Evaluator("expert", expert_player, rollout_player)
# The same rollouts, with the master's choice shown (``ginrummy review --evaluator
# master``): a different review (its own cache key), about 24 ms more a decision.
MASTER = Evaluator("master", master_player, rollout_player)
EVALUATORS = {e.name: e for e in (EXPERT, MASTER)}


@dataclass(frozen=True, slots=True)
class Budget:
    """How many worlds a decision gets. Every choice is first played on ``screen``
    worlds; the ``keep`` best of them, the choice played and the expert's choice are
    then played on all ``samples`` worlds (the others keep their screening value).
    When the choice played then looks like an error, it and the best choice are
    played on ``confirm`` fresh worlds more, and again on as many (``confirm_rounds``
    batches in all) while the verdict is not sure (``judgement.judge``)."""

    samples: int = 8
    screen: int = 2
    keep: int = 2
    confirm: int = 16
    # Batches of ``confirm`` fresh worlds at most, while the verdict is not sure.
    confirm_rounds: int = 4

    def __post_init__(self) -> None:
        if (
            not 1 <= self.screen <= self.samples
            or self.keep < 1
            or self.confirm < 0
            or self.confirm_rounds < 1
        ):
            raise ValueError(
                "a budget needs 1 <= screen <= samples, keep >= 1, confirm >= 0 "
                "and confirm_rounds >= 1"
            )


@dataclass(frozen=True, slots=True)
class ChoiceValue:
    """A choice's estimated value: mean round points for the seat over the worlds it
    was played on, and the points of each of those worlds (in the worlds' order)."""

    action: Action
    mean: float
    points: tuple[int, ...]

    def extended(self, points: tuple[int, ...]) -> ChoiceValue:
        """This value with the points of more worlds."""
        both = self.points + points
        return ChoiceValue(self.action, sum(both) / len(both), both)


World = tuple[MatchState, int]  # a sampled world and the seed of its rollouts


def sample(view: SeatView, count: int, rng: random.Random) -> list[World]:
    """``count`` worlds of ``view``, each with its rollout seed."""
    worlds = sample_worlds(view, count, rng)
    return [(world, rng.getrandbits(64)) for world in worlds]


def estimate(
    view: SeatView,
    must: tuple[Action, ...],
    worlds: list[World],
    budget: Budget,
    player: Chooser,
) -> tuple[ChoiceValue, ...]:
    """The value of each of ``view.legal_actions`` (in their order) on ``worlds``
    (screened as ``budget`` says); the choices in ``must`` are played on all."""
    legal = view.legal_actions
    first, later = worlds[: budget.screen], worlds[budget.screen :]
    screened = {a: points(view, a, first, player) for a in legal}
    ranked = sorted(legal, key=lambda a: -sum(screened[a]))  # stable: ties keep order
    full = set(ranked[: budget.keep]) | set(must)
    out = []
    for action in legal:
        value = ChoiceValue(action, 0.0, ()).extended(screened[action])
        if action in full and later:
            value = value.extended(points(view, action, later, player))
        out.append(value)
    return tuple(out)


def points(view: SeatView, action: Action, worlds: list[World], player: Chooser) -> tuple[int, ...]:
    """The round points for the seat of ``view`` after ``action`` in each world."""
    return tuple(
        play_out(apply_match(world, action), view.seat, random.Random(seed), player)
        for world, seed in worlds
    )
