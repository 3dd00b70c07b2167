"""The play-ban ladder on a fake clock (docs/accounts.md, "The ban ladder"): first
offences warn, later ones lock for longer, good conduct and time clear them."""

from __future__ import annotations

from ginrummy.server.civility.ladder import CLEAN_RUN, STANDS_S, standing
from ginrummy.server.store import ResultRow

H = 3600.0


def _row(t: float, forfeit: str | None = None, won: bool = False, rated: bool = True) -> ResultRow:
    return ResultRow(
        "r", 1, "p_me", "one", "p_x", None, rated, won, 3, 0, 0, 0, 10, -5, forfeit, None, None, t
    )


def test_first_offences_warn_and_later_ones_lock_for_longer() -> None:
    offences = [_row(i * H, "abandoned") for i in range(7)]
    assert standing(offences[:1], 1).locked_until is None
    assert standing(offences[:2], H + 1).warned
    locks = [standing(offences[: n + 1], n * H).locked_until for n in range(2, 7)]
    assert locks == [2 * H + 600, 3 * H + H, 4 * H + 4 * H, 5 * H + 12 * H, 6 * H + 48 * H]
    assert standing(offences[:3], 2 * H + 600).locked_until is None  # served


def test_a_timeout_is_stalling_and_winning_or_resigning_or_casual_is_no_offence() -> None:
    rows = [_row(0, "timeout"), _row(1, "timeout"), _row(2, "timeout")]
    s = standing(rows, 3)
    assert (s.offences, s.reason) == (3, "stalling")
    innocent = [
        _row(0, "abandoned", won=True),
        _row(1, "resigned"),
        _row(2, "timeout", rated=False),
    ]
    assert standing(innocent, 3).offences == 0


def test_good_conduct_and_time_clear_offences() -> None:
    rows = [_row(i, "abandoned") for i in range(3)]
    clean = [_row(10 + i) for i in range(CLEAN_RUN)]
    assert standing(rows + clean, 100).offences == 2  # ten clean matches forgive one
    assert standing(rows, STANDS_S + 1.5).offences == 1  # the first two stood 30 days


def test_a_clean_run_forgives_a_standing_offence_not_a_lapsed_one() -> None:
    day = 86400.0
    lapsed = _row(0, "abandoned")
    recent = [_row(31 * day + i, "abandoned") for i in range(3)]
    clean = [_row(32 * day + i) for i in range(CLEAN_RUN)]
    assert standing([lapsed, *recent, *clean], 33 * day).offences == 2
