"""The master's commands without a socket, bus or store: events and snapshots out."""

from __future__ import annotations

import random

import pytest

from ginrummy.engine import ForfeitReason, MatchPhase, Rules, Seat, legal_actions
from ginrummy.server.room import RoomError, SeatInfo, Snapshot, fold, master
from ginrummy.server.room.master import Table

PEOPLE = {Seat.ONE: SeatInfo("Ann", "h1", None), Seat.TWO: SeatInfo("Bob", "h2", None)}


def _dealt(seats: dict[Seat, SeatInfo] = PEOPLE) -> Table:
    opening = master.opening(Table(Snapshot(0, None), seats, Rules()), random.Random(7))
    return Table(opening.snaps[-1], seats, Rules())


def test_opening_sets_up_the_match_and_deals_once_both_seats_are_taken() -> None:
    both = master.opening(Table(Snapshot(0, None), PEOPLE, Rules()), random.Random(1))
    assert [e.kind for e in both.events] == ["match", "deal"]
    assert [s.version for s in both.snaps] == [1, 2]
    alone = {Seat.ONE: PEOPLE[Seat.ONE]}
    waiting = master.opening(Table(Snapshot(0, None), alone, Rules()), random.Random(1))
    assert [e.kind for e in waiting.events] == ["match"]
    assert waiting.snaps[-1].match is not None
    assert waiting.snaps[-1].match.phase is MatchPhase.DEAL


def test_a_first_dealer_given_to_the_room_deals_the_first_round_whatever_the_draw() -> None:
    for dealer in Seat:
        table = Table(Snapshot(0, None), PEOPLE, Rules(), first_dealer=dealer)
        for seed in range(20):  # a draw would pick each seat about half of the time
            change = master.opening(table, random.Random(seed))
            assert change.events[0].payload["first_dealer"] == dealer.label
            match = change.snaps[-1].match
            assert match is not None and match.first_dealer is dealer
    drawn = Table(Snapshot(0, None), PEOPLE, Rules())
    labels = {
        master.opening(drawn, random.Random(s)).events[0].payload["first_dealer"] for s in range(20)
    }
    assert labels == {"one", "two"}  # without one, the room draws


def test_act_answers_one_event_and_the_snapshot_it_folds_to() -> None:
    table = _dealt()
    match = table.snapshot.match
    assert match is not None and match.turn is not None and match.round is not None
    action = legal_actions(match.round)[0]
    change = master.act(table, match.turn, table.snapshot.version, str(action))
    (event,) = change.events
    assert (event.seq, event.kind) == (table.snapshot.version + 1, "action")
    assert event.payload == {"seat": match.turn.label, "action": str(action)}
    # The snapshot is the one the log's replay gives: the room commits it as it is.
    assert change.snaps == (fold(table.snapshot, event),)


def test_act_refuses_stale_versions_other_turns_bad_text_and_illegal_moves() -> None:
    table = _dealt()
    match = table.snapshot.match
    assert match is not None and match.turn is not None
    version = table.snapshot.version
    cases = [
        (match.turn, version - 1, "pass", "stale_version"),
        (match.turn.other, version, "pass", "not_your_turn"),
        (match.turn, version, "fly away", "bad_action"),
        (match.turn, version, "discard 2c", "illegal_action"),
    ]
    for seat, at, text, code in cases:
        with pytest.raises(RoomError) as info:
            master.act(table, seat, at, text)
        assert info.value.code == code, (text, info.value.code)


def _round_played(table: Table) -> Table:
    """Play the first legal action until the round is over (a void round at worst)."""
    for _ in range(500):
        match = table.snapshot.match
        assert match is not None
        if match.phase is MatchPhase.DEAL or match.round is None or match.turn is None:
            return table
        action = legal_actions(match.round)[0]
        change = master.act(table, match.turn, table.snapshot.version, str(action))
        table = Table(change.snaps[-1], table.seats, table.rules)
    raise AssertionError("the round never ended")


def test_ready_deals_when_the_last_person_is_ready() -> None:
    table = _dealt()
    with pytest.raises(RoomError) as info:
        master.ready(table, Seat.ONE)  # the round is still running
    assert info.value.code == "not_between_rounds"
    between = _round_played(table)
    if between.snapshot.over:
        pytest.skip("the first round ended the match")
    first = master.ready(between, Seat.ONE)
    assert [e.kind for e in first.events] == ["ready"]
    after = Table(first.snaps[-1], PEOPLE, Rules())
    assert master.ready(after, Seat.ONE).events == ()  # asked twice
    second = master.ready(after, Seat.TWO)
    assert [e.kind for e in second.events] == ["ready", "deal"]
    assert second.snaps[-1].ready == frozenset()


def test_rematch_waits_for_every_person_then_starts_and_deals() -> None:
    table = _dealt()
    over = Table(
        master.end_by_forfeit(table, Seat.TWO, ForfeitReason.RESIGNED).snaps[-1], PEOPLE, Rules()
    )
    first = master.rematch(over, Seat.ONE, random.Random(1))
    assert [e.kind for e in first.events] == ["rematch"]
    after = Table(first.snaps[-1], PEOPLE, Rules())
    assert master.rematch(after, Seat.ONE, random.Random(1)).events == ()  # asked twice
    second = master.rematch(after, Seat.TWO, random.Random(1))
    assert [e.kind for e in second.events] == ["rematch", "match", "deal"]
    assert not second.snaps[-1].over
    computer = {**PEOPLE, Seat.TWO: SeatInfo("Bot", None, "casual")}
    solo = Table(over.snapshot, computer, Rules())
    assert [e.kind for e in master.rematch(solo, Seat.ONE, random.Random(1)).events] == [
        "rematch",
        "match",
        "deal",
    ]


def test_a_tournament_room_plays_one_match_and_refuses_a_new_one() -> None:
    table = _dealt()
    over = master.end_by_forfeit(table, Seat.TWO, ForfeitReason.RESIGNED).snaps[-1]
    one_match = Table(over, PEOPLE, Rules(), one_match=True)
    for seat in Seat:
        with pytest.raises(RoomError) as info:
            master.rematch(one_match, seat, random.Random(1))
        assert info.value.code == "tournament_match"


def test_claim_needs_an_opponent_whose_grace_period_is_over() -> None:
    table = _dealt()
    refusals = [(None, False), (5_000, False), (0, True)]  # none runs, still running, back
    for left, back in refusals:
        with pytest.raises(RoomError) as info:
            master.claim(table, Seat.ONE, left, back)
        assert info.value.code == "nothing_to_claim"
    change = master.claim(table, Seat.ONE, 0, False)
    assert change.events[0].payload == {"seat": "two", "reason": "abandoned"}
    assert change.ends_match(table.snapshot)
    result = change.snaps[-1].match.result  # type: ignore[union-attr]
    assert result is not None and result.winner is Seat.ONE


def test_a_forfeit_needs_a_running_match_with_both_seats_taken() -> None:
    alone = {Seat.ONE: PEOPLE[Seat.ONE]}
    waiting = master.opening(Table(Snapshot(0, None), alone, Rules()), random.Random(1))
    with pytest.raises(RoomError, match="not started"):
        master.end_by_forfeit(
            Table(waiting.snaps[-1], alone, Rules()), Seat.ONE, ForfeitReason.RESIGNED
        )
    taken = master.take_seat(Table(waiting.snaps[-1], alone, Rules()), Seat.TWO)
    assert [e.kind for e in taken.events] == ["deal"]
