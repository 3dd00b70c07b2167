"""A match: rounds until a target score (or one scoring round), then end-of-match bonuses.

Chance stays outside: ``deal`` takes the next deck order, which the caller shuffles
(``ginrummy.engine.shuffle``) and records.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from ginrummy.engine.actions import Action
from ginrummy.engine.cards import Card
from ginrummy.engine.errors import IllegalActionError
from ginrummy.engine.frozen import copier
from ginrummy.engine.round import (
    ResultKind,
    RoundResult,
    RoundState,
    new_round,
)
from ginrummy.engine.round import apply as apply_round
from ginrummy.engine.round import legal_actions as round_legal_actions
from ginrummy.engine.rules import AfterVoid, NextDealer, Rules
from ginrummy.engine.seats import Pair, Seat


class MatchPhase(StrEnum):
    DEAL = "deal"  # waiting for the next deck order
    ROUND = "round"  # a round is being played
    OVER = "over"


@dataclass(frozen=True, slots=True)
class ScoredRound:
    """A finished round with the match scores after it."""

    number: int  # 1-based
    dealer: Seat
    result: RoundResult
    scores: Pair[int]  # running match scores after this round


class ForfeitReason(StrEnum):
    TIMEOUT = "timeout"  # the move timer ran out (docs/rules.md §4: running out loses the match)
    ABANDONED = "abandoned"  # left and did not come back in time; the opponent claimed
    RESIGNED = "resigned"


@dataclass(frozen=True, slots=True)
class MatchResult:
    """The end of a match: points from rounds plus the preset's end-of-match bonuses."""

    winner: Seat
    round_points: Pair[int]
    rounds_won: Pair[int]
    box_bonus: Pair[int]  # box (line) bonus per round won
    game_bonus: Pair[int]  # for reaching the target
    shutout_bonus: Pair[int]  # the opponent scored nothing
    totals: Pair[int]
    forfeit: ForfeitReason | None = None  # set when the match ended by a forfeit
    forfeited_by: Seat | None = None

    @property
    def margin(self) -> int:
        return self.totals[self.winner] - self.totals[self.winner.other]


@dataclass(frozen=True, slots=True)
class MatchState:
    rules: Rules
    first_dealer: Seat
    phase: MatchPhase
    scores: Pair[int]
    rounds_won: Pair[int]
    rounds: tuple[ScoredRound, ...]  # finished rounds
    next_dealer: Seat
    round: RoundState | None = None  # the current round, or the last one between rounds
    result: MatchResult | None = None
    played: tuple[RoundState, ...] = ()  # finished rounds' final states (hidden: decks)

    @property
    def round_number(self) -> int:
        """1-based number of the current (or, between rounds, the last) round."""
        if self.phase is MatchPhase.ROUND:
            return len(self.rounds) + 1
        return len(self.rounds)

    @property
    def is_over(self) -> bool:
        return self.phase is MatchPhase.OVER

    @property
    def turn(self) -> Seat | None:
        """The seat that must decide now, or None between rounds and after the match."""
        if self.phase is MatchPhase.ROUND and self.round is not None:
            return self.round.turn
        return None


_copy = copier(MatchState)  # dataclasses.replace without __init__: once per action


def new_match(rules: Rules, first_dealer: Seat) -> MatchState:
    """A match before its first deal; the first dealer is drawn at random by the caller."""
    return MatchState(
        rules=rules,
        first_dealer=first_dealer,
        phase=MatchPhase.DEAL,
        scores=Pair(0, 0),
        rounds_won=Pair(0, 0),
        rounds=(),
        next_dealer=first_dealer,
    )


def deal(match: MatchState, deck: Sequence[Card]) -> MatchState:
    """Start the next round with ``deck`` (52 cards in deal order)."""
    if match.phase is not MatchPhase.DEAL:
        raise IllegalActionError(
            "deal", match.phase.value, "a round is under way or the match is over"
        )
    rnd = new_round(match.rules, deck, match.next_dealer)
    return _copy(match, phase=MatchPhase.ROUND, round=rnd)


