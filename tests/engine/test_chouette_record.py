"""Chouette records (docs/rules.md §8): plain data out, an identical table back by replay."""

from __future__ import annotations

import json

import pytest

from ginrummy.engine import (
    ActionParseError,
    ForfeitReason,
    RecordError,
    Rules,
    parse_action,
    parse_cards,
)
from ginrummy.engine.chouette import Deal, Forfeit, Leave, NextMatch, Return, apply, new_table
from ginrummy.engine.chouette_record import (
    ChouetteRecord,
    parse_event,
    record_of_table,
    replay_table,
    replay_table_steps,
)

from .test_chouette import DEALER_GIN, NON_DEALER_GIN, play

RULES = Rules.preset("classic", target_score=30)
DRAWN = parse_cards("9c Kd Js Ah")


def _table():
    t = new_table(RULES, DRAWN)
    t = apply(t, Leave(3))
    t = play(t, *DEALER_GIN)  # the captain deals and wins: the match is over
    t = apply(apply(t, Return(3)), NextMatch())
    return play(t, *NON_DEALER_GIN[:1], ())  # dealt, nothing played yet


def test_events_have_one_text_that_reads_back():
    deck = NON_DEALER_GIN[0]
    events = [
        Deal(deck),
        Leave(2),
        Return(0),
        Forfeit(4, ForfeitReason.TIMEOUT),
        NextMatch(),
        parse_action("knock 7h"),
    ]
    texts = [str(e) for e in events]
    assert texts[1:] == ["leave 2", "return 0", "forfeit 4 timeout", "next match", "knock 7h"]
    assert texts[0].split()[:3] == ["deal", *(str(c) for c in deck[:2])]
    assert [parse_event(t) for t in texts] == events
    assert parse_event("  NEXT   match ") == NextMatch()
    assert parse_event("Forfeit 1 Resigned") == Forfeit(1, ForfeitReason.RESIGNED)


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("leave x", "a player's position is a whole number, got 'x'"),
        ("return -1", "a player's position is a whole number"),
        ("forfeit 1 bored", "'bored' is not a valid ForfeitReason"),
        ("deal 2c Xx", "'deal 2c Xx'"),
        ("forfeit 1", "not an action"),
        ("", "not an action"),
    ],
)
def test_malformed_events_are_refused_with_a_reason(text, reason):
    with pytest.raises(ActionParseError, match=reason):
        parse_event(text)


def test_an_event_is_a_text():
    with pytest.raises(ActionParseError, match="an event is a text, got int"):
        parse_event(5)


def test_a_table_record_round_trips_through_plain_data_and_replays_identically():
    t = _table()
    data = json.loads(json.dumps(record_of_table(t).to_dict()))
    assert (data["format"], data["kind"], data["drawn"]) == (1, "chouette", "9c Kd Js Ah")
    assert data["events"][0] == "leave 3"
    assert data["events"][-2:] == ["next match", str(Deal(NON_DEALER_GIN[0]))]
    record = ChouetteRecord.from_dict(data)
    assert record == record_of_table(t)
    assert replay_table(record) == t
    steps = list(replay_table_steps(record))
    assert len(steps) == len(t.events) + 1
    assert steps[0] == new_table(RULES, DRAWN)
    assert (t.number, t.box, t.ledger) == (2, 2, (255, -765, 255, 255))  # Kd was box


def test_bad_records_are_refused_with_a_reason():
    good = record_of_table(_table()).to_dict()
    with pytest.raises(RecordError, match="not a chouette record"):
        ChouetteRecord.from_dict({**good, "kind": "match"})
    with pytest.raises(RecordError, match="not a chouette record"):
        ChouetteRecord.from_dict([good])
    with pytest.raises(RecordError, match="malformed chouette record: missing or bad 'events'"):
        ChouetteRecord.from_dict({k: v for k, v in good.items() if k != "events"})
    with pytest.raises(RecordError, match="malformed chouette record: unknown rules option"):
        ChouetteRecord.from_dict({**good, "rules": {"colour": "red"}})
    with pytest.raises(RecordError, match="malformed chouette record: not an action"):
        ChouetteRecord.from_dict({**good, "events": ["fold"]})


def test_records_that_do_not_replay_are_refused():
    record = record_of_table(_table())
    with pytest.raises(RecordError, match="the seat draw does not replay: a chouette is 3 to 5"):
        replay_table(ChouetteRecord(RULES, DRAWN[:2], ()))
    late = ChouetteRecord(RULES, DRAWN, (*record.events, NextMatch()))
    with pytest.raises(RecordError, match=r"event 9 \(next match\) does not replay: .* not over"):
        replay_table(late)
