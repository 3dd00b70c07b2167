"""Computer players at a chouette table (docs/rules.md §8): box, captain and advice."""

from __future__ import annotations

import doctest
import random
from dataclasses import replace

import pytest

import ginrummy.bots.chouette
from ginrummy.bots import make_bot
from ginrummy.bots.chouette import NotYourDecisionError, advise, choose_move, decision_view
from ginrummy.engine import MatchPhase, Rules, shuffled_deck
from ginrummy.engine.chouette import (
    ChouetteTable,
    Deal,
    NextMatch,
    TablePhase,
    apply,
    draw_seat_cards,
    new_table,
)
from ginrummy.engine.chouette_views import PlayerView, Role, view_for_player


def test_the_doctests_pass() -> None:
    result = doctest.testmod(ginrummy.bots.chouette, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0 and result.attempted >= 3


def play_table(levels: list[str], seed: int, matches: int, rules: Rules) -> ChouetteTable:
    """A whole chouette table of computers; every partner advises on every decision."""
    rng = random.Random(seed)
    table = new_table(rules, draw_seat_cards(rng, len(levels)))
    while True:
        if table.phase is TablePhase.SETTLED:
            if table.number == matches:
                return table
            table = apply(table, NextMatch())
        elif table.match.phase is MatchPhase.DEAL:
            table = apply(table, Deal(shuffled_deck(rng)))
        else:
            mover = table.turn
            assert mover is not None
            for p in range(table.players):
                view = view_for_player(table, p)
                if view.role is Role.PARTNER:
                    check_advice(levels[p], view, table, seed)
                elif p != mover:
                    with pytest.raises(NotYourDecisionError):
                        choose_move(levels[p], view, rng)
            table = apply(table, choose_move(levels[mover], view_for_player(table, mover), rng))


def check_advice(level: str, view: PlayerView, table: ChouetteTable, seed: int) -> None:
    captain = view_for_player(table, table.captain)
    advice = advise(level, view, random.Random(seed))
    if not captain.seat.legal_actions:
        assert advice is None  # the box decides now
        return
    # the advice is the level's own move in the captain's place, on what the captain sees
    assert advice in captain.seat.legal_actions
    assert decision_view(view) == captain.seat
    assert advice == make_bot(level)(captain.seat, random.Random(seed))


@pytest.mark.parametrize(("players", "seed"), [(3, 1), (4, 2), (5, 3)])
def test_computers_play_box_and_captain_and_advise_to_the_end(players: int, seed: int) -> None:
    levels = ["casual", "baseline", "strong", "random", "beginner"][:players]
    table = play_table(levels, seed, matches=2, rules=Rules(target_score=50))
    assert table.phase is TablePhase.SETTLED and len(table.settlements) == 2
    assert sum(table.ledger) == 0


def test_only_partners_advise_and_only_the_box_and_captain_decide() -> None:
    rng = random.Random(7)
    table = apply(new_table(Rules(), draw_seat_cards(rng, 3)), Deal(shuffled_deck(rng)))
    box = view_for_player(table, table.box)
    captain = view_for_player(table, table.captain)
    [partner_position] = [p for p in table.order if p != table.captain]
    partner = view_for_player(table, partner_position)
    for view in (box, captain):
        with pytest.raises(NotYourDecisionError, match="only partners advise"):
            advise("casual", view, rng)
    with pytest.raises(NotYourDecisionError, match="the captain decides"):
        choose_move("casual", partner, rng)
    with pytest.raises(NotYourDecisionError, match="no decision"):
        choose_move("casual", captain, rng)  # the box (non-dealer) decides first
    assert choose_move("casual", box, rng) in box.seat.legal_actions
    with pytest.raises(KeyError, match="unknown level"):
        choose_move("nobody", box, rng)
    # a partner's advice never reaches beyond the captain's options
    narrowed = replace(partner, advice=())
    assert advise("casual", narrowed, rng) is None
