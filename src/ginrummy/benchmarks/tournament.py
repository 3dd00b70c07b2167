"""``ginrummy bench tournament``: speed of the tournament core on a whole tournament.

Plays one tournament of ``--players`` entrants (seeded ratings) with random results
through the core's commands, as the server would, and prints one JSON object: the
time of each command that paired a round (the Swiss pairing by maximum-weight matching
is the costly part), the whole run, rebuilding the tournament from its log and the
log's round trip through its stored form. Times in milliseconds; everything is
derived from ``--seed``.

With ``--server`` it plays one tournament of simulated players against a real server
instead (``tournament_server``): the time from a round's last result to the next
round's deals, at human pace.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import sys
import time
from collections.abc import Sequence
from typing import Any

from ginrummy.benchmarks import tournament_server
from ginrummy.benchmarks.load import loop_factory
from ginrummy.tournament import (
    Entrant,
    Event,
    Format,
    Phase,
    RoundPaired,
    Settings,
    apply_events,
    create,
    from_record,
    join,
    rebuild,
    record_result,
    to_record,
)


def _ms(ns: int) -> float:
    return round(ns / 1e6, 3)


def play(players: int, fmt: str, seed: int) -> tuple[list[Event], list[int]]:
    """A whole tournament with random results: its log and the time (ns) of each
    command that paired a round."""
    rng = random.Random(seed)
    log: list[Event] = [create(Settings("Bench", Format(fmt), players), "bench", at=0.0)]
    state = rebuild(log)
    pairing_ns = []
    for i in range(players):
        t0 = time.perf_counter_ns()
        events = join(state, Entrant(f"p{i}", f"P{i}", rng.gauss(1500, 200)), at=1.0)
        if any(isinstance(e, RoundPaired) for e in events):
            pairing_ns.append(time.perf_counter_ns() - t0)
        log += events
        state = apply_events(state, events)
    while state.phase is Phase.RUNNING and state.current is not None:
        for p in state.current.pending():
            assert p.match_id is not None and p.second is not None
            winner = rng.choice(p.players)
            points = (rng.randrange(200), rng.randrange(200))
            t0 = time.perf_counter_ns()
            events = record_result(state, p.match_id, winner, points, at=2.0)
            if any(isinstance(e, RoundPaired) for e in events):
                pairing_ns.append(time.perf_counter_ns() - t0)
            log += events
            state = apply_events(state, events)
    return log, pairing_ns


def measure(players: int, fmt: str, seed: int) -> dict[str, Any]:
    t0 = time.perf_counter_ns()
    log, pairing_ns = play(players, fmt, seed)
    total = time.perf_counter_ns() - t0
    t0 = time.perf_counter_ns()
    state = rebuild(log)
    rebuild_ns = time.perf_counter_ns() - t0
    t0 = time.perf_counter_ns()
    again = [from_record(*to_record(e)) for e in log]
    round_trip_ns = time.perf_counter_ns() - t0
    assert again == log and rebuild(again) == state
    return {
        "format": fmt,
        "players": players,
        "rounds": len(state.rounds),
        "events": len(log),
        "finish": None if state.finish is None else state.finish.value,
        "pairing_ms": {
            "mean": _ms(int(statistics.fmean(pairing_ns))),
            "max": _ms(max(pairing_ns)),
        },
        "tournament_ms": _ms(total),
        "rebuild_ms": _ms(rebuild_ns),
        "record_round_trip_ms": _ms(round_trip_ns),
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="ginrummy bench tournament", description=__doc__)
    parser.add_argument("--players", type=int, default=64, help="4 to 64 (default 64)")
    parser.add_argument(
        "--format",
        choices=("swiss", "knockout", "both"),
        default="both",
        help="the tournament's pairing (default both, one after the other)",
    )
    parser.add_argument(
        "--seed", type=int, default=1, help="seed of the ratings and results (default 1)"
    )
    tournament_server.add_arguments(parser)
    args = parser.parse_args(argv)
    if args.server:
        return _server(args)
    formats = ("swiss", "knockout") if args.format == "both" else (args.format,)
    out = []
    for fmt in formats:
        print(f"bench tournament: {fmt}, {args.players} players", file=sys.stderr)
        out.append(measure(args.players, fmt, args.seed))
    print(json.dumps({"tournaments": out}, indent=2))
    return 0


def _server(args: argparse.Namespace) -> int:
    if args.format == "both":
        args.format = "swiss"
    if not 4 <= args.players <= 64:
        raise SystemExit("ginrummy bench tournament: --players must be 4 to 64")
    print(f"bench tournament --server: {args.format}, {args.players} players", file=sys.stderr)
    with asyncio.Runner(loop_factory=loop_factory()) as runner:
        result = runner.run(tournament_server.run(args))
    print(json.dumps({"tournaments": [result]}, indent=2))
    if result["stall"]:
        print(f"bench tournament: STALLED. {result['stall']}", file=sys.stderr)
    if result["errors"]:
        print(f"bench tournament: {result['errors']} errors: {result['error_codes']}",
              file=sys.stderr)  # fmt: skip
        return 1
    return 0
