"""The only randomness of the engine, and it is passed in.

The server passes ``secrets.SystemRandom()`` (a cryptographically secure source);
tests and the arena pass a seeded ``random.Random``. The shuffle is Fisher-Yates with
``randrange``, which is unbiased for both.
"""

from __future__ import annotations

from typing import Protocol

from ginrummy.engine.cards import DECK, Card
from ginrummy.engine.seats import Seat


class RandomSource(Protocol):
    def randrange(self, stop: int, /) -> int: ...


def shuffled_deck(rng: RandomSource) -> tuple[Card, ...]:
    """A uniformly random order of the 52 cards (Fisher-Yates)."""
    cards = list(DECK)
    for i in range(len(cards) - 1, 0, -1):
        j = rng.randrange(i + 1)
        cards[i], cards[j] = cards[j], cards[i]
    return tuple(cards)


def draw_first_dealer(rng: RandomSource) -> Seat:
    """The first dealer of a match is drawn at random (docs/rules.md §3.1)."""
    return Seat(rng.randrange(2))
