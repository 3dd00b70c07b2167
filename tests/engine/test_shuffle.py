"""The shuffle is Fisher-Yates over a passed-in source; the first dealer is drawn from it."""

from __future__ import annotations

import random

from ginrummy.engine import DECK, Seat, draw_first_dealer, shuffled_deck


class Recorder:
    """A source that always answers ``pick(stop)`` and remembers every ``stop``."""

    def __init__(self, pick=lambda stop: 0):
        self.stops: list[int] = []
        self.pick = pick

    def randrange(self, stop: int, /) -> int:
        self.stops.append(stop)
        return self.pick(stop)


def test_shuffle_is_fisher_yates_with_one_unbiased_draw_per_position():
    rec = Recorder()
    deck = shuffled_deck(rec)
    assert rec.stops == list(range(52, 1, -1))  # randrange(i + 1) for i = 51 .. 1
    # always swapping with position 0 rotates the deck by one
    assert deck == (*DECK[1:], DECK[0])
    identity = Recorder(pick=lambda stop: stop - 1)
    assert shuffled_deck(identity) == DECK


def test_shuffle_is_a_permutation_and_reproducible_from_a_seed():
    a = shuffled_deck(random.Random(7))
    assert sorted(a) == list(DECK)
    assert a == shuffled_deck(random.Random(7))
    assert a != shuffled_deck(random.Random(8))


def test_first_dealer_is_drawn_from_the_source():
    assert draw_first_dealer(Recorder(lambda stop: 0)) is Seat.ONE
    assert draw_first_dealer(Recorder(lambda stop: 1)) is Seat.TWO
    rec = Recorder()
    draw_first_dealer(rec)
    assert rec.stops == [2]
