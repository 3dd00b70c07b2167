"""``ginrummy bench tournament`` plays whole tournaments through the core and reports."""

from __future__ import annotations

import json

import pytest

from ginrummy.benchmarks.tournament import main, play
from ginrummy.tournament import MatchResult, RoundPaired, rebuild

# A server, a service or a bench: the system layer (tests/conftest.py).
pytestmark = pytest.mark.system


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


def test_server_mode_plays_a_small_swiss_with_dropped_sockets_to_the_end(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Six simulated players against a real server, fast, whose room sockets drop now
    and then (they come back by their token): the Swiss ends, nothing went wrong, and
    every player's first deal of rounds 2 and 3 was timed from the round before's end."""
    args = ["--server", "--players", "6", "--format", "swiss", "--rounds", "3"]
    args += ["--think", "0.02", "--grace", "10", "--round-deadline", "90", "--drop", "0.03"]
    assert main(args) == 0
    (out,) = json.loads(capsys.readouterr().out)["tournaments"]
    assert out["mode"] == "server" and out["finish"] == "completed" and out["rounds"] == 3
    assert out["errors"] == 0 and out["error_codes"] == {} and out["stall"] is None
    assert out["dropped_on_purpose"] > 0 and out["reconnects"] >= out["dropped_on_purpose"]
    gap = out["last_result_to_next_deal_ms"]
    assert gap["samples"] == 2 * 6
    assert 0 < gap["p50"] <= gap["p95"] <= gap["p99"] <= gap["max"]
    assert [r["round"] for r in gap["rounds"]] == [2, 3]
    for r in gap["rounds"]:
        assert r["to_paired_ms"] > 0 and r["to_last_sent_ms"] > 0
        assert 0 < r["to_first_deal_ms"] <= r["to_last_deal_ms"]
    assert out["matches"]["count"] == 3 * 3
    assert out["room_reads"] == 2 * 3 * 3  # each player read each room, as the page does


def test_server_mode_fails_loudly_when_a_round_does_not_end_in_time(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Players far slower than the round's deadline: a stall, said and exited non-zero."""
    args = ["--server", "--players", "4", "--think", "20", "--round-deadline", "2"]
    assert main(args) == 1
    captured = capsys.readouterr()
    (out,) = json.loads(captured.out)["tournaments"]
    assert out["error_codes"] == {"stall": 1} and out["finish"] is None
    assert "round 1 of tournament" in out["stall"] and "did not end in time" in out["stall"]
    assert out["stall"].count("board ") == 2  # both pending matches, each with its players
    assert "STALLED" in captured.err
