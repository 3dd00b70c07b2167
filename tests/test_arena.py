"""The arena: reproducible statistics, external bots, and their failures as forfeits."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from ginrummy.arena import MatchOutcome, elo, main, run, summarise, wilson
from ginrummy.engine import Rules

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = f"cmd:{sys.executable} {ROOT / 'examples' / 'sample_bot.py'}"


def test_same_seed_same_result_whatever_the_workers() -> None:
    one = run("casual", "baseline", 4, Rules(), seed=3)
    assert one == run("casual", "baseline", 4, Rules(), seed=3, workers=2)
    assert one["matches"] == 4
    assert one["match_wins"]["a"] + one["match_wins"]["b"] == 4
    assert sum(one["round_wins"].values()) + one["void_rounds"] == one["rounds"]
    assert one != run("casual", "baseline", 4, Rules(), seed=4)


def test_confidence_interval_and_elo() -> None:
    lo, hi = wilson(60, 100)
    assert lo < 0.6 < hi and round(lo, 2) == 0.50 and round(hi, 2) == 0.69
    assert elo(0.5) == 0
    assert round(elo(0.64)) == 100


def test_main_prints_one_json_object(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["--a", "coach", "--b", "random", "--matches", "2", "--seed", "1"])
    out, err = capsys.readouterr()
    assert code == 0
    summary = json.loads(out)
    assert summary["a"] == "coach" and summary["matches"] == 2
    assert "win_rate_a_ci95" in summary and "elo_diff_a" in summary
    assert "2/2" in err  # the progress bar


def test_unknown_player_is_refused() -> None:
    with pytest.raises(SystemExit):
        main(["--a", "wizard", "--b", "random"])


def test_sample_bot_plays_a_whole_match() -> None:
    summary = run(SAMPLE, "baseline", 1, Rules(), seed=1)
    assert summary["forfeits"] == {"a": 0, "b": 0}, summary["errors"]
    assert summary["rounds"] >= 1


def bot(tmp_path: Path, body: str) -> str:
    path = tmp_path / "bot.py"
    path.write_text("import json, sys, time\n" + body)
    return f"cmd:{sys.executable} {path}"


@pytest.mark.parametrize(
    ("body", "reason"),
    [
        ("time.sleep(30)\n", "timed out"),
        ("sys.exit(3)\n", "crashed"),
        ("for line in sys.stdin:\n    print('hello', flush=True)\n", "not JSON"),
        (
            "for line in sys.stdin:\n    print(json.dumps({'action': 'discard As'}), flush=True)\n",
            "illegal action",
        ),
        (
            "for line in sys.stdin:\n    print(json.dumps({'action': 'fly'}), flush=True)\n",
            "unreadable action",
        ),
    ],
)
def test_external_bot_failures_forfeit_the_match(tmp_path: Path, body: str, reason: str) -> None:
    timeout = 0.5 if reason == "timed out" else 10.0  # a slow machine still starts Python
    summary = run(bot(tmp_path, body), "random", 1, Rules(), seed=1, timeout=timeout)
    assert summary["forfeits"] == {"a": 1, "b": 0}
    assert summary["match_wins"] == {"a": 0, "b": 1}
    assert reason in summary["errors"][0]


def test_a_command_that_does_not_exist_forfeits() -> None:
    summary = run("cmd:/nonexistent/bot", "random", 1, Rules(), seed=1)
    assert summary["forfeits"]["a"] == 1
    assert "cannot start" in summary["errors"][0]


def test_a_match_the_bot_reports_as_differing_is_not_counted(tmp_path: Path) -> None:
    # Plays the sample bot's way but says a rule differed in one of its answers.
    body = (
        f"sys.path.insert(0, {str(ROOT / 'examples')!r})\n"
        "from sample_bot import decide\n"
        "for line in sys.stdin:\n"
        "    m = json.loads(line)\n"
        "    if m['type'] != 'decide':\n        break\n"
        "    a = {'id': m['id'], 'action': decide(m['view'])}\n"
        "    if m['id'] == 2:\n        a['uncounted'] = 'deal differs'\n"
        "    print(json.dumps(a), flush=True)\n"
    )
    summary = run(bot(tmp_path, body), "baseline", 2, Rules(), seed=1)
    assert summary["forfeits"] == {"a": 0, "b": 0}, summary["errors"]
    assert summary["matches"] == 0 and summary["uncounted_matches"] == 2
    assert summary["match_wins"] == {"a": 0, "b": 0}
    assert summary["uncounted"][0].endswith("(a) deal differs")


def test_rule_overrides_change_the_rules_played(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["--a", "baseline", "--b", "random", "--matches", "1", "--quiet"]
    assert (
        main([*argv, "--rule", "eleven_card_deal=true", "--rule", "stock_rule=last_discard"]) == 0
    )
    rules = json.loads(capsys.readouterr().out)["rules"]
    assert rules["eleven_card_deal"] is True and rules["stock_rule"] == "last_discard"
    assert main([*argv, "--rule", "oklahoma=true", "--rule", "eleven_card_deal=true"]) == 2
    assert "Oklahoma" in capsys.readouterr().err


def test_forfeits_and_errors_of_uncounted_matches_are_still_told() -> None:
    """A bot that timed out in a match whose rules differed still timed out: the summary
    leaves the match out of the results, not out of the forfeits and errors."""
    outcomes = [
        MatchOutcome(winner=1, forfeit=0, error="a timed out", uncounted="deal differs"),
        MatchOutcome(winner=0, rounds=3, round_wins=[2, 1], points=[110, 30]),
    ]
    summary = summarise("x", "y", Rules(), 1, outcomes)
    assert summary["matches"] == 1 and summary["uncounted_matches"] == 1
    assert summary["match_wins"] == {"a": 1, "b": 0}
    assert summary["forfeits"] == {"a": 1, "b": 0}
    assert summary["errors"] == ["a timed out"]
