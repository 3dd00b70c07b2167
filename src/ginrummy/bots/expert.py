"""``expert``: the heuristic at its best settings, with what a strong human adds.

It never slips, tracks every public card and judges each discard by what it gives
away, and, beyond ``strong``:

- it infers the opponent's holdings from what it took, discarded and passed on
  (:func:`~ginrummy.bots.expert_model.holding_odds`): the danger of a discard and the
  sampled hands below follow those odds;
- it weighs knocking now against the undercut risk: when the stock table says knock,
  it samples opponent hands consistent with its view (a fixed number, from a
  generator seeded by the game's rng, each as a good player would have built it from
  its draws) and plays on, for gin or an undercut, when the opponent's deadwood after
  layoffs undercuts it in too many of them;
- near the wall (few stock cards left) it throws the safest cards, and its hand is
  valued by deadwood more than by the outs of its loose cards.

Tried and measured worse (bench/RESULTS.md, "Bots"): knocking beyond the table when
the sampled hands look safe, knocking at any count near the wall, looser knock tables,
sampled hands judged as plain draws.
Every decision is a function of the view and the rng: the level is deterministic for
a seed whatever the machine's speed.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from ginrummy.bots.evaluation import danger
from ginrummy.bots.expert_model import Inference, holding_odds, knock_outlook, sample_hands
from ginrummy.bots.heuristic import Player, Style, lowest_knock
from ginrummy.bots.knowledge import Knowledge
from ginrummy.bots.portable import PortableRandom
from ginrummy.engine import Action, Card, SeatView
from ginrummy.engine.melds import arrangement_of_mask

EXPERT = Style(
    memory=True,
    potential=1.0,
    danger=6.0,
    infer=False,  # the expert's own inference replaces the heuristic's (see odds)
    stock_gain=1.5,
    knock=((22, 10), (16, 6), (10, 4), (4, 3), (0, 10)),
    late_potential=0.3,
)

INFERENCE = Inference()


@dataclass(frozen=True, slots=True)
class Plan:
    """The expert's additions to the heuristic :class:`Style`."""

    inference: Inference | None = INFERENCE  # None: every unseen card alike
    samples: int = 32  # opponent hands sampled per knock decision (0: no undercut check)
    # Each sampled hand chose from one card more per ``improve_every`` stock draws of
    # the opponent, up to ``improve_cap``: hands improve as the round goes on. Judging
    # the opponent's hand this well (better than plain draws would make it) measured
    # best: the expert then plays on for gin and undercuts more often.
    improve_every: int = 1
    improve_cap: int = 6
    veto: float = 0.15  # play on when an undercut is at least this likely
    wall: int = 5  # the stock size from which the last turns are played
    wall_danger: float = 6.0  # extra weight on the danger of a discard near the wall


PLAN = Plan()


class Expert(Player):
    def __init__(self, style: Style = EXPERT, plan: Plan = PLAN) -> None:
        super().__init__(style)
        self.plan = plan

    def odds(self, know: Knowledge) -> list[float] | None:
        inference = self.plan.inference
        if inference is None:
            return super().odds(know)
        return holding_odds(know, inference)

    def scores(
        self, hand: int, know: Knowledge, odds: list[float] | None
    ) -> dict[int, tuple[int, float]]:
        scored = super().scores(hand, know, odds)
        extra = self.plan.wall_danger
        if odds is None or not extra or know.stock_size > self.plan.wall:
            return scored
        # Near the wall a meld for the opponent is a knock against us: throw safe cards.
        return {i: (dw, s + extra * danger(i, odds)) for i, (dw, s) in scored.items()}

    def choose_knock(
        self,
        view: SeatView,
        know: Knowledge,
        knocks: list[Action],
        rng: random.Random,
        scored: dict[int, tuple[int, float]],
    ) -> Action | None:
        best, deadwood = lowest_knock(knocks, scored)
        plan = self.plan
        if not self.knock_wanted(view, know, deadwood):
            return None
        if not plan.samples:
            return best
        odds = self.odds(know) or holding_odds(know, INFERENCE)
        # A generator of its own, seeded from the game's: one draw from the game's rng
        # per decision, however many samples are taken.
        local = PortableRandom(rng.getrandbits(64))
        improve = min(plan.improve_cap, know.opp_stock_draws // plan.improve_every)
        hands = sample_hands(know, odds, plan.samples, improve, local)
        melds = arrangement_of_mask(know.hand & ~_card(best).bit).meld_masks
        outlook = knock_outlook(deadwood, melds, hands, view.table.rules.undercut_bonus)
        return best if outlook.undercut < plan.veto else None


def _card(action: Action) -> Card:
    assert action.card is not None
    return action.card
