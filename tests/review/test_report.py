"""The review as a whole: rounds, ends, series, progress, a forfeit, the cache key."""

from __future__ import annotations

from ginrummy.engine import ForfeitReason, MatchRecord, Phase, RoundRecord, Rules, Seat, StockRule
from ginrummy.review import MASTER, Budget, Grade, cache, review_match
from ginrummy.review.cache import cache_key

from .helpers import TINY, bot_match, first_rounds


def test_rounds_carry_their_decisions_series_and_both_hands_at_the_end():
    record = first_rounds(bot_match(41), 2)
    calls: list[tuple[int, int]] = []
    review = review_match(
        record, Seat.ONE, budget=TINY, seed=2, progress=lambda d, t: calls.append((d, t))
    )
    assert [r.number for r in review.rounds] == [1, 2]
    total = sum(len(r.decisions) for r in review.rounds)
    assert calls == [(i, total) for i in range(1, total + 1)]
    data = review.to_dict()
    for rnd, played in zip(data["rounds"], record.rounds, strict=True):
        # the seat's actions, in the record's order (a subsequence of all actions)
        actions = iter(str(a) for a in played.actions)
        assert rnd["decisions"]
        assert all(any(d["played"] == a for a in actions) for d in rnd["decisions"])
        assert [s["index"] for s in rnd["series"]] == [d["index"] for d in rnd["decisions"]]
        for s, d in zip(rnd["series"], rnd["decisions"], strict=True):
            chosen = next(c for c in d["choices"] if c["action"] == d["played"])
            assert s["value"] == (None if d["grade"] == Grade.FORCED else chosen["value"])
        hands = rnd["end"]["hands"]
        assert len(hands["one"]) >= 10 and len(hands["two"]) >= 10


def test_a_round_cut_short_by_a_forfeit_has_decisions_and_no_end():
    full = bot_match(42)
    cut = full.rounds[1]
    unfinished = RoundRecord(cut.deck, cut.dealer, cut.actions[:6])
    record = MatchRecord(
        full.rules,
        full.first_dealer,
        (full.rounds[0], unfinished),
        (Seat.TWO, ForfeitReason.RESIGNED),
    )
    review = review_match(record, Seat.TWO, budget=TINY)
    assert review.rounds[0].end is not None
    assert review.rounds[1].end is None and review.rounds[1].decisions
    assert review.to_dict()["rounds"][1]["end"] is None


def test_the_cache_key_changes_with_everything_the_review_depends_on():
    record = first_rounds(bot_match(43), 1)
    key = cache_key(record, Seat.ONE, Budget(), 0)
    assert key == cache_key(record, Seat.ONE, Budget(), 0)
    others = {
        cache_key(record, Seat.TWO, Budget(), 0),
        cache_key(record, Seat.ONE, Budget(samples=9), 0),
        cache_key(record, Seat.ONE, Budget(), 1),
        cache_key(first_rounds(bot_match(44), 1), Seat.ONE, Budget(), 0),
        cache_key(record, Seat.ONE, Budget(), 0, evaluator=MASTER),
    }
    assert key not in others and len(others) == 5


def test_a_review_kept_by_an_earlier_method_is_not_found(monkeypatch):
    record = first_rounds(bot_match(43), 1)
    key = cache_key(record, Seat.ONE, Budget(), 0)
    monkeypatch.setattr(cache, "METHOD", cache.METHOD - 1)
    assert cache_key(record, Seat.ONE, Budget(), 0) != key


def test_every_decision_phase_is_judged_under_the_eleven_card_rules():
    rules = Rules(eleven_card_deal=True, stock_rule=StockRule.LAST_DISCARD, big_gin_bonus=31)
    # A last-discard decision in round 2; expert against expert, since `strong` knocks
    # at once and rarely lets a round reach the wall.
    record = first_rounds(bot_match(4, two="expert", rules=rules), 2)
    phases = set()
    for seat in Seat:
        review = review_match(record, seat, budget=TINY)
        for rnd in review.rounds:
            for r in rnd.decisions:
                phases.add(r.decision.view.table.round_phase)
                assert r.judgement.played is r.decision.played
    assert Phase.LAST_DISCARD in phases and Phase.DISCARD in phases
