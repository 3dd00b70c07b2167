"""A prototype opponent model for the master: hands weighed by the opponent's whole record.

``bots.worlds.Belief`` weighs a sampled opponent hand by its last discard alone. This
model weighs it by every decision the opponent made this round, replayed backwards from
the hand: each discard (how far it was from the discard the expert's judgement would
have made with that hand), each card it took from the pile and each one it passed on or
left for the stock (how much the expert would have wanted it), and each turn it could
have knocked and did not. The card of each stock draw is unknown; going backwards, it is
one of the hand's cards that did not come from the pile, drawn at random (every order of
the hidden draws is equally likely before the record is read). A hand's weight is the
product of its decisions' weights, each ``1 / (1 + gap / fit) ** 2`` for a gap in score
points (how much worse the decision made was than the one the judgement prefers; a take
the judgement would refuse, or a refusal of a card it wants, by how much), raised to
``temper``.

``style="simple"`` reads the same record by the simple player's rules instead
(``bots.simple.choose_baseline``: a take only to meld, the highest unmatched card
discarded, a knock as soon as it is legal); each decision they would not have made
weighs ``miss`` (bench/RESULTS.md, "Master: a stricter guard, and the oracle against
the simple player").

A bench prototype (bench/RESULTS.md, "Master: the opponent model"): it reads the view
only, like every player, and ``bench/belief_quality.py`` and ``bench/bot_variants.py``
(``record=...``) measure it before any level uses it.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, replace

from ginrummy.bots.evaluation import discard_scores, hand_score, indices
from ginrummy.bots.expert import EXPERT, INFERENCE
from ginrummy.bots.expert_model import holding_odds, sample_hands, weighted_draw
from ginrummy.bots.knowledge import Knowledge, read
from ginrummy.bots.simple import baseline_discard, completes_meld
from ginrummy.bots.worlds import sample_worlds
from ginrummy.engine import DECK, ActionKind, MatchState, SeatView
from ginrummy.engine.melds import discard_deadwoods

_ALL = (1 << 52) - 1


@dataclass(frozen=True, slots=True)
class Record:
    """The model's settings."""

    proposals: int = 96  # hands drawn (by the expert's odds) before the record weighs them
    improve: int = 0  # each proposal chose from this many cards more (sample_hands)
    fit: float = 3.0  # the gap, in score points, at which a decision weighs a quarter
    temper: float = 1.0  # the power of the product (below 1: trust the record less)
    draws: bool = True  # weigh takes and refusals too (else discards and knocks only)
    knocked: float = 0.3  # a turn on which the expert would have knocked and it did not
    # Whose judgement the record is read by: "expert" (above), or "simple", the simple
    # player's rules (``bots.simple.choose_baseline``): a decision those rules would not
    # have made weighs ``miss``, one they would have made 1 (``fit`` and ``knocked`` unused).
    style: str = "expert"
    miss: float = 0.05

    def __post_init__(self) -> None:
        if self.style not in ("expert", "simple"):
            raise ValueError(f"a record's style is expert or simple, not {self.style!r}")
        if not 0 < self.miss <= 1:
            raise ValueError("a record needs 0 < miss <= 1")


RECORD_FIELDS = frozenset(Record.__dataclass_fields__)


@dataclass(frozen=True, slots=True)
class RecordEvent:
    """One decision of the opponent, with the public facts of its moment."""

    kind: ActionKind
    card: int  # the card's index: discarded, taken, or passed on (-1: none)
    pile: int  # the discard pile before the move (a mask)
    stock: int  # the stock's size before the move
    taken_before: int  # the cards it took from the pile before this move (a mask)
    just_taken: int  # the card it took this turn, which it may not discard (-1: none)


def record_events(view: SeatView) -> list[RecordEvent]:
    other = view.seat.other
    first = view.table.first_upcard
    pile: list[int] = [first.index] if first is not None else []
    draws = sum(1 for m in view.moves if m.kind is ActionKind.DRAW_STOCK)
    stock = view.table.stock_size + draws
    taken, just, previous = 0, -1, None
    out: list[RecordEvent] = []
    for m in view.moves:
        mask = 0
        for i in pile:
            mask |= 1 << i
        top = pile[-1] if pile else -1
        kind = m.kind
        if m.seat is other:
            if kind is ActionKind.DISCARD and m.card is not None:
                out.append(RecordEvent(kind, m.card.index, mask, stock, taken, just))
            elif kind in (ActionKind.TAKE, ActionKind.DRAW_DISCARD, ActionKind.PASS):
                out.append(RecordEvent(kind, top, mask, stock, taken, -1))
            elif kind is ActionKind.DRAW_STOCK:
                # After both passed on the first upcard the stock is the only draw.
                refused = -1 if previous is ActionKind.PASS else top
                out.append(RecordEvent(kind, refused, mask, stock, taken, -1))
        if kind is ActionKind.DISCARD and m.card is not None:
            pile.append(m.card.index)
            if m.seat is other:
                just = -1
        elif kind in (ActionKind.TAKE, ActionKind.DRAW_DISCARD):
            card = pile.pop() if pile else -1
            if m.seat is other and card >= 0:
                taken |= 1 << card
                just = card
        elif kind is ActionKind.DRAW_STOCK:
            stock -= 1
            if m.seat is other:
                just = -1
        previous = kind
    return out


def _weight_of(stock: int) -> float:
    late = EXPERT.late_potential
    full = EXPERT.potential
    assert late is not None
    return late + (full - late) * min(stock, 31) / 31


