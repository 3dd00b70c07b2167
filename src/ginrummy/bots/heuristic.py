"""The graded heuristic players: one decision procedure, tuned by a :class:`Style`.

Each decision weighs the own hand (deadwood, and the live cards that would complete
its loose pairs and sequences), and, for ``strong``, what the discard gives away.
Each level has a character of its own (docs/computer-players.md, "How each level plays"):

- ``beginner`` counts points only: it throws its highest card outside a meld, takes
  the upcard only when that lowers its count at once, remembers nothing, never looks
  at what the opponent takes, knocks at the first chance and is often careless (half
  of its discards are a random card outside its melds);
- ``casual`` chases melds greedily: it values every live card that would complete a
  pair or sequence three times as much as ``strong`` does and takes the upcard
  whenever it helps at all; it remembers nothing, ignores the opponent and knocks at
  once;
- ``strong`` plays the expert's heuristic without slips: it tracks every public card,
  lightly avoids feeding the opponent's picks and values its draws less as the stock
  runs out, but it infers nothing from the opponent's discards and knocks as soon as
  it may, which the expert punishes by undercutting;
- ``expert`` (see ``expert.py``) builds on this procedure and adds inference of the
  opponent's holdings, a sampled undercut check before knocking and its own play
  near the wall.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from operator import itemgetter

from ginrummy.bots.base import discardable, find
from ginrummy.bots.evaluation import (
    PARTNERS,
    discard_scores,
    hand_score,
    holding_odds,
    loose_cards,
)
from ginrummy.bots.knowledge import Knowledge, Reader, read_plain
from ginrummy.engine import Action, ActionKind, Card, Phase, SeatView

_DEADWOOD, _SCORE = itemgetter(0), itemgetter(1)  # of the (deadwood, score) pairs
_DISCARD, _KNOCK, _GIN, _BIG_GIN = (
    ActionKind.DISCARD,
    ActionKind.KNOCK,
    ActionKind.GIN,
    ActionKind.BIG_GIN,
)


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
    late_potential: float | None = None  # the potential weight as the stock runs out
    # (falling linearly from ``potential`` at a full stock; None: constant)


# Every level's settings were measured (bench/RESULTS.md, "Bots"): each beats the one
# below in about two matches of three, and ``strong`` beats ``baseline``. No level
# has a negative ``stock_gain``: a player that takes the upcard when it leaves its hand
# worse could, with another such player, pass the same cards back and forth for ever
# (``tests/bots/test_characters.py`` holds this).
KNOCK_AT_ONCE = ((0, 10),)
BEGINNER = Style(False, 0.0, 0.0, False, 0.0, KNOCK_AT_ONCE, slip=0.5)
CASUAL = Style(False, 3.0, 0.0, False, 0.0, KNOCK_AT_ONCE)
STRONG = Style(True, 1.0, 1.5, False, 1.5, KNOCK_AT_ONCE, late_potential=0.3)


class Player:
    """A heuristic computer player; call it as ``choose(view, rng)``."""

    def __init__(self, style: Style) -> None:
        self.style = style
        # The scores of the last hand judged, with what they depend on: a player that
        # takes the discard judges the same hand again for its discard.
        self._last: tuple[tuple[int, ...], dict[int, tuple[int, float]]] | None = None
        self._reader = Reader()  # read() that goes on from the moves already read

    def __call__(self, view: SeatView, rng: random.Random) -> Action:
        phase = view.table.round_phase
        if phase is Phase.LAST_DISCARD:
            # Offered only when taking the last discard lets us knock: always worth it.
            return find(view, ActionKind.DRAW_DISCARD) or view.legal_actions[-1]
        know = self._reader.read(view) if self.style.memory else read_plain(view)
        if phase is Phase.FIRST_UPCARD:
            return view.legal_actions[0 if self.wants_top(view, know) else 1]
        if phase is Phase.DRAW:
            take = find(view, ActionKind.DRAW_DISCARD)
            if take is not None and not threw_top(view) and self.wants_top(view, know):
                return take
            return find(view, ActionKind.DRAW_STOCK) or view.legal_actions[0]
        return self.discard(view, know, rng)

    # --- draw ---------------------------------------------------------------------

    def weight(self, know: Knowledge) -> float:
        """Points per live out of the loose cards (see :class:`Style`)."""
        late = self.style.late_potential
        if late is None:
            return self.style.potential
        full = self.style.potential
        return late + (full - late) * min(know.stock_size, 31) / 31

    def odds(self, know: Knowledge) -> list[float] | None:
        return holding_odds(know, self.style.infer) if self.style.danger else None

    def wants_top(self, view: SeatView, know: Knowledge) -> bool:
        top = view.table.discard_top
        if top is None:
            return False
        odds = self.odds(know)
        scored = self.scores(know.hand | top.bit, know, odds)
        del scored[top.index]  # the card just taken may not be discarded
        knock: int = min(map(_DEADWOOD, scored.values()))
        if knock <= view.table.knock_limit and self.knock_wanted(view, know, knock):
            return True
        best: float = min(map(_SCORE, scored.values()))
        return best < self.stock_value(view, know, odds) - 1e-9

    def stock_value(self, view: SeatView, know: Knowledge, odds: list[float] | None) -> float:
        """The expected score of the hand after a stock draw (lower is better)."""
        live = know.unseen
        return hand_score(know.hand, live, self.weight(know)) - self.style.stock_gain

    # --- discard ------------------------------------------------------------------

    def scores(
        self, hand: int, know: Knowledge, odds: list[float] | None
    ) -> dict[int, tuple[int, float]]:
        """For each card index of ``hand``: the deadwood left by discarding it, and the
        discard's score (the hand's deadwood less its outs, plus what the card gives
        away; lower is better). The odds derive from the fields of the key."""
        key = (
            hand,
            know.unseen,
            know.opp_known,
            know.opp_hidden,
            know.stock_size,
            know.opp_discarded,
            know.opp_passed,
        )
        last = self._last
        if last is not None and last[0] == key:
            return dict(last[1])
        scored = self._scores(hand, know, odds)
        self._last = (key, scored)
        return dict(scored)

    def _scores(
        self, hand: int, know: Knowledge, odds: list[float] | None
    ) -> dict[int, tuple[int, float]]:
        scored = discard_scores(hand, know.unseen, self.weight(know))
        if odds is not None:
            weight = self.style.danger
            for i, (dw, score) in scored.items():
                total = 0.0  # danger(i, odds), inlined: this runs for every card judged
                for a, b in PARTNERS[i]:
                    total += odds[a] * odds[b]
                scored[i] = (dw, score + weight * total)
        return scored

    def discard(self, view: SeatView, know: Knowledge, rng: random.Random) -> Action:
        legal = view.legal_actions
        gins: list[Action] = []
        knocks: list[Action] = []
        for action in legal:  # one pass: this runs for every discard of every match
            kind = action.kind
            if kind is _DISCARD:
                continue
            if kind is _KNOCK:
                knocks.append(action)
            elif kind is _GIN:
                gins.append(action)
            elif kind is _BIG_GIN:
                return action
        odds = self.odds(know)
        hand = know.hand
        scored = self.scores(hand, know, odds)
        if gins:
            return min(gins, key=lambda a: scored[_card(a).index][1])
        if knocks:
            knock = self.choose_knock(view, know, knocks, rng, scored)
            if knock is not None:
                return knock
        cards = discardable(view)
        if self.style.slip and rng.random() < self.style.slip:
            _, loose = loose_cards(hand)
            slips = [c for c in cards if loose & c.bit]
            if slips:
                return find(view, _DISCARD, rng.choice(slips)) or legal[0]
        return find(view, _DISCARD, _least(cards, scored)) or legal[0]

    def knock_wanted(self, view: SeatView, know: Knowledge, deadwood: int) -> bool:
        stock = view.table.stock_size
        for at_least, most in self.style.knock:
            if stock >= at_least:
                return deadwood <= most
        return True

    def choose_knock(
        self,
        view: SeatView,
        know: Knowledge,
        knocks: list[Action],
        rng: random.Random,
        scored: dict[int, tuple[int, float]],
    ) -> Action | None:
        """The knock to make now (``scored`` as from :meth:`scores`), or None to play on."""
        best, deadwood = lowest_knock(knocks, scored)
        return best if self.knock_wanted(view, know, deadwood) else None


def threw_top(view: SeatView) -> bool:
    """True when the pile's top card is one this seat discarded this round. Taking it
    back can go on for ever near the wall: two players who each take the other's
    discard and decline to knock never draw from the stock again."""
    top = view.table.discard_top
    me = view.seat
    return top is not None and any(
        m.card is top and m.seat is me and m.kind is _DISCARD for m in view.moves
    )


def _least(cards: list[Card], scored: dict[int, tuple[int, float]]) -> Card:
    """The card with the least (score, -value, index): the best discard."""
    best = cards[0]
    best_score = scored[best.index][1]
    for card in cards[1:]:
        score = scored[card.index][1]
        if score < best_score or (
            score == best_score
            and (card.value > best.value or (card.value == best.value and card.index < best.index))
        ):
            best, best_score = card, score
    return best


def lowest_knock(knocks: list[Action], scored: dict[int, tuple[int, float]]) -> tuple[Action, int]:
    """The knock that leaves the least deadwood (the lower card on a tie), and that
    deadwood."""
    best = min(knocks, key=lambda a: (scored[_card(a).index][0], _card(a).index))
    return best, scored[_card(best).index][0]


def _card(action: Action) -> Card:
    assert action.card is not None
    return action.card
