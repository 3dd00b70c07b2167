"""The graded heuristic players: one decision procedure, tuned by a :class:`Style`.

Each decision weighs the own hand (deadwood, and the live cards that would complete
its loose pairs and sequences), and, from ``strong`` on, what the discard gives away.
``beginner`` remembers nothing and knocks late; ``casual`` knocks as soon as it may;
``strong`` tracks every public card and avoids feeding the opponent's known picks;
``expert`` (see ``expert.py``) adds inference, an exact stock estimate and sampling.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from ginrummy.bots.base import discardable, find, of_kind
from ginrummy.bots.evaluation import danger, hand_score, holding_odds, loose_cards
from ginrummy.bots.knowledge import Knowledge, read, read_plain
from ginrummy.engine import Action, ActionKind, Card, Phase, SeatView
from ginrummy.engine.cards import from_mask
from ginrummy.engine.melds import deadwood_of_mask


@dataclass(frozen=True, slots=True)
class Style:
    memory: bool  # track every public card (else: own hand and the pile top only)
    potential: float  # points per live card that would complete a loose pair/sequence
    danger: float  # points per unit of danger of a discard (0: ignore the opponent)
    infer: bool  # infer the opponent's holdings from what it took, left and discarded
    stock_gain: float  # what a stock draw is expected to improve the hand by
    # (stock size, deadwood): knock with at most this deadwood while the stock holds at
    # least this many cards; the first step that applies counts. Early knocks come
    # before the opponent's hand has formed; later ones risk an undercut.
    knock: tuple[tuple[int, int], ...]
    slip: float = 0.0  # chance to throw a random loose card instead of the best discard


BEGINNER = Style(False, 0.0, 0.0, False, 0.0, ((16, 0), (0, 10)), slip=0.3)
CASUAL = Style(False, 0.6, 0.0, False, 1.0, ((0, 10),), slip=0.1)
STRONG = Style(True, 1.0, 6.0, False, 1.5, ((22, 10), (16, 6), (10, 4), (4, 3), (0, 10)))


class Player:
    """A heuristic computer player; call it as ``choose(view, rng)``."""

    def __init__(self, style: Style) -> None:
        self.style = style

    def __call__(self, view: SeatView, rng: random.Random) -> Action:
        phase = view.table.round_phase
        if phase is Phase.LAST_DISCARD:
            # Offered only when taking the last discard lets us knock: always worth it.
            return find(view, ActionKind.DRAW_DISCARD) or view.legal_actions[-1]
        know = read(view) if self.style.memory else read_plain(view)
        if phase is Phase.FIRST_UPCARD:
            return view.legal_actions[0 if self.wants_top(view, know) else 1]
        if phase is Phase.DRAW:
            take = find(view, ActionKind.DRAW_DISCARD)
            if take is not None and self.wants_top(view, know):
                return take
            return find(view, ActionKind.DRAW_STOCK) or view.legal_actions[0]
        return self.discard(view, know, rng)

    # --- draw ---------------------------------------------------------------------

    def odds(self, know: Knowledge) -> list[float] | None:
        return holding_odds(know, self.style.infer) if self.style.danger else None

    def wants_top(self, view: SeatView, know: Knowledge) -> bool:
        top = view.table.discard_top
        if top is None:
            return False
        odds = self.odds(know)
        hand = know.hand | top.bit
        best = min(self.discard_score(hand, c, know, odds) for c in _cards(know.hand))
        if self.can_knock(hand, top, view) and self.knock_wanted(
            view, know, deadwood_of_knock(hand, top)
        ):
            return True
        return best < self.stock_value(view, know, odds) - 1e-9

    def stock_value(self, view: SeatView, know: Knowledge, odds: list[float] | None) -> float:
        """The expected score of the hand after a stock draw (lower is better)."""
        live = know.unseen
        return hand_score(know.hand, live, self.style.potential) - self.style.stock_gain

    def can_knock(self, hand: int, taken: Card, view: SeatView) -> bool:
        return deadwood_of_knock(hand, taken) <= view.table.knock_limit

    # --- discard ------------------------------------------------------------------

    def discard_score(
        self, hand: int, card: Card, know: Knowledge, odds: list[float] | None
    ) -> float:
        score = hand_score(hand ^ card.bit, know.unseen, self.style.potential)
        if odds is not None:
            score += self.style.danger * danger(card.index, odds)
        return score

    def discard(self, view: SeatView, know: Knowledge, rng: random.Random) -> Action:
        big = find(view, ActionKind.BIG_GIN)
        if big is not None:
            return big
        gins = of_kind(view, ActionKind.GIN)
        odds = self.odds(know)
        hand = know.hand
        if gins:
            return min(gins, key=lambda a: self.discard_score(hand, _card(a), know, odds))
        knocks = of_kind(view, ActionKind.KNOCK)
        if knocks:
            knock = self.choose_knock(view, know, knocks, rng)
            if knock is not None:
                return knock
        cards = discardable(view)
        if self.style.slip and rng.random() < self.style.slip:
            _, loose = loose_cards(hand)
            slips = [c for c in cards if loose & c.bit]
            if slips:
                return find(view, ActionKind.DISCARD, rng.choice(slips)) or view.legal_actions[0]
        card = min(
            cards, key=lambda c: (self.discard_score(hand, c, know, odds), -c.value, c.index)
        )
        return find(view, ActionKind.DISCARD, card) or view.legal_actions[0]

    def knock_wanted(self, view: SeatView, know: Knowledge, deadwood: int) -> bool:
        stock = view.table.stock_size
        for at_least, most in self.style.knock:
            if stock >= at_least:
                return deadwood <= most
        return True

    def choose_knock(
        self, view: SeatView, know: Knowledge, knocks: list[Action], rng: random.Random
    ) -> Action | None:
        """The knock to make now, or None to play on."""
        hand = know.hand
        best = min(knocks, key=lambda a: (deadwood_of_mask(hand ^ _card(a).bit), _card(a).index))
        return (
            best
            if self.knock_wanted(view, know, deadwood_of_mask(hand ^ _card(best).bit))
            else None
        )


def deadwood_of_knock(hand: int, taken: Card) -> int:
    """The least deadwood after discarding any card but ``taken`` from an 11-card hand."""
    return min(deadwood_of_mask(hand ^ c.bit) for c in _cards(hand) if c is not taken)


def _cards(mask: int) -> tuple[Card, ...]:
    return from_mask(mask)


def _card(action: Action) -> Card:
    assert action.card is not None
    return action.card
