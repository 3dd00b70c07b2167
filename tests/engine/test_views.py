"""What each side may know (docs/rules.md §5): seat and spectator views."""

from __future__ import annotations

from ginrummy.engine import (
    MatchPhase,
    Phase,
    Rules,
    Seat,
    deal,
    new_match,
    view_for_seat,
    view_for_spectator,
)

from .helpers import deck_of, play_match, texts

ONE, TWO = Seat.ONE, Seat.TWO

# non-dealer (two) 2c 3c 4c | 5d 6d 7d | 9h Th Jh | Qs; takes the upcard Qh, gin with Qs
# dealer (one)     Kc Kd Ks | Tc Td Ts | Js Jd Jc | 5h
GIN = deck_of("2c 3c 4c 5d 6d 7d 9h Th Jh Qs", "Kc Kd Ks Tc Td Ts Js Jd Jc 5h", "Qh", "8c")


def test_views_before_the_first_deal():
    m = new_match(Rules(), ONE)
    v = view_for_seat(m, ONE)
    assert (v.hand, v.legal_actions, v.deadwood, v.to_act, v.moves) == ((), (), 0, False, ())
    t = v.table
    assert (t.match_phase, t.round_phase, t.round_number, t.dealer, t.turn) == (
        MatchPhase.DEAL,
        None,
        0,
        None,
        None,
    )
    assert (t.stock_size, t.discard_pile, t.discard_top, t.knock_limit) == (0, (), None, 10)
    assert view_for_spectator(m).moves == ()


def test_a_seat_sees_its_hand_the_pile_and_what_the_opponent_took():
    m = deal(new_match(Rules(), ONE), GIN)
    two = view_for_seat(m, TWO)
    assert texts(two.hand) == texts(GIN[:10])
    assert two.deadwood == 10
    assert [str(a) for a in two.legal_actions] == ["take", "pass"]
    assert two.to_act
    one = view_for_seat(m, ONE)
    assert (one.legal_actions, one.to_act, one.taken) == ((), False, None)
    assert str(one.table.discard_top) == "Qh"
    assert one.table.hand_sizes == two.table.hand_sizes
    assert (one.table.hand_sizes.one, one.table.stock_size) == (10, 31)
    m = play_match(m, "take")
    one, two = view_for_seat(m, ONE), view_for_seat(m, TWO)
    assert str(two.taken) == "Qh"
    assert one.taken is None
    assert [str(c) for c in one.opponent_known] == ["Qh"]  # taken from the pile: public
    assert [str(mv) for mv in one.moves] == ["take"]
    assert view_for_spectator(m).table.known.two == one.opponent_known


def test_the_knock_discard_is_face_down_for_everyone_but_the_knocker():
    m = play_match(deal(new_match(Rules(), ONE), GIN), "take", "gin Qs")
    assert m.phase is MatchPhase.DEAL
    two, one, spec = view_for_seat(m, TWO), view_for_seat(m, ONE), view_for_spectator(m)
    assert str(two.knock_discard) == "Qs"  # the knocker's own view shows it
    assert [str(mv) for mv in two.moves] == ["take", "gin"]
    assert one.knock_discard is None
    assert [str(mv) for mv in one.moves] == ["take", "gin"]
    assert [str(mv) for mv in spec.moves] == ["take", "gin"]
    # after the round both hands are shown
    result = spec.table.round_result
    assert texts(result.hands.two) == texts([*GIN[:9], GIN[20]])  # Qs went face down
    assert texts(result.hands.one) == texts(GIN[10:20])
    assert spec.table.round_phase is Phase.OVER
    assert (spec.table.turn, spec.table.scores.two) == (None, 30)
    assert spec.table.rounds[0].result == result


def test_spectators_see_no_hand_during_a_round():
    m = deal(new_match(Rules(), ONE), GIN)
    spec = view_for_spectator(m)
    assert not hasattr(spec, "hand")
    assert spec.table.known.one == spec.table.known.two == ()
    assert spec.table.turn is TWO
