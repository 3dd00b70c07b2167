"""The chouette arena: external bots play box and captain, failures forfeit, the ledger
sums to zero (docs/bot-protocol.md, chouette)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from ginrummy.arena import main
from ginrummy.arena_chouette import run
from ginrummy.engine import Rules, parse_cards

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = f"cmd:{sys.executable} {ROOT / 'examples' / 'sample_bot.py'}"


def logging_bot(tmp_path: Path) -> tuple[str, Path]:
    """The sample bot, unchanged, behind a wrapper that logs every message it gets."""
    log = tmp_path / "messages.jsonl"
    path = tmp_path / "logging_bot.py"
    path.write_text(
        "import json, sys\n"
        f"sys.path.insert(0, {str(ROOT / 'examples')!r})\n"
        "import sample_bot\n"
        f"log = open({str(log)!r}, 'a')\n"
        "for line in sys.stdin:\n"
        "    log.write(line); log.flush()\n"
        "    message = json.loads(line)\n"
        "    if message['type'] == 'bye':\n"
        "        break\n"
        "    action = sample_bot.decide(message['view'])\n"
        "    print(json.dumps({'id': message['id'], 'action': action}), flush=True)\n"
    )
    return f"cmd:{sys.executable} {path}", log


def test_the_sample_bot_plays_box_and_captain_to_the_end(tmp_path: Path) -> None:
    bot, log = logging_bot(tmp_path)
    summary = run([bot, "strong", "casual"], 4, Rules(), seed=1, timeout=20.0)
    assert summary["errors"] == [] and summary["matches"] == 4
    me = summary["players"][0]
    assert me["forfeits"] == 0 and me["rounds_as_box"] > 0 and me["rounds_as_captain"] > 0
    assert sum(summary["ledger"]) == 0
    assert summary["ledger"] == [p["ledger"] for p in summary["players"]]
    messages = [json.loads(line) for line in log.read_text().splitlines()]
    decides = [m for m in messages if m["type"] == "decide"]
    assert {m["role"] for m in decides} == {"box", "captain"}
    assert sum(m["type"] == "bye" for m in messages) >= 4  # one per match it played
    for m in decides:
        info, view = m["chouette"], m["view"]
        assert m["position"] == 0 and info["turn"] == 0 and view["legal_actions"]
        assert view["seat"] == info["seats"][m["role"] if m["role"] == "box" else "team"]
        assert (info["box"] == 0) == (m["role"] == "box")
        assert len(parse_cards(" ".join(view["hand"]))) in (10, 11)
        assert "advice" not in m


def test_same_seed_same_result_whatever_the_workers_and_five_builtin_players() -> None:
    players = ["casual", "baseline", "coach", "random", "beginner"]
    one = run(players, 3, Rules(target_score=50), seed=5, tables=2)
    assert one == run(players, 3, Rules(target_score=50), seed=5, tables=2, workers=2)
    assert one["matches"] == 6 and one["tables"] == 2 and sum(one["ledger"]) == 0
    assert sum(p["matches_as_box"] for p in one["players"]) == 6
    assert one != run(players, 3, Rules(target_score=50), seed=6, tables=2)


@pytest.mark.parametrize(
    ("body", "reason"),
    [
        ("import time\ntime.sleep(30)\n", "timed out"),
        ("import sys\nsys.exit(3)\n", "crashed"),
    ],
)
def test_a_failing_bot_forfeits_its_matches_and_the_table_goes_on(
    tmp_path: Path, body: str, reason: str
) -> None:
    path = tmp_path / "bad.py"
    path.write_text(body)
    timeout = 0.5 if reason == "timed out" else 10.0
    summary = run([f"cmd:{sys.executable} {path}", "casual", "baseline"], 3, Rules(), 2, 1, timeout)
    bad = summary["players"][0]
    assert summary["matches"] == 3 and sum(summary["ledger"]) == 0
    assert bad["forfeits"] >= 1 and reason in summary["errors"][0]
    assert "position 0" in summary["errors"][0]


def test_main_refuses_zero_tables(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--chouette", "--players", "random,random,random", "--tables", "0"]) == 2
    assert "at least 1" in capsys.readouterr().err


def test_main_with_chouette_prints_one_json_object(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["--chouette", "--players", "random,baseline,coach", "--matches", "1", "--quiet"])
    out, err = capsys.readouterr()
    assert code == 0 and err == ""
    summary = json.loads(out)
    assert summary["chouette"] is True and summary["matches"] == 1
    assert [p["player"] for p in summary["players"]] == ["random", "baseline", "coach"]


@pytest.mark.parametrize(
    "players", ["random,baseline", ",".join(["random"] * 6), "random,wizard,coach"]
)
def test_bad_player_lists_are_refused(players: str) -> None:
    with pytest.raises(SystemExit):
        main(["--chouette", "--players", players])
    with pytest.raises(ValueError, match="3 to 5 players"):
        run(["random", "random"], 1, Rules(), 1)
