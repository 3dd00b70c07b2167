"""The statistics page's numbers, from a player's stored results."""

from __future__ import annotations

from ginrummy.server.players import statistics
from ginrummy.server.store.base import ResultRow


def _won(room: str, margin: int, forfeit: str | None, t: float) -> ResultRow:
    return ResultRow(
        room=room,
        match_seq=1,
        player="p_me",
        seat="one",
        opponent="p_you",
        bot=None,
        rated=True,
        won=True,
        rounds=1,
        gins=0,
        undercuts_scored=0,
        undercuts_suffered=0,
        points=margin,
        margin=margin,
        forfeit=forfeit,
        rating=None,
        rd=None,
        t=t,
    )


def test_best_match_prefers_a_match_won_on_the_board() -> None:
    resigned = _won("r_resigned", 40, "resigned", 1.0)
    played = _won("r_played", 12, None, 2.0)
    best = statistics([resigned, played])["best_match"]
    assert best == {"room": "r_played", "margin": 12, "forfeit": None}


def test_best_match_names_the_forfeit_when_only_forfeits_were_won() -> None:
    best = statistics([_won("r_timeout", 0, "timeout", 1.0)])["best_match"]
    assert best == {"room": "r_timeout", "margin": 0, "forfeit": "timeout"}


def test_best_match_takes_the_larger_margin_then_the_earlier_match() -> None:
    rows = [_won("r_a", 30, None, 1.0), _won("r_b", 45, None, 2.0), _won("r_c", 45, None, 3.0)]
    assert statistics(rows)["best_match"]["room"] == "r_b"
