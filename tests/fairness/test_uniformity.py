"""Chi-square test of the construction: over 100,000 decks every card is equally likely
at every position (alpha = 0.01), and a deliberately biased variant is rejected."""

from __future__ import annotations

import hashlib
import math
from collections.abc import Callable, Iterator
from statistics import NormalDist

from ginrummy.engine import Card, shuffled_deck
from ginrummy.fairness import DealContext, deal_deck, deal_message
from ginrummy.fairness.construction import stream

DECKS = 100_000
ALPHA = 0.01
CELLS = 52
DF = (CELLS - 1) ** 2  # a 52 x 52 table whose rows and columns all sum to DECKS

Dealer = Callable[[bytes, DealContext], tuple[Card, ...]]


def critical_value(df: int, alpha: float) -> float:
    """The chi-square quantile 1 - alpha by Wilson-Hilferty (accurate to well under 0.1%
    at thousands of degrees of freedom)."""
    z = NormalDist().inv_cdf(1 - alpha)
    k = 2 / (9 * df)
    return df * (1 - k + z * math.sqrt(k)) ** 3


def deals(n: int) -> Iterator[tuple[bytes, DealContext]]:
    # Fixed seeds, so the test is repeatable: the server seed from a counter.
    one, two = hashlib.sha256(b"seat one").digest(), hashlib.sha256(b"seat two").digest()
    for i in range(n):
        yield hashlib.sha256(i.to_bytes(8, "big")).digest(), DealContext(one, two, "chi", 1, i)


def chi_square(dealer: Dealer, n: int) -> float:
    counts = [0] * (CELLS * CELLS)
    for server, context in deals(n):
        for position, card in enumerate(dealer(server, context)):
            counts[position * CELLS + card.index] += 1
    expected = n / CELLS
    return sum((c - expected) ** 2 for c in counts) / expected


class ModuloDraws:
    """The classic mistake: one stream byte reduced modulo n, no rejection."""

    def __init__(self, source: Iterator[int]) -> None:
        self._source = source

    def randrange(self, stop: int, /) -> int:
        return next(self._source) % stop


def biased_deck(server: bytes, context: DealContext) -> tuple[Card, ...]:
    return shuffled_deck(ModuloDraws(stream(server, deal_message(context))))


def test_the_critical_value_is_the_chi_square_quantile():
    # tabulated: chi2(0.99; 100) = 135.807, chi2(0.99; 2601) ~ 2773.8
    assert abs(critical_value(100, 0.01) - 135.807) < 0.05
    assert 2770 < critical_value(DF, ALPHA) < 2777


def test_every_card_is_equally_likely_at_every_position():
    statistic = chi_square(deal_deck, DECKS)
    assert statistic < critical_value(DF, ALPHA), statistic


def test_a_modulo_biased_shuffle_is_rejected():
    statistic = chi_square(biased_deck, DECKS)
    assert statistic > critical_value(DF, ALPHA), statistic
