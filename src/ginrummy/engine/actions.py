"""Typed actions with a canonical text that ``str()`` writes and ``parse_action`` reads.

>>> str(parse_action("Discard qs"))
'discard Qs'
>>> parse_action("draw stock") == Action(ActionKind.DRAW_STOCK)
True
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from ginrummy.engine.cards import DECK, Card, parse_card
from ginrummy.engine.errors import ActionParseError, CardParseError


class ActionKind(StrEnum):
    TAKE = "take"  # take the first upcard
    PASS = "pass"  # pass on the first upcard (or on the last discard, alternative stock rule)
    DRAW_STOCK = "draw stock"
    DRAW_DISCARD = "draw discard"
    DISCARD = "discard"
    KNOCK = "knock"  # discard face down and knock, 0 < deadwood <= knock limit
    GIN = "gin"  # discard face down with 0 deadwood
    BIG_GIN = "big gin"  # show 11 melded cards without a discard (if the rules allow)

    @property
    def takes_card(self) -> bool:
        return self in (ActionKind.DISCARD, ActionKind.KNOCK, ActionKind.GIN)


@dataclass(frozen=True, slots=True)
class Action:
    kind: ActionKind
    card: Card | None = None

    def __post_init__(self) -> None:
        if self.kind.takes_card != (self.card is not None):
            need = "needs a card" if self.kind.takes_card else "takes no card"
            raise ActionParseError(f"action {self.kind.value!r} {need}")

    def __str__(self) -> str:
        return self.kind.value if self.card is None else f"{self.kind.value} {self.card}"


TAKE = Action(ActionKind.TAKE)
PASS = Action(ActionKind.PASS)
DRAW_STOCK = Action(ActionKind.DRAW_STOCK)
DRAW_DISCARD = Action(ActionKind.DRAW_DISCARD)
BIG_GIN = Action(ActionKind.BIG_GIN)

_BY_CARD: dict[ActionKind, tuple[Action, ...]] = {
    kind: tuple(Action(kind, c) for c in DECK) for kind in ActionKind if kind.takes_card
}


def card_action(kind: ActionKind, card: Card) -> Action:
    """The interned ``discard``/``knock``/``gin`` action with ``card``."""
    return _BY_CARD[kind][card.index]


_PLAIN = {a.kind.value: a for a in (TAKE, PASS, DRAW_STOCK, DRAW_DISCARD, BIG_GIN)}
_WITH_CARD = {k.value: k for k in ActionKind if k.takes_card}


def parse_action(text: str) -> Action:
    """Read ``take``, ``pass``, ``draw stock``, ``draw discard``, ``discard 7h``,
    ``knock 7h``, ``gin 7h`` or ``big gin`` (case-insensitive, spaces folded)."""
    if not isinstance(text, str):
        raise ActionParseError(f"an action is a text, got {type(text).__name__}")
    words = text.strip().lower().split()
    joined = " ".join(words)
    if joined in _PLAIN:
        return _PLAIN[joined]
    if len(words) == 2 and words[0] in _WITH_CARD:
        try:
            return card_action(_WITH_CARD[words[0]], parse_card(words[1]))
        except CardParseError as exc:
            raise ActionParseError(f"{text.strip()!r}: {exc}") from None
    expected = "take, pass, draw stock, draw discard, discard <card>, knock <card>, gin <card>"
    raise ActionParseError(f"not an action: {text.strip()!r} (expected {expected}, big gin)")
