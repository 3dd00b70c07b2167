"""A match-equity table: the chance to win a match from each pair of scores, for the
master's rollouts to value a round by the match it leaves rather than by its points
(bench/RESULTS.md, "Master: valued by the match").

The rounds of ``--rounds`` fresh deals of expert-against-expert play give how often a
round is won and by how many points (void rounds are dealt again). From that
distribution, the chance that the player who has ``a`` points wins the match against a
player with ``b`` (first to ``target``) follows by recursion over the next round, the
target's row and column known:

    E(a, b) = sum_k p(k) E(a + k, b) + sum_k p(k) E(a, b + k),  E(target, b) = 1

(``p(k)`` the chance a given player wins the round with ``k`` points, the same for
both; void rounds drop out). Who deals is not told apart. Prints the round
distribution's summary and a few of the table's values.

    PYTHONPATH=src .venv/bin/python bench/match_equity.py --rounds 4000
"""

from __future__ import annotations

import argparse
import random
from collections import Counter
from collections.abc import Mapping

from ginrummy.bots.expert import Expert
from ginrummy.bots.portable import PortableRandom
from ginrummy.engine import (
    MatchPhase,
    Rules,
    apply_match,
    deal,
    draw_first_dealer,
    new_match,
    shuffled_deck,
    view_for_seat,
)


def round_points(rounds: int, seed: int) -> Counter[int]:
    """Points of the winner of each of ``rounds`` rounds, expert against expert (0: void)."""
    rules = Rules.preset("standard")
    player = Expert()
    tally: Counter[int] = Counter()
    deck_rng = random.Random(f"{seed}:equity")
    rng = PortableRandom(f"{seed}:equity:bots")
    for _ in range(rounds):
        match = deal(new_match(rules, draw_first_dealer(deck_rng)), shuffled_deck(deck_rng))
        while match.phase is not MatchPhase.DEAL and not match.is_over:
            turn = match.turn
            assert turn is not None
            match = apply_match(match, player(view_for_seat(match, turn), rng))
        result = match.rounds[-1].result
        tally[0 if result.winner is None else result.points] += 1
    return tally


def chance(table: list[list[float]], a: int, b: int) -> float:
    """The chance to win from ``a`` against ``b`` points: 1 once ``a`` reaches the target
    (the table's size), 0 once ``b`` does, else the table's."""
    target = len(table)
    return 1.0 if a >= target else 0.0 if b >= target else table[a][b]


def equity_table(tally: Mapping[int, int], target: int) -> list[list[float]]:
    """``E[a][b]``: the chance that a player with ``a`` points wins a match to ``target``
    against one with ``b`` (a and b below the target), each round won by either player
    with the points of ``tally`` (its key 0, void rounds, left out)."""
    scored = {k: n for k, n in tally.items() if k > 0}
    total = 2 * sum(scored.values())
    odds = sorted((k, n / total) for k, n in scored.items())
    table = [[0.0] * target for _ in range(target)]
    for a in range(target - 1, -1, -1):
        for b in range(target - 1, -1, -1):
            value = 0.0
            for k, p in odds:
                value += p * chance(table, a + k, b)
                value += p * chance(table, a, b + k)
            table[a][b] = value
    return table


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--rounds", type=int, default=4000)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--target", type=int, default=100)
    args = p.parse_args()
    tally = round_points(args.rounds, args.seed)
    won = sum(n for k, n in tally.items() if k)
    mean = sum(k * n for k, n in tally.items()) / won
    print(f"{args.rounds} rounds: {tally[0]} void, {won} won, {mean:.2f} points a won round")
    print("points:", dict(sorted(tally.items())))
    table = equity_table(tally, args.target)
    for a, b in ((0, 0), (50, 0), (0, 50), (90, 90), (90, 50), (50, 90), (95, 0), (0, 95)):
        print(f"E({a}, {b}) = {table[a][b]:.3f}")


if __name__ == "__main__":
    main()
