"""Hypothesis strategies for hands: random ones, and meld-dense ones built from melds."""

from __future__ import annotations

from hypothesis import strategies as st

from ginrummy.engine import DECK, Card, Suit


def random_hand(size: int, exclude: frozenset[Card] = frozenset()) -> st.SearchStrategy:
    pool = [c for c in DECK if c not in exclude]
    return st.lists(st.sampled_from(pool), min_size=size, max_size=size, unique=True).map(tuple)


def _neighbours(card: Card) -> list[Card]:
    """Cards that could extend a meld holding ``card``: same rank, or same suit nearby."""
    out = [Card(card.rank, s) for s in Suit if s is not card.suit]
    out += [
        Card(r, card.suit)
        for r in (card.rank - 2, card.rank - 1, card.rank + 1, card.rank + 2)
        if 1 <= r <= 13
    ]
    return out


@st.composite
def meld_dense_hand(
    draw: st.DrawFn,
    size: int,
    exclude: frozenset[Card] = frozenset(),
    max_single_rank: int = 13,
    near: tuple[Card, ...] = (),
) -> tuple[Card, ...]:
    """A hand of ``size`` cards made mostly of runs and sets (cut where cards are taken).

    ``near``: cards whose neighbours (possible layoffs) the hand likes to hold.
    """
    used = set(exclude)
    hand: list[Card] = []

    def add(group: list[Card]) -> None:
        for card in group:
            if card not in used and len(hand) < size:
                hand.append(card)
                used.add(card)

    if near:
        candidates = sorted({n for c in near for n in _neighbours(c)} - used, key=lambda c: c.index)
        if candidates:
            add(draw(st.lists(st.sampled_from(candidates), max_size=4, unique=True)))
    for kind in draw(st.lists(st.sampled_from(("run", "run", "set")), min_size=1, max_size=5)):
        if kind == "run":
            suit = draw(st.sampled_from(list(Suit)))
            length = draw(st.integers(3, 6))
            start = draw(st.integers(1, 14 - length))
            add([Card(r, suit) for r in range(start, start + length)])
        else:
            rank = draw(st.integers(1, 13))
            suits = draw(st.permutations(list(Suit)))
            add([Card(rank, s) for s in suits[: draw(st.integers(3, 4))]])
    missing = size - len(hand)
    if missing:
        free = [c for c in DECK if c not in used and c.rank <= max_single_rank]
        if len(free) < missing:
            free = [c for c in DECK if c not in used]
        add(draw(st.lists(st.sampled_from(free), min_size=missing, max_size=missing, unique=True)))
    return tuple(hand)


@st.composite
def any_hand(draw: st.DrawFn, size: int) -> tuple[Card, ...]:
    """Half random hands, half meld-dense ones."""
    if draw(st.booleans()):
        return draw(random_hand(size))
    return draw(meld_dense_hand(size))
