"""The verifier: fair records check, tampered ones fail naming the round and the reason,
malformed ones are refused naming the field (``ginrummy verify`` exits 0, 1 and 2)."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest

from ginrummy.cli import main
from ginrummy.fairness import Check, FieldError, verify_fairness, verify_record

from .helpers import fair_match

OTHER = "ab" * 32


@pytest.fixture(scope="module")
def record() -> dict[str, Any]:
    return fair_match(random.Random(7), rounds=3)


def changed(record: dict[str, Any], at: int, path: str, value: Any) -> dict[str, Any]:
    """A deep copy with ``rounds[at].<path>`` set to value (None deletes the key when
    path ends in ``!``)."""
    out = copy.deepcopy(record)
    target = out["rounds"][at]
    *parents, last = path.rstrip("!").split(".")
    for key in parents:
        target = target[key]
    if path.endswith("!"):
        del target[last]
    else:
        target[last] = value
    return out


def test_a_fair_record_checks_round_by_round(record):
    assert len(record["rounds"]) == 3
    report = verify_record(record)
    assert report.ok
    assert report.lines() == ["round 1: OK", "round 2: OK", "round 3: OK", "replay: OK"]


@pytest.mark.parametrize(
    ("at", "path", "value", "check"),
    [
        (1, "fair.commitment", OTHER, Check.COMMITMENT),
        (1, "fair.server_seed", OTHER, Check.COMMITMENT),
        (1, "fair.server_seed", None, Check.UNREVEALED),
        (1, "fair.seeds.one", OTHER, Check.DECK),
        (1, "fair.seeds.two", OTHER, Check.DECK),
        (1, "fair.room", "elsewhere", Check.CONTEXT),
        (1, "fair.match", 2, Check.CONTEXT),
        (1, "fair.round", 3, Check.CONTEXT),
        (0, "fair.room", "elsewhere", Check.DECK),  # the first round sets the context
        (0, "fair.match", 9, Check.DECK),
        (2, "fair.round", 2, Check.CONTEXT),
    ],
)
def test_a_tampered_fair_block_fails_its_round(record, at, path, value, check):
    verdicts = verify_fairness(changed(record, at, path, value))
    assert verdicts[at].check is check
    assert verdicts[at].line().startswith(f"round {at + 1}: FAILED ({check.value}) ")
    assert not verify_record(changed(record, at, path, value)).ok


def test_a_tampered_deck_fails_naming_the_first_wrong_card(record):
    cards = record["rounds"][1]["deck"].split()
    cards[4], cards[30] = cards[30], cards[4]
    verdict = verify_fairness(changed(record, 1, "deck", " ".join(cards)))[1]
    assert verdict.check is Check.DECK
    assert verdict.reason == f"card 5 of the deck is {cards[4]}, the seeds give {cards[30]}"


def test_a_record_whose_actions_do_not_replay_fails_the_replay(record):
    report = verify_record(changed(record, 0, "actions", ["knock Qs"]))
    assert [v.ok for v in report.rounds] == [True, True, True]  # the deals were fair
    assert not report.ok and report.replay_error is not None
    assert report.lines()[-1].startswith("replay: FAILED round 1, action 1 (knock Qs)")
    wrong_dealer = {"one": "two", "two": "one"}[record["rounds"][0]["dealer"]]
    assert verify_record(changed(record, 0, "dealer", wrong_dealer)).replay_error


@pytest.mark.parametrize(
    ("at", "path", "value", "field"),
    [
        (1, "fair!", None, "rounds[1].fair"),
        (1, "fair.seeds.two", "ab" * 31, "rounds[1].fair.seeds.two"),
        (1, "fair.seeds.one", "AB" * 32, "rounds[1].fair.seeds.one"),
        (1, "fair.seeds!", None, "rounds[1].fair.seeds"),
        (0, "fair.server_seed", "xyz", "rounds[0].fair.server_seed"),
        (0, "fair.commitment", "00", "rounds[0].fair.commitment"),
        (2, "fair.version", "gin-fair-v2", "rounds[2].fair.version"),
        (2, "fair.version!", None, "rounds[2].fair.version"),
        (2, "fair.match", "1", "rounds[2].fair.match"),
        (2, "fair.round", 2**53, "rounds[2].fair.round"),
        (2, "fair.room", 5, "rounds[2].fair.room"),
        (0, "deck", "2c 3c", "rounds[0].deck"),
        (0, "deck", 5, "rounds[0].deck"),
        (0, "deck!", None, "rounds[0].deck"),
    ],
)
def test_a_malformed_field_is_named(record, at, path, value, field):
    with pytest.raises(FieldError) as caught:
        verify_record(changed(record, at, path, value))
    assert caught.value.field == field
    assert str(caught.value).startswith(field + ": ")


def test_a_deck_in_other_notation_or_with_a_card_twice_is_malformed(record):
    cards = record["rounds"][0]["deck"].split()
    with pytest.raises(FieldError, match="'10c' is not a card in canonical notation"):
        verify_fairness(changed(record, 0, "deck", " ".join(["10c", *cards[1:]])))
    twice = " ".join([cards[1], *cards[1:]])
    with pytest.raises(FieldError, match="expected the 52 cards once each, got 52 cards"):
        verify_fairness(changed(record, 0, "deck", twice))


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ([1], "record"),
        ({"kind": "game"}, "kind"),
        ({"kind": "match", "rounds": []}, "rounds"),
        ({"kind": "match", "rounds": [5]}, "rounds[0]"),
        ({"kind": "round"}, "deck"),
    ],
)
def test_a_malformed_record_is_named(data, field):
    with pytest.raises(FieldError) as caught:
        verify_fairness(data)
    assert caught.value.field == field


def test_what_the_engine_cannot_load_is_malformed_too(record):
    broken = {k: v for k, v in record.items() if k != "rules"}
    with pytest.raises(FieldError, match="record: malformed match record: missing or bad 'rules'"):
        verify_record(broken)


def test_a_stand_alone_round_record_checks_against_its_own_round_number(record):
    rnd = record["rounds"][1]
    data = {"format": 1, "kind": "round", "rules": record["rules"], **rnd}
    assert verify_record(data).lines() == ["round 2: OK", "replay: OK"]
    data["fair"] = {**rnd["fair"], "round": 5}
    assert verify_fairness(data)[0].check is Check.DECK


def run(tmp_path, capsys, data: Any) -> tuple[int, str, str]:
    path = tmp_path / "record.json"
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    code = main(["verify", str(path)])
    out, err = capsys.readouterr()
    return code, out, err


def test_the_command_exits_0_1_or_2(tmp_path, capsys, record):
    assert run(tmp_path, capsys, record) == (
        0,
        "round 1: OK\nround 2: OK\nround 3: OK\nreplay: OK\n",
        "",
    )
    code, out, err = run(tmp_path, capsys, changed(record, 2, "fair.server_seed", OTHER))
    assert code == 1 and err == ""
    assert out.splitlines()[2].startswith("round 3: FAILED (commitment) SHA-256 of the revealed")
    code, out, err = run(tmp_path, capsys, changed(record, 1, "fair.seeds.two", "ab"))
    assert (code, out) == (2, "")
    assert err == (
        "ginrummy verify: rounds[1].fair.seeds.two: expected 64 lowercase hex digits "
        "(32 bytes), got 2 characters\n"
    )
    assert run(tmp_path, capsys, "{not json")[0] == 2
    assert main(["verify", str(tmp_path / "missing.json")]) == 2
    assert "cannot read" in capsys.readouterr().err
