"""``ginrummy bench tournament`` plays whole tournaments through the core and reports."""

from __future__ import annotations

import json

import pytest

from ginrummy.benchmarks.tournament import main, play
from ginrummy.tournament import MatchResult, RoundPaired, rebuild


def test_a_swiss_is_played_to_its_planned_rounds_and_pairings_are_timed() -> None:
    log, pairing_ns = play(8, "swiss", seed=3)
    state = rebuild(log)
    assert state.finish is not None and state.finish.value == "completed"
    assert len(state.rounds) == 4  # ceil(log2 8) + 1
    assert len(pairing_ns) == sum(isinstance(e, RoundPaired) for e in log) == 4
    assert sum(isinstance(e, MatchResult) for e in log) == 4 * 4
    assert play(8, "swiss", seed=3)[0] == log  # derived from the seed alone


def test_the_command_prints_one_json_object(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--players", "5", "--format", "knockout"]) == 0
    (out,) = json.loads(capsys.readouterr().out)["tournaments"]
    assert out["format"] == "knockout" and out["players"] == 5 and out["rounds"] == 3
    assert out["finish"] == "completed" and out["pairing_ms"]["max"] >= out["pairing_ms"]["mean"]
