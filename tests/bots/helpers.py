"""Positions from real play, for bot tests."""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import replace

from ginrummy.bots import make_bot
from ginrummy.engine import (
    MatchPhase,
    MatchState,
    Rules,
    Seat,
    apply_match,
    deal,
    draw_first_dealer,
    new_match,
    shuffled_deck,
    view_for_seat,
)
from ginrummy.engine.cards import from_mask


def positions(seed: int, level: str = "casual", rules: Rules | None = None) -> Iterator[MatchState]:
    """Every decision point of one match between two ``level`` bots."""
    rng = random.Random(seed)
    bot = make_bot(level)
    match = new_match(rules or Rules(), draw_first_dealer(rng))
    while not match.is_over:
        if match.phase is MatchPhase.DEAL:
            match = deal(match, shuffled_deck(rng))
            continue
        yield match
        seat = match.turn
        assert seat is not None
        match = apply_match(match, bot(view_for_seat(match, seat), rng))


def hidden_twin(match: MatchState, seat: Seat, rng: random.Random) -> MatchState:
    """The same match with the cards ``seat`` cannot see dealt differently: the
    opponent's hidden cards and the stock shuffled together and dealt again."""
    rnd = match.round
    assert rnd is not None
    opp = seat.other
    hidden = rnd.hands[opp] & ~rnd.known[opp]
    pool = list(from_mask(hidden)) + list(rnd.stock)
    rng.shuffle(pool)
    n = hidden.bit_count()
    new_hidden = 0
    for card in pool[:n]:
        new_hidden |= card.bit
    hands = rnd.hands.replace(opp, rnd.known[opp] | new_hidden)
    return replace(match, round=replace(rnd, hands=hands, stock=tuple(pool[n:])))
