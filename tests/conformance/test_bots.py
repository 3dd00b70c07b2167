"""The browser bots and coach decide as the Python ones (docs/browser-engine.md, "Bots").

Seeded matches under every option set of the engine harness; at each decision every
level decides with the same ``PortableRandom`` seed on both sides and the coach gives
its tip. The expert, the slow one, is asked at every fourth step here; a larger run:
``.venv/bin/python tests/conformance/bots_harness.py --matches 200 --expert-every 1``.
"""

from __future__ import annotations

import os
import shutil

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
    report = bots_harness.run(MATCHES, seed=0, expert_every=2)
    assert report.divergence is None, str(report)
    assert report.decisions > 100 * MATCHES


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
        bots_harness.play(seed, expert_every=1)
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
