"""``master``: the expert's choice, checked by playing the round out on sampled worlds.

For each decision with a real choice, ``master``

1. asks its base player what it would do: the expert with the discard learned from
   true outcomes (``bots/learned.py``; the expert, ``bots/expert.py``, in every other
   decision). That answer is called "the expert's choice" below. It keeps a few
   *candidates*: every legal action when drawing (take or pass, stock or pile); when
   discarding, that choice and the discards the expert scores within ``spread`` of
   its best (``discards`` in all; with ``knocks``, its best knock too);
2. samples ``worlds`` worlds consistent with its view (``bots/worlds.py``: the
   opponent's hidden cards drawn by the expert's inference from what it took,
   discarded and passed on, the stock shuffled), the same worlds the match review
   judges on;
3. plays each candidate in each world and the rest of the round with the expert's
   rollout player (the expert without its sampled undercut check) in both seats,
   every candidate of a world with the same generator seed (common random numbers);
4. picks the candidate with the best mean round points, when it beats the expert's
   choice by more than ``margin`` points a round and by more than ``sure`` standard
   errors of the paired differences; otherwise the expert's choice (a few worlds are
   noisy: the expert's choice is the default, not one candidate among equals);
5. checks a pick other than the expert's choice again (``verify``): the two alone are
   played on ``verify`` searches of fresh worlds, and the same test judges those only.
   The best of a few candidates on the same worlds looks better than it is (the
   winner's curse: the search saw twice the gain that 200 worlds find); fresh worlds
   do not share that luck.

Gin (and Big Gin) is always taken, the expert's knock too (unless ``knocks``); a
decision with one legal action costs nothing.

The *budget* is work, not time: rollout moves (one bot decision in a rollout each).
A world whose rollouts would go over it is not played; the choice is made on the
worlds played in full so far, and with fewer than two, it is the expert's. The check
of step 5 spends what the first search left of the same budget. Nothing reads a
clock: the decision is a function of the view and the generator, whatever the
machine's speed, and all its randomness comes from one 64-bit draw of the game's
generator that seeds a :class:`~ginrummy.bots.portable.PortableRandom`, so a
JavaScript port can decide the same.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, replace

from ginrummy.bots.base import discardable
from ginrummy.bots.expert import EXPERT, PLAN, Expert
from ginrummy.bots.heuristic import lowest_knock
from ginrummy.bots.knowledge import read
from ginrummy.bots.learned import Learned
from ginrummy.bots.portable import PortableRandom
from ginrummy.bots.worlds import Belief, WorldError, play_out_within, sample_worlds
from ginrummy.engine import Action, ActionKind, MatchState, Phase, SeatView, apply_match

_TAKES = (ActionKind.GIN, ActionKind.BIG_GIN)

Sampler = Callable[[SeatView, int, random.Random], list[MatchState]]


@dataclass(frozen=True, slots=True)
class MasterPlan:
    """How much ``master`` looks ahead (docs/computer-players.md has the measurements)."""

    worlds: int = 12  # worlds sampled per decision
    discards: int = 2  # discard candidates at most (the expert's best first)
    spread: float = 3.0  # ... each scored by the expert within this much of its best
    margin: float = 1.0  # round points a candidate must gain over the expert's choice
    sure: float = 1.0  # ... and standard errors of that gain
    # Search whether to knock too. Measured worse (docs/computer-players.md): with
    # the expert's rollout player in both seats, playing on looked better than it is,
    # and the master knocked a third less often than the expert and lost (49%).
    knocks: bool = False
    # Rollout moves per decision, at most: about 0.5 s of one core at the 61 us a move
    # measured (docs/computer-players.md). Searches of 12 worlds used 866 moves at most.
    budget: int = 8_000
    # The worlds' opponent hands (``bots.worlds.Belief``): each improved by at most 3
    # draws of choice, the best fit to the opponent's last discard of 4 drawn (the
    # filter). With the late knock below, the best master measured: 52.2% of 400 matches
    # against the expert where the plan before (improve 6, one hand, late knock 10) won
    # 47.5% of the same deals, and 50.1% of 2,000 (docs/computer-players.md).
    improve: int = 3
    particles: int = 4
    fit: float = 3.0
    knocked: float = 1.0
    # The most deadwood the rollouts' player knocks with below 4 stock cards (the last
    # step of the expert's knock table: 10). The real expert checks such a knock against
    # sampled hands for an undercut; the rollouts' player has no check, and a lower limit
    # stands in for it (docs/computer-players.md).
    late_knock: int = 5
    # Searches of ``worlds`` fresh worlds a switch from the expert's choice is checked
    # on, the two alone (0: none). 2 won 56.6% of 1,000 matches against the expert where
    # one search alone was even with it; 4 won no more (docs/computer-players.md).
    verify: int = 2

    def __post_init__(self) -> None:
        if self.worlds < 1 or self.discards < 1 or self.budget < 0 or self.verify < 0:
            raise ValueError("a plan needs worlds >= 1, discards >= 1, budget >= 0 and verify >= 0")
        if not 0 <= self.late_knock <= 10:
            raise ValueError("a plan needs 0 <= late_knock <= 10")
        if self.particles > 1 and self.worlds * self.particles > 52:
            raise ValueError("a plan with particles draws at most 52 hands a decision")


MASTER_PLAN = MasterPlan()


@dataclass(frozen=True, slots=True)
class Search:
    """What one decision's search found: the candidates in order (the expert's choice
    first), each one's round points in every world played in full (in the worlds'
    order), and the rollout moves spent."""

    candidates: tuple[Action, ...]
    points: tuple[tuple[int, ...], ...]
    moves: int

    @property
    def worlds(self) -> int:
        return len(self.points[0]) if self.points else 0

    def best(self, margin: float, sure: float) -> Action:
        """The candidate with the best mean when it beats the expert's choice by more
        than ``margin`` points a round and by more than ``sure`` standard errors of the
        paired differences; otherwise the expert's choice."""
        n = self.worlds
        if n < 2:
            return self.candidates[0]
        totals = [sum(p) for p in self.points]
        top = max(range(len(totals)), key=lambda i: (totals[i], -i))
        diffs = [a - b for a, b in zip(self.points[top], self.points[0], strict=True)]
        mean = sum(diffs) / n
        squares = 0.0  # a plain sum, as JavaScript adds (sum() compensates from 3.12)
        for d in diffs:
            squares += (d - mean) * (d - mean)
        var = squares / (n - 1)
        if mean > margin and mean * mean * n > sure * sure * var:
            return self.candidates[top]
        return self.candidates[0]


