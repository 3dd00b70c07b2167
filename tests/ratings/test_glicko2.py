"""Glicko-2 against Glickman's published worked example, and its edge cases."""

from __future__ import annotations

import doctest
import math

import pytest

import ginrummy.ratings.glicko2
from ginrummy.ratings.glicko2 import Rating, rate, rate_match

EXAMPLE_OPPONENTS = [(Rating(1400, 30), 1.0), (Rating(1550, 100), 0.0), (Rating(1700, 300), 0.0)]


def test_glickmans_worked_example() -> None:
    # "Example of the Glicko-2 system" (2013): 1500/200/0.06 plays three games, tau 0.5.
    new = rate(Rating(1500, 200, 0.06), EXAMPLE_OPPONENTS, tau=0.5)
    assert new.rating == pytest.approx(1464.06, abs=0.01)
    assert new.rd == pytest.approx(151.52, abs=0.01)
    assert new.volatility == pytest.approx(0.05999, abs=0.00001)


def test_no_games_only_the_rd_grows() -> None:
    before = Rating(1600, 100, 0.06)
    after = rate(before, [])
    assert after.rating == before.rating
    assert after.volatility == before.volatility
    # Step 6: phi* = sqrt(phi^2 + sigma^2), back on the Glicko scale.
    phi = 100 / 173.7178
    assert after.rd == pytest.approx(math.sqrt(phi**2 + 0.06**2) * 173.7178)
    assert after.rd > before.rd


def test_a_win_between_equals_is_symmetric() -> None:
    winner, loser = rate_match(Rating(), Rating(), 1.0)
    assert winner.rating > 1500 > loser.rating
    assert winner.rating - 1500 == pytest.approx(1500 - loser.rating)
    assert winner.rd == pytest.approx(loser.rd)
    assert winner.rd < 350


def test_an_upset_moves_more_than_an_expected_win() -> None:
    strong, weak = Rating(1800, 60), Rating(1400, 60)
    expected, _ = rate_match(strong, weak, 1.0)
    upset, _ = rate_match(weak, strong, 1.0)
    assert upset.rating - weak.rating > expected.rating - strong.rating > 0


def test_a_draw_between_equals_keeps_the_ratings() -> None:
    a, b = rate_match(Rating(), Rating(), 0.5)
    assert a.rating == pytest.approx(1500)
    assert b.rating == pytest.approx(1500)


def test_a_big_surprise_raises_the_volatility() -> None:
    # Delta^2 > phi^2 + v: the first branch of step 5.
    sure = Rating(1500, 50, 0.06)
    after = rate(sure, [(Rating(2300, 50), 1.0)] * 3)
    assert after.volatility > 0.06


def test_bad_input_is_refused() -> None:
    with pytest.raises(ValueError):
        rate(Rating(), [(Rating(), 2.0)])
    with pytest.raises(ValueError):
        rate(Rating(), [], tau=0)


def test_doctests() -> None:
    assert doctest.testmod(ginrummy.ratings.glicko2).failed == 0
