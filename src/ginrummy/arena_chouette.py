"""``ginrummy arena --chouette``: chouette tables of computers and external bots.

    ginrummy arena --chouette --players "cmd:python examples/sample_bot.py,strong,casual" \\
        --matches 4 --seed 1

Three to five players sit at each table (docs/rules.md §8); each is a level, ``coach``
or ``cmd:<command line>`` as in the two-player arena. Only the box and the captain
decide, each on their seat view; an external bot gets the same ``decide`` as in
two-player plus the table's public facts (docs/bot-protocol.md, chouette), so a
two-player bot plays box or captain unchanged. A bot that fails forfeits the match it
plays (the table goes on). Everything derives from ``--seed``. One JSON object goes to
stdout, with the ledger per player (it sums to zero).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, TextIO

from ginrummy.arena import (
    BotFailure,
    BotTimeout,
    Contestant,
    External,
    Progress,
    check_player,
    common_options,
    contestant,
    pooled,
)
from ginrummy.bots import LEVELS, PortableRandom
from ginrummy.engine import Action, ForfeitReason, MatchPhase, Rules, shuffled_deck
from ginrummy.engine.chouette import (
    BOX,
    MAX_PLAYERS,
    MIN_PLAYERS,
    ChouetteTable,
    Deal,
    Forfeit,
    NextMatch,
    TablePhase,
    apply,
    draw_seat_cards,
    new_table,
)
from ginrummy.engine.chouette_views import PlayerView, view_for_player
from ginrummy.protocol import encode_player_view


@dataclass(frozen=True, slots=True)
class TableJob:
    specs: tuple[str, ...]  # the player at each position
    rules: Rules
    seed: int
    index: int  # the table's number, from 0
    matches: int  # matches played at the table
    timeout: float


@dataclass(slots=True)
class TableOutcome:
    """One table, per position: what the summary adds up."""

    ledger: list[int]
    box_matches: list[int]
    box_wins: list[int]
    box_rounds: list[int]
    captain_rounds: list[int]
    forfeits: list[int]
    matches: int = 0
    rounds: int = 0
    errors: list[str] = field(default_factory=list)


def decide_fields(view: PlayerView) -> dict[str, Any]:
    """What an external bot gets with ``decide``: the seat view as ``view`` (as in
    two-player), and ``position``, ``role`` and ``chouette`` (docs/bot-protocol.md)."""
    fields = encode_player_view(view)
    del fields["advice"]  # only partners advise, and only box and captain are asked
    return fields


class Seats:
    """The players of one table: a contestant per position, started when first asked
    in a match and closed when the match is over (an external bot gets ``bye``)."""

    def __init__(self, job: TableJob) -> None:
        self.job = job
        self.rngs = [PortableRandom(f"{job.seed}:{job.index}:{p}") for p in range(len(job.specs))]
        self.live: dict[int, Contestant] = {}

    def decide(self, view: PlayerView) -> Action:
        p = view.position
        player = self.live.get(p)
        if player is None:
            player = contestant(self.job.specs[p], self.rngs[p], self.job.timeout)
            self.live[p] = player
        if isinstance(player, External):
            return player.ask(view.seat, decide_fields(view))
        return player.decide(view.seat)

    def close(self) -> None:
        for player in self.live.values():
            player.close()
        self.live.clear()


def play_table(job: TableJob) -> TableOutcome:
    """Play ``job.matches`` matches at table ``job.index``."""
    n = len(job.specs)
    out = TableOutcome([0] * n, [0] * n, [0] * n, [0] * n, [0] * n, [0] * n)
    deck_rng = random.Random(f"{job.seed}:{job.index}:deck")
    table = new_table(job.rules, draw_seat_cards(deck_rng, n))
    seats = Seats(job)
    try:
        while True:
            if table.phase is TablePhase.SETTLED:
                seats.close()
                _count_match(table, out)
                if table.number == job.matches:
                    break
                table = apply(table, NextMatch())
            elif table.match.phase is MatchPhase.DEAL:
                table = apply(table, Deal(shuffled_deck(deck_rng)))
            else:
                table = _decide(table, seats, job, out)
    finally:
        seats.close()
    out.ledger = list(table.ledger)
    return out


def _decide(table: ChouetteTable, seats: Seats, job: TableJob, out: TableOutcome) -> ChouetteTable:
    """The player to move decides; a bot that fails forfeits the match it plays."""
    turn = table.turn
    assert turn is not None
    try:
        return apply(table, seats.decide(view_for_player(table, turn)))
    except BotFailure as exc:
        reason = ForfeitReason.TIMEOUT if isinstance(exc, BotTimeout) else ForfeitReason.ABANDONED
        out.forfeits[turn] += 1
        out.errors.append(
            f"table {job.index} match {table.number}: {job.specs[turn]} (position {turn}) {exc}"
        )
        return apply(table, Forfeit(turn, reason))


def _count_match(table: ChouetteTable, out: TableOutcome) -> None:
    """Add the match just settled to the outcome."""
    settled = table.settlements[-1]
    out.matches += 1
    out.rounds += len(table.captains)
    out.box_matches[settled.box] += 1
    out.box_rounds[settled.box] += len(table.captains)
    out.box_wins[settled.box] += settled.result.winner is BOX
    for captain in table.captains:
        out.captain_rounds[captain] += 1


def run(
    specs: Sequence[str],
    matches: int,
    rules: Rules,
    seed: int,
    tables: int = 1,
    timeout: float = 5.0,
    progress: TextIO | None = None,
    workers: int = 1,
) -> dict[str, Any]:
    """Play ``tables`` tables of ``matches`` matches each; the arena's JSON object.
    The result depends on the seed only, whatever ``workers``."""
    specs = tuple(specs)
    if not MIN_PLAYERS <= len(specs) <= MAX_PLAYERS:
        raise ValueError(f"a chouette is {MIN_PLAYERS} to {MAX_PLAYERS} players, got {len(specs)}")
    jobs = [TableJob(specs, rules, seed, index, matches, timeout) for index in range(tables)]
    bar = Progress(tables, progress, unit="tables")
    outcomes = []
    for outcome in pooled(play_table, jobs, workers):
        outcomes.append(outcome)
        bar.step()
    bar.done()
    return summarise(specs, rules, seed, matches, outcomes)


def summarise(
    specs: tuple[str, ...], rules: Rules, seed: int, matches: int, outcomes: list[TableOutcome]
) -> dict[str, Any]:
    def total(name: str, p: int) -> int:
        return sum(getattr(o, name)[p] for o in outcomes)

    players = [
        {
            "position": p,
            "player": spec,
            "ledger": total("ledger", p),
            "matches_as_box": total("box_matches", p),
            "box_wins": total("box_wins", p),
            "rounds_as_box": total("box_rounds", p),
            "rounds_as_captain": total("captain_rounds", p),
            "forfeits": total("forfeits", p),
        }
        for p, spec in enumerate(specs)
    ]
    errors = [e for o in outcomes for e in o.errors]
    return {
        "chouette": True,
        "players": players,
        "ledger": [p["ledger"] for p in players],
        "preset": rules.name,
        "seed": seed,
        "tables": len(outcomes),
        "matches_per_table": matches,
        "matches": sum(o.matches for o in outcomes),
        "rounds": sum(o.rounds for o in outcomes),
        "errors": errors[:10],
    }


def player_list(text: str) -> list[str]:
    """``--players``: comma-separated players (so a command may hold no comma)."""
    specs = [check_player(s.strip()) for s in text.split(",")]
    if not MIN_PLAYERS <= len(specs) <= MAX_PLAYERS:
        raise argparse.ArgumentTypeError(
            f"a chouette is {MIN_PLAYERS} to {MAX_PLAYERS} players, got {len(specs)}"
        )
    return specs


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="ginrummy arena --chouette",
        description="Play chouette tables (3 to 5 players); print one JSON object.",
    )
    p.add_argument(
        "--players",
        required=True,
        type=player_list,
        help=f"3 to 5 comma-separated players: {', '.join(LEVELS)}, coach, cmd:<prog>",
    )
    p.add_argument("--matches", type=int, default=4, help="matches per table (default 4)")
    p.add_argument("--tables", type=int, default=1, help="tables to play (default 1)")
    common_options(p)
    return p


def main(argv: list[str]) -> int:
    args = parser().parse_args(argv)
    if min(args.matches, args.tables, args.workers) < 1:
        msg = "ginrummy arena: --matches, --tables and --workers must be at least 1"
        print(msg, file=sys.stderr)
        return 2
    summary = run(
        args.players,
        args.matches,
        Rules.preset(args.preset),
        args.seed,
        tables=args.tables,
        timeout=args.timeout,
        progress=None if args.quiet else sys.stderr,
        workers=args.workers,
    )
    print(json.dumps(summary, indent=2))
    for error in summary["errors"]:
        print(f"forfeit: {error}", file=sys.stderr)
    return 0
