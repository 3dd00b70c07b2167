"""The review uses only what the reviewing seat could know: changing the opponent's
hidden cards in the record changes no judgement before the round's end."""

from __future__ import annotations

import itertools

from ginrummy.engine import (
    Card,
    GinRummyError,
    MatchRecord,
    RoundRecord,
    Seat,
    replay_match,
)
from ginrummy.review import Decision, decisions, review_match

from .helpers import TINY, bot_match, first_rounds


def _seen_by(record: MatchRecord, seat: Seat) -> set[Card]:
    """Every card the seat saw in the (single) round before it ended."""
    seen: set[Card] = set()
    for d in decisions(record, seat):
        if isinstance(d, Decision):
            table = d.view.table
            seen |= {*d.view.hand, *table.discard_pile, *d.view.opponent_known}
            seen |= {m.card for m in d.view.moves if m.card is not None}
    return seen


def _hidden_swap(record: MatchRecord, seat: Seat) -> MatchRecord:
    """The record with a card of the opponent's hidden hand swapped for a stock card
    that nobody drew: positions the seat never saw before the round's end. The swap
    is one after which the record still replays and the opponent's hand differs."""
    rnd = record.rounds[0]
    final = replay_match(record).rounds[0].result.hands[seat.other]
    seen = _seen_by(record, seat)
    hidden = [c for c in final if c not in seen]
    stock = replay_match(record).played[0].stock
    unseen_stock = [c for c in stock if c not in seen]
    for a, b in itertools.product(hidden, unseen_stock):
        deck = list(rnd.deck)
        i, j = deck.index(a), deck.index(b)
        deck[i], deck[j] = deck[j], deck[i]
        changed = MatchRecord(
            record.rules,
            record.first_dealer,
            (RoundRecord(tuple(deck), rnd.dealer, rnd.actions),),
        )
        try:
            replay_match(changed)
        except GinRummyError:
            continue  # the opponent's recorded knock is not legal with that hand
        return changed
    raise AssertionError("no swap of hidden cards keeps the record replayable")


def test_changing_the_opponents_hidden_cards_changes_no_judgement_before_the_end():
    for seed, seat in ((11, Seat.ONE), (12, Seat.TWO)):
        record = first_rounds(bot_match(seed), 1)
        changed = _hidden_swap(record, seat)
        before = replay_match(record).rounds[0].result
        after = replay_match(changed).rounds[0].result
        assert before.hands[seat.other] != after.hands[seat.other]  # the swap is real

        a = review_match(record, seat, budget=TINY, seed=3)
        b = review_match(changed, seat, budget=TINY, seed=3)
        ja = [r.judgement for r in a.rounds[0].decisions]
        jb = [r.judgement for r in b.rounds[0].decisions]
        assert ja and ja == jb
        # The round's end shows the real hands, so the review as a whole differs there.
        assert a.rounds[0].end is not None and b.rounds[0].end is not None
        hands_a = a.rounds[0].end.view.table.round_result.hands  # type: ignore[union-attr]
        hands_b = b.rounds[0].end.view.table.round_result.hands  # type: ignore[union-attr]
        assert hands_a != hands_b
