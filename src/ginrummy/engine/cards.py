"""Cards, their values and their text notation (docs/rules.md §1).

A card is one of 52 interned values; ``Card.index`` (0..51, suit-major) and
``Card.bit`` (``1 << index``) let the meld maths work on integer bitmasks.

>>> c = parse_card("10♥")
>>> str(c), c.value
('Th', 10)
>>> [str(x) for x in parse_cards("as, 2c Kd")]
['As', '2c', 'Kd']
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import IntEnum

from ginrummy.engine.errors import CardParseError, DuplicateCardError


class Suit(IntEnum):
    CLUBS = 0
    DIAMONDS = 1
    HEARTS = 2
    SPADES = 3

    @property
    def letter(self) -> str:
        return "cdhs"[self]

    @property
    def symbol(self) -> str:
        return "♣♦♥♠"[self]


RANK_LETTERS = "A23456789TJQK"
RANKS = range(1, 14)  # 1 = ace (low only), 11 = jack, 12 = queen, 13 = king


class Card:
    """A playing card. Instances are interned: compare with ``==`` or ``is``."""

    __slots__ = ("bit", "index", "rank", "suit", "value")

    rank: int
    suit: Suit
    index: int
    bit: int
    value: int

    def __new__(cls, rank: int, suit: Suit) -> Card:
        if rank not in RANKS:
            raise CardParseError(f"rank must be 1..13, got {rank}")
        return _CARDS[int(suit) * 13 + rank - 1]

    @classmethod
    def _make(cls, rank: int, suit: Suit) -> Card:
        card = object.__new__(cls)
        card.rank = rank
        card.suit = suit
        card.index = int(suit) * 13 + rank - 1
        card.bit = 1 << card.index
        card.value = min(rank, 10)  # Restpunkte: A = 1, 2-10 face value, J Q K = 10
        return card

    def __reduce__(self) -> tuple[type[Card], tuple[int, Suit]]:
        return (Card, (self.rank, self.suit))

    def __str__(self) -> str:
        return RANK_LETTERS[self.rank - 1] + self.suit.letter

    def __repr__(self) -> str:
        return f"Card({self})"

    def __lt__(self, other: Card) -> bool:
        return self.index < other.index

    def __hash__(self) -> int:
        return self.index


_CARDS: tuple[Card, ...] = tuple(Card._make(r, s) for s in Suit for r in RANKS)
DECK: tuple[Card, ...] = _CARDS
"""All 52 cards in canonical order: clubs A..K, diamonds, hearts, spades."""

_SUIT_BY_TEXT = {
    **{s.letter: s for s in Suit},
    **{s.symbol: s for s in Suit},
    "♡": Suit.HEARTS,
    "♢": Suit.DIAMONDS,
    "♤": Suit.SPADES,
    "♧": Suit.CLUBS,
}
_RANK_BY_TEXT = {**{ch.lower(): i + 1 for i, ch in enumerate(RANK_LETTERS)}, "10": 10}


def card_from_index(index: int) -> Card:
    return _CARDS[index]


def parse_card(text: str) -> Card:
    """Read one card: ``7h``, ``Td``, ``10d``, ``7♥``, case-insensitive."""
    t = text.strip().lower()
    if len(t) < 2 or t[-1] not in _SUIT_BY_TEXT or t[:-1] not in _RANK_BY_TEXT:
        raise CardParseError(f"not a card: {text.strip()!r} (expected e.g. 7h, Td, 10d, 7♥)")
    return _CARDS[int(_SUIT_BY_TEXT[t[-1]]) * 13 + _RANK_BY_TEXT[t[:-1]] - 1]


def parse_cards(text: str) -> tuple[Card, ...]:
    """Read cards separated by spaces or commas; each card may appear once."""
    cards = tuple(parse_card(tok) for tok in text.replace(",", " ").split())
    check_distinct(cards)
    return cards


def check_distinct(cards: Iterable[Card]) -> None:
    seen = 0
    for card in cards:
        if seen & card.bit:
            raise DuplicateCardError(f"card {card} appears more than once")
        seen |= card.bit


def cards_text(cards: Iterable[Card]) -> str:
    return " ".join(str(c) for c in cards)


def to_mask(cards: Iterable[Card]) -> int:
    mask = 0
    for card in cards:
        mask |= card.bit
    return mask


_SUIT_CARDS: tuple[tuple[tuple[Card, ...], ...], ...] = tuple(
    tuple(tuple(_CARDS[k * 13 + r] for r in range(13) if m >> r & 1) for m in range(1 << 13))
    for k in range(4)
)


def from_mask(mask: int) -> tuple[Card, ...]:
    """The cards of a bitmask in canonical order (suit, then rank)."""
    c0, c1, c2, c3 = _SUIT_CARDS
    return c0[mask & 0x1FFF] + c1[mask >> 13 & 0x1FFF] + c2[mask >> 26 & 0x1FFF] + c3[mask >> 39]


def hand_order(cards: Iterable[Card]) -> tuple[Card, ...]:
    """Display order of a hand: by suit, then rank."""
    return tuple(sorted(cards, key=lambda c: c.index))
