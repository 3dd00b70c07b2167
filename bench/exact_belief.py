"""The exact picture of the simple player's hand: its record read by its own rules, every
hidden card's history sampled, not guessed (bench/RESULTS.md, "Master: the exact picture
of the simple player's hand").

The simple player (``bots.simple.choose_baseline``) decides by fixed rules: it takes a
card only to meld it, discards its highest unmatched card and knocks as soon as it may.
Its hidden cards over the round are its ten dealt cards and its stock draws: seen from
the other seat, the cards it discarded that it had not taken from the pile, and as many
unseen cards as it holds hidden now. Before the record is read every such history (which
ten were dealt, which card came at each stock draw) is equally likely, so the exact
posterior of its hand is uniform over the histories on which its rules make every
decision of the record (each take, each refusal, each discard, each turn it did not
knock).

``rejection_hands`` draws such histories whole and keeps those that fit: exact, and
only for short records (its yield falls fast). ``exact_weighted`` is a particle filter
over the same histories, for records of any length: the dealt ten and each stock draw
drawn forward with importance weights that keep every history alike, the particles
that break a rule dropped, the rest resampled after each draw and discard; the tests
hold it to the rejection sampler on short records. Long records need many particles
(tens of thousands; it can run dry, and ``exact_hands`` says so).

``record_belief.py`` weighs hands drawn by the expert's odds by the same rules with one
guessed order of draws; this sampler is the reference such models are judged against.
It reads the view only. A bench prototype: ``bench/belief_quality.py`` measures it as
``exact:TRIES``.
"""

from __future__ import annotations

import logging
import math
import random

from record_belief import RecordEvent, record_events

from ginrummy.bots.base import mask_of
from ginrummy.bots.evaluation import indices
from ginrummy.bots.knowledge import read
from ginrummy.bots.simple import baseline_discard, completes_meld
from ginrummy.engine import DECK, ActionKind, SeatView
from ginrummy.engine.melds import discard_deadwoods

log = logging.getLogger(__name__)


def _record(events: list[RecordEvent]) -> tuple[dict[int, int], list[int]]:
    """The record's hidden-origin discards (a card it discarded that it had not taken
    from the pile: card -> its event's index) and the indexes of its stock draws."""
    taken = 0
    discarded_at: dict[int, int] = {}
    draws: list[int] = []
    for t, e in enumerate(events):
        if e.kind in (ActionKind.TAKE, ActionKind.DRAW_DISCARD) and e.card >= 0:
            taken |= 1 << e.card
        elif e.kind is ActionKind.DISCARD:
            if taken >> e.card & 1:
                taken &= ~(1 << e.card)
            else:
                discarded_at[e.card] = t
        elif e.kind is ActionKind.DRAW_STOCK:
            draws.append(t)
    return discarded_at, draws


def _fits(e: RecordEvent, hand: int, limit: int) -> bool:
    """True when the simple player's rules, holding ``hand``, make decision ``e`` (for a
    stock draw: when they would not have taken the pile's top instead)."""
    kind = e.kind
    if kind is ActionKind.DISCARD:
        if not hand >> e.card & 1:
            return False
        allowed = hand & ~(1 << e.just_taken) if e.just_taken >= 0 else hand
        if min(dw for j, dw in discard_deadwoods(hand) if allowed >> j & 1) <= limit:
            return False  # it would have knocked
        return baseline_discard(hand, allowed).index == e.card
    if kind in (ActionKind.TAKE, ActionKind.DRAW_DISCARD):
        return completes_meld(hand, DECK[e.card])
    if kind in (ActionKind.DRAW_STOCK, ActionKind.PASS) and e.card >= 0:
        return not completes_meld(hand, DECK[e.card])
    return True


def _after(e: RecordEvent, hand: int) -> int:
    """The hand after decision ``e`` (a stock draw adds its card apart)."""
    if e.kind is ActionKind.DISCARD:
        return hand & ~(1 << e.card)
    if e.kind in (ActionKind.TAKE, ActionKind.DRAW_DISCARD):
        return hand | 1 << e.card
    return hand


