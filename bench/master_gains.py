"""Where the master's choices go wrong: its search's gains against the gains on the
opponent's true hand (bench/RESULTS.md, "Master: the belief is the limit").

In expert-against-expert matches, at each decision of seat one where the master (its
plan as given) would play another action than the expert, it prints the gain the
master's own search saw (its few worlds), the gain on ``--worlds`` worlds drawn by each
belief given, and the gain on as many *oracle* worlds: the opponent's true hand, the
stock's cards shuffled (what a perfect model of the opponent's hand would see). All of
them are played by the master's rollout player with common random numbers; a gain is
the switched-to action's mean round points less the expert choice's (``--judge-samples``
gives the judging rollout player the expert's undercut check, as the real opponent has).
Then the means by
stock band: where a belief's gain sits above the oracle's, it makes the master switch
for a gain that is not there.

    PYTHONPATH=src .venv/bin/python bench/master_gains.py --decisions 100 --worlds 200 \
        --belief 6,1 --belief 3,4,3.0 --belief 3,4,3.0,0.3

A belief is ``IMPROVE_CAP,PARTICLES[,FIT[,KNOCKED]]`` (``bots.worlds.Belief``); the master
that picks the decisions is ``--plan`` (``MasterPlan`` fields as ``k=v,...``).
"""

from __future__ import annotations

import argparse
import ast
import random
import statistics
from collections.abc import Iterator
from dataclasses import replace

from ginrummy.bots.base import Chooser
from ginrummy.bots.expert import PLAN, Expert
from ginrummy.bots.master import MASTER_PLAN, Master
from ginrummy.bots.portable import PortableRandom
from ginrummy.bots.worlds import Belief, play_out, sample_worlds
from ginrummy.engine import (
    Action,
    ActionKind,
    MatchPhase,
    MatchState,
    Rules,
    Seat,
    SeatView,
    apply_match,
    deal,
    draw_first_dealer,
    new_match,
    shuffled_deck,
    view_for_seat,
)

_BANDS = ((0, 10), (10, 20), (20, 32))


def oracle_worlds(
    view: SeatView, true: MatchState, count: int, rng: random.Random
) -> list[MatchState]:
    """Worlds with the opponent's true hand and the true stock's cards, shuffled."""
    rnd = true.round
    assert rnd is not None
    other = view.seat.other
    out = []
    for world in sample_worlds(view, count, rng):
        assert world.round is not None
        stock = list(rnd.stock)
        rng.shuffle(stock)
        hands = world.round.hands.replace(other, rnd.hands[other])
        out.append(replace(world, round=replace(world.round, hands=hands, stock=tuple(stock))))
    return out


def gain(
    master: Master,
    view: SeatView,
    pair: tuple[Action, Action],
    worlds: list[MatchState],
    rng: random.Random,
) -> float:
    """The mean round points of ``pair[1]`` less those of ``pair[0]`` over ``worlds``."""
    total = 0
    for world in worlds:
        seed = rng.getrandbits(64)
        before, after = (
            play_out(apply_match(world, action), view.seat, PortableRandom(seed), master.rollout)
            for action in pair
        )
        total += after - before
    return total / len(worlds)


Decision = tuple[SeatView, MatchState, Action, random.Random]


def expert_play(tag: str, seed: int, other: Chooser | None = None) -> Iterator[Decision]:
    """Every decision of endless seeded expert-against-expert matches (seat two played by
    ``other`` when given): (the view of the seat to move, the match, the choice made, the
    players' generator)."""
    expert, rules, game = Expert(), Rules.preset("standard"), 0
    while True:
        deck = random.Random(f"{tag}:{seed}:{game}")
        players = PortableRandom(f"{tag}:{seed}:{game}:players")
        game += 1
        match = new_match(rules, draw_first_dealer(deck))
        while not match.is_over:
            if match.phase is MatchPhase.DEAL:
                match = deal(match, shuffled_deck(deck))
                continue
            turn = match.turn
            assert turn is not None
            view = view_for_seat(match, turn)
            player = other if other is not None and turn is Seat.TWO else expert
            action = player(view, players)
            yield view, match, action, players
            match = apply_match(match, action)


