"""Match records with fair deals: random seeds, short games of the random and baseline bots."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

from ginrummy.bots.simple import choose_baseline, choose_random
from ginrummy.engine import (
    MatchPhase,
    Rules,
    Seat,
    apply_match,
    deal,
    new_match,
    record_of,
    view_for_seat,
)
from ginrummy.fairness import DealContext, deal_deck, fair_block


def seed_of(rng: random.Random) -> bytes:
    return rng.randbytes(32)


def fair_match(
    rng: random.Random, rounds: int = 2, room: str = "k3Xa_9", number: int = 1
) -> dict[str, Any]:
    """A match record of up to ``rounds`` rounds, every deal from fresh random seeds; the
    last round may stop part-way (its seed is revealed all the same)."""
    rules = Rules.preset("standard", target_score=1000)  # long enough for every round
    match = new_match(rules, Seat(rng.randrange(2)))
    choosers = {Seat.ONE: choose_random, Seat.TWO: choose_baseline}
    blocks = []
    for n in range(1, rounds + 1):
        if match.phase is not MatchPhase.DEAL:
            break
        server = seed_of(rng)
        context = DealContext(seed_of(rng), seed_of(rng), room, number, n)
        match = deal(match, deal_deck(server, context))
        blocks.append(fair_block(server, context))
        budget = rng.randrange(5, 80) if n == rounds else 10_000
        while match.phase is MatchPhase.ROUND and budget > 0:
            turn = match.turn
            assert turn is not None
            match = apply_match(match, choosers[turn](view_for_seat(match, turn), rng))
            budget -= 1
    record = record_of(match)
    fair_rounds = tuple(replace(r, fair=b) for r, b in zip(record.rounds, blocks, strict=True))
    return replace(record, rounds=fair_rounds).to_dict()
