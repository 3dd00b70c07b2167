"""The two measuring sticks: ``random`` and ``baseline`` (the classic simple strategy)."""

from __future__ import annotations

import random

from ginrummy.bots.base import discardable, find, mask_of, of_kind
from ginrummy.engine import DECK, Action, ActionKind, Card, Phase, SeatView
from ginrummy.engine.melds import arrangement_of_mask, deadwood_of_mask


def choose_random(view: SeatView, rng: random.Random) -> Action:
    """Any legal action, uniformly."""
    return rng.choice(view.legal_actions)


def completes_meld(hand: int, card: Card) -> bool:
    """True when ``card`` is in a meld of the best arrangement of the hand with it."""
    return any(m & card.bit for m in arrangement_of_mask(hand | card.bit).meld_masks)


def choose_baseline(view: SeatView, rng: random.Random) -> Action:
    """Take the upcard or discard only to complete or extend a meld, else draw from the
    stock; discard the unmatched card of highest value (never the card just taken);
    knock as soon as it is legal."""
    phase = view.table.round_phase
    hand = mask_of(view.hand)
    top = view.table.discard_top
    if phase is Phase.FIRST_UPCARD:
        take = top is not None and completes_meld(hand, top)
        return view.legal_actions[0 if take else 1]  # (take, pass)
    if phase is Phase.LAST_DISCARD:
        return find(view, ActionKind.DRAW_DISCARD) or view.legal_actions[-1]
    if phase is Phase.DRAW:
        take_it = find(view, ActionKind.DRAW_DISCARD)
        if take_it is not None and top is not None and completes_meld(hand, top):
            return take_it
        return find(view, ActionKind.DRAW_STOCK) or view.legal_actions[0]
    return _baseline_discard(view, hand)


def _baseline_discard(view: SeatView, hand: int) -> Action:
    big = find(view, ActionKind.BIG_GIN)
    if big is not None:
        return big
    ends = of_kind(view, ActionKind.GIN) or of_kind(view, ActionKind.KNOCK)
    if ends:
        return min(ends, key=lambda a: _after(hand, a.card))
    card = baseline_discard(hand, mask_of(discardable(view)))
    return find(view, ActionKind.DISCARD, card) or view.legal_actions[0]


def baseline_discard(hand: int, allowed: int) -> Card:
    """The card the simple player discards from ``hand`` (one of ``allowed``, a mask)
    when it does not knock: its unmatched card of highest value, else the one that
    leaves the least deadwood."""
    candidates = [c for c in DECK if allowed & c.bit]
    unmatched = arrangement_of_mask(hand).unmatched_mask
    loose = [c for c in candidates if unmatched & c.bit]
    if loose:
        return max(loose, key=lambda c: (c.value, c.index))
    return min(candidates, key=lambda c: (deadwood_of_mask(hand ^ c.bit), -c.value, c.index))


def _after(hand: int, card: Card | None) -> tuple[int, int, int]:
    assert card is not None
    return deadwood_of_mask(hand ^ card.bit), -card.value, card.index
