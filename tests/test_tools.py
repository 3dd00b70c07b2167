"""The engine's command-line contract: analyze, settle, replay (exit codes, JSON, batch)."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from ginrummy.cli import main
from ginrummy.engine import (
    MatchPhase,
    Rules,
    apply_match,
    deal,
    draw_first_dealer,
    match_legal_actions,
    new_match,
    record_of,
    shuffled_deck,
)
from ginrummy.engine.record import RoundRecord, round_record_dict


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_analyze_ten_cards(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "analyze", "7h 8h 9h Tc Td Ts 2c 3d 4s Kh")
    assert code == 0
    assert json.loads(out) == {
        "deadwood": 19,
        "melds": [["Tc", "Td", "Ts"], ["7h", "8h", "9h"]],
        "deadwood_cards": ["2c", "3d", "4s", "Kh"],
    }


def test_analyze_eleven_cards_lists_best_discards(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "analyze", "7h 8h 9h Tc Td Ts 2c 3d 4s Kh Ks")
    data = json.loads(out)
    assert code == 0
    # Kh or Ks out leaves 2+3+4+10 = 19; both are best.
    assert data["best_discards"] == [
        {"card": "Ks", "deadwood": 19},
        {"card": "Kh", "deadwood": 19},
    ] or sorted(d["card"] for d in data["best_discards"]) == ["Kh", "Ks"]
    assert {d["deadwood"] for d in data["best_discards"]} == {19}
    assert len(data["discards"]) == 11


@pytest.mark.parametrize(
    ("hand", "message"),
    [
        ("7h 8h 9h Tc Td Ts 2c 3d 4s 1x", "not a card"),
        ("7h 8h 9h Tc Td Ts 2c 3d 4s 7h", "more than once"),
        ("7h 8h 9h", "10 or 11 cards"),
    ],
)
def test_analyze_bad_input_exits_2_with_one_line(
    capsys: pytest.CaptureFixture[str], hand: str, message: str
) -> None:
    code, out, err = run(capsys, "analyze", hand)
    assert code == 2
    assert out == ""
    assert message in err
    assert err.count("\n") == 1


def test_analyze_batch_reports_errors_and_goes_on(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import io

    monkeypatch.setattr(
        sys,
        "stdin",
        io.StringIO("7h 8h 9h Tc Td Ts 2c 3d 4s Kh\nfoo\n\nAc 2c 3c 4d 5d 6d 7s 8s 9s Kh\n"),
    )
    code, out, _ = run(capsys, "analyze")
    lines = [json.loads(line) for line in out.splitlines()]
    assert code == 0
    assert [line.get("deadwood") for line in lines] == [19, None, 10]
    assert "not a card" in lines[1]["error"]


def test_settle_william_hill_example(capsys: pytest.CaptureFixture[str]) -> None:
    # docs/rules.md §7.2: knocker 4-4-4, 7s-8s-9s, deadwood Ac As 6c 2d = 10;
    # defender lays off 6s and keeps 46.
    code, out, _ = run(
        capsys,
        "settle",
        "--knocker",
        "4c 4d 4h 7s 8s 9s Ac As 6c 2d",
        "--defender",
        "Kc Qd Jh 7c Ad Ah 2c 2h 3d 6s",
    )
    data = json.loads(out)
    assert code == 0
    assert (data["result"], data["winner"], data["points"]) == ("knock", "knocker", 36)
    assert (data["knocker_deadwood"], data["defender_deadwood"]) == (10, 46)
    assert data["layoffs"] == [{"card": "6s", "onto": ["7s", "8s", "9s"]}]


def test_settle_undercut_and_presets(capsys: pytest.CaptureFixture[str]) -> None:
    # docs/rules.md §7.1: knocker deadwood 7 (7c); defender 5 (5c, nothing to lay off):
    # the defender scores 7 - 5 + 25 = 27.
    knocker = "Ah 2h 3h 4s 5s 6s Tc Jc Qc 7c"
    defender = "5c Kd Kh Ks 9c 9d 9h 2d 3d 4d"
    code, out, _ = run(capsys, "settle", "--knocker", knocker, "--defender", defender)
    data = json.loads(out)
    assert code == 0, out
    assert (data["result"], data["winner"], data["points"]) == ("undercut", "defender", 27)
    # Oklahoma spade doubling does not apply to settle (no upcard); classic has the same
    # undercut bonus, so the same points.
    code, out, _ = run(
        capsys, "settle", "--knocker", knocker, "--defender", defender, "--preset", "classic"
    )
    assert json.loads(out)["points"] == 27
    # With a knock limit of 5 (e.g. Oklahoma upcard 5) the knock is not legal.
    code, _, err = run(
        capsys, "settle", "--knocker", knocker, "--defender", defender, "--knock-limit", "5"
    )
    assert code == 2
    assert "above the knock limit 5" in err


def test_settle_gin_has_no_layoffs(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        capsys,
        "settle",
        "--knocker",
        "2h 3h 4h 7c 7d 7s 9c 9d 9s 9h",
        "--defender",
        "5h Ah Kc Kd Qs Js 8c 2c 3c 4c",
    )
    data = json.loads(out)
    assert code == 0
    assert data["result"] == "gin"
    assert data["layoffs"] == []
    assert data["points"] == 54 + 25  # 2c-3c-4c melded; 5+1+10+10+10+10+8 left


def test_settle_refuses_a_knock_above_the_limit(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(
        capsys,
        "settle",
        "--knocker",
        "4c 4d 4h 7s 8s 9s Ac As 6c Kd",
        "--defender",
        "Kc Qd Jh 7c Ad Ah 2c 2h 3d 6s",
    )
    assert code == 2
    assert out == ""
    assert "above the knock limit 10" in err


def test_settle_needs_both_hands(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "settle", "--knocker", "4c 4d 4h 7s 8s 9s Ac As 6c 2d")
    assert code == 2
    assert "--defender" in err


def test_settle_batch(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    import io

    lines = [
        json.dumps(
            {
                "knocker": "4c 4d 4h 7s 8s 9s Ac As 6c 2d",
                "defender": "Kc Qd Jh 7c Ad Ah 2c 2h 3d 6s",
                "preset": "standard",
            }
        ),
        "not json",
        json.dumps({"knocker": "4c", "defender": "5c"}),
        json.dumps({"knocker": 1, "defender": "5c"}),
        json.dumps(
            {
                "knocker": "4c 4d 4h 7s 8s 9s Ac As 6c 2d",
                "defender": "Kc Qd Jh 7c Ad Ah 2c 2h 3d 6s",
                "preset": "nope",
            }
        ),
        "[1]",
    ]
    monkeypatch.setattr(sys, "stdin", io.StringIO("\n".join(lines) + "\n"))
    code, out, _ = run(capsys, "settle")
    results = [json.loads(line) for line in out.splitlines()]
    assert code == 0
    assert results[0]["points"] == 36
    assert all("error" in r for r in results[1:])
    assert "unknown preset" in results[4]["error"]


def _finished_match() -> dict[str, object]:
    rng = random.Random(7)
    match = new_match(Rules.preset("standard", target_score=25), draw_first_dealer(rng))
    while not match.is_over:
        match = deal(match, shuffled_deck(rng))
        while match.phase is MatchPhase.ROUND:
            match = apply_match(match, rng.choice(match_legal_actions(match)))
    return record_of(match).to_dict()


def test_replay_match_prints_every_move_and_the_result(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    record = _finished_match()
    path = tmp_path / "match.json"
    path.write_text(json.dumps(record))
    code, out, _ = run(capsys, "replay", str(path))
    assert code == 0
    assert out.startswith("Match, rules standard")
    assert "Match over:" in out
    first_round = record["rounds"][0]  # type: ignore[index]
    for n, action in enumerate(first_round["actions"], 1):
        assert f"{n:>3}. " in out and action in out


def test_replay_round_record(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    record = _finished_match()
    first = RoundRecord.from_dict(record["rounds"][0])  # type: ignore[index]
    path = tmp_path / "round.json"
    path.write_text(json.dumps(round_record_dict(Rules(), first)))
    code, out, _ = run(capsys, "replay", str(path))
    assert code == 0
    assert out.startswith("Round: dealer")


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("{nope", "bad JSON"),
        ('{"kind": "chess"}', "unknown record kind"),
        ('{"kind": "round", "rules": {}, "deck": "Ac", "dealer": "one", "actions": []}', "deck"),
    ],
)
def test_replay_bad_files(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, content: str, message: str
) -> None:
    path = tmp_path / "bad.json"
    path.write_text(content)
    code, _, err = run(capsys, "replay", str(path))
    assert code == 2
    assert message in err


def test_replay_missing_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, _, err = run(capsys, "replay", str(tmp_path / "none.json"))
    assert code == 2
    assert "cannot read" in err


def test_replay_refuses_a_tampered_action(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    record = _finished_match()
    record["rounds"][0]["actions"][0] = "knock Ac"  # type: ignore[index]
    path = tmp_path / "tampered.json"
    path.write_text(json.dumps(record))
    code, _, err = run(capsys, "replay", str(path))
    assert code == 2
    assert "round 1, action 1" in err


def test_cli_usage_and_unknown_command(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(capsys, "--help")[0] == 0
    code, _, err = run(capsys, "fly")
    assert code == 2
    assert "unknown command" in err
    code, _, err = run(capsys, "bench", "nothing")
    assert code == 2


def test_console_script_runs() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "ginrummy", "analyze", "Ac 2c 3c 4d 5d 6d 7s 8s 9s Kh"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0
    assert json.loads(done.stdout)["deadwood"] == 10
