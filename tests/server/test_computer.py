"""The server's computer player: bots by level, and the simple fallback stays legal."""

from __future__ import annotations

import random

from ginrummy.engine import (
    Rules,
    Seat,
    apply_match,
    deal,
    new_match,
    shuffled_deck,
    view_for_seat,
)
from ginrummy.server.computer import computer_move, fallback_move, level_keys, levels


def test_the_fallback_plays_whole_matches_legally() -> None:
    rng = random.Random(7)
    for _ in range(3):
        match = new_match(Rules.preset("standard", target_score=50), Seat.ONE)
        while not match.is_over:
            if match.turn is None:
                match = deal(match, shuffled_deck(rng))
                continue
            view = view_for_seat(match, match.turn)
            action = fallback_move(view, rng)
            assert action in view.legal_actions
            match = apply_match(match, action)
        assert match.result is not None


async def test_levels_and_a_move_by_level() -> None:
    assert [lv.key for lv in levels()] == ["beginner", "casual", "strong", "expert", "master"]
    assert "random" in level_keys()  # seated by the server, not offered
    rng = random.Random(3)
    match = deal(new_match(Rules(), Seat.ONE), shuffled_deck(rng))
    assert match.turn is not None
    view = view_for_seat(match, match.turn)
    for level in ("beginner", "expert", "no-such-level"):
        assert await computer_move(level, view, rng) in view.legal_actions
