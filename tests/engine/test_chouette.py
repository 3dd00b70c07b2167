"""Chouette, three to five players at one table (docs/rules.md §8): worked examples."""

from __future__ import annotations

import random

import pytest

from ginrummy.engine import (
    ChouetteError,
    ForfeitReason,
    IllegalActionError,
    MatchPhase,
    RecordError,
    ResultKind,
    Rules,
    Seat,
    parse_action,
    parse_cards,
)
from ginrummy.engine.chouette import (
    BOX,
    TEAM,
    ChouetteTable,
    Deal,
    Forfeit,
    Leave,
    NextMatch,
    Return,
    TablePhase,
    apply,
    draw_seat_cards,
    legal_actions,
    new_table,
    next_captain,
    position_of,
    seat_of,
)

from .helpers import deck_of

# Each round of these examples is one gin worth 30: the winner holds
# 2c 3c 4c | 5d 6d 7d | 9h Th Jh | Qs, takes the upcard Qh and goes gin with Qs;
# the loser holds Kc Kd Ks | Tc Td Ts | Js Jd Jc | 5h (deadwood 5): 5 + 25 = 30.
WINNER, LOSER = "2c 3c 4c 5d 6d 7d 9h Th Jh Qs", "Kc Kd Ks Tc Td Ts Js Jd Jc 5h"
NON_DEALER_GIN = (deck_of(WINNER, LOSER, "Qh"), ("take", "gin Qs"))
DEALER_GIN = (deck_of(LOSER, WINNER, "Qh"), ("pass", "take", "gin Qs"))
# A void round: no meld anywhere, both pass, then each draws the stock and discards it.
VOID_DECK = deck_of("Ac 2d 3h 4s 5c 6d 7h 8s 9c Td", "Jc Qd Kh As 2c 3d 4h 5s 6c 7d", "8h")
VOID = (VOID_DECK, ("pass", "pass", *(f"draw stock|discard {c}" for c in VOID_DECK[21:50])))


def play(table: ChouetteTable, deck, actions) -> ChouetteTable:
    table = apply(table, Deal(deck))
    for text in actions:
        for part in text.split("|"):
            table = apply(table, parse_action(part))
    return table


def win(table: ChouetteTable, side: Seat) -> ChouetteTable:
    """Deal a round that ``side`` (the box's seat or the team's) wins with a gin of 30."""
    deck, actions = DEALER_GIN if table.match.next_dealer is side else NON_DEALER_GIN
    return play(table, deck, actions)


def void(table: ChouetteTable) -> ChouetteTable:
    return play(table, *VOID)


def table_of(drawn: str, **rules) -> ChouetteTable:
    return new_table(Rules.preset(rules.pop("preset", "standard"), **rules), parse_cards(drawn))


def test_the_seat_draw_makes_the_highest_card_box_and_orders_the_team():
    # ace low; ties of rank by suit: clubs < diamonds < hearts < spades
    table = table_of("Ks As Kh 2c Qd")
    assert (table.box, table.order, table.captain) == (0, (2, 4, 3, 1), 2)
    assert table.players == 5
    assert (table.phase, table.number, table.ledger) == (TablePhase.MATCH, 1, (0,) * 5)
    assert (table.match.phase, table.match.next_dealer) == (MatchPhase.DEAL, TEAM)
    assert (seat_of(table, 0), seat_of(table, 2), seat_of(table, 4)) == (BOX, TEAM, None)
    assert (position_of(table, BOX), position_of(table, TEAM)) == (0, 2)
    assert table.turn is None and legal_actions(table) == ()


def test_the_seat_draw_is_three_to_five_different_cards():
    with pytest.raises(ChouetteError, match="a chouette is 3 to 5 players, got 2"):
        table_of("Ks As")
    with pytest.raises(ChouetteError, match="got 6"):
        table_of("Ks As Kh 2c Qd 3d")
    with pytest.raises(ChouetteError, match="a different card per player"):
        new_table(Rules(), (*parse_cards("Ks As"), parse_cards("Ks")[0]))
    with pytest.raises(ChouetteError, match="got 6"):
        draw_seat_cards(random.Random(1), 6)
    drawn = draw_seat_cards(random.Random(1), 4)
    assert len(set(drawn)) == 4
    assert new_table(Rules(), drawn).players == 4


