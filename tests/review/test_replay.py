"""The decisions of a record: the seat's own, in order, each with the seat's view."""

from __future__ import annotations

import dataclasses

from ginrummy.engine import MatchState, RoundState, Seat, SeatView, replay_match
from ginrummy.review import Decision, RoundEnd, decisions

from .helpers import bot_match, first_rounds


def test_every_decision_of_the_seat_is_yielded_with_its_view_and_action():
    record = first_rounds(bot_match(3), 2)
    items = list(decisions(record, Seat.TWO))
    found = [d for d in items if isinstance(d, Decision)]
    expected = sum(
        1
        for rnd, state in zip(record.rounds, replay_match(record).played, strict=True)
        for seat, _ in state.history
        if seat is Seat.TWO
    )
    assert len(found) == expected
    for d in found:
        assert d.view.seat is Seat.TWO
        assert d.played in d.view.legal_actions
    ends = [e for e in items if isinstance(e, RoundEnd)]
    assert [e.round_number for e in ends] == [1, 2]
    assert all(e.view.table.round_result is not None for e in ends)


def test_turns_count_the_seats_discards_and_indices_restart_each_round():
    record = first_rounds(bot_match(3), 2)
    found = [d for d in decisions(record, Seat.ONE) if isinstance(d, Decision)]
    for number in (1, 2):
        mine = [d for d in found if d.round_number == number]
        assert [d.index for d in mine] == list(range(len(mine)))
        turn = 1
        for d in mine:
            assert d.turn == turn
            if d.played.kind.takes_card:
                turn += 1


def test_a_decision_carries_no_game_state():
    # Information is a type: nothing in a decision can hold the state or a hidden card.
    hints = {f.name: f.type for f in dataclasses.fields(Decision)}
    assert hints == {
        "round_number": "int",
        "index": "int",
        "turn": "int",
        "view": "SeatView",
        "played": "Action",
    }
    record = first_rounds(bot_match(3), 1)
    for d in decisions(record, Seat.ONE):
        assert not any(
            isinstance(getattr(d, f.name), MatchState | RoundState) for f in dataclasses.fields(d)
        )
        assert isinstance(d.view, SeatView)
