"""The play-ban ladder: how a player's abandoned and timed-out rated matches lock the
quick match and rated play (docs/accounts.md, "The ban ladder").

Measured only from what the server records already: each finished match's result row
says whether it was rated, whether this player won and whether it ended by a forfeit
("abandoned": the grace period ran out; "timeout": the move timer ran out). A rated
match this player lost by either is an *offence* (resigning is not). Pure: the results
and the time are passed in.

The rule:
- Offences *stand* for ``STANDS_S`` (30 days) and no longer.
- Good conduct clears them sooner: every ``CLEAN_RUN`` (10) rated matches in a row
  finished without an offence forgive the oldest standing offence.
- With n standing offences the newest one locks play for ``LADDER[n]`` seconds from
  when it happened: the first two warn, then 10 minutes, 1 hour, 4 hours, 12 hours,
  and 48 hours from the seventh on.

>>> from ginrummy.server.store import ResultRow
>>> def lost(t: float) -> ResultRow:
...     return ResultRow("r", 1, "p", "one", "p2", None, True, False, 1, 0, 0, 0, 0, -9,
...                      "abandoned", None, None, t)
>>> standing([lost(0), lost(10)], now=20).locked_until  # two offences: a warning
>>> standing([lost(0), lost(10), lost(20)], now=30).locked_until
620.0
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ginrummy.server.store import ResultRow

OFFENCES = {"abandoned": "abandoning", "timeout": "stalling"}
"""A forfeit that is an offence, and the reason it is shown with."""
STANDS_S = 30 * 86400.0
CLEAN_RUN = 10
MINUTE = 60.0
LADDER = (0.0, 0.0, 0.0, 10 * MINUTE, 60 * MINUTE, 240 * MINUTE, 720 * MINUTE, 2880 * MINUTE)
"""Seconds of lock by standing offences (index): 0, 1 and 2 lock nothing."""


@dataclass(frozen=True, slots=True)
class Standing:
    """What the ladder says of a player now: the standing offences, the newest one's
    reason, and the lock (None: none now)."""

    offences: int
    reason: str | None  # "abandoning" | "stalling"
    locked_until: float | None

    @property
    def warned(self) -> bool:
        return self.offences > 0 and self.locked_until is None


def lock_seconds(offences: int) -> float:
    """Seconds of lock for ``offences`` standing offences.

    >>> lock_seconds(2), lock_seconds(3), lock_seconds(99)
    (0.0, 600.0, 172800.0)
    """
    return LADDER[min(offences, len(LADDER) - 1)]


def standing(results: Sequence[ResultRow], now: float) -> Standing:
    """The ladder's word on a player from their results (any order)."""
    standing_: list[tuple[float, str]] = []  # (when, reason), oldest first
    clean = 0
    for r in sorted((r for r in results if r.rated and r.t <= now), key=lambda r: r.t):
        reason = OFFENCES.get(r.forfeit or "")
        if reason is not None and not r.won:
            standing_.append((r.t, reason))
            clean = 0
            continue
        clean += 1
        if clean == CLEAN_RUN:
            clean = 0
            # forgive a standing offence, not one that had lapsed by then anyway
            standing_ = [(t, why) for t, why in standing_ if r.t - t < STANDS_S]
            if standing_:
                standing_.pop(0)
    standing_ = [(t, why) for t, why in standing_ if now - t < STANDS_S]
    if not standing_:
        return Standing(0, None, None)
    last_t, last_reason = standing_[-1]
    until = last_t + lock_seconds(len(standing_))
    return Standing(len(standing_), last_reason, until if until > now else None)
