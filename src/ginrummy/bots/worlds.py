"""Sampled worlds: the hidden cards of a view filled in by the expert's model.

A world is a round state that agrees with everything a seat's view shows (its hand,
the discard pile, the opponent's known cards, the stock size, the phase and the legal
actions) and fills in what the view hides: the opponent's hidden cards, drawn as the
expert draws them before a knock (``bots.expert_model.sample_hands``: by the odds it
infers from what the opponent took, discarded and passed on), and the order of the
stock, a uniform shuffle of the rest. It is built from the view alone, so a world
knows nothing the seat did not.

A world starts in the middle of the round, so it has no deck order (``deck`` is
empty) and its history holds no action; its public moves are the view's, which is all
the players read. :func:`play_out` plays a world's round to its end.

The match review (``review/rollout.py``) and the ``master`` level (``bots/master.py``)
both judge their choices on these worlds.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from ginrummy.bots.base import Chooser, mask_of
from ginrummy.bots.evaluation import discard_scores
from ginrummy.bots.expert import EXPERT, INFERENCE, PLAN
from ginrummy.bots.expert_model import holding_odds, sample_hands, weighted_draw
from ginrummy.bots.heuristic import Player
from ginrummy.bots.knowledge import Knowledge, read
from ginrummy.engine import (
    DECK,
    ActionKind,
    Card,
    GinRummyError,
    MatchPhase,
    MatchState,
    Pair,
    Phase,
    RoundState,
    Seat,
    SeatView,
    apply_match,
    legal_actions,
    view_for_seat,
)


class WorldError(GinRummyError):
    """A view that no world agrees with (not a decision of a round under way)."""


@dataclass(frozen=True, slots=True)
class Belief:
    """How the opponent's hidden hand of a world is drawn.

    The hidden cards are drawn by the expert's odds (``holding_odds``), and each hand
    chose from ``improve_cap`` cards more, one per stock draw of the opponent
    (``bots.expert_model.sample_hands``). With ``particles`` above 1, ``particles``
    hands are drawn for each world kept, and the hands kept are drawn from them by how
    well each explains the opponent's last discard: a hand in which that card was a
    discard the expert's judgement scores ``gap`` points worse than the hand's best
    weighs ``1 / (1 + gap / fit) ** 2``. A hand that would never have thrown it is
    rarely kept; one that would have is kept as often as the others.
    """

    improve_cap: int = PLAN.improve_cap
    particles: int = 1
    fit: float = 3.0  # the gap, in score points, at which a hand weighs a quarter
    # The weight of a hand with which the expert would have knocked or gone gin
    # rather than discard as the opponent did (1.0: no weight for it).
    knocked: float = 1.0

    def __post_init__(self) -> None:
        if self.improve_cap < 0 or self.particles < 1 or self.fit <= 0:
            raise ValueError("a belief needs improve_cap >= 0, particles >= 1 and fit > 0")
        if not 0 < self.knocked <= 1:
            raise ValueError("a belief needs 0 < knocked <= 1")


BELIEF = Belief()  # the expert's own picture, as its undercut check draws it

_ALL = (1 << 52) - 1
_JUDGE = Player(EXPERT)  # the expert's judgement of a hand, without its sampled check


def sample_worlds(
    view: SeatView, count: int, rng: random.Random, belief: Belief = BELIEF
) -> list[MatchState]:
    """``count`` matches whose current round agrees with ``view`` (the seat's decision
    now) and differs in the hidden cards, drawn by ``belief``. Deterministic for the
    state of ``rng``."""
    table = view.table
    if not view.legal_actions or table.round_phase is None or table.dealer is None:
        raise WorldError("a world is sampled for a decision of a round under way")
    if belief.particles > 1 and count * belief.particles > 52:
        raise ValueError("a belief with particles draws at most 52 hands a decision")
    know = read(view)
    odds = holding_odds(know, PLAN.inference or INFERENCE)
    improve = min(belief.improve_cap, know.opp_stock_draws // PLAN.improve_every)
    hands = sample_hands(know, odds, count * belief.particles, improve, rng)
    if belief.particles > 1:
        weights = _fits(view, know, hands, belief)
        kept = weighted_draw(list(range(len(hands))), weights, count, rng)
        hands = [h for i, h in enumerate(hands) if kept >> i & 1]
    return [_world(view, know, hand, rng) for hand in hands]


def _fits(view: SeatView, know: Knowledge, hands: list[int], belief: Belief) -> list[float]:
    """How well each opponent hand explains its last discard (all 1.0 when its last move
    was not a discard)."""
    fit = belief.fit
    other = view.seat.other
    mine = [m for m in view.moves if m.seat is other]
    last = mine[-1] if mine else None
    if last is None or last.kind is not ActionKind.DISCARD or last.card is None:
        return [1.0] * len(hands)
    thrown = last.card
    taken = just_taken(view)
    seen = know.pile | mask_of(view.table.known[view.seat])
    weight, limit = _JUDGE.weight(know), view.table.knock_limit
    out = []
    for hand in hands:
        held = hand | thrown.bit
        scored = discard_scores(held, _ALL & ~held & ~seen, weight)
        best = min(s for i, (_, s) in scored.items() if taken is None or i != taken.index)
        left, score = scored[thrown.index]
        gap = (score - best) / fit
        w = 1.0 / ((1.0 + gap) * (1.0 + gap))
        if left <= limit and _JUDGE.knock_wanted(view, know, left):  # it would have knocked
            w *= belief.knocked
        out.append(w)
    return out


def just_taken(view: SeatView) -> Card | None:
    """The card the opponent took from the pile before its last discard, which it could
    not throw (None when it drew from the stock). A take shows no card: it is the pile's
    top at the time, the first upcard or the last card discarded."""
    other = view.seat.other
    top, taken = view.table.first_upcard, None
    for move in view.moves:
        if move.kind is ActionKind.DISCARD:
            top = move.card
        elif move.seat is other and move.kind in (ActionKind.TAKE, ActionKind.DRAW_DISCARD):
            taken = top
        elif move.seat is other and move.kind is ActionKind.DRAW_STOCK:
            taken = None
    return taken


def _world(view: SeatView, know: Knowledge, opponent: int, rng: random.Random) -> MatchState:
    table, seat = view.table, view.seat
    rest = know.unseen & ~opponent
    stock = [c for c in DECK if rest & c.bit]
    if len(stock) != table.stock_size:
        raise WorldError(
            f"the view hides {len(stock)} cards besides the opponent's hand, "
            f"but the stock holds {table.stock_size}"
        )
    rng.shuffle(stock)
    legal = view.legal_actions
    phase = table.round_phase
    assert phase is not None and table.dealer is not None and table.turn is not None
    rnd = RoundState(
        rules=table.rules,
        dealer=table.dealer,
        deck=(),
        hands=Pair.of(lambda s: know.hand if s is seat else opponent),
        stock=tuple(stock),
        discard_pile=table.discard_pile,
        phase=phase,
        turn=table.turn,
        first_upcard=table.first_upcard,
        knock_limit=table.knock_limit,
        doubled=table.doubled,
        known=table.known.map(mask_of),
        upcard_passes=table.upcard_passes,
        taken=view.taken,
        # Both passed on the first upcard: the stock only (the view says so by its
        # legal actions); the last discard taken to knock: knocks only.
        stock_only=phase is Phase.DRAW
        and bool(table.discard_pile)
        and all(a.kind is not ActionKind.DRAW_DISCARD for a in legal),
        must_knock=phase is Phase.DISCARD and all(a.kind is not ActionKind.DISCARD for a in legal),
        public_moves=view.moves,
    )
    if legal_actions(rnd) != legal:
        raise WorldError("the sampled world does not offer the view's legal actions")
    return MatchState(
        rules=table.rules,
        first_dealer=table.dealer,  # not read in a round under way
        phase=MatchPhase.ROUND,
        scores=table.scores,
        rounds_won=table.rounds_won,
        rounds=table.rounds,
        next_dealer=table.dealer,
        round=rnd,
    )


def play_out(match: MatchState, seat: Seat, rng: random.Random, player: Chooser) -> int:
    """Play the round of ``match`` to its end with ``player`` in both seats; the
    round's points for ``seat`` (negative when the opponent scores, 0 for a void round)."""
    played = play_out_within(match, seat, rng, player, None)
    assert played is not None
    return played[0]


def play_out_within(
    match: MatchState, seat: Seat, rng: random.Random, player: Chooser, limit: int | None
) -> tuple[int, int] | None:
    """:func:`play_out` within ``limit`` moves (None: no limit): the round's points for
    ``seat`` and the moves played, or None when the round needs more moves."""
    rnd = match.round
    assert rnd is not None
    moves = 0
    while rnd.result is None:
        if limit is not None and moves >= limit:
            return None
        match = apply_match(match, player(view_for_seat(match, rnd.turn), rng))
        moves += 1
        rnd = match.round
        assert rnd is not None
    result = rnd.result
    if result.winner is None:
        return 0, moves
    return (result.points if result.winner is seat else -result.points), moves
