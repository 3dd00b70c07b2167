"""A learned opponent model for the master: each unseen card's chance of being in the
opponent's hidden hand, by a logistic regression trained on expert-against-expert play
(bench/RESULTS.md, "Master: a learned picture of the opponent's hand").

``bots.expert_model.holding_odds`` weighs an unseen card by three hand-set factors
(it melds with a card the opponent took, discarded or passed on). This prototype reads
more of the view (the same relations counted, per kind of card: taken, discarded,
passed on, in my hand, dead in the pile; by rank and by suit distance; the card's
value; how far the round is; the opponent's last two discards) and learns the weights
from the true hands of seeded expert-against-expert matches. It reads the view only,
like every player; the true hands are only its training labels.

    cd bench && PYTHONPATH=../src ../.venv/bin/python learned_belief.py train \
        --positions 20000 --seed 2 --out learned_belief.json

trains and writes the weights; ``belief_quality.py --model learned:IMPROVE`` measures
the model and ``bot_variants.py`` gives it to a master (``learned=IMPROVE``).
"""

from __future__ import annotations

import argparse
import json
import math
import random
from collections.abc import Iterator
from pathlib import Path

from master_gains import expert_play

from ginrummy.bots.base import mask_of
from ginrummy.bots.expert_model import _keep_best, weighted_draw
from ginrummy.bots.knowledge import Knowledge, read
from ginrummy.engine import ActionKind, Phase, SeatView

WEIGHTS = Path(__file__).with_name("learned_belief.json")
_SUIT = 0x1FFF


def _count(mask: int, cards: list[int]) -> int:
    return sum(1 for c in cards if mask >> c & 1)


def _around(i: int) -> tuple[list[int], list[int], list[int]]:
    """The cards of the same rank, and of the same suit one and two ranks away."""
    suit, rank = divmod(i, 13)
    same = [13 * s + rank for s in range(4) if s != suit]
    one = [13 * suit + r for r in (rank - 1, rank + 1) if 0 <= r < 13]
    two = [13 * suit + r for r in (rank - 2, rank + 2) if 0 <= r < 13]
    return same, one, two


_AROUND = [_around(i) for i in range(52)]

NAMES = [
    *(
        f"{s}:{d}"
        for s in ("took", "threw", "passed", "mine", "dead", "unseen")
        for d in ("rank", "one", "two")
    ),
    "value",
    "ace",
    "king",
    "draws",
    "value*draws",
    "last:rank",
    "last:one",
    "last2:rank",
    "last2:one",
    "threw:rank*draws",
    "passed:rank*draws",
    "took:any",
]


def _last_discards(view: SeatView) -> tuple[int, int]:
    other = view.seat.other
    thrown = [
        m.card.index
        for m in view.moves
        if m.seat is other and m.kind is ActionKind.DISCARD and m.card
    ]
    last = thrown[-1] if thrown else -1
    last2 = thrown[-2] if len(thrown) > 1 else -1
    return last, last2


def _rel(i: int, j: int) -> tuple[float, float]:
    """(same rank, same suit one away) of card ``i`` to card ``j`` (-1: none)."""
    if j < 0:
        return 0.0, 0.0
    si, ri = divmod(i, 13)
    sj, rj = divmod(j, 13)
    return float(ri == rj and si != sj), float(si == sj and abs(ri - rj) == 1)


def features(view: SeatView, know: Knowledge) -> tuple[list[int], list[list[float]], float]:
    """(the unseen cards, each one's features, the log odds of a card nothing is known
    about: hidden cards against the rest)."""
    sets = (
        know.opp_known,
        know.opp_discarded,
        know.opp_passed & ~know.opp_discarded,
        know.hand,
        know.pile & ~know.opp_discarded,
        know.unseen,
    )
    draws = know.opp_stock_draws / 10.0
    last, last2 = _last_discards(view)
    cards = [i for i in range(52) if know.unseen >> i & 1]
    rows = []
    for i in cards:
        around = _AROUND[i]
        row = [float(_count(s, a)) for s in sets for a in around]
        rank = i % 13
        value = min(rank + 1, 10) / 10.0
        row += [value, float(rank == 0), float(rank == 12), draws, value * draws]
        row += [*_rel(i, last), *_rel(i, last2)]
        row += [row[3] * draws, row[6] * draws, float(any(row[0:3]))]
        rows.append(row)
    hidden, rest = know.opp_hidden, len(cards) - know.opp_hidden
    base = math.log(max(hidden, 0.5) / max(rest, 0.5))
    return cards, rows, base


