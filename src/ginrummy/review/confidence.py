"""How sure a loss is: the loss of a decision measured on sampled worlds, with its
standard error and a confidence interval (docs/review.md, "Grades and how sure they
are").

A loss is measured as paired differences: the best choice and the choice played are
played out on the same worlds with the same rollout seeds, and each world gives one
difference of round points. The mean of the differences is the estimate; their
spread gives its standard error; Student's t for that many worlds gives the interval
(the differences are few, 16 to 64, and far from normal: a world where one choice
is undercut differs by 30 points and more, so the normal quantile would promise more
than the worlds hold).

>>> loss = loss_of((10, 0, 20, 5), (0, 0, 5, 5), 0.90)
>>> loss.estimate, loss.worlds, round(loss.error, 2)
(6.25, 4, 3.75)
>>> round(loss.low, 1), round(loss.high, 1)
(-2.6, 15.1)

When the choice played is checked against several *rivals* at once (the choices that
looked better), the best of them on the fresh worlds is flattered by luck as a best
of several is; the intervals are then simultaneous (Bonferroni): each is widened so
that all of them hold together with probability ``level``.

>>> wide = loss_of((10, 0, 20, 5), (0, 0, 5, 5), 0.90, rivals=3)
>>> round(wide.low, 1), round(wide.high, 1), wide.rivals
(-7.6, 20.1, 3)
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from statistics import NormalDist


@dataclass(frozen=True, slots=True)
class Loss:
    """Expected round points lost against the best choice, over ``worlds`` worlds:
    the estimate, its standard error and a two-sided interval at ``level``."""

    estimate: float
    error: float  # standard error of the estimate (inf with fewer than 2 worlds)
    worlds: int
    level: float  # the interval's confidence, e.g. 0.90
    low: float
    high: float
    rivals: int = 1  # the interval holds with ``level`` together with this many

    @staticmethod
    def exact(estimate: float) -> Loss:
        """A loss known without sampling error (e.g. 0 for the best choice itself)."""
        return Loss(estimate, 0.0, 0, 1.0, estimate, estimate)


def t_quantile(p: float, df: int) -> float:
    """The ``p`` quantile of Student's t with ``df`` degrees of freedom, by the
    Cornish-Fisher expansion around the normal quantile (within 0.3 % of the exact
    value from 5 degrees of freedom, within 3 % from 2; exact as ``df`` grows).

    >>> round(t_quantile(0.95, 15), 3), round(t_quantile(0.95, 1000), 3)
    (1.753, 1.646)
    """
    if df < 1:
        return math.inf
    if df == 1:  # Cauchy: closed form
        return math.tan(math.pi * (p - 0.5))
    z = NormalDist().inv_cdf(p)
    g1 = (z**3 + z) / 4
    g2 = (5 * z**5 + 16 * z**3 + 3 * z) / 96
    g3 = (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / 384
    return z + g1 / df + g2 / df**2 + g3 / df**3


def loss_of(best: tuple[int, ...], played: tuple[int, ...], level: float, rivals: int = 1) -> Loss:
    """The loss of ``played`` against ``best`` over the worlds both were played on
    (the first ones: every choice is played on the same worlds in order), with a
    two-sided interval at confidence ``level``, simultaneous with those of ``rivals``
    comparisons in all."""
    n = min(len(best), len(played))
    if n == 0:
        return Loss(0.0, math.inf, 0, level, -math.inf, math.inf, rivals)
    diffs = [x - y for x, y in zip(best[:n], played[:n], strict=True)]
    mean = sum(diffs) / n
    if n == 1:
        return Loss(mean, math.inf, 1, level, -math.inf, math.inf, rivals)
    error = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (n - 1) / n)
    half = t_quantile(1 - (1 - level) / (2 * rivals), n - 1) * error
    return Loss(mean, error, n, level, mean - half, mean + half, rivals)
