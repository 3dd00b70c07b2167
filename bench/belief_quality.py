"""How well each opponent model knows the opponent's hidden cards (bench/RESULTS.md,
"Master: the opponent model").

In expert-against-expert matches, at seat one's decisions, each model draws
``--hands`` opponent hands from the seat's view; a card's chance of being in the
opponent's hidden hand is the share of those hands that hold it. Printed per model and
stock band: the log loss of those chances against the true hidden cards (over every
unseen card; lower is better), the share of the true hidden cards the chances name
(the mean chance of a card that is held, against that of a card that is not), and how
much stronger or weaker the hands are than the true one (their mean deadwood less the
true hand's: below 0, the model's opponent is closer to knocking than the real one).

    PYTHONPATH=src .venv/bin/python bench/belief_quality.py --positions 300 \
        --model odds:0 --model odds:6 --model fit:3,4 --model record:proposals=96

A model is ``odds:IMPROVE`` (the expert's odds, each hand chose from IMPROVE cards more),
``fit:IMPROVE,PARTICLES[,KNOCKED]`` (``bots.worlds.Belief``: weighed by the last
discard, a hand with which the expert would have knocked weighing KNOCKED, 1 unless given),
``record:k=v,...`` (``bench/record_belief.Record``: weighed by the whole record; a
string in quotes: ``record:style='simple'``). ``--opponent baseline`` plays seat two
with the simple player instead of the expert.
"""

from __future__ import annotations

import argparse
import ast
import math
import random
import statistics
from collections.abc import Callable, Iterator
from dataclasses import replace

from exact_belief import exact_hands
from learned_belief import Learned
from master_gains import expert_play
from record_belief import RECORD_FIELDS, Record, record_hands

from ginrummy.bots import PLAYABLE
from ginrummy.bots.base import Chooser, mask_of
from ginrummy.bots.expert import INFERENCE
from ginrummy.bots.expert_model import holding_odds, sample_hands
from ginrummy.bots.knowledge import read
from ginrummy.bots.worlds import Belief, sample_worlds
from ginrummy.engine import (
    Phase,
    Seat,
    SeatView,
)
from ginrummy.engine.melds import deadwood_of_mask

Model = Callable[[SeatView, int, random.Random], list[int]]
_BANDS = ((0, 10), (10, 20), (20, 32))


def positions(
    count: int, seed: int, every: int, other: Chooser | None = None
) -> Iterator[tuple[SeatView, int]]:
    """(seat one's view, the opponent's true hidden cards) at every ``every``-th decision
    of seat one in a draw or discard phase; the opponent is the expert, or ``other``."""
    found, n = 0, 0
    for view, match, _, _ in expert_play("belief", seed, other):
        if found >= count:
            return
        if view.seat is Seat.ONE and view.table.round_phase in (Phase.DRAW, Phase.DISCARD):
            n += 1
            if n % every == 0:
                assert match.round is not None
                known = mask_of(view.table.known[Seat.TWO])
                found += 1
                yield view, match.round.hands[Seat.TWO] & ~known


def model_of(text: str) -> Model:
    kind, _, body = text.partition(":")
    if kind == "odds":
        improve = int(body or 0)

        def odds(view: SeatView, count: int, rng: random.Random) -> list[int]:
            know = read(view)
            return sample_hands(know, holding_odds(know, INFERENCE), count, improve, rng)

        return odds
    if kind == "fit":
        cap, particles, *more = body.split(",")
        belief = Belief(int(cap), int(particles), knocked=float(more[0]) if more else 1.0)

        def fit(view: SeatView, count: int, rng: random.Random) -> list[int]:
            out: list[int] = []
            batch = max(1, 52 // belief.particles)
            while len(out) < count:
                for w in sample_worlds(view, min(batch, count - len(out)), rng, belief):
                    assert w.round is not None
                    out.append(w.round.hands[view.seat.other])
            return out

        return fit
    if kind == "record":
        changes = {
            k.strip(): ast.literal_eval(v)
            for k, _, v in (i.partition("=") for i in filter(None, body.split(",")))
        }
        unknown = set(changes) - RECORD_FIELDS
        if unknown:
            raise SystemExit(f"not fields of Record: {', '.join(sorted(unknown))}")
        model = replace(Record(), **changes)

        def record(view: SeatView, count: int, rng: random.Random) -> list[int]:
            out: list[int] = []
            while len(out) < count:
                out += record_hands(view, min(count - len(out), 12), rng, model)
            return out

        return record
    if kind == "learned":
        learned, improve = Learned(), int(body or 0)

        def learn(view: SeatView, count: int, rng: random.Random) -> list[int]:
            return learned.hands(view, count, rng, improve)

        return learn
    if kind == "exact":
        tries = int(body or 4000)

        def exact(view: SeatView, count: int, rng: random.Random) -> list[int]:
            return exact_hands(view, count, rng, tries)

        return exact
    raise SystemExit(
        f"a model is odds:..., fit:..., record:..., learned:... or exact:..., not {text!r}"
    )


def judge(view: SeatView, hidden: int, hands: list[int]) -> tuple[float, float, float, float]:
    """(log loss per unseen card, mean chance of a held card, of a card not held, the
    mean deadwood of the hands less the true hand's)."""
    know = read(view)
    known = mask_of(view.table.known[view.seat.other])
    n = len(hands)
    loss, held, free = 0.0, [], []
    for i in range(52):
        if not know.unseen >> i & 1:
            continue
        p = sum(1 for h in hands if (h & ~known) >> i & 1) / n
        p = min(max(p, 0.5 / n), 1 - 0.5 / n)
        if hidden >> i & 1:
            loss -= math.log(p)
            held.append(p)
        else:
            loss -= math.log(1 - p)
            free.append(p)
    cards = max(1, know.unseen.bit_count())
    true = deadwood_of_mask(hidden | known)
    return (
        loss / cards,
        statistics.mean(held) if held else 0.0,
        statistics.mean(free) if free else 0.0,
        statistics.mean(deadwood_of_mask(h) for h in hands) - true,
    )


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--positions", type=int, default=300)
    p.add_argument("--every", type=int, default=3, help="take every n-th decision of seat one")
    p.add_argument("--hands", type=int, default=48, help="hands each model draws a position")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--model", action="append", default=[])
    p.add_argument("--opponent", default="expert", help="the level seat two plays")
    args = p.parse_args()
    other = PLAYABLE[args.opponent].choose
    models = {t: model_of(t) for t in (args.model or ["odds:0", "odds:6"])}
    rows: list[tuple[int, list[tuple[float, float, float, float]]]] = []
    for n, (view, hidden) in enumerate(positions(args.positions, args.seed, args.every, other)):
        scores = []
        for text, model in models.items():
            rng = random.Random(f"{n}:{text}")
            scores.append(judge(view, hidden, model(view, args.hands, rng)))
        rows.append((view.table.stock_size, scores))
    for low, high in (*_BANDS, (0, 32)):
        band = [r for r in rows if low <= r[0] < high]
        if not band:
            continue
        print(f"stock {low:2}-{high - 1:2}, {len(band)} positions")
        for j, text in enumerate(models):
            loss = statistics.mean(r[1][j][0] for r in band)
            held = statistics.mean(r[1][j][1] for r in band)
            free = statistics.mean(r[1][j][2] for r in band)
            bias = statistics.mean(r[1][j][3] for r in band)
            print(
                f"  {text:34} log loss {loss:.4f}  held {held:.3f}  not held {free:.3f}"
                f"  deadwood {bias:+6.2f}"
            )


if __name__ == "__main__":
    main()