def test_example_8_2_1_three_players_a_match_the_settlement_and_the_next_two_matches():
    # docs/rules.md §8.2.1
    # A (0) draws 9c, B (1) Kd, C (2) Js: B is box; the team is C then A; C deals.
    t = table_of("9c Kd Js", target_score=60)
    assert (t.box, t.order, t.captain) == (1, (2, 0), 2)
    t = apply(t, Deal(NON_DEALER_GIN[0]))
    assert (t.turn, t.match.round.dealer) == (1, TEAM)  # the box (non-dealer) decides first
    assert [str(a) for a in legal_actions(t)] == ["take", "pass"]
    t = apply(apply(t, parse_action("take")), parse_action("gin Qs"))  # the box wins 30
    assert (t.match.scores.one, t.match.scores.two, t.captain) == (30, 0, 0)  # A takes over
    t = void(t)  # a void round changes nothing
    assert (t.match.scores.one, t.match.scores.two, t.captain) == (30, 0, 0)
    assert t.match.rounds[-1].result.kind is ResultKind.VOID
    t = win(t, TEAM)  # A wins and stays captain
    assert (t.match.scores.two, t.captain, t.phase) == (30, 0, TablePhase.MATCH)
    t = win(t, TEAM)  # team 60: the team wins the match 60-30, value 30
    assert t.phase is TablePhase.SETTLED and t.turn is None and legal_actions(t) == ()
    assert t.captains == (2, 0, 0, 0)
    s = t.settlements[-1]
    assert (s.number, s.box, s.team, s.value, s.result.winner) == (1, 1, (2, 0), 30, TEAM)
    assert s.changes == t.ledger == (30, -60, 30)
    # The box lost the last round: its winner A becomes box; A's first opponent is the
    # captain before A in the order, C, who deals; B joins the team at its end.
    t = apply(t, NextMatch())
    assert (t.box, t.order, t.captain, t.number, t.captains) == (0, (2, 1), 2, 2, ())
    assert (t.phase, t.match.phase) == (TablePhase.MATCH, MatchPhase.DEAL)
    assert t.match.next_dealer is TEAM
    t = win(t, BOX)  # A wins against C: B becomes captain
    assert t.captain == 1
    t = win(t, BOX)  # A wins the match 60-0, value 60, from each of C and B
    assert (t.settlements[-1].value, t.settlements[-1].changes) == (60, (120, -60, -60))
    assert t.ledger == (150, -120, -30)
    # The box won the last round: A stays box, and meets C, who sat out longest.
    t = apply(t, NextMatch())
    assert (t.box, t.order, t.captain, t.number) == (0, (2, 1), 2, 3)


def test_example_8_2_2_five_players_classic_bonuses_settle_with_each_team_member():
    # docs/rules.md §8.2.2
    # classic, target 30: one gin of 30 ends the match; the team adds box 25, game 100
    # and shutout 100: 255 to 0, so the box pays 255 to each of its four opponents.
    t = win(table_of("2c 3c 4c 5c 6c", preset="classic", target_score=30), TEAM)
    r = t.settlements[-1].result
    assert (r.totals.two, r.totals.one, t.settlements[-1].value) == (255, 0, 255)
    assert t.ledger == (255, 255, 255, 255, -1020)


def test_example_8_2_3_four_players_the_new_box_meets_the_captain_before_them():
    # docs/rules.md §8.2.3
    # Box D (3, Ks); team in order A (0, Kh), B (1, Kd), C (2, Kc). A wins the match as
    # captain: A becomes box; the captain before A (cyclically) is C, who deals; the
    # order runs on from C as before (C, B) and the old box D comes last.
    t = win(table_of("Kh Kd Kc Ks", target_score=30), TEAM)
    assert (t.settlements[-1].changes, t.captain) == ((30, 30, 30, -90), 0)
    t = apply(t, NextMatch())
    assert (t.box, t.order, t.captain) == (0, (2, 1, 3), 2)
    # the box beats A, B, C, A and B in turn and wins 150 to 0
    t = table_of("Kh Kd Kc Ks", target_score=150)
    for captain in (0, 1, 2, 0, 1):
        assert t.captain == captain
        t = win(t, BOX)
    assert t.phase is TablePhase.SETTLED
    t = apply(t, NextMatch())  # the box won: it meets C, who sat out longest
    assert (t.box, t.order, t.captain) == (3, (0, 1, 2), 2)