def legal_actions(match: MatchState) -> tuple[Action, ...]:
    if match.phase is not MatchPhase.ROUND or match.round is None:
        return ()
    return round_legal_actions(match.round)


def apply(match: MatchState, action: Action) -> MatchState:
    """Apply ``action`` to the current round; fold the result in when the round ends."""
    if match.phase is not MatchPhase.ROUND or match.round is None:
        reason = "the match is over" if match.is_over else "no round is being played; deal first"
        raise IllegalActionError(action, match.phase.value, reason)
    rnd = apply_round(match.round, action)
    if rnd.result is None:
        return _copy(match, round=rnd)
    return _finish_round(_copy(match, round=rnd), rnd.dealer, rnd.result)


def forfeit(match: MatchState, seat: Seat, reason: ForfeitReason) -> MatchState:
    """End the match with a loss for ``seat`` (timer ran out, abandoned, resigned).

    The round under way stays unfinished and its hidden cards stay hidden; the scores
    stand as they are and no end-of-match bonus is added.
    """
    if match.is_over:
        raise IllegalActionError(f"forfeit by {seat.label}", match.phase.value, "the match is over")
    zero = Pair(0, 0)
    result = MatchResult(
        winner=seat.other,
        round_points=match.scores,
        rounds_won=match.rounds_won,
        box_bonus=zero,
        game_bonus=zero,
        shutout_bonus=zero,
        totals=match.scores,
        forfeit=reason,
        forfeited_by=seat,
    )
    return _copy(match, phase=MatchPhase.OVER, result=result)


def _finish_round(match: MatchState, dealer: Seat, result: RoundResult) -> MatchState:
    rules = match.rules
    scores, won = match.scores, match.rounds_won
    if result.winner is not None:
        scores = scores.replace(result.winner, scores[result.winner] + result.points)
        won = won.replace(result.winner, won[result.winner] + 1)
    scored = ScoredRound(len(match.rounds) + 1, dealer, result, scores)
    if result.kind is ResultKind.VOID:
        # "Der Geber wechselt jede Runde", void rounds included, unless the rules say
        # the same dealer deals again.
        next_dealer = dealer if rules.after_void is AfterVoid.SAME else dealer.other
    elif rules.next_dealer is NextDealer.LOSER:
        assert result.winner is not None
        next_dealer = result.winner.other
    else:
        next_dealer = dealer.other
    match = _copy(
        match,
        scores=scores,
        rounds_won=won,
        rounds=(*match.rounds, scored),
        played=(*match.played, match.round) if match.round is not None else match.played,
        next_dealer=next_dealer,
        phase=MatchPhase.DEAL,
    )
    winner = _match_winner(rules, scores, result)
    if winner is None:
        return match
    return _copy(match, phase=MatchPhase.OVER, result=_match_result(rules, winner, match))


def _match_winner(rules: Rules, scores: Pair[int], result: RoundResult) -> Seat | None:
    if rules.target_score is None:
        # First to knock: the first round that scores decides; void rounds are redealt.
        return result.winner
    for seat in Seat:
        if scores[seat] >= rules.target_score:
            return seat
    return None


def _match_result(rules: Rules, winner: Seat, match: MatchState) -> MatchResult:
    box = match.rounds_won.map(lambda n: n * rules.box_bonus)
    game = Pair(0, 0).replace(winner, rules.game_bonus)
    shutout_value = rules.shutout_bonus if match.scores[winner.other] == 0 else 0
    shutout = Pair(0, 0).replace(winner, shutout_value)
    totals = Pair.of(lambda s: match.scores[s] + box[s] + game[s] + shutout[s])
    return MatchResult(
        winner=winner,
        round_points=match.scores,
        rounds_won=match.rounds_won,
        box_bonus=box,
        game_bonus=game,
        shutout_bonus=shutout,
        totals=totals,
    )
