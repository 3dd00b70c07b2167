"""Records to review: bot matches from a fixed seed, and explicit scenarios."""

from __future__ import annotations

import random

from ginrummy.bots import make_bot
from ginrummy.engine import (
    MatchPhase,
    MatchRecord,
    Rules,
    Seat,
    apply_match,
    deal,
    draw_first_dealer,
    new_match,
    record_of,
    shuffled_deck,
    view_for_seat,
)
from ginrummy.review import Budget

# Small budgets keep the suite fast; the judgements are still real rollouts.
TINY = Budget(samples=3, screen=1, keep=2, confirm=2)


def bot_match(
    seed: int, one: str = "expert", two: str = "strong", rules: Rules | None = None
) -> MatchRecord:
    """A match between two bots (100 points, standard rules unless ``rules`` says
    otherwise), everything derived from ``seed``."""
    deck_rng = random.Random(f"{seed}:deck")
    bot_rng = random.Random(f"{seed}:bots")
    bots = {Seat.ONE: make_bot(one), Seat.TWO: make_bot(two)}
    match = new_match(rules or Rules.preset("standard"), draw_first_dealer(deck_rng))
    while not match.is_over:
        if match.phase is MatchPhase.DEAL:
            match = deal(match, shuffled_deck(deck_rng))
            continue
        turn = match.turn
        assert turn is not None
        match = apply_match(match, bots[turn](view_for_seat(match, turn), bot_rng))
    return record_of(match)


def first_rounds(record: MatchRecord, n: int) -> MatchRecord:
    return MatchRecord(record.rules, record.first_dealer, record.rounds[:n])
