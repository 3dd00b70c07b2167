"""``ginrummy bench review``: how long the review of a full 100-point match takes.

A match between two arena bots is played from ``--seed`` (the same seed, the same
match); its review is timed single-threaded and with a process pool of ``--workers``,
and both reviews must be identical. ``--stability`` reviews it once more with another
review seed and counts the decisions graded alike: the sampling's noise. One JSON
object on stdout; the figures are wall-clock and CPU seconds and depend on the
machine and its load (given as the load average).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from typing import Any

from ginrummy.bots import LEVELS, make_bot
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
from ginrummy.review import Budget, Review, review_match


def bot_match(one: str, two: str, seed: int, rules: Rules | None = None) -> MatchRecord:
    """A match between two levels (100 points, standard rules unless ``rules`` says
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


def _timed(record: MatchRecord, seat: Seat, budget: Budget, seed: int, workers: int) -> Any:
    wall, cpu, before = time.perf_counter(), time.process_time(), os.times()
    review = review_match(record, seat, budget=budget, seed=seed, workers=workers)
    after = os.times()
    children = after.children_user + after.children_system
    children -= before.children_user + before.children_system
    figures = {
        "workers": workers,
        "wall_s": round(time.perf_counter() - wall, 2),
        "cpu_s": round(time.process_time() - cpu + children, 2),
        "load": [round(x, 2) for x in os.getloadavg()],
    }
    return review, figures


def _grades(review: Review) -> list[str]:
    return [r.judgement.grade.value for rnd in review.rounds for r in rnd.decisions]


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(prog="ginrummy bench review", description=__doc__)
    p.add_argument(
        "--one", default="expert", choices=sorted(LEVELS), help="seat one's bot (default expert)"
    )
    p.add_argument(
        "--two", default="expert", choices=sorted(LEVELS), help="seat two's bot (default expert)"
    )
    p.add_argument("--seed", type=int, default=1, help="the match's seed")
    p.add_argument(
        "--seat", default="one", choices=("one", "two"), help="the seat reviewed (default one)"
    )
    p.add_argument(
        "--samples",
        type=int,
        default=Budget().samples,
        help=f"worlds per decision (default {Budget().samples})",
    )
    p.add_argument("--workers", type=int, default=2, help="processes of the pool run")
    p.add_argument("--stability", action="store_true", help="review again, another seed")
    args = p.parse_args(argv)
    defaults = Budget()
    budget = Budget(
        args.samples, min(defaults.screen, args.samples), defaults.keep, defaults.confirm
    )
    record = bot_match(args.one, args.two, args.seed)
    seat = Seat.parse(args.seat)
    print(f"bench review: {len(record.rounds)} rounds, reviewing ...", file=sys.stderr)
    single, single_figures = _timed(record, seat, budget, 0, 1)
    pooled, pool_figures = _timed(record, seat, budget, 0, args.workers)
    grades = _grades(single)
    out: dict[str, Any] = {
        "match": {"one": args.one, "two": args.two, "seed": args.seed},
        "rounds": len(record.rounds),
        "decisions": len(grades),
        "budget": {
            "samples": budget.samples,
            "screen": budget.screen,
            "keep": budget.keep,
            "confirm": budget.confirm,
        },
        "single": single_figures,
        "pool": pool_figures,
        "identical": single.to_dict() == pooled.to_dict(),
        "summary": single.summary.to_dict()["text"]["en"],
    }
    if args.stability:
        again = _grades(review_match(record, seat, budget=budget, seed=1, workers=args.workers))
        flagged = [
            i
            for i, (a, b) in enumerate(zip(grades, again, strict=True))
            if a in _ERRORS or b in _ERRORS
        ]
        out["stability"] = {
            "flagged_either": len(flagged),
            "flagged_both": sum(1 for i in flagged if grades[i] in _ERRORS and again[i] in _ERRORS),
            "same_grade": sum(1 for a, b in zip(grades, again, strict=True) if a == b),
        }
    print(json.dumps(out, indent=2))
    return 0


_ERRORS = ("inaccuracy", "mistake", "blunder")
