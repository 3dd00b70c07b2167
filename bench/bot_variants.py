"""Variants of the expert and of the master against a level, in the arena (bench/RESULTS.md,
"Master: variants measured").

A variant is a level registered for this run only (``bots.PLAYABLE``, as a trial is), so
``arena.run`` plays it exactly as ``ginrummy arena`` plays a level: the same deals, seats
swapped on each deal, the same JSON. Nothing here changes a level of the game.

- ``heuristic:NAME:FIELD=VALUE,...``: the expert with fields of its ``Style`` (``danger``,
  ``potential``, ``stock_gain``, ``knock``, ``late_potential``) or its ``Plan`` (``veto``,
  ``wall``, ``wall_danger``, ``samples``, ``improve_cap``) changed;
- ``master:NAME:FIELD=VALUE,...``: the master with fields of its ``MasterPlan`` changed,
  and ``danger=`` for the expert heuristic it starts from and plays its rollouts with,
  ``rollout_danger=`` for its rollout player's danger weight alone (by default ``danger``),
  ``rollout_samples=`` for an undercut check in its rollouts (0 in the level),
  ``rollout_knock=`` for its rollout player's knock table (by default the plan's: the
  expert's with its last step at ``late_knock``, as in the level),
  ``other_knock=`` for the knock table of the rollouts' player in the opponent's seat
  only (the master's own seat keeps its table: a model of the opponent's style),
  ``other_level=NAME`` for a level of the game in the opponent's seat of the rollouts
  (``'baseline'``: the simple player's own policy, a perfect model of its style),
  ``oracle=True`` for worlds with the opponent's true hand (a diagnostic:
  the search with a perfect model of the opponent's hand; the stock is still shuffled),
  ``equity=ROUNDS`` for rollouts valued by the match they leave (``bench/match_equity.py``:
  the change in the chance to win the match, from a table of ROUNDS expert rounds, in
  hundredths of a point at the current scores' rate, the margin scaled alike),
  ``check_samples=N`` for the check on fresh worlds played by the full expert (its
  stock table and its undercut check over N sampled hands, its danger weight the
  rollouts') in both seats of its rollouts, where the first search plays the level's
  rollout player,
  ``learned=PATH`` for other weights of the learned discard the level starts from
  (``bots/learned.py``; a weights file of ``bench/learned_q.py``; the other candidates
  still the expert's next best), ``learned_draw=PATH`` for its learned draw too,
  ``rollout_learned=True`` for that player in the rollouts as well,
  ``plain_base=True`` for the expert as the base, the level before the learned discard,
  ``wide=N`` for a first search of ``N`` times the plan's worlds (the check as the
  level's), ``record={...}`` for worlds drawn by the opponent's whole record
  (``bench/record_belief.py``, the fields of its ``Record``). ``verify=N``, a switch
  checked again on ``N`` searches of fresh worlds, was a variant here and is now a field
  of the plan (``verify=0``: one search alone, the level before).

Values are Python literals. One line a variant: its match win rate with the 95% interval,
points a round, gins, knocks and undercuts won by each side.

    PYTHONPATH=src .venv/bin/python bench/bot_variants.py --b expert --matches 2000 \
        --workers 2 heuristic:dang3:danger=3.0
"""

from __future__ import annotations

import argparse
import ast
import json
import random
import time
from collections.abc import Callable
from dataclasses import fields, replace
from pathlib import Path
from typing import Any

from learned_q import Learned
from master_gains import oracle_worlds
from match_equity import chance, equity_table, round_points
from record_belief import Record, record_worlds

from ginrummy import arena
from ginrummy.bots import PLAYABLE, Level
from ginrummy.bots.base import Chooser
from ginrummy.bots.expert import EXPERT, PLAN, Expert
from ginrummy.bots.heuristic import Style
from ginrummy.bots.learned import WEIGHTS
from ginrummy.bots.master import MASTER_PLAN, Master, MasterPlan, Search
from ginrummy.engine import Action, MatchState, Rules, Seat, SeatView

_STYLE = {f.name for f in fields(Style)}
_MASTER = {f.name for f in fields(MasterPlan)}


def _items(text: str) -> list[str]:
    """``text`` split at the commas outside brackets: ``a=1,k=((1,2),(3,4))``."""
    items, depth, start = [], 0, 0
    for i, char in enumerate(text):
        depth += (char in "([{") - (char in ")]}")
        if char == "," and depth == 0:
            items.append(text[start:i])
            start = i + 1
    items.append(text[start:])
    return items


def _changes(text: str) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for item in filter(None, _items(text)):
        key, _, value = item.partition("=")
        out[key.strip()] = ast.literal_eval(value.strip())
    return out


