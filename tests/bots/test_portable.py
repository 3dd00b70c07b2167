"""The bots' portable generator: fixed test vectors (tests/js/bots-random.test.mjs
checks the same numbers in JavaScript) and Python's unbiased ``choice`` on top."""

from __future__ import annotations

import pytest

from ginrummy.bots import PortableRandom
from ginrummy.bots.portable import seed_words


def test_seed_one_gives_the_documented_words() -> None:
    rng = PortableRandom(1)
    assert [rng.getrandbits(32) for _ in range(4)] == [
        1695105466,
        1423115009,
        634581793,
        1068227753,
    ]


def test_big_seed_random_and_getrandbits_vectors() -> None:
    rng = PortableRandom(2**64 - 1)
    assert [rng.getrandbits(32) for _ in range(2)] == [477689756, 2493998634]
    assert rng.random() == 0.12938300625619603
    assert rng.getrandbits(64) == 1294790802805357875
    assert rng.getrandbits(5) == 18
    assert rng.getrandbits(40) == 462127377002


def test_string_seed_and_rejection_sampling_vectors() -> None:
    rng = PortableRandom("1:0:a")
    assert rng.getrandbits(32) == 3216573688
    assert [rng.randrange(7) for _ in range(10)] == [2, 4, 1, 6, 3, 0, 5, 1, 4, 0]
    assert rng.choice(range(100)) == 13


def test_choice_is_uniform() -> None:
    rng = PortableRandom(3)
    counts = [0] * 6
    for _ in range(60_000):
        counts[rng.randrange(6)] += 1
    assert all(9_400 < c < 10_600 for c in counts)


def test_state_round_trips_and_seeds_are_taken_mod_2_64() -> None:
    rng = PortableRandom(9)
    state = rng.getstate()
    first = [rng.random() for _ in range(3)]
    rng.setstate(state)
    assert [rng.random() for _ in range(3)] == first
    assert seed_words(5) == seed_words(5 + 2**64)
    with pytest.raises(ValueError, match="not a PortableRandom state"):
        rng.setstate((1, 2, 3))
    with pytest.raises(TypeError, match="int, str or bytes"):
        PortableRandom(1.5)


def test_int_seed_rejection_sampling_vectors() -> None:
    rng = PortableRandom(7)
    assert [rng.randrange(7) for _ in range(10)] == [3, 2, 5, 6, 3, 1, 6, 0, 0, 3]
    assert rng.choice(range(100)) == 98
    assert rng.randrange(1) == 0
