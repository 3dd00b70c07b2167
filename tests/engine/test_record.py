"""Records: plain data out, identical states back by replay."""

from __future__ import annotations

import json

import pytest

from ginrummy.engine import (
    FairBlock,
    MatchRecord,
    RecordError,
    RecordFieldError,
    RoundRecord,
    Rules,
    Seat,
    deal,
    load_record,
    new_match,
    parse_action,
    record_of,
    replay_match,
    replay_round,
)
from ginrummy.engine.record import replay_round_steps, round_record_dict
from ginrummy.engine.seats import Pair

from .helpers import deck_of, match_of, play_match, round_of

ONE, TWO = Seat.ONE, Seat.TWO
# non-dealer 2c 3c 4c | 5d 6d 7d | 9h Th Jh | Qs takes Qh and goes gin with Qs
GIN = deck_of("2c 3c 4c 5d 6d 7d 9h Th Jh Qs", "Kc Kd Ks Tc Td Ts Js Jd Jc 5h", "Qh")
GIN_ACTIONS = ("take", "gin Qs")


def test_round_record_round_trips_through_plain_data():
    rules = Rules.preset("standard", move_timer_seconds=30)
    record = RoundRecord(GIN, ONE, tuple(parse_action(a) for a in GIN_ACTIONS))
    data = json.loads(json.dumps(round_record_dict(rules, record)))
    assert data["kind"] == "round" and data["format"] == 1
    assert data["actions"] == ["take", "gin Qs"]
    assert data["dealer"] == "one"
    assert data["deck"].split()[:2] == ["2c", "3c"]
    loaded_rules, loaded = load_record(data)
    assert loaded_rules == rules
    assert loaded_rules.move_timer_seconds == 30  # the move timer is stored
    assert loaded == record
    assert replay_round(rules, loaded) == round_of(rules, GIN, ONE, *GIN_ACTIONS)
    steps = list(replay_round_steps(rules, loaded))
    assert len(steps) == 3 and steps[-1].result.points == 30


def test_match_record_replays_to_an_equal_state_mid_round_and_between_rounds():
    rules = Rules.preset("classic", target_score=70)
    m = match_of(rules, TWO, (GIN, list(GIN_ACTIONS)), (GIN, list(GIN_ACTIONS)))
    data = json.loads(json.dumps(record_of(m).to_dict()))
    assert (data["kind"], data["first_dealer"], len(data["rounds"])) == ("match", "two", 2)
    record = load_record(data)
    assert isinstance(record, MatchRecord)
    assert replay_match(record) == m
    m = play_match(deal(m, GIN), "take")
    assert replay_match(MatchRecord.from_dict(record_of(m).to_dict())) == m


def test_bad_records_are_refused_with_a_reason():
    good = record_of(match_of(Rules(), ONE, (GIN, list(GIN_ACTIONS)))).to_dict()
    with pytest.raises(RecordError, match="a record is a JSON object"):
        load_record([1, 2])
    with pytest.raises(RecordError, match="unknown record kind 'game'"):
        load_record({**good, "kind": "game"})
    with pytest.raises(RecordError, match="malformed match record: missing or bad 'rules'"):
        load_record({k: v for k, v in good.items() if k != "rules"})
    with pytest.raises(RecordError, match="malformed match record: unknown rules option"):
        load_record({**good, "rules": {"colour": "red"}})
    with pytest.raises(RecordError, match="malformed round record: missing or bad 'rules'"):
        load_record({"kind": "round", "deck": "", "dealer": "one", "actions": []})
    with pytest.raises(
        RecordError,
        match=r"malformed round record: invalid rules: knock_limit must be a whole number",
    ):
        load_record({"kind": "round", "rules": {"knock_limit": "ten"}})
    bad_round = dict(good["rounds"][0])
    with pytest.raises(RecordError, match="malformed round record: missing or bad 'actions'"):
        RoundRecord.from_dict({k: v for k, v in bad_round.items() if k != "actions"})
    with pytest.raises(RecordError, match="malformed round record: not an action"):
        RoundRecord.from_dict({**bad_round, "actions": ["fold"]})
    with pytest.raises(RecordError, match="malformed round record"):
        RoundRecord.from_dict({**bad_round, "actions": 5})
    with pytest.raises(RecordError, match="malformed match record"):
        MatchRecord.from_dict({**good, "rounds": [{**bad_round, "deck": "Xx"}]})
    with pytest.raises(RecordError, match="malformed match record: missing or bad"):
        MatchRecord.from_dict({**good, "rules": 5})


