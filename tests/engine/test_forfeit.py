"""A match lost by forfeit (move timer ran out, abandoned, resigned): docs/rules.md §4."""

from __future__ import annotations

import random

import pytest

from ginrummy.engine import (
    ForfeitReason,
    IllegalActionError,
    MatchPhase,
    MatchRecord,
    RecordError,
    Rules,
    Seat,
    apply_match,
    deal,
    forfeit,
    match_legal_actions,
    new_match,
    record_of,
    replay_match,
    shuffled_deck,
    view_for_seat,
    view_for_spectator,
)


def _mid_round(seed: int = 3, moves: int = 6):
    rng = random.Random(seed)
    match = deal(new_match(Rules(), Seat.ONE), shuffled_deck(rng))
    for _ in range(moves):
        match = apply_match(match, rng.choice(match_legal_actions(match)))
    return match


def test_forfeit_mid_round_ends_the_match_for_the_other_seat() -> None:
    match = forfeit(_mid_round(), Seat.TWO, ForfeitReason.TIMEOUT)
    assert match.phase is MatchPhase.OVER
    assert match.result is not None
    assert match.result.winner is Seat.ONE
    assert (match.result.forfeit, match.result.forfeited_by) == (ForfeitReason.TIMEOUT, Seat.TWO)
    assert match.result.totals == match.scores
    assert match_legal_actions(match) == ()
    with pytest.raises(IllegalActionError, match="the match is over"):
        forfeit(match, Seat.ONE, ForfeitReason.RESIGNED)


def test_a_forfeit_reveals_no_hidden_card() -> None:
    before = _mid_round()
    match = forfeit(before, Seat.ONE, ForfeitReason.ABANDONED)
    assert match.round is not None
    view = view_for_seat(match, Seat.TWO)
    assert view.table.round_result is None
    assert not set(view.hand) & set(match.round.hand(Seat.ONE))
    assert view_for_spectator(match).table.round_result is None


def test_forfeit_replays_from_its_record() -> None:
    match = forfeit(_mid_round(moves=9), Seat.ONE, ForfeitReason.TIMEOUT)
    record = record_of(match)
    assert record.forfeit == (Seat.ONE, ForfeitReason.TIMEOUT)
    assert len(record.rounds) == 1 and len(record.rounds[0].actions) == 9
    again = replay_match(MatchRecord.from_dict(record.to_dict()))
    assert again == match


def test_forfeit_between_rounds_keeps_finished_rounds_only() -> None:
    rng = random.Random(5)
    match = deal(new_match(Rules(), Seat.TWO), shuffled_deck(rng))
    while match.phase is MatchPhase.ROUND:
        match = apply_match(match, rng.choice(match_legal_actions(match)))
    assert match.phase is MatchPhase.DEAL
    match = forfeit(match, Seat.TWO, ForfeitReason.RESIGNED)
    record = record_of(match)
    assert len(record.rounds) == 1
    assert replay_match(MatchRecord.from_dict(record.to_dict())) == match


def test_bad_forfeit_records_are_refused() -> None:
    data = record_of(forfeit(_mid_round(), Seat.ONE, ForfeitReason.TIMEOUT)).to_dict()
    data["forfeit"] = {"seat": "one", "reason": "bored"}
    with pytest.raises(RecordError, match="malformed match record"):
        MatchRecord.from_dict(data)
    data["forfeit"] = {"seat": "one"}
    with pytest.raises(RecordError, match="missing or bad"):
        MatchRecord.from_dict(data)
    # A match that ended by its score cannot also have been forfeited.
    done = _finished_match_record()
    lost = (Seat.ONE, ForfeitReason.TIMEOUT)
    with pytest.raises(RecordError, match="recorded forfeit does not apply"):
        replay_match(MatchRecord(done.rules, done.first_dealer, done.rounds, lost))


def _finished_match_record() -> MatchRecord:
    rng = random.Random(9)
    match = new_match(Rules.preset("first-to-knock"), Seat.ONE)
    while not match.is_over:
        match = deal(match, shuffled_deck(rng))
        while match.phase is MatchPhase.ROUND:
            match = apply_match(match, rng.choice(match_legal_actions(match)))
    return record_of(match)
