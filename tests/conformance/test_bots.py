"""The browser bots and coach decide as the Python ones (docs/browser-engine.md, "Bots").

Seeded matches under every option set of the engine harness; at each decision every
level decides with the same ``PortableRandom`` seed on both sides and the coach gives
its tip. The expert, a slow one, is asked at every second step here, ``master`` (the
slowest: its rollouts) at every 31st with its whole search compared (the first and the
check of a switch on fresh worlds); larger runs:
``.venv/bin/python tests/conformance/bots_harness.py --matches 200 --expert-every 1``
and ``... --matches 60 --seed 500 --only master --master-every 1`` (and with
``--master-plan '{"improve": 3, "particles": 4, "fit": 3.0}'`` for weighted worlds).
"""

from __future__ import annotations

import json
import os
import shutil
from typing import Any

import pytest

from ginrummy.bots import expert_model

from . import bots_harness

MATCHES = 80


@pytest.fixture(autouse=True)
def _node() -> None:
    if shutil.which("node") is None:
        if os.environ.get("CI") == "true":
            pytest.fail("node is required in CI for the browser bots' conformance")
        pytest.skip("node is not installed")


@pytest.mark.system  # a long differential run against Node (tests/conftest.py)
def test_every_level_and_the_coach_decide_as_in_python() -> None:
    report = bots_harness.run(MATCHES, seed=0, expert_every=2, master_every=31)
    assert report.divergence is None, str(report)
    assert report.decisions > 100 * MATCHES


def searches(answer: str) -> list[Any]:
    """The searches behind a master's answer (the harness's JSON after the action), or
    none where it did not search."""
    at = answer.find(" [[")
    return json.loads(answer[at + 1 :]) if at >= 0 else []


@pytest.mark.system  # against Node
def test_master_with_another_plan_decides_as_in_python() -> None:
    # A small budget cuts searches short (the cut is the budget's, in moves, on both
    # sides); the knock is searched too. The port follows its plan as Python does.
    plan = {"budget": 150, "knocks": True, "worlds": 6}
    cut = [
        a
        for a in bots_harness.play(100, 4, master_every=4, only="master", plan=plan).actions
        if sum(moves for _, _, moves in searches(a)) == 150
    ]
    assert cut, "no search ran into the budget"
    report = bots_harness.run(6, seed=100, master_every=4, only="master", plan=plan)
    assert report.divergence is None, str(report)
    assert report.decisions > 60


@pytest.mark.system  # against Node
def test_master_with_a_belief_of_particles_decides_as_in_python() -> None:
    # Four opponent hands drawn for each world and the worlds' hands drawn from them by
    # how well each explains the opponent's last discard (bots/worlds.py's Belief): the
    # weights, the draw among the hands and the worlds are the port's too; and the
    # rollouts' player's late knock.
    # The rollouts' player knocks late with at most 5 deadwood (the plan's late_knock).
    plan = {"improve": 3, "particles": 4, "fit": 3.0, "knocked": 0.3, "late_knock": 5}
    weighed = bots_harness.play(301, 4, master_every=3, only="master", plan=plan).actions
    plain = bots_harness.play(301, 4, master_every=3, only="master", plan={"improve": 3})
    changed = sum(a != b for a, b in zip(weighed, plain.actions, strict=True))
    assert changed > 5, "the particles changed no search"
    report = bots_harness.run(8, seed=300, master_every=3, only="master", plan=plan)
    assert report.divergence is None, str(report)
    assert report.decisions > 150


def test_master_answers_with_its_search_and_a_rollout_divergence_is_reported() -> None:
    played = bots_harness.play(1, expert_every=4, master_every=5, only="master")
    assert {level for _, level, _ in played.asks} == {"master"}
    searched = [i for i, a in enumerate(played.actions) if " [[" in a]
    assert len(searched) >= 5
    i = searched[0]
    wrong = list(played.actions)
    wrong[i] = wrong[i][:-2] + "1]]"  # the same choice, its last search a move longer
    tips = {str(k): v for k, v in played.tips.items()}
    report = bots_harness.divergence(1, played, {"actions": wrong, "tips": tips})
    assert report is not None and report["level"] == "master"
    assert report["step"] == played.asks[i][0]


def test_the_positions_reach_the_experts_sampled_knock_check(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    calls = []
    real = expert_model.sample_hands

    def counting(*args: object, **kwargs: object) -> list[int]:
        calls.append(1)
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr("ginrummy.bots.expert.sample_hands", counting)
    for seed in range(6):
        bots_harness.play(seed, expert_every=1, master_every=0)
    assert len(calls) >= 5


def test_a_divergence_is_reported_with_the_record_cut_at_its_step() -> None:
    played = bots_harness.play(3, expert_every=4)
    wrong = list(played.actions)
    wrong[40] = "pass"
    tips = {str(k): v for k, v in played.tips.items()}
    report = bots_harness.divergence(3, played, {"actions": wrong, "tips": tips})
    assert report is not None
    step, level, seed = played.asks[40]
    assert (report["step"], report["level"], report["rng_seed"]) == (step, level, seed)
    assert sum(1 + len(r["actions"]) for r in report["record"]["rounds"]) == step
    assert bots_harness.divergence(3, played, {"actions": played.actions, "tips": tips}) is None


@pytest.mark.system  # against Node
def test_a_switch_checked_on_fresh_worlds_decides_as_in_python() -> None:
    """The level's plan checks a switch from the expert's choice on fresh worlds
    (``verify``): those searches come back in the answer too, and agree."""
    checked = [
        a
        for seed in range(2)
        for a in bots_harness.play(seed, expert_every=0, master_every=2, only="master").actions
        if len(searches(a)) == 3 and [len(c) for c, _, _ in searches(a)[1:]] == [2, 2]
    ]
    assert len(checked) >= 5, checked
    report = bots_harness.run(2, seed=0, master_every=2, only="master")
    assert report.divergence is None, str(report)


@pytest.mark.system  # against Node
def test_the_learned_discard_master_starts_from_decides_as_in_python() -> None:
    """With no budget, master answers with its base's choice: the expert with the learned
    discard (bots/learned.py). Asked at every step, both languages agree, and that
    choice is another discard than the expert's in some of them."""
    plan = {"budget": 0}
    changed = 0
    for seed in range(3):
        played = bots_harness.play(seed, expert_every=1, master_every=1, plan=plan)
        at: dict[int, dict[str, str]] = {}
        for (step, level, _), action in zip(played.asks, played.actions, strict=True):
            at.setdefault(step, {})[level] = action.split(" [[")[0]
        changed += sum(
            a["master"] != a["expert"] and a["master"].startswith("discard ")
            for a in at.values()
            if a["expert"].startswith("discard ")
        )
    assert changed >= 5, changed
    report = bots_harness.run(3, seed=0, expert_every=1, master_every=1, only="master", plan=plan)
    assert report.divergence is None, str(report)
    assert report.decisions > 150