def exact_weighted(view: SeatView, tries: int, rng: random.Random) -> list[tuple[int, float]]:
    """``tries`` histories drawn forward (a particle filter: each particle's dealt ten
    uniform among the cards it can have had, each stock draw uniform among those it has
    not had, except that a hidden card discarded right after a draw and not yet held is
    that draw's card; weighed by the number of cards each free draw chose from, and by
    0 where the rules would not have made a decision; resampled by weight after each
    draw and discard). The hidden hand now of each (a mask, with the cards known to be
    held) and its weight; empty when no particle explains the record."""
    events = record_events(view)
    known = mask_of(view.table.known[view.seat.other])
    unseen = read(view).unseen
    limit = view.table.knock_limit
    discarded_at, draws = _record(events)
    pool = unseen
    for c in discarded_at:
        pool |= 1 << c
    rest = indices(unseen)
    if len(rest) + len(discarded_at) < 10:
        return []
    # The dealt ten: each hidden card it discarded dealt with the chance a card it held by
    # then had of being dealt (10 of the 10 + k cards it had had after k stock draws; 1
    # with no draw before), the rest uniform among the unseen; weighed by 1 / that
    # proposal's chance (every dealt ten is alike before the record is read).
    deal = {c: 10 / (10 + sum(1 for d in draws if d < t)) for c, t in discarded_at.items()}
    particles: list[tuple[int, int]] = []  # (hand, every hidden card it has had)
    weights: list[float] = []
    for _ in range(tries):
        hand, weight = 0, 1.0
        for c, p in deal.items():
            if rng.random() < p:
                hand |= 1 << c
                weight /= p
            else:
                weight /= 1 - p
        count = 10 - hand.bit_count()
        if not 0 <= count <= len(rest):
            particles.append((hand, hand))
            weights.append(0.0)
            continue
        for c in rng.sample(rest, count):
            hand |= 1 << c
        weight *= math.comb(len(rest), count)
        particles.append((hand, hand))
        weights.append(weight)
    for t, e in enumerate(events):
        nxt = events[t + 1] if t + 1 < len(events) else None
        must = nxt.card if nxt is not None and discarded_at.get(nxt.card) == t + 1 else -1
        for i, (hand, used) in enumerate(particles):
            if weights[i]:
                after, had, factor = _advance(e, hand, used, must, pool, limit, rng)
                particles[i] = (after, had)
                weights[i] *= factor
        if sum(weights) == 0.0:
            return []
        if e.kind in (ActionKind.DISCARD, ActionKind.DRAW_STOCK):
            picks = rng.choices(range(tries), weights, k=tries)
            particles = [particles[j] for j in picks]
            weights = [1.0] * tries
    return [
        (hand & unseen | known, w) for (hand, _), w in zip(particles, weights, strict=True) if w
    ]


def _advance(
    e: RecordEvent, hand: int, used: int, must: int, pool: int, limit: int, rng: random.Random
) -> tuple[int, int, float]:
    """A particle's hand and hidden cards had after decision ``e``, and the factor of its
    weight: 0 where the rules would not have made it, the number of cards a free stock
    draw chose from, 1 otherwise. ``must``: the hidden card it discards next (-1: none),
    which a stock draw brings if the hand lacks it."""
    if not _fits(e, hand, limit):
        return hand, used, 0.0
    hand = _after(e, hand)
    if e.kind is not ActionKind.DRAW_STOCK:
        return hand, used, 1.0
    if must >= 0 and not hand >> must & 1:
        if used >> must & 1:
            return hand, used, 0.0
        return hand | 1 << must, used | 1 << must, 1.0
    free = indices(pool & ~used)
    if not free:
        return hand, used, 0.0
    card = free[int(rng.random() * len(free))]
    return hand | 1 << card, used | 1 << card, float(len(free))


def rejection_hands(view: SeatView, tries: int, rng: random.Random) -> list[int]:
    """The reference ``exact_weighted`` is tested against, exact and slow: ``tries``
    histories drawn whole (the hidden cards now uniform among the unseen, the hidden
    cards in a uniform order: the first ten dealt, the rest the stock draws in turn) and
    the hidden hands now of those in which no card is drawn after it was discarded and
    the rules make every decision of the record. Its yield falls fast with the record's
    length: for short records only."""
    events = record_events(view)
    known = mask_of(view.table.known[view.seat.other])
    pool = indices(read(view).unseen)
    limit = view.table.knock_limit
    discarded_at, draws = _record(events)
    out = []
    for _ in range(tries):
        now = rng.sample(pool, 10 - known.bit_count())
        hidden = list(discarded_at) + now
        rng.shuffle(hidden)
        slots = hidden[10:]
        if any(discarded_at.get(c, 1 << 30) < draws[i] for i, c in enumerate(slots)):
            continue
        hand = 0
        for c in hidden[:10]:
            hand |= 1 << c
        k = 0
        for e in events:
            if not _fits(e, hand, limit):
                break
            hand = _after(e, hand)
            if e.kind is ActionKind.DRAW_STOCK:
                hand |= 1 << slots[k]
                k += 1
        else:
            held = known
            for c in now:
                held |= 1 << c
            out.append(held)
    return out


def exact_hands(view: SeatView, count: int, rng: random.Random, tries: int = 4000) -> list[int]:
    """``count`` opponent hands drawn from the exact posterior by ``exact_weighted`` with
    ``tries`` particles, four times as many if none is left; if still none, hands of
    the unseen cards alone, with a warning (a measurement counts those)."""
    for particles in (tries, 4 * tries):
        kept = exact_weighted(view, particles, rng)
        if kept:
            hands = [h for h, _ in kept]
            weights = [w for _, w in kept]
            return [hands[i] for i in rng.choices(range(len(hands)), weights, k=count)]
    log.warning("no history of %d particles explains the record; uniform hands", 4 * tries)
    known = mask_of(view.table.known[view.seat.other])
    pool = indices(read(view).unseen)
    out = []
    for _ in range(count):
        h = known
        for c in rng.sample(pool, 10 - known.bit_count()):
            h |= 1 << c
        out.append(h)
    return out