def test_replay_refuses_records_that_do_not_follow_the_rules():
    good = record_of(match_of(Rules(), ONE, (GIN, list(GIN_ACTIONS)))).to_dict()
    rnd = good["rounds"][0]
    wrong_dealer = {**good, "rounds": [{**rnd, "dealer": "two"}]}
    with pytest.raises(RecordError, match="round 1: recorded dealer two, the rules give one"):
        replay_match(MatchRecord.from_dict(wrong_dealer))
    short_deck = {**good, "rounds": [{**rnd, "deck": " ".join(rnd["deck"].split()[:51])}]}
    with pytest.raises(RecordError, match="round 1 does not deal"):
        replay_match(MatchRecord.from_dict(short_deck))
    illegal = {**good, "rounds": [{**rnd, "actions": ["take", "discard Qh"]}]}
    with pytest.raises(RecordError, match=r"round 1, action 2 \(discard Qh\)"):
        replay_match(MatchRecord.from_dict(illegal))
    unfinished = {**good, "rounds": [{**rnd, "actions": ["take"]}, {**rnd, "dealer": "two"}]}
    with pytest.raises(RecordError, match="round 2 is recorded but the match cannot deal it"):
        replay_match(MatchRecord.from_dict(unfinished))
    record = RoundRecord(GIN, ONE, (parse_action("draw stock"),))
    with pytest.raises(RecordError, match=r"action 1 \(draw stock\) does not replay"):
        replay_round(Rules(), record)


def test_record_of_a_fresh_match_is_empty():
    m = new_match(Rules(), ONE)
    assert record_of(m).rounds == ()
    assert replay_match(record_of(m)) == m


FAIR = FairBlock(
    version="gin-fair-v1",
    commitment="c" * 64,
    server_seed="5" * 64,
    seeds=Pair("1" * 64, "2" * 64),
    room="k3Xa_9",
    match=2,
    round=1,
)


def test_a_fair_block_rides_along_and_records_without_it_still_load():
    rules = Rules()
    plain = record_of(match_of(rules, ONE, (GIN, list(GIN_ACTIONS))))
    assert "fair" not in plain.to_dict()["rounds"][0]  # older records look as before
    fair = MatchRecord(rules, ONE, (RoundRecord(GIN, ONE, plain.rounds[0].actions, FAIR),))
    data = json.loads(json.dumps(fair.to_dict()))
    assert data["format"] == 1
    assert data["rounds"][0]["fair"] == {
        "version": "gin-fair-v1",
        "commitment": "c" * 64,
        "server_seed": "5" * 64,
        "seeds": {"one": "1" * 64, "two": "2" * 64},
        "room": "k3Xa_9",
        "match": 2,
        "round": 1,
    }
    assert load_record(data) == fair
    assert replay_match(MatchRecord.from_dict(data)) == replay_match(plain)
    hidden = {**data["rounds"][0]["fair"], "server_seed": None}  # the round still runs
    assert FairBlock.from_dict(hidden).server_seed is None


@pytest.mark.parametrize(
    ("change", "field", "problem"),
    [
        ({"seeds": None}, "fair.seeds", "missing or not an object"),
        ({"seeds": {"one": "1" * 64}}, "fair.seeds.two", "missing or not a text"),
        ({"version": 1}, "fair.version", "missing or not a text"),
        ({"server_seed": 5}, "fair.server_seed", "missing or not a text"),
        ({"room": None}, "fair.room", "missing or not a text"),
        ({"match": "2"}, "fair.match", "missing or not a whole number >= 0"),
        ({"match": True}, "fair.match", "missing or not a whole number >= 0"),
        ({"round": -1}, "fair.round", "missing or not a whole number >= 0"),
    ],
)
def test_a_broken_fair_block_names_its_field(change, field, problem):
    broken = {**FAIR.to_dict(), **change}
    with pytest.raises(RecordFieldError) as caught:
        FairBlock.from_dict(broken)
    assert (caught.value.field, caught.value.problem) == (field, problem)
    rnd = {**RoundRecord(GIN, ONE, ()).to_dict(), "fair": broken}
    with pytest.raises(RecordError, match=f"malformed round record: {field}: {problem}"):
        RoundRecord.from_dict(rnd)


def test_a_fair_block_must_be_an_object():
    with pytest.raises(RecordFieldError, match=r"^fair: missing or not an object"):
        FairBlock.from_dict("yes")
    with pytest.raises(RecordError, match="malformed round record: fair: missing or not an"):
        RoundRecord.from_dict({**RoundRecord(GIN, ONE, ()).to_dict(), "fair": "yes"})
