"""``ginrummy bench bots``: decision time per level, and full strong-vs-strong matches/s.

Positions are collected from seeded matches between ``strong`` players; each level
then decides every collected position, timed one decision at a time. Run on one core
(no workers); the figures are wall-clock and depend on the machine.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from typing import Any

from ginrummy.arena import Job, play_match
from ginrummy.bots import LEVELS, PLAYABLE, PortableRandom, make_bot
from ginrummy.engine import (
    MatchPhase,
    Rules,
    SeatView,
    apply_match,
    deal,
    draw_first_dealer,
    new_match,
    shuffled_deck,
    view_for_seat,
)


def collect(n: int, seed: int) -> list[SeatView]:
    """``n`` decision views from seeded strong-vs-strong matches."""
    rng = random.Random(seed)
    bot = make_bot("strong")
    views: list[SeatView] = []
    while len(views) < n:
        match = new_match(Rules(), draw_first_dealer(rng))
        while not match.is_over and len(views) < n:
            if match.phase is MatchPhase.DEAL:
                match = deal(match, shuffled_deck(rng))
                continue
            seat = match.turn
            assert seat is not None
            view = view_for_seat(match, seat)
            views.append(view)
            match = apply_match(match, bot(view, rng))
    return views


def time_level(level: str, views: list[SeatView], seed: int) -> dict[str, float]:
    """Wall-clock and CPU time per decision; the CPU figures leave out the time the
    process waited for a core, which counts when other programs share the machine."""
    choose = make_bot(level)
    times = []
    cpu_times = []
    for i, view in enumerate(views):
        rng = PortableRandom(seed + i)
        cpu_start = time.process_time()
        start = time.perf_counter()
        choose(view, rng)
        times.append(time.perf_counter() - start)
        cpu_times.append(time.process_time() - cpu_start)
    times.sort()
    cpu_times.sort()
    ms = 1000.0
    p99 = min(len(times) - 1, int(len(times) * 0.99))
    return {
        "median_ms": round(statistics.median(times) * ms, 3),
        "p99_ms": round(times[p99] * ms, 3),
        "max_ms": round(times[-1] * ms, 3),
        "mean_ms": round(statistics.fmean(times) * ms, 3),
        "cpu_median_ms": round(statistics.median(cpu_times) * ms, 3),
        "cpu_p99_ms": round(cpu_times[p99] * ms, 3),
        "cpu_max_ms": round(cpu_times[-1] * ms, 3),
    }


def matches_per_second(level: str, seconds: float, seed: int) -> dict[str, float]:
    """Whole matches per wall-clock second, and per second of this process's CPU time
    (the figure for one core when other programs share the machine)."""
    start = time.perf_counter()
    cpu_start = time.process_time()
    n = 0
    while time.perf_counter() - start < seconds:
        play_match(Job(level, level, Rules(), seed, n, 5.0))
        n += 1
    elapsed = time.perf_counter() - start
    cpu = time.process_time() - cpu_start
    return {
        "matches": n,
        "seconds": round(elapsed, 2),
        "per_second": round(n / elapsed, 1),
        "cpu_seconds": round(cpu, 2),
        "per_cpu_second": round(n / cpu, 1) if cpu else 0.0,
    }


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(prog="ginrummy bench bots", description=__doc__)
    p.add_argument("--decisions", type=int, default=400, help="positions per level")
    p.add_argument(
        "--levels",
        default=",".join(LEVELS),
        help="comma-separated levels (default: the levels of LEVELS, master included; "
        "name a trial of TRIALS to time it)",
    )
    p.add_argument("--seconds", type=float, default=10.0, help="for the matches/s figure")
    p.add_argument(
        "--seed", type=int, default=1, help="seed of the positions and matches (default 1)"
    )
    args = p.parse_args(argv)
    levels = [x for x in args.levels.split(",") if x]
    unknown = [x for x in levels if x not in PLAYABLE]
    if unknown:
        print(f"ginrummy bench bots: unknown level(s) {', '.join(unknown)}", file=sys.stderr)
        return 2
    views = collect(args.decisions, args.seed)
    out: dict[str, Any] = {"decisions": len(views), "seed": args.seed, "levels": {}}
    for level in levels:
        print(f"timing {level} ...", file=sys.stderr, flush=True)
        out["levels"][level] = time_level(level, views, args.seed)
    print("timing strong-vs-strong matches ...", file=sys.stderr, flush=True)
    out["strong_vs_strong_matches"] = matches_per_second("strong", args.seconds, args.seed)
    print(json.dumps(out, indent=2))
    return 0