class Master:
    """The ``master`` level; call it as ``choose(view, rng)``."""

    def __init__(self, plan: MasterPlan = MASTER_PLAN) -> None:
        self.plan = plan
        # The base player (the learned discard): with the search below 60.7% of 2,000
        # matches against the expert, where the expert as the base won 55.6%
        # (bench/RESULTS.md, "Master: the learned discard is the level's base, over
        # 2,000 matches").
        self.expert: Expert = Learned()
        late = (*EXPERT.knock[:-1], (EXPERT.knock[-1][0], plan.late_knock))
        self.rollout = Expert(replace(EXPERT, knock=late), replace(PLAN, samples=0))
        self.belief = Belief(plan.improve, plan.particles, plan.fit, plan.knocked)
        self.sample: Sampler = self.worlds_of  # the worlds a search plays on (a bench may swap it)
        self.searches: list[Search] | None = None  # a list here gets every search, in order

    def __call__(self, view: SeatView, rng: random.Random) -> Action:
        # One draw from the game's generator per decision, whatever the decision costs.
        local = PortableRandom(rng.getrandbits(64))
        legal = view.legal_actions
        if len(legal) == 1:
            return legal[0]
        choice = self.expert(view, local)
        if choice.kind in _TAKES or (choice.kind is ActionKind.KNOCK and not self.plan.knocks):
            return choice
        candidates = self.candidates(view, choice)
        if len(candidates) == 1:
            return choice
        plan = self.plan
        found = self.search(view, candidates, local, plan.budget)
        pick = found.best(plan.margin, plan.sure)
        if pick == choice or not plan.verify:
            return pick
        return self.check(view, (choice, pick), found.moves, local).best(plan.margin, plan.sure)

    def check(
        self, view: SeatView, pair: tuple[Action, Action], spent: int, rng: random.Random
    ) -> Search:
        """The expert's choice and the search's pick (``pair``) played again on
        ``plan.verify`` searches of fresh worlds, within what is left of the budget after
        ``spent`` moves: the points of every world played in full, in order."""
        columns: tuple[list[int], list[int]] = ([], [])
        moves = 0
        for _ in range(self.plan.verify):
            again = self.search(view, pair, rng, self.plan.budget - spent - moves)
            for column, points in zip(columns, again.points, strict=False):
                column.extend(points)
            moves += again.moves
        return Search(pair, (tuple(columns[0]), tuple(columns[1])), moves)

    def candidates(self, view: SeatView, choice: Action) -> tuple[Action, ...]:
        """The actions worth a search, the expert's ``choice`` first."""
        if view.table.round_phase is not Phase.DISCARD:
            return (choice, *(a for a in view.legal_actions if a != choice))
        out = [choice]
        know = read(view)
        scored = self.expert.scores(know.hand, know, self.expert.odds(know))
        knocks = [a for a in view.legal_actions if a.kind is ActionKind.KNOCK]
        if knocks and self.plan.knocks:
            knock = lowest_knock(knocks, scored)[0]
            if knock not in out:
                out.append(knock)
        plain = {a.card: a for a in view.legal_actions if a.kind is ActionKind.DISCARD}
        ranked = sorted((scored[c.index][1], c.index, c) for c in discardable(view) if c in plain)
        if ranked:
            floor = min(s for s, _, _ in ranked)
            wanted = sum(1 for a in out if a.kind is ActionKind.DISCARD)
            for score, _, card in ranked:
                if wanted >= self.plan.discards or score > floor + self.plan.spread:
                    break
                action = plain[card]
                if action not in out:
                    out.append(action)
                    wanted += 1
        return tuple(out)

    def worlds_of(self, view: SeatView, count: int, rng: random.Random) -> list[MatchState]:
        return sample_worlds(view, count, rng, self.belief)

    def search(
        self,
        view: SeatView,
        candidates: tuple[Action, ...],
        rng: random.Random,
        budget: int | None = None,
    ) -> Search:
        """Play ``candidates`` out on sampled worlds of ``view`` within ``budget``
        rollout moves (by default the plan's); kept in ``searches`` when it is a list."""
        found = self._search(view, candidates, rng, budget)
        if self.searches is not None:
            self.searches.append(found)
        return found

    def _search(
        self,
        view: SeatView,
        candidates: tuple[Action, ...],
        rng: random.Random,
        budget: int | None,
    ) -> Search:
        plan = self.plan
        budget = plan.budget if budget is None else budget
        try:
            worlds = self.sample(view, plan.worlds, rng)
        except WorldError:
            return Search(candidates, (), 0)
        seeds = [rng.getrandbits(64) for _ in worlds]
        columns: list[list[int]] = [[] for _ in candidates]
        moves = 0
        for world, seed in zip(worlds, seeds, strict=True):
            points = []
            for action in candidates:
                played = play_out_within(
                    apply_match(world, action),
                    view.seat,
                    PortableRandom(seed),
                    self.rollout,
                    budget - moves,
                )
                if played is None:
                    return Search(candidates, tuple(map(tuple, columns)), budget)
                value, spent = played
                moves += spent
                points.append(value)
            for column, value in zip(columns, points, strict=True):
                column.append(value)
        return Search(candidates, tuple(map(tuple, columns)), moves)
