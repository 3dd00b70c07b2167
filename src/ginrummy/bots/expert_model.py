"""The expert's picture of the opponent's hand, and what a knock is worth against it.

- *inference*: how likely each unseen card is in the opponent's hidden hand, from what
  it took from the pile (kept for a meld), discarded and passed on (not wanted);
- *determinization*: opponent hands drawn from those odds, a fixed number of them from
  the seeded portable rng (never a clock), each improved as a player would have improved it
  with the stock cards it drew;
- *knock outlook*: over those hands, the chance of an undercut and the expected points
  of knocking now, after the opponent's best melds and layoffs (the engine's
  ``defender_reply``: the bot applies the rule, it does not re-implement it).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from ginrummy.bots.evaluation import discard_scores, indices, neighbours
from ginrummy.bots.knowledge import Knowledge
from ginrummy.engine.showdown import defender_reply


@dataclass(frozen=True, slots=True)
class Inference:
    """Weights of an unseen card relative to a card nothing is known about."""

    pick: float = 1.8  # it melds with a card the opponent took from the pile
    discard: float = 0.5  # it melds with a card the opponent discarded
    passed: float = 0.7  # it melds with a card the opponent left lying


def holding_odds(know: Knowledge, inference: Inference) -> list[float]:
    """For each card index, the chance that the opponent holds it.

    >>> from ginrummy.bots.knowledge import Knowledge
    >>> know = Knowledge(0, 0, 0, 1, 0, 0, 9, 0, ((1 << 52) - 1) & ~1, 31)
    >>> odds = holding_odds(know, Inference())
    >>> odds[0], odds[1] > odds[5]  # took the ace of clubs; the two melds with it
    (1.0, True)
    """
    odds = [0.0] * 52
    for i in indices(know.opp_known):
        odds[i] = 1.0
    unseen = indices(know.unseen)
    if not unseen or not know.opp_hidden:
        return odds
    picks, thrown = know.opp_known, know.opp_discarded
    passed = know.opp_passed & ~thrown
    weights = []
    for i in unseen:
        near = neighbours(i)
        w = 1.0
        if near & picks:
            w *= inference.pick
        if near & thrown:
            w *= inference.discard
        if near & passed:
            w *= inference.passed
        weights.append(w)
    total = 0.0
    for w in weights:  # a plain sum, as JavaScript adds (sum() compensates from 3.12)
        total += w
    scale = know.opp_hidden / total
    for i, w in zip(unseen, weights, strict=True):
        odds[i] = min(0.95, w * scale)
    return odds


def sample_hands(
    know: Knowledge, odds: list[float], count: int, improve: int, rng: random.Random
) -> list[int]:
    """``count`` opponent hands (card masks) consistent with the view: the known cards
    plus hidden ones drawn by ``odds``. Each draws ``improve`` cards more and drops as
    many, keeping the lowest deadwood: the opponent has been choosing what to keep."""
    pool = indices(know.unseen)
    need = min(know.opp_hidden, len(pool))
    take = min(need + improve, len(pool))
    weights = [max(odds[i], 1e-6) for i in pool]
    hands = []
    for _ in range(count):
        hidden = weighted_draw(pool, weights, take, rng)
        hands.append(_keep_best(know.opp_known, hidden, take - need))
    return hands


def weighted_draw(pool: list[int], weights: list[float], take: int, rng: random.Random) -> int:
    """``take`` cards of ``pool`` without replacement, one by one, each with chance
    proportional to its weight (the same law as the keys ``u ** (1 / w)`` of
    Efraimidis and Spirakis, but with only additions and comparisons, which
    JavaScript computes bit for bit alike)."""
    left = list(zip(weights, pool, strict=True))
    total = 0.0
    for w, _ in left:
        total += w
    hidden = 0
    for _ in range(take):
        x = rng.random() * total
        pick = len(left) - 1  # x beyond the last sum by rounding: the last card
        acc = 0.0
        for j, (w, _) in enumerate(left):
            acc += w
            if x < acc:
                pick = j
                break
        w, i = left.pop(pick)
        total -= w
        hidden |= 1 << i
    return hidden


def _keep_best(known: int, hidden: int, drops: int) -> int:
    """Drop ``drops`` hidden cards one by one, each time the one leaving least deadwood."""
    hand = known | hidden
    for _ in range(drops):
        scored = discard_scores(hand, 0, 0.0)
        card = min((dw, i) for i, (dw, _) in scored.items() if hidden >> i & 1)[1]
        hand ^= 1 << card
        hidden ^= 1 << card
    return hand


@dataclass(frozen=True, slots=True)
class Outlook:
    """What knocking now is expected to bring, over the sampled opponent hands."""

    undercut: float  # the chance of being undercut
    points: float  # expected points to the knocker (negative: to the opponent)


def knock_outlook(deadwood: int, melds: tuple[int, ...], hands: list[int], bonus: int) -> Outlook:
    """Knocking with ``deadwood`` and ``melds`` against each hand of ``hands``
    (docs/rules.md §3.5: an undercut when the defender's deadwood is at most the knocker's)."""
    undercuts = 0
    points = 0
    for hand in hands:
        # The engine's own rule: the defender's best melds and layoffs (docs/rules.md §3.4).
        margin = defender_reply(hand, melds)[2] - deadwood
        if margin > 0:
            points += margin
        else:
            undercuts += 1
            points -= bonus - margin
    n = max(len(hands), 1)
    return Outlook(undercuts / n, points / n)
