"""Decision conformance: the browser bots and coach against the Python ones.

Matches are played by Python bots of mixed levels under every option set of
``harness.py``; at decision steps every level decides the Python way with a
``PortableRandom(seed)``, the coach gives its tip, and ONE Node process per batch
(``tests/conformance/bots_driver.mjs``) replays the record in the browser engine and
decides with ``web/js/bots`` for the same steps, levels and seeds. The first
divergence comes back minimal: the record cut at the step, the level, the seed and
both answers.

The two searching levels are slow, so they are asked at a reduced rate: the expert
at every ``expert_every``-th step, ``master`` (about 25 ms a decision in Python, its
rollouts in both languages) at every ``master_every``-th step (0: never). Where
master searches, its answer is the action followed by every search of the decision
(the first and those checking a switch; each with its candidates, every world's round
points and its rollout moves), so that a divergence in any rollout shows even where the
choice agrees.

A larger run from the repository root::

    .venv/bin/python tests/conformance/bots_harness.py --matches 200 --expert-every 1

and a larger run of ``master`` alone (every step of 60 matches, some minutes), and
one with another plan (searches cut short by a small budget, the knock searched too)::

    .venv/bin/python tests/conformance/bots_harness.py --matches 60 --seed 500 \\
        --only master --master-every 1
    .venv/bin/python tests/conformance/bots_harness.py --matches 40 --only master \\
        --master-every 1 --master-plan '{"budget": 300, "knocks": true}'

and one whose worlds are drawn by a belief with particles (``bots.worlds.Belief``: the
opponent hands weighed by how well each explains its last discard)::

    .venv/bin/python tests/conformance/bots_harness.py --matches 30 --seed 300 \\
        --only master --master-every 1 \\
        --master-plan '{"improve": 3, "particles": 4, "fit": 3.0}'
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ginrummy.bots import LEVELS, PortableRandom, make_bot
from ginrummy.bots.master import Master, Search
from ginrummy.engine import (
    MatchPhase,
    Rules,
    SeatView,
    apply_match,
    deal,
    draw_first_dealer,
    new_match,
    record_of,
    shuffled_deck,
    view_for_seat,
)
from ginrummy.hints import advise

ROOT = Path(__file__).resolve().parents[2]
DRIVER = ROOT / "tests" / "conformance" / "bots_driver.mjs"
sys.path.insert(0, str(ROOT / "tests"))
from conformance.harness import MAX_ROUNDS, OPTION_SETS, _truncate  # noqa: E402

PLAYERS = ("beginner", "casual", "strong", "expert", "baseline", "random")


@dataclass
class Asked:
    record: dict[str, Any]
    asks: list[tuple[int, str, int]] = field(default_factory=list)
    actions: list[str] = field(default_factory=list)
    tips: dict[int, list[Any]] = field(default_factory=dict)


MASTER_EVERY = 31  # the default rate of master's decisions (a prime: both phases)


class _TracedMaster:
    """The level's master (its plan with ``changes``), answering with its action and
    the search behind it."""

    def __init__(self, changes: dict[str, Any] | None = None) -> None:
        level = LEVELS["master"].choose
        assert isinstance(level, Master)
        self.master = Master(dataclasses.replace(level.plan, **(changes or {})))
        self.found: list[Search] = []
        self.master.searches = self.found

    def answer(self, view: SeatView, seed: int) -> str:
        self.found.clear()
        action = str(self.master(view, PortableRandom(seed)))
        if not self.found:
            return action
        # Every search of the decision: the first, then the check's (plan.verify).
        found = [[[str(a) for a in s.candidates], s.points, s.moves] for s in self.found]
        return f"{action} {json.dumps(found, separators=(',', ':'))}"  # as JSON.stringify


def play(
    seed: int,
    expert_every: int,
    master_every: int = MASTER_EVERY,
    only: str | None = None,
    plan: dict[str, Any] | None = None,
) -> Asked:
    """A match between two levels (by seed) with every level (or ``only`` one) asked at
    its decisions; ``plan``: changes to master's plan (its field names are the same in
    both languages), e.g. a small budget so that searches stop early."""
    master = _TracedMaster(plan)
    preset, overrides = OPTION_SETS[seed % len(OPTION_SETS)]
    deck_rng = PortableRandom(seed)
    seats_levels = (PLAYERS[seed % 6], PLAYERS[(seed // 6 + 1 + seed) % 6])
    m = new_match(Rules.preset(preset, **overrides), draw_first_dealer(deck_rng))
    asked: list[tuple[int, str, int]] = []
    actions: list[str] = []
    tips: dict[int, list[Any]] = {}
    step = 0
    while not m.is_over and len(m.rounds) < MAX_ROUNDS:
        if m.phase is MatchPhase.DEAL:
            m = deal(m, shuffled_deck(deck_rng))
            step += 1
            continue
        seat = m.turn
        assert seat is not None
        view = view_for_seat(m, seat)
        for k, level in enumerate(LEVELS):
            if only is not None and level != only:
                continue
            if level == "expert" and step % expert_every:
                continue
            if level == "master" and (not master_every or step % master_every):
                continue
            s = seed * 100_000 + step * 10 + k
            asked.append((step, level, s))
            if level == "master":
                actions.append(master.answer(view, s))
            else:
                actions.append(str(make_bot(level)(view, PortableRandom(s))))
        if asked and asked[-1][0] == step:  # the Node side tips where it was asked
            tips[step] = _tip(view)
        own = make_bot(seats_levels[seat])
        m = apply_match(m, own(view, PortableRandom(seed * 7 + step)))
        step += 1
    return Asked(record_of(m).to_dict(), asked, actions, tips)


def _tip(view: SeatView) -> list[Any]:
    """The coach's tip as [action, key, params]; ["error"] where the coach cannot advise
    (it knows no answer when only "pass" is legal on the last discard): the browser
    coach must fail there too."""
    try:
        t = advise(view.hand, view.legal_actions, view.table.discard_top)
    except (AssertionError, ValueError):
        return ["error"]
    return [str(t.action), t.key, t.params]


def run_node(requests: list[dict[str, Any]]) -> list[dict[str, Any]]:
    node = shutil.which("node")
    if node is None:
        raise RuntimeError("node is not installed")
    text = "".join(json.dumps(r) + "\n" for r in requests)
    done = subprocess.run(
        [node, str(DRIVER)], input=text, capture_output=True, text=True, check=False
    )
    if done.returncode != 0:
        raise RuntimeError(f"the node bots driver failed ({done.returncode}): {done.stderr}")
    return [json.loads(line) for line in done.stdout.splitlines()]


def divergence(seed: int, played: Asked, answer: dict[str, Any]) -> dict[str, Any] | None:
    """The first differing decision or tip, as a minimal report; None if all agree."""
    for (step, level, s), mine, theirs in zip(
        played.asks, played.actions, answer["actions"], strict=True
    ):
        if mine != theirs:
            return {
                "seed": seed,
                "step": step,
                "level": level,
                "rng_seed": s,
                "python": mine,
                "node": theirs,
                "record": _truncate(played.record, step),
            }
    for step, tip in played.tips.items():
        other = answer["tips"].get(str(step))
        if other != tip:
            return {
                "seed": seed,
                "step": step,
                "level": "coach",
                "python": tip,
                "node": other,
                "record": _truncate(played.record, step),
            }
    return None


@dataclass
class Report:
    decisions: int
    divergence: dict[str, Any] | None

    def __str__(self) -> str:
        if self.divergence is None:
            return f"both sides agree on {self.decisions} decisions"
        return "first divergence:\n" + json.dumps(self.divergence, indent=1)


def run(
    matches: int,
    seed: int = 0,
    expert_every: int = 4,
    master_every: int = MASTER_EVERY,
    only: str | None = None,
    plan: dict[str, Any] | None = None,
) -> Report:
    played = [play(seed + i, expert_every, master_every, only, plan) for i in range(matches)]
    requests = [
        {"op": "decide", "id": i, "record": p.record, "asks": p.asks, "plan": plan or {}}
        for i, p in enumerate(played)
    ]
    answers = run_node(requests)
    total = 0
    for i, (p, answer) in enumerate(zip(played, answers, strict=True)):
        total += len(p.asks)
        report = divergence(seed + i, p, answer)
        if report is not None:
            return Report(total, report)
    return Report(total, None)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=40)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--expert-every", type=int, default=4, help="ask the expert every n steps")
    parser.add_argument(
        "--master-every",
        type=int,
        default=MASTER_EVERY,
        help=f"ask master every n steps (0: never; default {MASTER_EVERY})",
    )
    parser.add_argument("--only", choices=list(LEVELS), help="ask this level only")
    parser.add_argument(
        "--master-plan",
        type=json.loads,
        default=None,
        help='changes to master\'s plan as JSON, e.g. \'{"budget": 300, "knocks": true}\'',
    )
    args = parser.parse_args(argv)
    report = run(
        args.matches, args.seed, args.expert_every, args.master_every, args.only, args.master_plan
    )
    print(report)
    return 0 if report.divergence is None else 1


if __name__ == "__main__":
    sys.exit(main())
