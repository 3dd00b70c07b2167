"""``ginrummy bench engine``: speed of the meld maths, the showdown and whole rounds.

Prints one JSON object (and a progress line on stderr). Figures are per call, in
microseconds, measured with ``perf_counter_ns`` around each call on seeded inputs;
the arrangement cache is cleared first so random hands are computed, not looked up.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any

from ginrummy.engine import (
    DECK,
    Card,
    Rules,
    Seat,
    apply,
    best_arrangement,
    best_discards,
    legal_actions,
    new_round,
    parse_cards,
    settle,
)
from ginrummy.engine.cards import to_mask
from ginrummy.engine.melds import clear_caches, deadwood_of_mask, melds_in_mask

DENSE_HANDS = (
    "Ac 2c 3c 4c 5c Ad 2d 3d 4d 5d",  # A-5 of two suits
    "Ac 2c 3c 4c 5c Ad 2d 3d 4d 5d Ah",
    "Ac 2c 3c Ad 2d 3d Ah 2h 3h As",
    "Ac 2c 3c 4c Ad 2d 3d 4d Ah 2h 3h",
    "5c 6c 7c 5d 6d 7d 5h 6h 7h 5s 6s",
    "Ac 2c 3c 4c 5c 6c 7c 8c 9c Tc Jc",
)


def _percentile(samples: list[int], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] / 1000


def _time_each(fn: Callable[[Any], object], inputs: Sequence[Any]) -> list[int]:
    clock = time.perf_counter_ns
    out = []
    for x in inputs:
        t0 = clock()
        fn(x)
        out.append(clock() - t0)
    return out


def _summary(samples: list[int]) -> dict[str, float]:
    return {
        "median_us": round(statistics.median(samples) / 1000, 2),
        "p99_us": round(_percentile(samples, 0.99), 2),
        "max_us": round(max(samples) / 1000, 2),
    }


def _knock_situations(
    rng: random.Random, n: int
) -> list[tuple[tuple[Card, ...], tuple[Card, ...]]]:
    """Knocker hands within the knock limit (built from melds) with random defenders."""
    out: list[tuple[tuple[Card, ...], tuple[Card, ...]]] = []
    while len(out) < n:
        deck = list(DECK)
        rng.shuffle(deck)
        pool = to_mask(deck[:30])
        melds = list(melds_in_mask(pool))
        rng.shuffle(melds)
        hand = 0
        for meld in melds:
            if not meld & hand and (hand | meld).bit_count() <= 10:
                hand |= meld
        rest = [c for c in deck if not c.bit & hand]
        knocker = [c for c in DECK if c.bit & hand] + rest[: 10 - hand.bit_count()]
        if deadwood_of_mask(to_mask(knocker)) > 10:
            continue
        others = [c for c in DECK if c not in knocker]
        rng.shuffle(others)
        out.append((tuple(knocker), tuple(others[:10])))
    return out


def _random_rounds(rng: random.Random, seconds: float) -> float:
    rules = Rules()
    done = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        deck = list(DECK)
        rng.shuffle(deck)
        state = new_round(rules, deck, Seat(rng.randrange(2)))
        while not state.is_over:
            state = apply(state, rng.choice(legal_actions(state)))
        done += 1
    return done / (time.perf_counter() - t0)


def main(argv: Sequence[str]) -> int:
    parser = argparse.ArgumentParser(prog="ginrummy bench engine", description=__doc__)
    parser.add_argument(
        "--hands", type=int, default=20_000, help="random hands timed (default 20000)"
    )
    parser.add_argument(
        "--knocks", type=int, default=2_000, help="knock situations timed (default 2000)"
    )
    parser.add_argument("--seconds", type=float, default=5.0, help="for random rounds")
    parser.add_argument("--seed", type=int, default=1, help="seed of the inputs (default 1)")
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)

    def progress(msg: str) -> None:
        print(f"bench engine: {msg}", file=sys.stderr, flush=True)

    hands10 = [tuple(rng.sample(DECK, 10)) for _ in range(args.hands)]
    hands11 = [tuple(rng.sample(DECK, 11)) for _ in range(args.hands)]
    clear_caches()
    progress(f"best_arrangement on {args.hands} random 10-card hands")
    ten = _time_each(best_arrangement, hands10)
    clear_caches()
    progress(f"best_arrangement + best_discards on {args.hands} random 11-card hands")
    eleven = _time_each(lambda h: (best_arrangement(h), best_discards(h)), hands11)
    dense: dict[str, dict[str, float]] = {}
    for text in DENSE_HANDS:
        cards = parse_cards(text)
        samples = []
        for _ in range(200):
            clear_caches()
            samples.extend(_time_each(best_arrangement, [cards]))
        dense[text] = _summary(samples)
    progress(f"settle on {args.knocks} knock situations")
    knocks = _knock_situations(rng, args.knocks)
    rules = Rules()
    clear_caches()
    settles = _time_each(lambda kd: settle(kd[0], kd[1], rules), knocks)
    progress(f"random full rounds for {args.seconds:g} s")
    rounds_per_s = _random_rounds(rng, args.seconds)
    result = {
        "python": sys.version.split()[0],
        "seed": args.seed,
        "best_arrangement_10": _summary(ten),
        "best_arrangement_and_discards_11": _summary(eleven),
        "dense_hands_max_median_us": max(d["median_us"] for d in dense.values()),
        "dense_hands": dense,
        "settle": _summary(settles),
        "random_rounds_per_second": round(rounds_per_s, 1),
    }
    print(json.dumps(result, indent=2))
    return 0
