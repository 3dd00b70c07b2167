"""What each chouette player may know (docs/rules.md §8): box, captain, partner, spectator."""

from __future__ import annotations

from dataclasses import replace

import pytest

from ginrummy.engine import ChouetteError, Rules, parse_action, parse_cards
from ginrummy.engine.chouette import BOX, TEAM, Deal, TablePhase, apply, new_table
from ginrummy.engine.chouette_views import Role, view_for_player, view_for_table_spectator
from ginrummy.engine.views import view_for_seat, view_for_spectator

from .helpers import texts
from .test_chouette import LOSER, NON_DEALER_GIN, WINNER, play

# Box D (3, Ks); team A (0, Kh) captain, B (1, Kd), C (2, Kc). The captain deals:
# the box holds WINNER, the captain LOSER, upcard Qh.
DRAWN = parse_cards("Kh Kd Kc Ks")


def _dealt():
    return apply(new_table(Rules(), DRAWN), Deal(NON_DEALER_GIN[0]))


def test_each_player_has_a_role_and_the_partners_watch_the_captains_cards():
    t = _dealt()
    box, captain, b, c = (view_for_player(t, p) for p in (3, 0, 1, 2))
    assert [v.role for v in (box, captain, b, c)] == [
        Role.BOX,
        Role.CAPTAIN,
        Role.PARTNER,
        Role.PARTNER,
    ]
    assert texts(box.seat.hand) == texts(parse_cards(WINNER))
    assert texts(captain.seat.hand) == texts(parse_cards(LOSER))
    assert (box.seat.seat, captain.seat.seat) == (BOX, TEAM)
    # the box decides first (non-dealer); nobody on the team may act
    assert [str(a) for a in box.seat.legal_actions] == ["take", "pass"]
    assert captain.seat.legal_actions == b.seat.legal_actions == b.advice == ()
    assert box.chouette.turn == 3 and not box.advising and not captain.advising
    t = apply(t, parse_action("pass"))
    captain, b = view_for_player(t, 0), view_for_player(t, 1)
    assert [str(a) for a in captain.seat.legal_actions] == ["take", "pass"]
    # a partner sees the captain's hand and options, but the decision is the captain's
    assert b.advising and not b.seat.to_act
    assert b.seat == replace(captain.seat, legal_actions=())
    assert b.advice == captain.seat.legal_actions and captain.advice == ()
    assert view_for_player(t, 2).seat == b.seat


def test_the_box_and_spectators_see_no_team_card():
    t = _dealt()
    team = set(parse_cards(LOSER))
    box = view_for_player(t, 3)
    assert not set(box.seat.hand) & team
    assert box.seat == view_for_seat(t.match, BOX)
    spectator = view_for_table_spectator(t)
    assert spectator.match == view_for_spectator(t.match)
    assert not hasattr(spectator.match, "hand")
    info = spectator.chouette
    assert (info.players, info.box, info.order, info.captain, info.captains) == (
        4,
        3,
        (0, 1, 2),
        0,
        (0,),
    )
    assert (info.phase, info.number, info.turn, info.absent) == (
        TablePhase.MATCH,
        1,
        3,
        frozenset(),
    )
    assert info == box.chouette


def test_after_the_match_the_views_show_the_settlement_and_nobody_acts():
    t = play(new_table(Rules(target_score=30), DRAWN), *NON_DEALER_GIN)  # the box gins: 30
    assert t.phase is TablePhase.SETTLED
    views = [view_for_player(t, p) for p in range(4)]
    assert all(v.seat.legal_actions == v.advice == () for v in views)
    info = views[0].chouette
    assert (info.phase, info.turn, info.ledger) == (TablePhase.SETTLED, None, (-30, -30, -30, 90))
    assert info.settlements[0].value == 30
    # after the round both hands are public, the captain's included
    result = views[3].seat.table.round_result
    assert texts(result.hands.two) == texts(parse_cards(LOSER))
    assert views[1].seat == replace(views[0].seat, legal_actions=())


def test_a_view_names_a_player_of_the_table():
    with pytest.raises(ChouetteError, match="no player 4 at a table of 4"):
        view_for_player(_dealt(), 4)
