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


def _hidden_swaps(record: MatchRecord, seat: Seat, most: int = 3) -> MatchRecord:
    """The record with up to ``most`` cards of the opponent's hidden hand swapped for
    stock cards that nobody drew: deck positions the seat never saw before the round's
    end. Each swap is one after which the record still replays."""
    rnd = record.rounds[0]
    final = replay_match(record).rounds[0].result.hands[seat.other]
    seen = _seen_by(record, seat)
    hidden = [c for c in final if c not in seen]
    stock = [c for c in replay_match(record).played[0].stock if c not in seen]
    deck: tuple[Card, ...] = rnd.deck
    used: set[Card] = set()
    for a, b in itertools.product(hidden, stock):
        if len(used) == 2 * most:
            break
        if a in used or b in used:
            continue
        trial = list(deck)
        i, j = trial.index(a), trial.index(b)
        trial[i], trial[j] = b, a
        changed = _with_deck(record, tuple(trial))
        try:
            replay_match(changed)
        except GinRummyError:
            continue  # the opponent's recorded knock is not legal with that hand
        deck = tuple(trial)
        used |= {a, b}
    assert used, "no swap of hidden cards keeps the record replayable"
    return _with_deck(record, deck)


def _with_deck(record: MatchRecord, deck: tuple[Card, ...]) -> MatchRecord:
    rnd = record.rounds[0]
    return MatchRecord(
        record.rules, record.first_dealer, (RoundRecord(deck, rnd.dealer, rnd.actions),)
    )


def test_changing_the_opponents_hidden_cards_changes_no_judgement_before_the_end():
    for seed, seat in ((11, Seat.ONE), (12, Seat.TWO)):
        record = first_rounds(bot_match(seed), 1)
        changed = _hidden_swaps(record, seat)
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
