"""The reviewing seat's decisions of a recorded match, each with the seat's view.

This module is the review's only contact with game states: it replays the record
through the engine and hands out what the seat could know at each moment, a
:class:`~ginrummy.engine.SeatView`, and nothing else. A :class:`Decision` carries no
state, so the analysis cannot read the opponent's hidden cards or the stock order
(docs/review.md, "What the review may know").
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from ginrummy.engine import (
    Action,
    GinRummyError,
    MatchPhase,
    MatchRecord,
    RecordError,
    Seat,
    SeatView,
    apply_match,
    deal,
    new_match,
    view_for_seat,
)


@dataclass(frozen=True, slots=True)
class Decision:
    """One decision of the reviewing seat: its view before deciding and what it did.

    ``index`` counts the seat's decisions in the round from 0; ``turn`` is 1 plus the
    seat's discards so far in the round (a turn ends with a discard, knock or gin)."""

    round_number: int
    index: int
    turn: int
    view: SeatView
    played: Action


@dataclass(frozen=True, slots=True)
class RoundEnd:
    """A round is over: the seat's view now shows both hands (``table.round_result``)."""

    round_number: int
    view: SeatView


def decisions(record: MatchRecord, seat: Seat) -> Iterator[Decision | RoundEnd]:
    """Every decision of ``seat`` in the match, in order, and each finished round's end.

    Raises ``RecordError`` when the record does not replay (which round, which action).
    """
    match = new_match(record.rules, record.first_dealer)
    for number, rnd in enumerate(record.rounds, 1):
        if match.phase is not MatchPhase.DEAL:
            raise RecordError(f"round {number} is recorded but the match cannot deal it")
        try:
            match = deal(match, rnd.deck)
        except GinRummyError as exc:
            raise RecordError(f"round {number} does not deal: {exc}") from None
        index, turn = 0, 1
        for i, action in enumerate(rnd.actions, 1):
            if match.turn is seat:
                yield Decision(number, index, turn, view_for_seat(match, seat), action)
                index += 1
                if action.kind.takes_card:
                    turn += 1
            try:
                match = apply_match(match, action)
            except GinRummyError as exc:
                raise RecordError(f"round {number}, action {i} ({action}): {exc}") from None
        # A round cut short by the record's forfeit has no end to show.
        if match.phase is not MatchPhase.ROUND:
            yield RoundEnd(number, view_for_seat(match, seat))