def heuristic(changes: dict[str, Any]) -> Chooser:
    style = {k: v for k, v in changes.items() if k in _STYLE}
    plan = {k: v for k, v in changes.items() if k not in _STYLE}
    return Expert(replace(EXPERT, **style), replace(PLAN, **plan))


def master(changes: dict[str, Any]) -> Chooser:
    danger = changes.pop("danger", EXPERT.danger)
    rollout_danger = changes.pop("rollout_danger", danger)
    samples = changes.pop("rollout_samples", 0)
    knock = changes.pop("rollout_knock", None)  # None: the plan's (its late_knock)
    other = changes.pop("other_knock", None)  # None: both seats play the same
    other_level = changes.pop("other_level", None)  # a level in the opponent's seat
    oracle = changes.pop("oracle", False)
    record = changes.pop("record", None)
    wide = changes.pop("wide", 1)
    equity = changes.pop("equity", 0)
    check_samples = changes.pop("check_samples", None)
    learned = changes.pop("learned", None)  # a weights file of learned_q.py: the base
    learned_draw = changes.pop("learned_draw", None)  # ... and its draw's
    rollout_learned = changes.pop("rollout_learned", False)  # ... and the rollouts' player
    plain_base = changes.pop("plain_base", False)  # the expert as the base (the level before)
    if equity:
        changes["margin"] = 100 * changes.get("margin", MASTER_PLAN.margin)
    unknown = set(changes) - _MASTER
    if unknown:
        raise SystemExit(f"not fields of MasterPlan: {', '.join(sorted(unknown))}")
    player = Master(replace(MASTER_PLAN, **changes))
    style = replace(EXPERT, danger=danger)
    weights = _weights(learned) or list(WEIGHTS)  # the level's base: the learned discard
    draw = _weights(learned_draw)
    player.expert = Expert(style) if plain_base else Learned(weights, draw, style=style)
    knock = player.rollout.style.knock if knock is None else knock
    rolling = replace(style, danger=rollout_danger)
    player.rollout = Expert(replace(rolling, knock=knock), replace(PLAN, samples=samples))
    if plain_base and (learned is not None or learned_draw is not None):
        raise SystemExit("plain_base is the expert: no learned weights with it")
    if rollout_learned and not plain_base:
        player.rollout = Learned(
            weights,
            draw,
            style=replace(rolling, knock=knock),
            plan=replace(PLAN, samples=samples),
        )
    if oracle:
        player.sample = _oracle
    if record is not None:
        model = replace(Record(), **record)
        player.sample = lambda view, count, rng: record_worlds(view, count, rng, model)
    if wide > 1:
        _widen(player, wide)
    if check_samples is not None:
        _judged_by(player, Expert(rolling, replace(PLAN, samples=check_samples)))
    if equity:
        _by_the_match(player, equity_table(round_points(equity, 1), 100))
    if other is not None and other_level is not None:
        raise SystemExit("other_knock and other_level both name the rollouts' opponent")
    if other is not None:  # after the sampler is chosen: it learns the seat from it
        opponent = Expert(replace(rolling, knock=other), replace(PLAN, samples=samples))
        _split_rollouts(player, opponent)
    if other_level is not None:
        _split_rollouts(player, PLAYABLE[other_level].choose)
    return player


def _weights(path: str | None) -> list[float] | None:
    return None if path is None else list(json.loads(Path(path).read_text())["weights"])


def _widen(player: Master, batches: int) -> None:
    """The first search of each decision plays ``batches`` times the plan's worlds, each
    batch drawn as the level draws its worlds; the check on fresh worlds is as the
    level's (a belief with particles draws at most 52 hands at once)."""
    sample, check = player.sample, player.check
    first = [True]

    def sampled(view: SeatView, count: int, rng: random.Random) -> list[MatchState]:
        rounds = batches if first[0] else 1
        return [w for _ in range(rounds) for w in sample(view, count, rng)]

    def checked(
        view: SeatView, pair: tuple[Action, Action], spent: int, rng: random.Random
    ) -> Search:
        first[0] = False
        try:
            return check(view, pair, spent, rng)
        finally:
            first[0] = True

    player.sample = sampled
    setattr(player, "check", checked)  # noqa: B010


def _judged_by(player: Master, judge: Chooser) -> None:
    """The check on fresh worlds played by ``judge`` in both seats of its rollouts (the
    first search keeps the player's rollout player)."""
    check = player.check

    def checked(
        view: SeatView, pair: tuple[Action, Action], spent: int, rng: random.Random
    ) -> Search:
        first = player.rollout  # as it is now: a later option may have replaced it
        setattr(player, "rollout", judge)  # noqa: B010
        try:
            return check(view, pair, spent, rng)
        finally:
            setattr(player, "rollout", first)  # noqa: B010

    setattr(player, "check", checked)  # noqa: B010


