"""bench/exact_belief.py: the simple player's hands drawn from its record read by its own
rules (bench/RESULTS.md, "Master: the exact picture of the simple player's hand"). Every
hand drawn could have made the record, and the particle filter draws what the exact
(slow) rejection sampler draws."""

from __future__ import annotations

import random
import sys
from itertools import islice
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[1] / "bench"
sys.path.insert(0, str(BENCH))

# A bench measured (about 15 s of CPU in all): the system layer, out of `make quick`.
pytestmark = pytest.mark.system

from belief_quality import positions  # noqa: E402
from exact_belief import _fits, exact_hands, exact_weighted, rejection_hands  # noqa: E402
from master_gains import expert_play  # noqa: E402
from record_belief import record_events  # noqa: E402

from ginrummy.bots.base import mask_of  # noqa: E402
from ginrummy.bots.knowledge import read  # noqa: E402
from ginrummy.bots.simple import baseline_discard, choose_baseline  # noqa: E402
from ginrummy.engine import ActionKind, Phase, Seat, SeatView, apply_match  # noqa: E402
from ginrummy.engine.melds import deadwood_of_mask  # noqa: E402
from ginrummy.engine.views import view_for_seat  # noqa: E402


def _positions(count: int) -> list[tuple[SeatView, int]]:
    """Seat one's views (and the simple player's true hidden cards) in seeded matches of
    the expert against the simple player."""
    return list(islice(positions(count, 1, 3, choose_baseline), count))


def test_the_rules_read_make_the_simple_players_own_decisions() -> None:
    """Each decision of the simple player, as the other seat's record shows it, fits the
    rules the sampler reads it by, on the hand it really held."""
    checked = 0
    for view, match, action, _ in islice(expert_play("belief", 2, choose_baseline), 6000):
        if view.seat is not Seat.TWO:
            continue
        after = apply_match(match, action)
        if after.round is None or after.round.phase is Phase.OVER:
            continue  # a knock or gin: the round's end, not a record the sampler reads
        assert match.round is not None
        last = record_events(view_for_seat(after, Seat.ONE))[-1]
        assert _fits(last, match.round.hands[Seat.TWO], view.table.knock_limit), (view, last)
        checked += 1
    assert checked > 2000


def test_every_hand_drawn_could_have_made_the_record() -> None:
    checked = 0
    for n, (view, _) in enumerate(_positions(8)):
        events = record_events(view)
        known = mask_of(view.table.known[view.seat.other])
        unseen = read(view).unseen
        limit = view.table.knock_limit
        kept = exact_weighted(view, 8000, random.Random(n))
        assert kept, f"position {n}: no hand explains a record the simple player made"
        last = events[-1] if events else None
        for hand, weight in kept:
            assert weight > 0
            assert hand.bit_count() == 10
            assert hand & known == known and hand & ~(unseen | known) == 0
            if last is not None and last.kind is ActionKind.DISCARD:
                # It did not knock, and the card it threw was its highest unmatched one.
                assert deadwood_of_mask(hand) > limit
                before = hand | 1 << last.card
                allowed = before & ~(1 << last.just_taken) if last.just_taken >= 0 else before
                assert baseline_discard(before, allowed).index == last.card
                checked += 1
    assert checked > 1000


def _marginals(hands: list[int]) -> list[float]:
    return [sum(1 for h in hands if h >> i & 1) / len(hands) for i in range(52)]


def test_the_particle_filter_draws_what_rejection_draws() -> None:
    """On short records, where the exact rejection sampler keeps enough histories, each
    card's chance of being held agrees within sampling noise."""
    compared = 0
    for n, (view, _) in enumerate(_positions(12)):
        if len(record_events(view)) not in (2, 4):
            continue
        exact = rejection_hands(view, 6000, random.Random(n))
        if len(exact) < 600:
            continue
        filtered = exact_hands(view, 4000, random.Random(n), tries=12000)
        a, b = _marginals(exact), _marginals(filtered)
        worst = max(abs(x - y) for x, y in zip(a, b, strict=True))
        assert worst < 0.08, f"position {n}: a card's chance differs by {worst:.3f}"
        compared += 1
    assert compared >= 3