def _knock_wanted(stock: int, deadwood: int) -> bool:
    for at_least, most in EXPERT.knock:
        if stock >= at_least:
            return deadwood <= most
    return True


def _score(gap: float, fit: float) -> float:
    g = max(gap, 0.0) / fit
    return -2.0 * math.log1p(g)


def log_weight(
    hand: int, events: list[RecordEvent], limit: int, model: Record, rng: random.Random
) -> float:
    """The log weight of the opponent's current ``hand`` by its record (see the module)."""
    if model.style == "simple":
        return simple_log_weight(hand, events, limit, model, rng)
    total = 0.0
    fit = model.fit
    for e in reversed(events):
        kind = e.kind
        weight = _weight_of(e.stock)
        if kind is ActionKind.DISCARD:
            before = hand | 1 << e.card
            live = _ALL & ~before & ~e.pile
            scored = discard_scores(before, live, weight)
            best = min(s for i, (_, s) in scored.items() if i != e.just_taken)
            left, score = scored[e.card]
            total += _score(score - best, fit)
            if left <= limit and _knock_wanted(e.stock, left):
                total += math.log(model.knocked)
            hand = before
        elif kind in (ActionKind.TAKE, ActionKind.DRAW_DISCARD):
            before = hand & ~(1 << e.card)
            if model.draws:
                total += _score(-_want(before, e, weight, limit), fit)
            hand = before
        elif kind is ActionKind.DRAW_STOCK:
            choices = indices(hand & ~e.taken_before)
            if choices:
                hand &= ~(1 << choices[int(rng.random() * len(choices))])
            if model.draws and e.card >= 0:
                total += _score(_want(hand, e, weight, limit), fit)
        elif kind is ActionKind.PASS and model.draws and e.card >= 0:
            total += _score(_want(hand, e, weight, limit), fit)
    return total * model.temper


def simple_log_weight(
    hand: int, events: list[RecordEvent], limit: int, model: Record, rng: random.Random
) -> float:
    """The log weight of ``hand`` by the record read with the simple player's rules: it
    takes a card only to meld it, discards its highest unmatched card and knocks as soon
    as it may; each decision those rules would not have made counts ``log(miss)``."""
    misses = 0
    for e in reversed(events):
        kind = e.kind
        if kind is ActionKind.DISCARD:
            before = hand | 1 << e.card
            allowed = before & ~(1 << e.just_taken) if e.just_taken >= 0 else before
            left = [dw for i, dw in discard_deadwoods(before) if allowed >> i & 1]
            misses += min(left) <= limit or baseline_discard(before, allowed).index != e.card
            hand = before
        elif kind in (ActionKind.TAKE, ActionKind.DRAW_DISCARD):
            before = hand & ~(1 << e.card)
            misses += not completes_meld(before, DECK[e.card])
            hand = before
        elif kind is ActionKind.DRAW_STOCK:
            choices = indices(hand & ~e.taken_before)
            if choices:
                hand &= ~(1 << choices[int(rng.random() * len(choices))])
            misses += e.card >= 0 and completes_meld(hand, DECK[e.card])
        elif kind is ActionKind.PASS and e.card >= 0:
            misses += completes_meld(hand, DECK[e.card])
    return misses * math.log(model.miss)


def _want(hand: int, e: RecordEvent, weight: float, limit: int) -> float:
    """How much the expert would want the pile's top card with ``hand`` (score points:
    above 0 it takes it, below 0 it draws), as ``Player.wants_top`` decides."""
    top = 1 << e.card
    live = _ALL & ~hand & ~e.pile
    scored = discard_scores(hand | top, live, weight)
    del scored[e.card]
    knock = min(dw for dw, _ in scored.values())
    if knock <= limit and _knock_wanted(e.stock - 1, knock):
        return 10.0
    best = min(s for _, s in scored.values())
    stock_value = hand_score(hand, live | top, weight) - EXPERT.stock_gain
    return stock_value - best


def record_hands(view: SeatView, count: int, rng: random.Random, model: Record) -> list[int]:
    """``count`` opponent hands (masks) drawn by the opponent's whole record."""
    know: Knowledge = read(view)
    odds = holding_odds(know, INFERENCE)
    hands = sample_hands(know, odds, model.proposals, model.improve, rng)
    events = record_events(view)
    limit = view.table.knock_limit
    logs = [log_weight(h, events, limit, model, rng) for h in hands]
    top = max(logs)
    weights = [math.exp(x - top) for x in logs]
    if count >= len(hands):
        return hands
    kept = weighted_draw(list(range(len(hands))), weights, count, rng)
    return [h for i, h in enumerate(hands) if kept >> i & 1]


def record_worlds(
    view: SeatView, count: int, rng: random.Random, model: Record
) -> list[MatchState]:
    """``count`` worlds whose opponent hands are drawn by the record (each world's stock
    the rest of the unseen cards, shuffled): a sampler for ``Master.sample``."""
    hands = record_hands(view, count, rng, model)
    unseen = read(view).unseen
    other = view.seat.other
    out = []
    for world, hand in zip(sample_worlds(view, len(hands), rng), hands, strict=True):
        assert world.round is not None
        stock = [c for c in DECK if unseen & ~hand & c.bit]
        rng.shuffle(stock)
        rnd = replace(world.round, hands=world.round.hands.replace(other, hand), stock=tuple(stock))
        out.append(replace(world, round=rnd))
    return out