def _by_the_match(player: Master, table: list[list[float]]) -> None:
    """Every search's round points turned into the change of the chance to win the match
    (``table``, ``match_equity.chance``), in hundredths of a point at the current scores' rate:
    the rate is the chance 10 points more for the player gain against 10 for the opponent."""
    search = player.search

    def equity(a: int, b: int) -> float:
        return chance(table, a, b)

    def valued(
        view: SeatView,
        candidates: tuple[Action, ...],
        rng: random.Random,
        budget: int | None = None,
    ) -> Search:
        found = search(view, candidates, rng, budget)
        a, b = view.table.scores[view.seat], view.table.scores[view.seat.other]
        now = equity(a, b)
        rate = max((equity(a + 10, b) - equity(a, b + 10)) / 20, 1e-6)

        def value(points: int) -> int:
            after = equity(a + points, b) if points >= 0 else equity(a, b - points)
            return round(100 * (after - now) / rate)

        points = tuple(tuple(value(p) for p in column) for column in found.points)
        return Search(found.candidates, points, found.moves)

    setattr(player, "search", valued)  # noqa: B010


class _Seats:
    """A rollout player by seat: the searching master's seat plays ``own``, the other
    seat ``other`` (``seat`` is set by each search)."""

    def __init__(self, own: Chooser, other: Chooser) -> None:
        self.own, self.other = own, other
        self.seat: Seat | None = None

    def __call__(self, view: SeatView, rng: random.Random) -> Action:
        return (self.own if view.seat is self.seat else self.other)(view, rng)


def _split_rollouts(player: Master, opponent: Chooser) -> None:
    """The opponent's seat in ``player``'s rollouts played by ``opponent``; each
    search tells whose seat is the master's as it samples its worlds."""
    seats = _Seats(player.rollout, opponent)
    sample = player.sample

    def sampled(view: SeatView, count: int, rng: random.Random) -> list[MatchState]:
        seats.seat = view.seat
        return sample(view, count, rng)

    setattr(player, "rollout", seats)  # noqa: B010 (a Chooser where the level has an Expert)
    player.sample = sampled


# The match each arena decision is taken in, for the oracle (a diagnostic, never a level).
_TRUE: list[MatchState] = []


_View = Callable[[MatchState, Seat], SeatView]


def _recording(view: _View) -> _View:
    def recorded(match: MatchState, seat: Seat) -> SeatView:
        _TRUE[:] = [match]
        return view(match, seat)

    return recorded


def _oracle(view: SeatView, count: int, rng: random.Random) -> list[MatchState]:
    """Worlds with the opponent's true hand and the true stock's cards, shuffled: what the
    search would find if its model of the opponent's hand were perfect."""
    return oracle_worlds(view, _TRUE[0], count, rng)


def variant(spec: str) -> str:
    """Register ``spec``'s player under its name; returns the name."""
    kind, _, rest = spec.partition(":")
    name, _, body = rest.partition(":")
    makers = {"heuristic": heuristic, "master": master}
    if kind not in makers or not name:
        raise SystemExit(f"a variant is heuristic:NAME:... or master:NAME:..., not {spec!r}")
    PLAYABLE[name] = Level(name, {"de": name, "en": name}, makers[kind](_changes(body)), False)
    return name


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("variants", nargs="+", help="heuristic:NAME:k=v,... or master:NAME:k=v,...")
    p.add_argument("--b", default="expert", help="the level each variant plays")
    p.add_argument("--matches", type=int, default=2000)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--workers", type=int, default=1)
    args = p.parse_args()
    rules = Rules.preset("standard")
    setattr(arena, "view_for_seat", _recording(getattr(arena, "view_for_seat")))  # noqa: B009, B010
    for name in [variant(s) for s in args.variants]:
        started = time.monotonic()
        r = arena.run(name, args.b, args.matches, rules, args.seed, workers=args.workers)
        low, high = r["win_rate_a_ci95"]
        ppr = r["mean_points_per_round"]
        print(
            f"{name} vs {args.b}, {args.matches} matches, seed {args.seed}: "
            f"{r['win_rate_a']:.3f} ({low:.3f}-{high:.3f}); points a round "
            f"{ppr['a']:.2f}/{ppr['b']:.2f}; gins {r['gins']['a']}/{r['gins']['b']}, "
            f"knocks {r['knocks']['a']}/{r['knocks']['b']}, "
            f"undercuts {r['undercuts']['a']}/{r['undercuts']['b']} "
            f"({time.monotonic() - started:.0f} s)",
            flush=True,
        )


if __name__ == "__main__":
    main()
