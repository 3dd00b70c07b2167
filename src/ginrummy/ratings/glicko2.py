"""Glicko-2 (Mark E. Glickman, "Example of the Glicko-2 system", 2013), step by step.

A pure function of the ratings before a rating period and the games played in it.
Ratings are on the Glicko scale (1500, RD 350); the computation runs on the Glicko-2
scale (divide by 173.7178) as the paper does. The paper rounds its intermediate
values and prints 1464.06; computed without rounding the rating is 1464.0507.

>>> new = rate(Rating(1500, 200, 0.06), [(Rating(1400, 30), 1.0), (Rating(1550, 100), 0.0),
...     (Rating(1700, 300), 0.0)], tau=0.5)
>>> round(new.rating, 1), round(new.rd, 2), round(new.volatility, 6)
(1464.1, 151.52, 0.059996)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

SCALE = 173.7178  # Glicko -> Glicko-2: (r - 1500) / SCALE, RD / SCALE
DEFAULT_TAU = 0.5  # constrains the volatility's change; the paper suggests 0.3 to 1.2
EPSILON = 0.000001  # convergence tolerance of the volatility iteration (step 5)


@dataclass(frozen=True, slots=True)
class Rating:
    """A player's rating, rating deviation (RD) and volatility."""

    rating: float = 1500.0
    rd: float = 350.0
    volatility: float = 0.06


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _e(mu: float, mu_j: float, phi_j: float) -> float:
    return 1.0 / (1.0 + math.exp(-_g(phi_j) * (mu - mu_j)))


def _volatility(phi: float, sigma: float, delta: float, v: float, tau: float) -> float:
    """Step 5: the new volatility, by the Illinois variant of regula falsi."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta * delta - phi * phi - v - ex) / (2.0 * (phi * phi + v + ex) ** 2) - (
            x - a
        ) / (tau * tau)

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > EPSILON:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2.0
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2.0)


def rate(player: Rating, games: Sequence[tuple[Rating, float]], tau: float = DEFAULT_TAU) -> Rating:
    """``player``'s rating after one rating period with ``games`` (opponent, score).

    A score is 1 for a win, 0.5 for a draw, 0 for a loss. Without games only the RD
    grows (step 6 of the paper: the rating and the volatility stay).
    """
    if tau <= 0:
        raise ValueError(f"tau must be positive, got {tau}")
    for _, score in games:
        if not 0.0 <= score <= 1.0:
            raise ValueError(f"a score is between 0 and 1, got {score}")
    mu = (player.rating - 1500.0) / SCALE
    phi = player.rd / SCALE
    sigma = player.volatility
    if not games:
        return Rating(player.rating, math.sqrt(phi * phi + sigma * sigma) * SCALE, sigma)
    # Step 3 and 4: the estimated variance v and the improvement delta.
    opponents = [((o.rating - 1500.0) / SCALE, o.rd / SCALE, score) for o, score in games]
    v_inv = 0.0
    total = 0.0
    for mu_j, phi_j, score in opponents:
        g = _g(phi_j)
        e = _e(mu, mu_j, phi_j)
        v_inv += g * g * e * (1.0 - e)
        total += g * (score - e)
    v = 1.0 / v_inv
    delta = v * total
    # Step 5 to 8.
    new_sigma = _volatility(phi, sigma, delta, v, tau)
    phi_star = math.sqrt(phi * phi + new_sigma * new_sigma)
    new_phi = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    new_mu = mu + new_phi * new_phi * total
    return Rating(new_mu * SCALE + 1500.0, new_phi * SCALE, new_sigma)


def rate_match(
    a: Rating, b: Rating, score_a: float, tau: float = DEFAULT_TAU
) -> tuple[Rating, Rating]:
    """Both players' ratings after one game between them, as its own rating period.

    >>> w, l = rate_match(Rating(), Rating(), 1.0)
    >>> w.rating > 1500 > l.rating, round(w.rating + l.rating, 6) == 3000
    (True, True)
    """
    return rate(a, [(b, score_a)], tau), rate(b, [(a, 1.0 - score_a)], tau)
