"""Random chouette tables (docs/rules.md §8): the invariants at every event."""

from __future__ import annotations

import json
import random
from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from ginrummy.engine import Action, Phase, ResultKind, Rules
from ginrummy.engine.cards import from_mask
from ginrummy.engine.chouette import (
    BOX,
    TEAM,
    ChouetteTable,
    Deal,
    NextMatch,
    TablePhase,
    next_captain,
)
from ginrummy.engine.chouette_record import ChouetteRecord, record_of_table, replay_table
from ginrummy.engine.chouette_views import Role, view_for_player, view_for_table_spectator
from ginrummy.engine.views import view_for_seat, view_for_spectator

from .helpers import random_table
from .test_play import cards_in
from .test_play import check_views as check_match_views

PUBLIC = frozenset({"rounds", "rules", "drawn"})  # finished rounds, the seat draw
RULESETS = [
    Rules.preset("standard", target_score=40),
    Rules.preset("classic", target_score=30),
    Rules.preset("first-to-knock"),
    Rules.preset("oklahoma", target_score=30, next_dealer="loser", after_void="same"),
]


def next_present(order, captain, absent):
    """The captain after ``captain``: the next one present in the cyclic order."""
    n = len(order)
    i = order.index(captain)
    for step in range(1, n + 1):
        if order[(i + step) % n] not in absent:
            return order[(i + step) % n]
    return order[(i + 1) % n]


def check_shape(t: ChouetteTable) -> None:
    assert sorted((t.box, *t.order)) == list(range(t.players))
    assert t.captain in t.order
    assert sum(t.ledger) == 0
    assert t.ledger == tuple(sum(s.changes[p] for s in t.settlements) for p in range(t.players))
    assert (t.phase is TablePhase.SETTLED) == t.match.is_over
    unfinished = t.match.round is not None and t.match.round.result is None  # forfeits too
    assert len(t.captains) == len(t.match.played) + unfinished


def check_settlement(before: ChouetteTable, after: ChouetteTable) -> None:
    s = after.settlements[-1]
    result = after.match.result
    assert (s.number, s.box, s.team, s.result) == (before.number, before.box, before.order, result)
    assert s.value == max(result.totals[result.winner] - result.totals[result.winner.other], 0)
    sign = 1 if result.winner is TEAM else -1
    assert all(s.changes[m] == sign * s.value for m in s.team)
    assert s.changes[s.box] == -sign * s.value * (after.players - 1)


def check_round_end(before: ChouetteTable, after: ChouetteTable) -> None:
    """A lost round passes the captaincy on; a void or won round keeps it."""
    result = after.match.rounds[-1].result
    if result.kind is ResultKind.VOID:
        assert after.match.scores == before.match.scores
    if result.winner is BOX and not after.match.is_over:
        assert after.captain == next_present(before.order, before.captain, before.absent)
        assert after.captain == next_captain(before)  # as the views announced it
    else:
        assert after.captain == before.captain


def check_next_match(before: ChouetteTable, after: ChouetteTable, last_played) -> None:
    assert (after.number, after.captains) == (before.number + 1, ())
    assert after.match.next_dealer is TEAM  # the first opponent deals
    assert after.captain == next_captain(before)  # as the views announced it
    order, absent = before.order, before.absent
    if before.match.result.winner is BOX:
        # The box stays; it meets the present team member who sat out longest.
        present = [m for m in order if m not in absent] or list(order)
        oldest = min(last_played.get(m, 0) for m in present)
        first = next(m for m in present if last_played.get(m, 0) == oldest)
        assert (after.box, after.order, after.captain) == (before.box, order, first)
        return
    # The last round's winner becomes box and meets the captain before them in the
    # order, who deals; the old box joins at the end of the order.
    i = order.index(before.captain)
    ring = order[i:] + order[:i]  # the winner first
    before_winner = [m for m in reversed(ring[1:]) if m not in absent] or [ring[-1]]
    j = ring.index(before_winner[0])
    expected = (*ring[j:], *ring[1:j], before.box)
    assert (after.box, after.order, after.captain) == (before.captain, expected, expected[0])


def check_views(t: ChouetteTable) -> None:
    check_match_views(t.match)
    rnd = t.match.round
    team_hidden = set()
    if rnd is not None and rnd.phase is not Phase.OVER:
        team_hidden = set(from_mask(rnd.hands[TEAM] & ~rnd.known[TEAM]))
    captain = view_for_player(t, t.captain)
    assert captain.chouette.next_captain == next_captain(t) in t.order
    for p in range(t.players):
        view = view_for_player(t, p)
        assert view.seat.to_act == (t.turn == p)
        if p == t.box:
            assert (view.role, view.advice) == (Role.BOX, ())
            assert view.seat == view_for_seat(t.match, BOX)
            # the box never sees a team member's hidden card (the seat draw is public)
            assert not cards_in(view, skip=PUBLIC) & team_hidden
        elif p == t.captain:
            assert (view.role, view.seat) == (Role.CAPTAIN, view_for_seat(t.match, TEAM))
        else:
            # a partner sees what the captain sees, and nothing more; decides nothing
            assert view.role is Role.PARTNER and view.advising
            assert view.seat == replace(captain.seat, legal_actions=())
            assert view.advice == captain.seat.legal_actions
            assert view.chouette == captain.chouette
    spectator = view_for_table_spectator(t)
    assert spectator.match == view_for_spectator(t.match)
    assert spectator.chouette == captain.chouette


def check_replay(t: ChouetteTable) -> None:
    data = json.loads(json.dumps(record_of_table(t).to_dict()))
    assert replay_table(ChouetteRecord.from_dict(data)) == t


@settings(max_examples=10, deadline=None)
@given(st.sampled_from(RULESETS), st.integers(3, 5), st.integers(0, 2**32 - 1))
def test_random_tables_keep_every_invariant(rules, players, seed):
    rng = random.Random(seed)
    states = random_table(rules, rng, players, max_rounds=8)
    before = next(states)
    # the first team is the seat draw's order, highest card first
    key = {p: (c.rank, c.suit) for p, c in enumerate(before.drawn)}
    assert list(before.order) == sorted(before.order, key=key.__getitem__, reverse=True)
    assert all(key[before.box] > key[m] for m in before.order)
    last_played: dict[int, int] = {}
    for after in states:
        event = after.events[-1]
        check_shape(after)
        if isinstance(event, Deal):
            last_played.update({after.box: after.dealt, after.captain: after.dealt})
        if isinstance(event, NextMatch):
            check_next_match(before, after, last_played)
            before = after
            continue
        if len(after.settlements) > len(before.settlements):
            check_settlement(before, after)
        if isinstance(event, Action) and len(after.match.rounds) > len(before.match.rounds):
            check_round_end(before, after)
        else:
            assert (after.box, after.order, after.captain) == (
                before.box,
                before.order,
                before.captain,
            )
        check_views(after)
        if rng.random() < 0.02:
            check_replay(after)
        before = after
    check_replay(before)