def switches(
    master: Master, count: int, seed: int
) -> Iterator[tuple[SeatView, MatchState, Action, Action, float]]:
    """(view, true match, expert's choice, master's choice, the gain its search saw)."""
    found = 0
    for view, match, action, players in expert_play("gains", seed):
        if found >= count:
            return
        if (
            view.seat is Seat.ONE
            and len(view.legal_actions) > 1
            and action.kind not in (ActionKind.GIN, ActionKind.BIG_GIN, ActionKind.KNOCK)
        ):
            local = PortableRandom(players.getrandbits(64))
            candidates = master.candidates(view, action)
            if len(candidates) > 1:
                search = master.search(view, candidates, local)
                pick = search.best(master.plan.margin, master.plan.sure)
                if pick != action:
                    i = candidates.index(pick)
                    seen = statistics.mean(search.points[i]) - statistics.mean(search.points[0])
                    found += 1
                    yield view, match, action, pick, seen


def belief_of(text: str) -> Belief:
    parts = [ast.literal_eval(p) for p in text.split(",")]
    return Belief(*parts)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--decisions", type=int, default=100)
    p.add_argument("--worlds", type=int, default=200)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument(
        "--plan", default="", help="MasterPlan fields of the master that picks the decisions"
    )
    p.add_argument(
        "--judge-samples",
        type=int,
        default=0,
        help="the undercut check's samples of the player judging the gains (the master's "
        "rollout player has 0; the expert, 32)",
    )
    p.add_argument(
        "--belief", action="append", default=[], help="IMPROVE_CAP,PARTICLES[,FIT[,KNOCKED]]"
    )
    args = p.parse_args()
    changes = {
        k: ast.literal_eval(v)
        for k, _, v in (i.partition("=") for i in filter(None, args.plan.split(",")))
    }
    master = Master(replace(MASTER_PLAN, **changes))
    beliefs = {text: belief_of(text) for text in (args.belief or ["6,1"])}
    judge = Master(master.plan)
    judge.rollout = Expert(plan=replace(PLAN, samples=args.judge_samples))
    rows = []
    for n, (view, true, action, pick, seen) in enumerate(
        switches(master, args.decisions, args.seed)
    ):
        pair = (action, pick)
        gains = []
        for belief in beliefs.values():
            rng = random.Random(n)
            worlds = _draw(view, args.worlds, rng, belief)
            gains.append(gain(judge, view, pair, worlds, rng))
        rng = random.Random(n)
        truth = gain(judge, view, pair, oracle_worlds(view, true, args.worlds, rng), rng)
        stock = view.table.stock_size
        rows.append((stock, seen, gains, truth))
        print(
            f"{n + 1:4} stock {stock:2} {pick.kind.value:12} seen {seen:6.2f}  "
            + "  ".join(f"{t} {g:6.2f}" for t, g in zip(beliefs, gains, strict=True))
            + f"  oracle {truth:6.2f}",
            flush=True,
        )
    print()
    for low, high in (*_BANDS, (0, 32)):
        band = [r for r in rows if low <= r[0] < high]
        if not band:
            continue
        means = "  ".join(
            f"{t} {statistics.mean(r[2][j] for r in band):6.2f}" for j, t in enumerate(beliefs)
        )
        seen = statistics.mean(r[1] for r in band)
        truth = statistics.mean(r[3] for r in band)
        print(
            f"stock {low:2}-{high - 1:2}: {len(band):3} switches, seen {seen:6.2f}  {means}", end=""
        )
        print(f"  oracle {truth:6.2f}")


def _draw(view: SeatView, count: int, rng: random.Random, belief: Belief) -> list[MatchState]:
    """``count`` worlds by ``belief``, in batches of at most 52 hands drawn."""
    batch = count if belief.particles == 1 else max(1, 52 // belief.particles)
    out: list[MatchState] = []
    while len(out) < count:
        out += sample_worlds(view, min(batch, count - len(out)), rng, belief)
    return out


if __name__ == "__main__":
    main()