def test_an_absent_partner_is_skipped_in_the_captain_order_until_back():
    t = table_of("Kh Kd Kc Ks", target_score=150)  # box 3, team (0, 1, 2)
    t = apply(t, Leave(1))
    assert t.absent == {1}
    t = win(t, BOX)
    assert t.captain == 2  # B is away
    t = apply(t, Return(1))
    t = win(t, BOX)
    assert t.captain == 0
    t = win(t, BOX)
    assert t.captain == 1
    # nobody is here: the captain order goes on as if all were
    for p in (0, 1, 2):
        t = apply(t, Leave(p))
    t = win(t, BOX)
    assert t.captain == 2
    t = win(t, BOX)  # 150 to 0: the box won and stays box
    assert (t.phase, t.captain, t.captains) == (TablePhase.SETTLED, 2, (0, 2, 0, 1, 2))
    # its first opponent is the present team member who sat out longest ...
    assert apply(apply(t, Return(1)), NextMatch()).captain == 1
    # ... or, with everyone away, the one who sat out longest of all
    assert apply(t, NextMatch()).captain == 0


def test_the_next_captain_skips_an_absent_partner_and_once_settled_is_the_first_opponent():
    t = table_of("Kh Kd Kc Ks", target_score=60)  # box 3, team (0, 1, 2), captain 0
    assert next_captain(t) == 1
    t = apply(t, Leave(1))
    assert next_captain(t) == 2  # B is away: C takes over if A loses a round
    assert win(t, BOX).captain == 2
    t = apply(t, Leave(2))
    assert next_captain(t) == 0  # nobody else is here: the captain plays on
    t = apply(apply(t, Return(1)), Return(2))
    settled = win(win(t, BOX), BOX)  # 60 to 0: the box stays, C sat out longest
    assert settled.phase is TablePhase.SETTLED and settled.captain == 1
    assert next_captain(settled) == apply(settled, NextMatch()).captain == 2
    won = win(table_of("Kh Kd Kc Ks", target_score=30), TEAM)  # A beats the box
    assert next_captain(won) == apply(won, NextMatch()).captain == 2


def test_the_first_opponent_is_the_nearest_present_captain_before_the_new_box():
    t = win(table_of("Kh Kd Kc Ks", target_score=30), TEAM)  # A (0) beat box D (3)
    t = apply(t, Leave(2))
    assert apply(t, NextMatch()).order == (1, 2, 3)  # C is away: B, then C, then D
    t = apply(t, Leave(1))
    assert apply(t, NextMatch()).order == (2, 1, 3)  # everybody away: C as if present


def test_forfeits_settle_the_match_on_the_scores_as_they_are():
    t = win(table_of("9c Kd Js", target_score=100), BOX)  # box 30, captain now A (0)
    t = apply(t, Deal(NON_DEALER_GIN[0]))
    with pytest.raises(IllegalActionError, match="only the box or the captain can forfeit"):
        apply(t, Forfeit(2, ForfeitReason.ABANDONED))
    done = apply(t, Forfeit(0, ForfeitReason.TIMEOUT))  # the captain ran out of time
    s = done.settlements[-1]
    assert (s.result.winner, s.result.forfeit, s.value, done.ledger) == (
        BOX,
        ForfeitReason.TIMEOUT,
        30,
        (-30, 60, -30),
    )
    assert apply(done, NextMatch()).box == 1  # the box won: it stays
    # The box resigns while ahead: the team wins, and the forfeit pays nothing.
    done = apply(t, Forfeit(1, ForfeitReason.RESIGNED))
    assert (done.settlements[-1].value, done.ledger) == (0, (0, 0, 0))
    t = apply(done, NextMatch())
    assert (t.box, t.order, t.captain) == (0, (2, 1), 2)


def test_events_are_refused_where_the_table_cannot_take_them():
    t = table_of("9c Kd Js", target_score=30)
    with pytest.raises(IllegalActionError, match="no round is being played; deal first"):
        apply(t, parse_action("take"))
    with pytest.raises(IllegalActionError, match="the match is not over"):
        apply(t, NextMatch())
    with pytest.raises(ChouetteError, match="no player 3 at a table of 3"):
        apply(t, Leave(3))
    with pytest.raises(ChouetteError, match="no player -1"):
        apply(t, Forfeit(-1, ForfeitReason.RESIGNED))
    with pytest.raises(IllegalActionError, match="that player is not absent"):
        apply(t, Return(0))
    with pytest.raises(IllegalActionError, match="absent already"):
        apply(apply(t, Leave(0)), Leave(0))
    with pytest.raises(RecordError, match="a deck must hold each of the 52 cards"):
        apply(t, Deal(NON_DEALER_GIN[0][:51]))
    t = win(t, TEAM)
    for event in (Deal(VOID_DECK), parse_action("take"), Forfeit(1, ForfeitReason.RESIGNED)):
        with pytest.raises(IllegalActionError, match="the match is over; start the next"):
            apply(t, event)
    assert t.events[0] == Deal(DEALER_GIN[0])  # the captain deals and wins
    assert [str(e) for e in t.events[1:]] == ["pass", "take", "gin Qs"]
