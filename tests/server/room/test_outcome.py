"""Results and ratings of a finished match, from plain values."""

from __future__ import annotations

import random

from ginrummy.engine import (
    ForfeitReason,
    MatchState,
    Rules,
    Seat,
    deal,
    forfeit,
    new_match,
    shuffled_deck,
)
from ginrummy.server.room import outcome
from ginrummy.server.store import Player, RatedMatch


def _abandoned_by_two() -> MatchState:
    match = deal(new_match(Rules(), Seat.ONE), shuffled_deck(random.Random(5)))
    return forfeit(match, Seat.TWO, ForfeitReason.ABANDONED)


def test_a_rated_match_between_two_people_rates_both_and_counts_the_abandon() -> None:
    match = _abandoned_by_two()
    ann, bob = Player("p_ann", "Ann", 0.0), Player("p_bob", "Bob", 0.0)
    players = {Seat.ONE: ann, Seat.TWO: bob}
    done = outcome("r1", match, 1, players, {Seat.ONE: None, Seat.TWO: None}, True, 50.0)
    rows = {row.seat: row for row in done.results}
    assert rows["one"].won and not rows["two"].won
    assert (rows["one"].opponent, rows["two"].opponent) == ("p_bob", "p_ann")
    assert rows["two"].forfeit == "abandoned" and rows["one"].rated
    assert rows["one"].t == 50.0 and rows["one"].match_seq == 1
    assert done.abandons == ("p_bob",)
    # The store rates the match in its own transaction; the outcome only says who won.
    assert done.rated == RatedMatch("p_ann", "p_bob", 1.0)
    assert rows["one"].rating is None and rows["two"].rd is None


def test_a_match_against_the_computer_is_never_rated() -> None:
    match = _abandoned_by_two()
    ann = Player("p_ann", "Ann", 0.0)
    bots = {Seat.ONE: None, Seat.TWO: "casual"}
    done = outcome("r1", match, 1, {Seat.ONE: ann}, bots, True, 50.0)
    (row,) = done.results
    assert (row.bot, row.opponent, row.rated, row.rating) == ("casual", None, False, None)
    assert done.rated is None and done.abandons == ()
