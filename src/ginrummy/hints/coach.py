"""The "learn with tips" coach (docs/rules.md §6): advice from the own hand alone.

``advise`` takes exactly the player's own hand, the legal actions of the decision
and the open discard card, so by its signature it cannot see history, the opponent's
picks or anything hidden. It recommends one action and gives the reason as a message
key with parameters; the texts (German, English) live with the client.

>>> from ginrummy.engine import parse_cards, parse_action, parse_card
>>> tip = advise(parse_cards("5h 6h 2c 9d Kc Qs 3s 4d 8c Jh"),
...              (parse_action("draw stock"), parse_action("draw discard")), parse_card("7h"))
>>> str(tip.action), tip.key, tip.params["meld"], tip.params["before"], tip.params["after"]
('draw discard', 'take_completes_meld', '5h 6h 7h', 67, 46)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from ginrummy.engine import Action, ActionKind, Card
from ginrummy.engine.cards import from_mask
from ginrummy.engine.melds import Meld, arrangement_of_mask, deadwood_of_mask

Param = str | int


@dataclass(frozen=True, slots=True)
class Tip:
    """One recommendation: the action, and why as ``key`` plus ``params``."""

    action: Action
    key: str
    params: dict[str, Param] = field(default_factory=dict)


def advise(hand: Sequence[Card], legal_actions: Sequence[Action], discard: Card | None) -> Tip:
    """The recommended action among ``legal_actions`` and its reason.

    ``hand`` is the player's own hand, ``discard`` the open top card of the discard
    pile (None if the pile is empty). Raises ``ValueError`` without legal actions.
    """
    if not legal_actions:
        raise ValueError("no decision to advise on: there are no legal actions")
    mask = 0
    for card in hand:
        mask |= card.bit
    kinds = {a.kind for a in legal_actions}
    if ActionKind.BIG_GIN in kinds:
        return Tip(_of(legal_actions, ActionKind.BIG_GIN), "big_gin")
    if kinds & {ActionKind.DISCARD, ActionKind.KNOCK, ActionKind.GIN}:
        return _discard(mask, legal_actions)
    return _draw(mask, legal_actions, discard)


def _of(actions: Sequence[Action], kind: ActionKind, card: Card | None = None) -> Action:
    for action in actions:
        if action.kind is kind and (card is None or action.card is card):
            return action
    raise AssertionError(f"no {kind.value} among the legal actions")


def _meld_with(mask: int, card: Card) -> Meld | None:
    for m in arrangement_of_mask(mask).meld_masks:
        if m & card.bit:
            return Meld(m)
    return None


def _draw(mask: int, actions: Sequence[Action], top: Card | None) -> Tip:
    kinds = {a.kind for a in actions}
    take_kind = ActionKind.TAKE if ActionKind.TAKE in kinds else ActionKind.DRAW_DISCARD
    before = deadwood_of_mask(mask)
    if take_kind not in kinds or top is None:
        if ActionKind.DRAW_STOCK not in kinds:
            # The last discard with the stock used up (alternative stock rule): only pass.
            return Tip(_of(actions, ActionKind.PASS), "pass_only", {"deadwood": before})
        return Tip(_of(actions, ActionKind.DRAW_STOCK), "draw_stock_only", {"deadwood": before})
    grown = mask | top.bit
    keep = min(
        (grown ^ c.bit for c in from_mask(mask)),
        key=lambda m: (deadwood_of_mask(m), m),
    )
    after = deadwood_of_mask(keep)
    meld = _meld_with(keep, top)
    if meld is not None and after < before:
        params: dict[str, Param] = {
            "card": str(top),
            "meld": str(meld),
            "before": before,
            "after": after,
        }
        return Tip(_of(actions, take_kind), "take_completes_meld", params)
    other = ActionKind.PASS if ActionKind.PASS in kinds else ActionKind.DRAW_STOCK
    key = "pass_no_meld" if other is ActionKind.PASS else "draw_stock_no_meld"
    return Tip(_of(actions, other), key, {"card": str(top), "deadwood": before})


def _pairs(mask: int, card: Card) -> int:
    """How many other cards of the hand could meld with ``card`` (same rank, near in suit)."""
    n = 0
    for other in from_mask(mask ^ card.bit):
        if other.rank == card.rank or (
            other.suit is card.suit and abs(other.rank - card.rank) <= 2
        ):
            n += 1
    return n


def _discard(mask: int, actions: Sequence[Action]) -> Tip:
    gins = [a for a in actions if a.kind is ActionKind.GIN]
    if gins:
        return Tip(gins[0], "gin", {"card": str(gins[0].card)})
    knocks = [a for a in actions if a.kind is ActionKind.KNOCK]
    if knocks:
        best = min(knocks, key=lambda a: (_dw_without(mask, a), -_card(a).value, _card(a).index))
        params: dict[str, Param] = {"card": str(best.card), "deadwood": _dw_without(mask, best)}
        return Tip(best, "knock", params)
    discards = [a for a in actions if a.kind is ActionKind.DISCARD]
    best = min(
        discards,
        key=lambda a: (
            _dw_without(mask, a),
            _pairs(mask, _card(a)),
            -_card(a).value,
            _card(a).index,
        ),
    )
    card = _card(best)
    after = _dw_without(mask, best)
    loose = bool(arrangement_of_mask(mask).unmatched_mask & card.bit)
    key = "discard_loose" if loose else "discard_least_deadwood"
    return Tip(best, key, {"card": str(card), "deadwood": after})


def _card(action: Action) -> Card:
    assert action.card is not None
    return action.card


def _dw_without(mask: int, action: Action) -> int:
    return deadwood_of_mask(mask ^ _card(action).bit)
