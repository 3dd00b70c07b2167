"""``expert``: what a strong human uses, within a time budget.

On top of ``strong`` it infers the opponent's likely holdings from what it took,
passed on and discarded (``holding_odds``) and judges every discard's danger with
them; it values a stock draw exactly, over every card that may still come; and it
decides whether to knock by sampling opponent hands consistent with its view
(determinization): the opponent's hidden cards drawn from the unseen cards by their
odds, improved the way a player improves a hand by keeping the best of what it
drew, then scored against our knock with the engine's own showdown. Near the end of
the stock it knocks with anything and discards defensively.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass

from ginrummy.bots.evaluation import hand_score, holding_odds, loose_cards, neighbours
from ginrummy.bots.heuristic import Player, Style, _card
from ginrummy.bots.knowledge import Knowledge
from ginrummy.engine import Action, SeatView, settle
from ginrummy.engine.cards import from_mask
from ginrummy.engine.melds import deadwood_of_mask
from ginrummy.engine.showdown import Side

EXPERT = Style(True, 1.0, 8.0, True, 0.0, ((22, 10), (16, 6), (10, 4), (4, 3), (0, 10)))


@dataclass(frozen=True, slots=True)
class Budget:
    samples: int = 48  # opponent hands sampled for a knock decision
    seconds: float = 0.12  # wall-clock cap for the sampling of one decision
    late_stock: int = 6  # from here on: knock with anything legal, discard defensively
    max_undercut: float = 0.5  # knock by the table only if fewer sampled replies undercut
    sure: float = 0.0  # knock beyond the table when this few sampled replies undercut
    kept_draws: int = 4  # sampled hands keep the best of up to this many stock draws
    exact_stock: bool = True  # value a stock draw over every unseen card


class Expert(Player):
    def __init__(self, style: Style = EXPERT, budget: Budget = Budget()) -> None:
        super().__init__(style)
        self.budget = budget

    def stock_value(self, view: SeatView, know: Knowledge, odds: list[float] | None) -> float:
        """Exact expectation over every card the stock may give (each unseen card is
        equally likely to be the top of the stock)."""
        if not self.budget.exact_stock:
            return super().stock_value(view, know, odds)
        live = know.unseen
        weight = self.style.potential
        hand = know.hand
        cards = from_mask(hand)
        now = hand_score(hand, live, weight)
        _, loose = loose_cards(hand)
        worst = max(from_mask(loose), key=lambda c: c.value, default=None)
        total = 0.0
        n = 0
        for x in from_mask(live):
            grown = hand | x.bit
            best = now  # discard the drawn card again
            if not neighbours(x.index) & hand:
                # A card that melds with nothing here can only replace the worst loose card.
                if worst is not None and worst.value > x.value:
                    best = min(best, hand_score(grown ^ worst.bit, live, weight))
            else:
                for c in cards:
                    s = hand_score(grown ^ c.bit, live, weight)
                    best = min(best, s)
            total += best
            n += 1
        return total / n if n else now

    def choose_knock(
        self, view: SeatView, know: Knowledge, knocks: list[Action], rng: random.Random
    ) -> Action | None:
        """Knock with the option that scores best against sampled replies, unless the
        undercut risk is too high while there is still time to improve."""
        hand = know.hand
        ranked = sorted(
            knocks, key=lambda a: (deadwood_of_mask(hand ^ _card(a).bit), _card(a).index)
        )
        if view.table.stock_size <= self.budget.late_stock:
            return ranked[0]
        opponents = self.sample_opponent(know, rng, self.budget.samples)
        best: Action | None = None
        best_points = -1e9
        best_undercut = 1.0
        for action in ranked[:3]:
            points, undercut = knock_outcomes(view, hand ^ _card(action).bit, opponents)
            if points > best_points:
                best, best_points, best_undercut = action, points, undercut
        assert best is not None
        by_table = self.knock_wanted(view, know, deadwood_of_mask(hand ^ _card(best).bit))
        if by_table and best_undercut <= self.budget.max_undercut:
            return best
        if best_undercut <= self.budget.sure and best_points > 0:
            return best
        return None

    def sample_opponent(self, know: Knowledge, rng: random.Random, n: int) -> list[int]:
        """Opponent hands consistent with the view, biased towards what it kept."""
        odds = holding_odds(know, True)
        pool = [i for i in range(52) if know.unseen >> i & 1]
        hidden = know.opp_hidden
        extra = min(know.opp_stock_draws, self.budget.kept_draws, max(len(pool) - hidden, 0))
        out = []
        deadline = time.perf_counter() + self.budget.seconds
        for _ in range(n):
            keys = sorted(
                pool, key=lambda i: rng.random() ** (1.0 / max(odds[i], 1e-6)), reverse=True
            )
            hand = know.opp_known
            for i in keys[: hidden + extra]:
                hand |= 1 << i
            for _ in range(extra):  # it threw away its worst draws
                best_mask, best_dw = hand, 1 << 30
                for i in keys[: hidden + extra]:
                    bit = 1 << i
                    if hand & bit:
                        dw = deadwood_of_mask(hand ^ bit)
                        if dw < best_dw:
                            best_mask, best_dw = hand ^ bit, dw
                hand = best_mask
            out.append(hand)
            if time.perf_counter() > deadline:
                break
        return out


def knock_outcomes(view: SeatView, mine: int, opponents: list[int]) -> tuple[float, float]:
    """Mean points of knocking with ``mine`` against sampled hands, and the undercut rate."""
    rules = view.table.rules
    total = 0.0
    undercuts = 0
    for opp in opponents:
        sd = settle(
            from_mask(mine),
            from_mask(opp),
            rules,
            knock_limit=view.table.knock_limit,
            doubled=view.table.doubled,
        )
        if sd.winner is Side.KNOCKER:
            total += sd.points
        else:
            total -= sd.points
            undercuts += 1
    n = max(len(opponents), 1)
    return total / n, undercuts / n
