"""What a seat knows about the cards, read from its view alone (RULES.md §5).

Every public card is tracked: the discard pile, the cards the opponent took from it
(and still holds), what the opponent discarded, and the cards it passed on (the first
upcard, and every discard it left lying when it drew from the stock). The rest, the
*unseen* cards, are in the opponent's hidden hand or in the stock.
"""

from __future__ import annotations

from dataclasses import dataclass

from ginrummy.bots.base import ALL_CARDS, mask_of
from ginrummy.engine import ActionKind, SeatView

SUIT = 0x1FFF
_DISCARD, _DRAW_STOCK, _DRAW_DISCARD = (
    ActionKind.DISCARD,
    ActionKind.DRAW_STOCK,
    ActionKind.DRAW_DISCARD,
)
_TAKE, _PASS = ActionKind.TAKE, ActionKind.PASS


@dataclass(frozen=True, slots=True)
class Knowledge:
    hand: int  # own cards
    pile: int  # the whole discard pile
    top: int  # the top of the pile (0 if empty)
    opp_known: int  # taken from the pile by the opponent and still held
    opp_discarded: int  # everything the opponent discarded this round
    opp_passed: int  # cards the opponent could have taken and left
    opp_hidden: int  # how many of the opponent's cards are hidden
    opp_stock_draws: int  # how often the opponent drew from the stock
    unseen: int  # in the opponent's hidden hand or in the stock
    stock_size: int

    @property
    def live(self) -> int:
        """Cards that may still come to me: unseen, plus the pile top."""
        return self.unseen | self.top


def read(view: SeatView) -> Knowledge:
    """Gather the public card facts of a view."""
    table = view.table
    me = view.seat
    opp = me.other
    hand = mask_of(view.hand)
    pile_cards = table.discard_pile
    pile = mask_of(pile_cards)
    top = pile_cards[-1].bit if pile_cards else 0
    opp_known = mask_of(table.known[opp])
    discarded = passed = draws = 0
    # Replay the public moves on a model of the pile to see what was passed on.
    stack: list[int] = [table.first_upcard.bit] if table.first_upcard is not None else []
    for move in view.moves:
        kind = move.kind
        if kind is _DISCARD:
            if move.card is not None:
                stack.append(move.card.bit)
                if move.seat is not me:
                    discarded |= move.card.bit
        elif kind is _DRAW_STOCK:
            if move.seat is not me:
                draws += 1
                if stack:
                    passed |= stack[-1]
        elif kind is _TAKE or kind is _DRAW_DISCARD:
            if stack:
                stack.pop()
        elif kind is _PASS and move.seat is not me and stack:
            passed |= stack[-1]
    opp_hidden = table.hand_sizes[opp] - opp_known.bit_count()
    unseen = ALL_CARDS & ~hand & ~pile & ~opp_known
    return Knowledge(
        hand=hand,
        pile=pile,
        top=top,
        opp_known=opp_known,
        opp_discarded=discarded,
        opp_passed=passed & ~opp_known,
        opp_hidden=max(opp_hidden, 0),
        opp_stock_draws=draws,
        unseen=unseen,
        stock_size=table.stock_size,
    )


def read_plain(view: SeatView) -> Knowledge:
    """A memoryless reading: own hand and the pile top, nothing else is remembered."""
    hand = mask_of(view.hand)
    top_card = view.table.discard_top
    top = top_card.bit if top_card is not None else 0
    opp = view.seat.other
    return Knowledge(
        hand=hand,
        pile=top,
        top=top,
        opp_known=0,
        opp_discarded=0,
        opp_passed=0,
        opp_hidden=view.table.hand_sizes[opp],
        opp_stock_draws=0,
        unseen=ALL_CARDS & ~hand & ~top,
        stock_size=view.table.stock_size,
    )
