"""What each side may know (docs/rules.md §5): the only path from a state to bots, JSON and logs.

A seat sees its own hand, the whole discard pile, the stock size, the cards the
opponent took from the discard pile (and has not discarded since), passes on the first
upcard, the opponent's hand size and the scores; after a round both hands. A spectator
sees the same public facts with both hands hidden until the round ends. The knock
discard is face down and only its knocker sees it.
"""

from __future__ import annotations

from dataclasses import dataclass

from ginrummy.engine.actions import Action
from ginrummy.engine.cards import Card, from_mask
from ginrummy.engine.frozen import maker
from ginrummy.engine.match import MatchPhase, MatchResult, MatchState, ScoredRound
from ginrummy.engine.melds import Arrangement, arrangement_of_mask
from ginrummy.engine.round import Phase, PublicMove, RoundResult, legal_actions
from ginrummy.engine.rules import Rules
from ginrummy.engine.seats import Pair, Seat


@dataclass(frozen=True, slots=True)
class TableView:
    """The public part of the table, the same for everyone."""

    rules: Rules
    match_phase: MatchPhase
    round_phase: Phase | None  # None before the first deal
    round_number: int
    dealer: Seat | None
    turn: Seat | None  # who decides now (None between rounds / after the match)
    stock_size: int
    discard_pile: tuple[Card, ...]  # bottom first; the last card is the top
    first_upcard: Card | None
    upcard_passes: tuple[Seat, ...]
    knock_limit: int
    doubled: bool
    hand_sizes: Pair[int]
    known: Pair[tuple[Card, ...]]  # cards each seat took from the pile and still holds
    scores: Pair[int]
    rounds_won: Pair[int]
    rounds: tuple[ScoredRound, ...]  # finished rounds (public: both hands shown)
    round_result: RoundResult | None  # the current round's result once it is over
    match_result: MatchResult | None

    @property
    def discard_top(self) -> Card | None:
        return self.discard_pile[-1] if self.discard_pile else None


@dataclass(frozen=True, slots=True)
class SeatView:
    """Everything a player in ``seat`` may know; all a bot or a client ever gets."""

    seat: Seat
    table: TableView
    hand: tuple[Card, ...]
    arrangement: Arrangement  # best arrangement of the own hand
    legal_actions: tuple[Action, ...]  # empty unless it is this seat's decision
    taken: Card | None  # the card just taken from the pile (may not be discarded now)
    moves: tuple[PublicMove, ...]  # this round's moves as this seat may see them
    knock_discard: Card | None  # only this seat's own knock discard

    @property
    def deadwood(self) -> int:
        return self.arrangement.deadwood

    @property
    def to_act(self) -> bool:
        return bool(self.legal_actions)

    @property
    def opponent_known(self) -> tuple[Card, ...]:
        return self.table.known[self.seat.other]


@dataclass(frozen=True, slots=True)
class SpectatorView:
    table: TableView
    moves: tuple[PublicMove, ...]


def _table(match: MatchState) -> TableView:
    rnd = match.round
    if rnd is None:
        return TableView(
            rules=match.rules,
            match_phase=match.phase,
            round_phase=None,
            round_number=match.round_number,
            dealer=None,
            turn=None,
            stock_size=0,
            discard_pile=(),
            first_upcard=None,
            upcard_passes=(),
            knock_limit=match.rules.knock_limit,
            doubled=False,
            hand_sizes=_NO_CARDS,
            known=_NOT_KNOWN,
            scores=match.scores,
            rounds_won=match.rounds_won,
            rounds=match.rounds,
            round_result=None,
            match_result=match.result,
        )
    hands, known = rnd.hands, rnd.known
    return _make_table(  # every field in order: a view is made for every decision
        match.rules,
        match.phase,
        rnd.phase,
        match.round_number,
        rnd.dealer,
        rnd.turn if match.phase is MatchPhase.ROUND else None,  # turn
        len(rnd.stock),  # stock_size
        rnd.discard_pile,
        rnd.first_upcard,
        rnd.upcard_passes,
        rnd.knock_limit,
        rnd.doubled,
        _make_pair(hands.one.bit_count(), hands.two.bit_count()),  # hand_sizes
        _make_pair(from_mask(known.one), from_mask(known.two))
        if known.one or known.two
        else _NOT_KNOWN,
        match.scores,
        match.rounds_won,
        match.rounds,
        rnd.result,  # round_result
        match.result,  # match_result
    )


_make_table = maker(TableView)
_make_seat_view = maker(SeatView)
_make_pair = maker(Pair)
_NO_CARDS: Pair[int] = Pair(0, 0)
_NOT_KNOWN: Pair[tuple[Card, ...]] = Pair((), ())


def view_for_seat(match: MatchState, seat: Seat) -> SeatView:
    """The view of the player in ``seat``."""
    rnd = match.round
    table = _table(match)
    if rnd is None:
        return SeatView(seat, table, (), arrangement_of_mask(0), (), None, (), None)
    mine = rnd.hands[seat]
    acting = match.phase is MatchPhase.ROUND and rnd.turn is seat
    return _make_seat_view(
        seat,
        table,
        from_mask(mine),  # hand
        arrangement_of_mask(mine),
        legal_actions(rnd) if acting else (),
        rnd.taken if rnd.turn is seat else None,  # taken
        rnd.public_moves,  # moves
        rnd.knock_discard if rnd.result and rnd.result.knocker is seat else None,
    )


def view_for_spectator(match: MatchState) -> SpectatorView:
    """The view of someone watching: no hidden card at all."""
    rnd = match.round
    return SpectatorView(_table(match), rnd.public_moves if rnd is not None else ())
