"""A discard (and draw) value learned from the true outcomes of expert-against-expert
play (bench/RESULTS.md, "Master: a discard value learned from true outcomes").

Every search of the master judges its candidates on worlds drawn from a picture of the
opponent's hand, and that picture is the measured limit: with the true hand the same
search wins 69.5% against the expert, with the level's picture 55.6%. This prototype
learns without a picture. At each discard of seeded expert-against-expert matches it
plays each candidate (the expert's choice and the next best discards by the expert's
own score) to the end of the round in the *true* state, the stock's cards shuffled
again for each of ``--rollouts`` playouts (common random numbers across the candidates),
by the full expert in both seats. Given the view, the true hand is a draw from the real
distribution of hands, so the mean of these playouts is an unbiased estimate of what
the discard is worth from the view, whatever a model of the hand would say. A linear
value over a few features of each candidate (the deadwood it leaves, the outs of the
loose cards, its danger by the expert's inference, its value, and those against how
far the round is) is fitted to the differences between each candidate and the
expert's choice by least squares.

The player ``learned`` is the expert whose discard is the candidate of the best learned
value. It reads the view only, like every player; the true hands and stocks are only
its training labels.

    cd bench
    export PYTHONPATH=../src
    ../.venv/bin/python learned_q.py collect --positions 12000 --rollouts 2 --out q1.npz
    ../.venv/bin/python learned_q.py fit q1.npz --out q1.json
    ../.venv/bin/python learned_q.py arena --weights q1.json --matches 2000 --workers 1

``collect --kind draw`` and ``arena --draw-weights`` do the same for the choice
between the pile's top and the stock. ``collect --opponent baseline`` values the
candidates against the simple player instead (seat two plays by it in the matches and
the playouts; bench/RESULTS.md, "Master: the simple player over 2,000 matches, and a
discard learned against it").
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import random
import time
from collections.abc import Iterator
from dataclasses import replace
from itertools import islice
from pathlib import Path

import numpy as np
from master_gains import expert_play

from ginrummy import arena
from ginrummy.bots import PLAYABLE, Level, learned
from ginrummy.bots.base import Chooser, find
from ginrummy.bots.expert import EXPERT, PLAN, Expert, Plan
from ginrummy.bots.heuristic import Style, threw_top
from ginrummy.bots.knowledge import Knowledge, read
from ginrummy.bots.learned import FEATURES, discard_candidates, discard_features
from ginrummy.bots.portable import PortableRandom
from ginrummy.bots.simple import choose_baseline
from ginrummy.bots.worlds import play_out
from ginrummy.engine import (
    Action,
    ActionKind,
    MatchState,
    Phase,
    Rules,
    Seat,
    SeatView,
    apply_match,
)

NAMES = list(FEATURES)

DRAW_NAMES = [
    "take",
    "margin",
    "margin*late",
    "late",
    "deadwood",
    "deadwood*late",
    "knock",
    "value",
    "first",
]


def draw_features(expert: Expert, view: SeatView, know: Knowledge) -> list[float] | None:
    """The features of taking the pile's top (``DRAW_NAMES``; drawing from the stock has
    all zero), or None where taking it is no choice (not offered, or our own discard)."""
    phase = view.table.round_phase
    top = view.table.discard_top
    if phase not in (Phase.DRAW, Phase.FIRST_UPCARD) or top is None:
        return None
    if phase is Phase.DRAW and (
        find(view, ActionKind.DRAW_DISCARD) is None or find(view, ActionKind.DRAW_STOCK) is None
    ):
        return None
    if threw_top(view):
        return None
    odds = expert.odds(know)
    scored = expert.scores(know.hand | top.bit, know, odds)
    del scored[top.index]
    deadwood = min(dw for dw, _ in scored.values())
    best = min(s for _, s in scored.values())
    margin = expert.stock_value(view, know, odds) - best
    late = 1.0 - min(know.stock_size, 31) / 31
    knock = float(deadwood <= view.table.knock_limit and expert.knock_wanted(view, know, deadwood))
    return [
        1.0,
        margin,
        margin * late,
        late,
        deadwood,
        deadwood * late,
        knock,
        top.value,
        float(phase is Phase.FIRST_UPCARD),
    ]


def expert_weights(danger: float = EXPERT.danger) -> list[float]:
    """The expert's own discard score in ``NAMES``' features, negated (higher is better
    here): its deadwood, less its potential weight (1, falling to 0.3 at an empty stock)
    per out, plus its danger weight, and 6 more from 5 stock cards (``PLAN.wall``)."""
    late = EXPERT.potential - (EXPERT.late_potential or 0.0)
    weights = dict.fromkeys(NAMES, 0.0)
    weights.update(
        {
            "deadwood": -1.0,
            "outs": EXPERT.potential,
            "danger": -danger,
            "outs*late": -late,
            "danger*wall": -PLAN.wall_danger,
        }
    )
    return [weights[name] for name in NAMES]


def _reshuffled(match: MatchState, rng: random.Random) -> MatchState:
    rnd = match.round
    assert rnd is not None
    stock = list(rnd.stock)
    rng.shuffle(stock)
    return replace(match, round=replace(rnd, stock=tuple(stock)))


# Who plays seat two, by name: the expert (None: as seat one) or the simple player.
OPPONENTS: dict[str, Chooser | None] = {"expert": None, "baseline": choose_baseline}


def _tag(kind: str, opponent: str) -> str:
    """The name the matches' and the playouts' generators are seeded by."""
    tag = "learned-q" if kind == "discard" else f"learned-q:{kind}"
    return tag if opponent == "expert" else f"{tag}:{opponent}"


Position = tuple[SeatView, MatchState, list[Action], list[list[float]]]


def _positions(kind: str, seed: int, opponent: str) -> Iterator[Position]:
    """Every position of seed ``seed``'s matches where a ``kind`` decision ('discard' or
    'draw') is a choice: the view, the true match, the candidates (the expert's choice
    first) and their rows of features. Against ``opponent`` 'expert' the decisions of
    both seats count; against 'baseline' (the simple player in seat two) seat one's
    only."""
    expert = Expert()
    other = OPPONENTS[opponent]
    for view, match, action, _players in expert_play(_tag(kind, opponent), seed, other):
        if other is not None and view.seat is not Seat.ONE:
            continue
        know = read(view)
        if kind == "discard":
            if view.table.round_phase is not Phase.DISCARD or action.kind is not ActionKind.DISCARD:
                continue
            odds = expert.odds(know)
            cards = discard_candidates(expert, view, know, odds)
            if len(cards) < 2:
                continue
            assert odds is not None and action.card == cards[0], "the expert's choice"
            plain = [a for a in (find(view, ActionKind.DISCARD, c) for c in cards) if a is not None]
            assert len(plain) == len(cards)
            yield view, match, plain, discard_features(know, odds, cards)
            continue
        take = draw_features(expert, view, know)
        if take is None:
            continue
        taking = (
            view.legal_actions[0]
            if view.table.round_phase is Phase.FIRST_UPCARD
            else find(view, ActionKind.DRAW_DISCARD)
        )
        assert taking is not None
        refusing = [a for a in view.legal_actions if a != taking]
        assert len(refusing) == 1
        actions, rows = [taking, refusing[0]], [take, [0.0] * len(take)]
        if action != taking:  # the expert's choice first
            actions.reverse()
            rows.reverse()
        yield view, match, actions, rows


def _collect(
    job: tuple[str, int, int, int, str],
) -> tuple[list[list[float]], list[float], list[int]]:
    """``count`` positions of ``_positions(kind, seed, opponent)``: rows of features, the
    mean playout points of each row, and the position each row belongs to (its first
    row: the expert's choice). The playouts are the full expert's in both seats, the
    simple player's in seat two against 'baseline'."""
    kind, seed, count, rollouts, opponent = job
    other = OPPONENTS[opponent]
    judge = Expert() if other is None else _seated(Expert(), other)
    shuffler = random.Random(f"{_tag(kind, opponent)}:{seed}")
    rows: list[list[float]] = []
    values: list[float] = []
    groups: list[int] = []
    for found, (view, match, actions, found_rows) in enumerate(
        islice(_positions(kind, seed, opponent), count)
    ):
        sums = [0.0] * len(actions)
        for _ in range(rollouts):
            world = _reshuffled(match, shuffler)
            seed64 = shuffler.getrandbits(64)
            for k, act in enumerate(actions):
                sums[k] += play_out(
                    apply_match(world, act), view.seat, PortableRandom(seed64), judge
                )
        for row, total in zip(found_rows, sums, strict=True):
            rows.append(row)
            values.append(total / rollouts)
            groups.append(seed * 10_000_000 + found)
    return rows, values, groups


def _seated(one: Chooser, two: Chooser) -> Chooser:
    """A chooser that plays seat one by ``one`` and seat two by ``two``."""

    def choose(view: SeatView, rng: random.Random) -> Action:
        return (one if view.seat is Seat.ONE else two)(view, rng)

    return choose


def collect(
    kind: str, positions: int, seed: int, rollouts: int, workers: int, out: Path, opponent: str
) -> None:
    chunk = 500
    jobs = [
        (kind, seed * 1000 + k, min(chunk, positions - k * chunk), rollouts, opponent)
        for k in range((positions + chunk - 1) // chunk)
    ]
    started = time.monotonic()
    rows: list[list[float]] = []
    values: list[float] = []
    groups: list[int] = []
    with multiprocessing.Pool(workers) as pool:
        for r, v, g in pool.imap(_collect, jobs):
            rows += r
            values += v
            groups += g
            print(f"{len(set(groups))} positions, {time.monotonic() - started:.0f} s", flush=True)
    np.savez(out, x=np.array(rows), y=np.array(values), g=np.array(groups))


def _differences(x: np.ndarray, y: np.ndarray, g: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each non-first row of a position less the position's first row (the expert's)."""
    first = np.r_[True, g[1:] != g[:-1]]
    base = np.maximum.accumulate(np.where(first, np.arange(len(g)), 0))
    keep = ~first
    return (x - x[base])[keep], (y - y[base])[keep]


def _gain(w: np.ndarray, x: np.ndarray, y: np.ndarray, g: np.ndarray) -> tuple[float, float, int]:
    """Over the positions: the mean playout points the learned pick gains over the
    expert's choice, its standard error, and how many picks differ."""
    gains = []
    switched = 0
    starts = np.flatnonzero(np.r_[True, g[1:] != g[:-1]])
    ends = np.r_[starts[1:], len(g)]
    for s, e in zip(starts, ends, strict=True):
        q = x[s:e] @ w
        pick = int(np.argmax(q - 1e-9 * np.arange(e - s)))
        switched += pick != 0
        gains.append(y[s + pick] - y[s])
    a = np.array(gains)
    return float(a.mean()), float(a.std(ddof=1) / np.sqrt(len(a))), switched


def fit(files: list[Path], ridge: float, out: Path | None) -> None:
    parts = [np.load(f) for f in files]
    x = np.concatenate([p["x"] for p in parts])
    y = np.concatenate([p["y"] for p in parts])
    g = np.concatenate([p["g"] for p in parts])
    ids = np.unique(g)
    rng = np.random.default_rng(0)
    test_ids = set(rng.choice(ids, size=len(ids) // 4, replace=False).tolist())
    test = np.array([v in test_ids for v in g])
    dx, dy = _differences(x[~test], y[~test], g[~test])
    n = dx.shape[1]
    a = dx.T @ dx + ridge * np.eye(n)
    w = np.linalg.solve(a, dx.T @ dy)
    resid = dy - dx @ w
    sigma2 = float(resid @ resid) / max(1, len(dy) - n)
    se = np.sqrt(np.diag(np.linalg.inv(a)) * sigma2)
    print(f"{len(ids)} positions ({len(test_ids)} held out), {len(dy)} differences")
    names = NAMES if n == len(NAMES) else DRAW_NAMES
    for name, wi, si in zip(names, w, se, strict=True):
        print(f"  {name:16s} {wi:+8.3f} ± {si:.3f}")
    for label, mask in (("train", ~test), ("held out", test)):
        mean, err, switched = _gain(w, x[mask], y[mask], g[mask])
        total = len(np.unique(g[mask]))
        print(
            f"{label}: the learned pick gains {mean:+.3f} ± {err:.3f} points a decision "
            f"over the expert's choice; another card in {switched} of {total}"
        )
    if names is NAMES:
        # The expert's own score in these features (its weights negated: higher is
        # better here), and the lighter danger weight, judged on the same positions.
        for label, d in (("the expert's score", 6.0), ("danger 3", 3.0)):
            fixed = np.array(expert_weights(d))
            mean, err, switched = _gain(fixed, x[test], y[test], g[test])
            print(f"{label}: {mean:+.3f} ± {err:.3f} a decision; another card in {switched}")
    if out is not None:
        out.write_text(json.dumps({"names": names, "weights": [float(v) for v in w]}, indent=1))


class Learned(learned.Learned):
    """The learned discard of ``bots/learned.py`` with other weights (None: the expert's
    own discard), and the pile's top taken when its learned value beats the stock's
    (with draw weights)."""

    def __init__(
        self,
        weights: list[float] | None,
        draw: list[float] | None = None,
        style: Style = EXPERT,
        plan: Plan = PLAN,
    ) -> None:
        super().__init__(learned.WEIGHTS if weights is None else weights, style, plan)
        if draw is not None and len(draw) != len(DRAW_NAMES):
            raise ValueError(f"a draw needs {len(DRAW_NAMES)} weights, not {len(draw)}")
        self.plain = weights is None
        self.draw = draw

    def wants_top(self, view: SeatView, know: Knowledge) -> bool:
        row = draw_features(self, view, know) if self.draw is not None else None
        if row is None or self.draw is None:
            return super().wants_top(view, know)
        return learned.learned_value(self.draw, row) > 0

    def discard(self, view: SeatView, know: Knowledge, rng: random.Random) -> Action:
        if self.plain:
            return Expert.discard(self, view, know, rng)
        return super().discard(view, know, rng)


def play(
    weights: Path | None, draw: Path | None, against: str, matches: int, seed: int, workers: int
) -> None:
    w = json.loads(weights.read_text())["weights"] if weights else None
    d = json.loads(draw.read_text())["weights"] if draw else None
    player = Learned(w, d)
    PLAYABLE["learned"] = Level("learned", {"de": "learned", "en": "learned"}, player, False)
    started = time.monotonic()
    r = arena.run("learned", against, matches, Rules.preset("standard"), seed, workers=workers)
    low, high = r["win_rate_a_ci95"]
    ppr = r["mean_points_per_round"]
    print(
        f"learned vs {against}, {matches} matches, seed {seed}: {r['win_rate_a']:.3f} "
        f"({low:.3f}-{high:.3f}); points a round {ppr['a']:.2f}/{ppr['b']:.2f}; "
        f"gins {r['gins']['a']}/{r['gins']['b']}, knocks {r['knocks']['a']}/{r['knocks']['b']}, "
        f"undercuts {r['undercuts']['a']}/{r['undercuts']['b']} "
        f"({time.monotonic() - started:.0f} s)"
    )


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = p.add_subparsers(dest="command", required=True)
    c = sub.add_parser("collect")
    c.add_argument("--kind", choices=("discard", "draw"), default="discard")
    c.add_argument("--positions", type=int, default=20_000)
    c.add_argument("--seed", type=int, default=1)
    c.add_argument("--rollouts", type=int, default=4)
    c.add_argument("--workers", type=int, default=2)
    c.add_argument("--out", type=Path, required=True)
    c.add_argument(
        "--opponent", choices=list(OPPONENTS), default="expert", help="who plays the other seat"
    )
    f = sub.add_parser("fit")
    f.add_argument("files", type=Path, nargs="+")
    f.add_argument("--ridge", type=float, default=1.0)
    f.add_argument("--out", type=Path)
    a = sub.add_parser("arena")
    a.add_argument("--weights", type=Path, help="the discard's weights")
    a.add_argument("--draw-weights", type=Path, help="the draw's weights")
    a.add_argument("--b", default="expert")
    a.add_argument("--matches", type=int, default=2000)
    a.add_argument("--seed", type=int, default=1)
    a.add_argument("--workers", type=int, default=2)
    args = p.parse_args()
    if args.command == "collect":
        collect(
            args.kind,
            args.positions,
            args.seed,
            args.rollouts,
            args.workers,
            args.out,
            args.opponent,
        )
    elif args.command == "fit":
        fit(args.files, args.ridge, args.out)
    else:
        play(args.weights, args.draw_weights, args.b, args.matches, args.seed, args.workers)


if __name__ == "__main__":
    main()