def _positions(count: int, seed: int, every: int) -> Iterator[tuple[SeatView, int]]:
    found, n = 0, 0
    for view, match, _, _ in expert_play("learned", seed):
        if found >= count:
            return
        if view.table.round_phase in (Phase.DRAW, Phase.DISCARD):
            n += 1
            if n % every == 0:
                rnd = match.round
                assert rnd is not None
                other = view.seat.other
                known = mask_of(view.table.known[other])
                found += 1
                yield view, rnd.hands[other] & ~known


def train(count: int, seed: int, every: int, l2: float) -> dict[str, object]:
    import numpy as np

    xs: list[list[float]] = []
    ys: list[float] = []
    offs: list[float] = []
    for view, hidden in _positions(count, seed, every):
        know = read(view)
        if not know.opp_hidden:
            continue
        cards, rows, base = features(view, know)
        for i, row in zip(cards, rows, strict=True):
            xs.append(row)
            ys.append(float(hidden >> i & 1))
            offs.append(base)
    x = np.array(xs)
    y = np.array(ys)
    off = np.array(offs)
    x1 = np.hstack([np.ones((len(x), 1)), x])
    w = np.zeros(x1.shape[1])
    for _ in range(30):  # Newton's method on the penalised log likelihood
        z = x1 @ w + off
        p = 1.0 / (1.0 + np.exp(-z))
        grad = x1.T @ (y - p) - l2 * w
        hess = (x1 * (p * (1 - p))[:, None]).T @ x1 + l2 * np.eye(len(w))
        step = np.linalg.solve(hess, grad)
        w += step
        if np.abs(step).max() < 1e-8:
            break
    z = x1 @ w + off
    p = np.clip(1.0 / (1.0 + np.exp(-z)), 1e-9, 1 - 1e-9)
    loss = float(-(y * np.log(p) + (1 - y) * np.log(1 - p)).mean())
    q = np.clip(1.0 / (1.0 + np.exp(-off)), 1e-9, 1 - 1e-9)
    prior = float(-(y * np.log(q) + (1 - y) * np.log(1 - q)).mean())
    return {
        "rows": len(y),
        "train_log_loss": loss,
        "prior_log_loss": prior,
        "bias": float(w[0]),
        "weights": dict(zip(NAMES, map(float, w[1:]), strict=True)),
    }


class Learned:
    """The trained model: each unseen card's chance, and hands drawn by it."""

    def __init__(self, path: Path = WEIGHTS) -> None:
        data = json.loads(path.read_text())
        self.bias = data["bias"]
        self.weights = [data["weights"][n] for n in NAMES]

    def chances(self, view: SeatView, know: Knowledge) -> dict[int, float]:
        cards, rows, base = features(view, know)
        logits = [
            self.bias + base + sum(a * b for a, b in zip(self.weights, r, strict=True))
            for r in rows
        ]
        # shift the logits so that the chances add up to the hidden cards' number
        shift = 0.0
        for _ in range(30):
            ps = [1 / (1 + math.exp(-(z + shift))) for z in logits]
            total = sum(ps)
            slope = sum(p * (1 - p) for p in ps) or 1.0
            shift += (know.opp_hidden - total) / slope
        return {i: 1 / (1 + math.exp(-(z + shift))) for i, z in zip(cards, logits, strict=True)}

    def hands(self, view: SeatView, count: int, rng: random.Random, improve: int) -> list[int]:
        know = read(view)
        chance = self.chances(view, know)
        pool = sorted(chance)
        need = min(know.opp_hidden, len(pool))
        take = min(need + improve, len(pool))
        weights = [max(chance[i], 1e-6) / max(1 - chance[i], 1e-6) for i in pool]
        out = []
        for _ in range(count):
            hidden = weighted_draw(pool, weights, take, rng)
            out.append(_keep_best(know.opp_known, hidden, take - need))
        return out


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = p.add_subparsers(dest="command", required=True)
    t = sub.add_parser("train")
    t.add_argument("--positions", type=int, default=20000)
    t.add_argument("--every", type=int, default=2)
    t.add_argument("--seed", type=int, default=2)
    t.add_argument("--l2", type=float, default=1.0)
    t.add_argument("--out", type=Path, default=WEIGHTS)
    args = p.parse_args()
    model = train(args.positions, args.seed, args.every, args.l2)
    args.out.write_text(json.dumps(model, indent=1) + "\n")
    print(json.dumps(model, indent=1))


if __name__ == "__main__":
    main()
