"""What a seat knows about the cards, read from its view alone (docs/rules.md §5).

Every public card is tracked: the discard pile, the cards the opponent took from it
(and still holds), what the opponent discarded, and the cards it passed on (the first
upcard, and every discard it left lying when it drew from the stock). The rest, the
*unseen* cards, are in the opponent's hidden hand or in the stock.
"""

from __future__ import annotations

from dataclasses import dataclass

from ginrummy.bots.base import ALL_CARDS, mask_of
from ginrummy.engine import ActionKind, Card, PublicMove, Seat, SeatView
from ginrummy.engine.frozen import maker

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
    first = view.table.first_upcard
    replay = _replay(view.moves, 0, view.seat, [first.bit] if first is not None else [], 0, 0, 0)
    return _knowledge(view, *replay)


class Reader:
    """:func:`read` for a player that reads the same round over and over: the replay of
    the public moves goes on from the moves seen at the seat's last reading, when the
    view's moves begin with them (the same round). Thread-safe: each reading replaces
    an immutable snapshot; readings of other rounds or matches just replay in full."""

    __slots__ = ("_seen",)

    def __init__(self) -> None:
        self._seen: dict[Seat, _Snapshot] = {}

    def read(self, view: SeatView) -> Knowledge:
        me, moves = view.seat, view.moves
        first = view.table.first_upcard
        seen = self._seen.get(me)
        if seen is not None and seen[0] is first and moves[: len(seen[1])] == seen[1]:
            start, stack, discarded, passed, draws = len(seen[1]), list(seen[2]), *seen[3:]
        else:
            start, stack, discarded, passed, draws = 0, [], 0, 0, 0
            if first is not None:
                stack.append(first.bit)
        discarded, passed, draws = _replay(moves, start, me, stack, discarded, passed, draws)
        self._seen[me] = (first, moves, tuple(stack), discarded, passed, draws)
        return _knowledge(view, discarded, passed, draws)


# (first upcard, moves replayed, pile model, discarded, passed, stock draws)
_Snapshot = tuple[Card | None, tuple[PublicMove, ...], tuple[int, ...], int, int, int]


def _replay(
    moves: tuple[PublicMove, ...],
    start: int,
    me: Seat,
    stack: list[int],
    discarded: int,
    passed: int,
    draws: int,
) -> tuple[int, int, int]:
    """Replay ``moves[start:]`` on a model of the pile (``stack``, changed in place) to
    see what the opponent discarded, what it passed on and how often it drew."""
    for move in moves[start:] if start else moves:
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
    return discarded, passed, draws


def _knowledge(view: SeatView, discarded: int, passed: int, draws: int) -> Knowledge:
    table = view.table
    opp = view.seat.other
    hand = mask_of(view.hand)
    pile_cards = table.discard_pile
    pile = mask_of(pile_cards)
    opp_known = mask_of(table.known[opp])
    opp_hidden = table.hand_sizes[opp] - opp_known.bit_count()
    return _make_knowledge(  # every field in order: this runs for every decision
        hand,
        pile,
        pile_cards[-1].bit if pile_cards else 0,  # top
        opp_known,
        discarded,  # opp_discarded
        passed & ~opp_known,  # opp_passed
        max(opp_hidden, 0),  # opp_hidden
        draws,  # opp_stock_draws
        ALL_CARDS & ~hand & ~pile & ~opp_known,  # unseen
        table.stock_size,
    )


_make_knowledge = maker(Knowledge)


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
