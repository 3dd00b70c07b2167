"""The arena: reproducible statistics, external bots, and their failures as forfeits."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from ginrummy.arena import elo, main, run, wilson
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
