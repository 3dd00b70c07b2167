"""The expert with a discard learned from true outcomes: the base of ``master``.

The expert (``bots/expert.py``) scores each discard by one hand-written sum: the
deadwood left, less a weight per out of the loose cards, plus the danger of feeding the
opponent. :class:`Learned` keeps everything of the expert (its draws, knocks, inference
and undercut check) and changes one thing: where the expert scores other discards close
to its choice, it picks among them by a linear value of the features below, whose
weights were fitted to the true outcomes of expert-against-expert play.

How the weights were made (``bench/learned_q.py``, rerunnable): at 12,000 discards of
seeded expert-against-expert matches where the expert scores a second card within 8
points of its best, each candidate (the expert's choice and up to three next best) was
played to the end of the round in the *true* state, the stock shuffled again for each
playout, by the full expert in both seats. Given the seat's view the true hand is a
draw from the real distribution of hands, so these playouts value each discard from the
view with no model of the opponent's hand at all. The weights are the least-squares fit
of each candidate's points less the expert's choice's (bench/RESULTS.md, "Master: a
discard value learned from true outcomes", has the table, with standard errors).

The player reads the view only, like every player: the true hands and stocks were only
its training labels. The weights are twelve numbers in this file and in the page's port
(``web/js/bots/learned.js``); the value is a plain left-to-right sum in both, so the
two languages pick the same card.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from ginrummy.bots.base import discardable, find
from ginrummy.bots.evaluation import danger, discard_scores
from ginrummy.bots.expert import EXPERT, PLAN, Expert, Plan
from ginrummy.bots.expert_model import Inference, holding_odds
from ginrummy.bots.heuristic import Style
from ginrummy.bots.knowledge import Knowledge
from ginrummy.engine import Action, ActionKind, Card, SeatView

CANDIDATES = 4  # the expert's choice and up to three more discards
SPREAD = 8.0  # ... each scored by the expert within this much of its best

# "late" runs from 0 at a full stock (31 cards after the deal) to 1 at an empty one; the
# wall is the expert's (``PLAN.wall``: 5 stock cards or fewer).
FEATURES = (
    "deadwood",  # the deadwood of the hand left
    "outs",  # the outs of its loose cards (the expert's potential at weight 1)
    "danger",  # the card's danger by the expert's inference of the opponent's hand
    "value",  # the card's count
    "deadwood*late",
    "outs*late",
    "danger*late",
    "value*late",
    "danger*wall",
    "knockable",  # the hand left has 10 deadwood or less
    "knockable*late",
    "deadwood<=4",
)

# bench/learned_q.json, fitted on 12,000 positions (tests/bots/test_learned.py checks
# that the two agree). Higher is better.
WEIGHTS = (
    -0.6971163692474376,
    0.8369137903347006,
    -3.021504458161147,
    -0.6294989835578892,
    0.3409373840286987,
    -0.6137702729205412,
    3.259941738430163,
    0.9565835912485321,
    -0.8340466406556927,
    2.490323943932618,
    -4.435130013114341,
    3.0903351519343056,
)


def discard_candidates(
    expert: Expert, view: SeatView, know: Knowledge, odds: list[float] | None
) -> list[Card]:
    """The discards worth judging: the best by the expert's own score, the best first
    (the expert's choice), at most ``CANDIDATES`` within ``SPREAD`` of it."""
    scored = expert.scores(know.hand, know, odds)
    plain = {a.card for a in view.legal_actions if a.kind is ActionKind.DISCARD}
    ranked = sorted(
        (c for c in discardable(view) if c in plain),
        key=lambda c: (scored[c.index][1], -c.value, c.index),
    )
    if not ranked:
        return []
    floor = scored[ranked[0].index][1]
    return [c for c in ranked[:CANDIDATES] if scored[c.index][1] <= floor + SPREAD]


def discard_features(
    know: Knowledge, odds: list[float], cards: Sequence[Card]
) -> list[list[float]]:
    """Each discard's features (``FEATURES``), in the order of ``cards``."""
    plain = discard_scores(know.hand, know.unseen, 1.0)
    late = 1.0 - min(know.stock_size, 31) / 31
    wall = float(know.stock_size <= PLAN.wall)
    rows = []
    for card in cards:
        dw, score = plain[card.index]
        outs = dw - score
        d = danger(card.index, odds)
        value = float(card.value)
        knockable = float(dw <= 10)
        rows.append(
            [
                dw,
                outs,
                d,
                value,
                dw * late,
                outs * late,
                d * late,
                value * late,
                d * wall,
                knockable,
                knockable * late,
                float(dw <= 4),
            ]
        )
    return rows


def learned_value(weights: Sequence[float], row: Sequence[float]) -> float:
    """The weighted sum of a row, added left to right (as JavaScript adds)."""
    total = 0.0
    for w, f in zip(weights, row, strict=True):
        total += w * f
    return total


class Learned(Expert):
    """The expert whose discard is, among the expert's close candidates, the one of the
    best learned value (its first, the expert's choice, on a tie)."""

    def __init__(
        self, weights: Sequence[float] = WEIGHTS, style: Style = EXPERT, plan: Plan = PLAN
    ) -> None:
        super().__init__(style, plan)
        if len(weights) != len(FEATURES):
            raise ValueError(f"a discard needs {len(FEATURES)} weights, not {len(weights)}")
        if plan.inference is None:
            raise ValueError("the learned discard needs the expert's inference (its danger)")
        self.weights = tuple(weights)
        self.inference: Inference = plan.inference

    def discard(self, view: SeatView, know: Knowledge, rng: random.Random) -> Action:
        choice = super().discard(view, know, rng)
        if choice.kind is not ActionKind.DISCARD:
            return choice  # gin or a knock: the expert's
        odds = holding_odds(know, self.inference)  # the expert's odds, read once
        cards = discard_candidates(self, view, know, odds)
        if len(cards) < 2:
            return choice
        values = [learned_value(self.weights, row) for row in discard_features(know, odds, cards)]
        best = max(range(len(cards)), key=lambda k: (values[k], -k))
        return choice if best == 0 else find(view, ActionKind.DISCARD, cards[best]) or choice
