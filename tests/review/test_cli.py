"""``ginrummy review``: text (or JSON) on stdout, progress on stderr, exit 2 naming bad
input."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ginrummy.cli import main
from ginrummy.engine.record import round_record_dict

from .helpers import bot_match, first_rounds, scenario

SMALL = ("--samples", "3", "--screen", "1", "--keep", "2", "--confirm", "2")


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["review", *args])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def record_file(tmp_path: Path) -> Path:
    path = tmp_path / "match.json"
    path.write_text(json.dumps(first_rounds(bot_match(31), 1).to_dict()))
    return path


def test_review_prints_the_versioned_json_and_progress(capsys, record_file):
    code, out, err = run(capsys, str(record_file), "--seat", "two", *SMALL, "--seed", "4", "--json")
    assert code == 0
    data = json.loads(out)
    assert (data["format"], data["kind"], data["seat"], data["seed"]) == (1, "review", "two", 4)
    assert data["samples"] == 3 and data["thresholds"]["blunder"] == 12.0
    (rnd,) = data["rounds"]
    assert rnd["number"] == 1 and rnd["end"]["hands"]["one"] and rnd["end"]["hands"]["two"]
    assert len(rnd["series"]) == len(rnd["decisions"])
    first = rnd["decisions"][0]
    assert first["played"] in [c["action"] for c in first["choices"]]
    assert set(first["view"]) >= {"hand", "discard_pile", "opponent_known", "stock_size"}
    assert set(data["summary"]["text"]) == {"de", "en"}
    total = len(rnd["decisions"])
    assert f"{total}/{total} decisions" in err


def test_the_cache_gives_the_same_review_again(capsys, record_file, tmp_path):
    cache = tmp_path / "cache"
    args = (str(record_file), "--seat", "one", *SMALL, "--cache", str(cache), "--quiet", "--json")
    code, first, err = run(capsys, *args)
    assert code == 0 and err == ""
    (stored,) = cache.glob("*.json")
    assert json.loads(stored.read_text()) == json.loads(first)
    stored.write_text(json.dumps({"cached": True}))  # the second run must read this
    code, second, _ = run(capsys, *args)
    assert code == 0 and json.loads(second) == {"cached": True}


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("{not json", "bad JSON"),
        ('{"kind": "match", "first_dealer": "one", "rounds": []}', "'rules'"),
        ('{"kind": "match", "rules": {}, "first_dealer": "one"}', "'rounds'"),
        ('{"kind": "game"}', "unknown record kind 'game'"),
        ("[1, 2]", "a record is a JSON object"),
    ],
)
def test_bad_input_exits_2_naming_what_is_wrong(capsys, tmp_path, content, message):
    path = tmp_path / "bad.json"
    path.write_text(content)
    code, out, err = run(capsys, str(path), "--seat", "one")
    assert code == 2 and out == ""
    assert err.startswith("ginrummy review: ") and message in err


def test_a_round_record_is_not_a_match(capsys, tmp_path):
    record = first_rounds(bot_match(31), 1)
    path = tmp_path / "round.json"
    path.write_text(json.dumps(round_record_dict(record.rules, record.rounds[0])))
    code, _, err = run(capsys, str(path), "--seat", "one")
    assert code == 2 and "kind: a review needs a match record" in err


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d["rounds"][1].update(deck="Zz " * 52), "rounds[1]: malformed round record"),
        (lambda d: d["rounds"].__setitem__(0, [1]), "rounds[0]: not an object"),
        (lambda d: d["rounds"][0].pop("dealer"), "rounds[0]: malformed round record"),
    ],
)
def test_a_bad_round_is_named_by_its_place(capsys, tmp_path, change, message):
    data = first_rounds(bot_match(31), 2).to_dict()
    change(data)
    path = tmp_path / "bad_round.json"
    path.write_text(json.dumps(data))
    code, out, err = run(capsys, str(path), "--seat", "one")
    assert code == 2 and out == "" and message in err


def test_a_record_that_does_not_replay_names_the_round_and_action(capsys, tmp_path):
    data = first_rounds(bot_match(31), 1).to_dict()
    data["rounds"][0]["actions"][1] = "knock Ks"
    path = tmp_path / "broken.json"
    path.write_text(json.dumps(data))
    code, _, err = run(capsys, str(path), "--seat", "one")
    assert code == 2 and "round 1, action 2 (knock Ks)" in err


@pytest.mark.parametrize(
    "args",
    [
        ("--seat", "three"),
        ("--seat", "one", "--samples", "0"),
        ("--seat", "one", "--workers", "0"),
        ("--seat", "one", "--samples", "x"),
    ],
)
def test_bad_options_exit_2(capsys, record_file, args):
    code, out, err = run(capsys, str(record_file), *args)
    assert code == 2 and out == "" and err


def test_a_missing_file_exits_2(capsys, tmp_path):
    code, _, err = run(capsys, str(tmp_path / "nope.json"), "--seat", "one")
    assert code == 2 and "cannot read" in err


def test_the_text_summary_is_the_default_and_agrees_with_the_json(capsys, tmp_path):
    # Seat one passes on Ah (taking it and throwing Kd would knock with 1), then knocks
    # with Kd out where Kd was gin: two blunders.
    record = scenario("Ah", "Qs", "pass, pass, draw stock, knock Qs")
    path = tmp_path / "knock.json"
    path.write_text(json.dumps(record.to_dict()))
    args = (str(path), "--seat", "one", "--seed", "3", "--quiet")
    code, text, err = run(capsys, *args)
    assert code == 0 and err == ""
    code, out, _ = run(capsys, *args, "--json")
    data = json.loads(out)
    (rnd,) = data["rounds"]
    knock = rnd["decisions"][-1]
    assert (knock["grade"], knock["certainty"], knock["best"]) == ("blunder", "sure", "gin Kd")
    low, high = knock["interval"]
    assert low <= knock["estimate"] <= high and low >= 12
    assert text.startswith("Review of seat one: 1 round, 3 decisions")
    assert "with its 90% interval (for all " in text
    assert "Inaccuracy from 3.0, mistake from 6.0, blunder from 12.0; sure: " in text
    line = next(x for x in text.splitlines() if "knock Qs" in x)
    assert "better: gin Kd" in line and "blunder (sure)" in line
    assert f"loses {knock['estimate']:.1f} ± {knock['error']:.1f}" in line
    assert f"({low:.1f} to {high:.1f})" in line
    assert "  0 inaccuracies, 0 mistakes, 2 blunders\n" in text
    grades = [d["grade"] for d in rnd["decisions"]]
    assert data["summary"]["counts"] == {
        g: grades.count(g) for g in ("inaccuracy", "mistake", "blunder")
    }
    assert (
        "\nSeat one: 0 inaccuracies, 0 mistakes, 2 blunders (sure: 0 inaccuracies, 0 mistakes, 2 "
        in text
    )
    assert data["summary"]["text"]["en"] in text
    # The worst decisions, worst first, each with its round and the same row as above.
    worst = text.split("Worst decisions:\n")[1].split("\n\n")[0].splitlines()
    assert len(worst) == 2 and worst[0].startswith("  round 1  turn ")
    assert "knock Qs" in worst[0] and "blunder (sure)" in worst[0]
    judged = [d for d in rnd["decisions"] if d["grade"] != "forced"]
    average = sum(d["loss"] for d in judged) / len(judged)
    assert f"Average loss {average:.1f} points a decision with a choice; " in text
    assert f"{data['summary']['points_lost']:.1f} points lost by the 2 errors." in text


def test_the_text_summary_counts_each_round_as_its_grades_say(capsys, record_file):
    args = (str(record_file), "--seat", "two", *SMALL, "--quiet")
    code, text, _ = run(capsys, *args)
    assert code == 0
    _, out, _ = run(capsys, *args, "--json")
    data = json.loads(out)
    for rnd in data["rounds"]:
        grades = [d["grade"] for d in rnd["decisions"]]
        unclear = sum(d["certainty"] == "unsure" for d in rnd["decisions"])
        block = text.split(f"Round {rnd['number']}: ")[1].split("\n\n")[0]
        counts = block.splitlines()[-1].strip()
        expected = ", ".join(
            f"{grades.count(g)} {w if grades.count(g) == 1 else p}"
            for g, w, p in (
                ("inaccuracy", "inaccuracy", "inaccuracies"),
                ("mistake", "mistake", "mistakes"),
                ("blunder", "blunder", "blunders"),
            )
        )
        assert counts == expected + (f"; {unclear} unclear" if unclear else "")
        mentioned = [
            d
            for d in rnd["decisions"]
            if d["grade"] in ("inaccuracy", "mistake", "blunder") or d["certainty"] == "unsure"
        ]
        assert len(block.splitlines()) == 2 + max(len(mentioned), 1)  # heading, rows, counts
        for d in mentioned:
            assert f"turn {d['turn']}  {d['played']}" in block


def test_without_a_seat_both_seats_are_reviewed(capsys, record_file):
    args = (str(record_file), *SMALL, "--quiet")
    code, text, _ = run(capsys, *args)
    assert code == 0
    assert [line.split(":")[0] for line in text.splitlines() if line.startswith("Review of")] == [
        "Review of seat one",
        "Review of seat two",
    ]
    _, out, _ = run(capsys, *args, "--json")
    data = json.loads(out)
    assert (data["format"], data["kind"]) == (1, "reviews")
    assert [r["seat"] for r in data["reviews"]] == ["one", "two"]
    _, alone, _ = run(capsys, *args, "--seat", "two", "--json")
    assert json.loads(alone) == data["reviews"][1]  # the same review as on its own


def test_the_evaluator_names_whose_choice_is_shown(capsys, record_file):
    args = (str(record_file), "--seat", "one", *SMALL, "--quiet", "--json")
    _, out, _ = run(capsys, *args)
    _, out_master, _ = run(capsys, *args, "--evaluator", "master")
    expert, master = json.loads(out), json.loads(out_master)
    assert (expert["evaluator"], master["evaluator"]) == ("expert", "master")
    code, _, err = run(capsys, *args, "--evaluator", "nobody")
    assert code == 2 and "--evaluator" in err
