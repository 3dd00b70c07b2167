"""What every computer player is: ``choose(view, rng) -> action`` over a seat view.

A bot gets a :class:`~ginrummy.engine.SeatView` (docs/rules.md §5: exactly what a human in
its seat sees) and a seeded random generator; it returns one of
``view.legal_actions``. It never receives a game state, so it cannot read the
opponent's hand or the stock order.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Protocol

from ginrummy.engine import Action, ActionKind, Card, SeatView

ALL_CARDS = (1 << 52) - 1


class Chooser(Protocol):
    """A computer player: picks one of ``view.legal_actions``."""

    def __call__(self, view: SeatView, rng: random.Random, /) -> Action: ...


def mask_of(cards: Iterable[Card]) -> int:
    mask = 0
    for card in cards:
        mask |= card.bit
    return mask


def find(view: SeatView, kind: ActionKind, card: Card | None = None) -> Action | None:
    """The legal action of ``kind`` (with ``card``), if there is one."""
    for action in view.legal_actions:
        if action.kind is kind and action.card is card:
            return action
    return None


def of_kind(view: SeatView, *kinds: ActionKind) -> list[Action]:
    return [a for a in view.legal_actions if a.kind in kinds]


def discardable(view: SeatView) -> list[Card]:
    """The cards that may be discarded now (the card just taken may not)."""
    return [c for c in view.hand if c is not view.taken]
