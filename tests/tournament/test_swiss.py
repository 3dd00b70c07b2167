"""Swiss pairing against a brute-force oracle: no repeat pairing while a repeat-free
pairing exists, at most one bye per player, score groups and first deals as
docs/tournaments.md documents them."""

from __future__ import annotations

import random
from collections import Counter

import pytest
import rustworkx as rx
from hypothesis import given, settings
from hypothesis import strategies as st

from ginrummy.tournament import FinishReason, RoundPaired, fold, record_result
from ginrummy.tournament.games import Game, Pairing
from ginrummy.tournament.standings import standings
from ginrummy.tournament.swiss import _edges, all_colours, default_rounds, pair

from .helpers import full, play_drawn, play_out


def _matchings(players: list[str | None]):
    """Every perfect matching of ``players`` (None is the bye)."""
    if not players:
        yield []
        return
    head, rest = players[0], players[1:]
    for i, other in enumerate(rest):
        for tail in _matchings(rest[:i] + rest[i + 1 :]):
            yield [(head, other), *tail]


def _due_first(player: str, games: list[Game]) -> bool | None:
    played = [g.first == player for g in games if not g.is_bye and g.involves(player)]
    firsts, seconds = played.count(True), played.count(False)
    if firsts != seconds:
        return firsts < seconds
    return None if not played else not played[-1]


def _key(matching, ranked, games):
    """What the pairing optimises, most important first (all minimised)."""
    met = {frozenset((g.first, g.second)) for g in games if not g.is_bye}
    score = Counter(g.winner for g in games if g.winner)
    repeats = bye_place = squares = unhappy = 0
    for a, b in matching:
        if a is None or b is None:
            bye_place = -ranked.index(a or b)
            continue
        repeats += frozenset((a, b)) in met
        squares += (score[a] - score[b]) ** 2
        due_a, due_b = _due_first(a, games), _due_first(b, games)
        unhappy += min(  # the better of the two ways to give the first deal
            (due_a is False) + (due_b is True), (due_b is False) + (due_a is True)
        )
    return repeats, bye_place, squares, unhappy


def _legal(matching, games):
    had_bye = {g.first for g in games if g.is_bye}
    return all(a not in had_bye for a, b in matching if b is None) and all(
        b not in had_bye for a, b in matching if a is None
    )


def _as_matching(pairings: tuple[Pairing, ...]):
    return [(p.first, p.second) for p in pairings]


@st.composite
def histories(draw):
    """Active players ranked by the standings, and earlier games of a random Swiss
    history (at most one bye per player, some players withdrawn)."""
    n = draw(st.integers(4, 9))
    players = [f"p{k}" for k in range(1, n + 1)]
    games: list[Game] = []
    for _ in range(draw(st.integers(0, 4))):
        order = draw(st.permutations(players))
        if n % 2:
            had = {g.first for g in games if g.is_bye}
            byes = [p for p in order if p not in had]
            if not byes:
                break
            games.append(Game(byes[-1], None, byes[-1]))
            order = [p for p in order if p != byes[-1]]
        for a, b in zip(order[::2], order[1::2], strict=True):
            games.append(Game(a, b, draw(st.sampled_from([a, b])), 100, 50))
    withdrawn = draw(st.sets(st.sampled_from(players), max_size=n - 3))
    ranked = [s.player for s in standings(players, games) if s.player not in withdrawn]
    return ranked, games


def _possible(ranked, games):
    nodes = ranked + ([None] if len(ranked) % 2 else [])
    return [m for m in _matchings(nodes) if _legal(m, games)]


@settings(max_examples=150, deadline=None)
@given(histories())
def test_the_pairing_is_the_best_of_all_legal_pairings(history):
    ranked, games = history
    possible = _possible(ranked, games)
    if not possible:
        return  # everyone of an odd field had a bye: see test_no_legal_bye_finishes
    pairings = pair(ranked, games, round_number=5)
    ours = _as_matching(pairings)
    assert _legal(ours, games)
    assert sorted(p for m in ours for p in m if p) == sorted(ranked)
    assert _key(ours, ranked, games) == min(_key(m, ranked, games) for m in possible)


@settings(max_examples=100, deadline=None)
@given(histories())
def test_no_repeat_pairing_while_a_repeat_free_pairing_exists(history):
    ranked, games = history
    possible = _possible(ranked, games)
    met = {frozenset((g.first, g.second)) for g in games if not g.is_bye}
    free = [m for m in possible if not any(frozenset(p) in met for p in m if None not in p)]
    if free:
        ours = _as_matching(pair(ranked, games, round_number=5))
        assert not any(frozenset(p) in met for p in ours if None not in p)


@settings(max_examples=100, deadline=None)
@given(histories())
def test_score_groups_are_kept_when_they_can_be(history):
    # documented: pairs within score groups whenever a repeat-free pairing allows it
    ranked, games = history
    score = Counter(g.winner for g in games if g.winner)
    met = {frozenset((g.first, g.second)) for g in games if not g.is_bye}
    had_bye = {g.first for g in games if g.is_bye}
    ideal = [
        m
        for m in _possible(ranked, games)
        if all(None in p or (score[p[0]] == score[p[1]] and frozenset(p) not in met) for p in m)
    ]
    # ...and the bye, if any, goes to the lowest-ranked player without one
    lowest = next((p for p in reversed(ranked) if p not in had_bye), None)
    ideal = [m for m in ideal if len(ranked) % 2 == 0 or (lowest, None) in m or (None, lowest) in m]
    if ideal:
        pairings = pair(ranked, games, round_number=5)
        assert all(p.is_bye or score[p.first] == score[p.second] for p in pairings)


def test_round_one_pairs_the_top_half_with_the_bottom_half():
    ranked = [f"p{k}" for k in range(1, 9)]
    pairings = pair(ranked, [], round_number=1)
    assert [p.players for p in pairings] == [("p1", "p5"), ("p2", "p6"), ("p3", "p7"), ("p4", "p8")]


def test_the_bye_goes_to_the_lowest_ranked_player_without_one():
    ranked = ["a", "b", "c", "d", "e"]
    games = [Game("e", None, "e"), Game("a", "b", "a"), Game("c", "d", "c")]
    pairings = pair(ranked, games, round_number=2)
    assert pairings[-1].players == ("d",)
    assert not any(p.is_bye for p in pairings[:-1])


def test_a_repeat_outweighs_the_bye_order():
    # d may not have the bye without a repeat: a-b, a-c, b-c all met, so d must play
    ranked = ["a", "b", "c", "d"]
    games = [Game("a", "b", "a"), Game("a", "c", "a"), Game("b", "c", "b"), Game("d", None, "d")]
    ranked5 = [*ranked, "e"]
    games5 = [*games, Game("e", "d", "e")]
    pairings = pair(ranked5, games5, round_number=4)
    met = {frozenset((g.first, g.second)) for g in games5 if not g.is_bye}
    assert not any(frozenset(p.players) in met for p in pairings if not p.is_bye)
    assert pairings[-1].is_bye and pairings[-1].first in {"a", "b", "c"}


def test_first_deals_alternate():
    ranked = ["a", "b", "c", "d"]
    games = [Game("a", "c", "a"), Game("d", "b", "b")]
    # a and d dealt first last time, b and c second: b and c are due the first deal
    assert [p.players for p in pair(ranked, games, round_number=2)] == [("b", "a"), ("c", "d")]


def test_default_rounds():
    assert [default_rounds(n) for n in (4, 5, 8, 9, 16, 17, 64)] == [3, 4, 4, 5, 5, 6, 7]


@pytest.mark.parametrize("n", [4, 5, 7, 9, 12, 17, 33])
def test_a_whole_swiss_gives_each_player_at_most_one_bye(n):
    rng = random.Random(n)
    run = full("swiss", n)
    play_out(run, lambda p: rng.choice(p.players), rng)
    games = run.state.games()
    byes = Counter(g.first for g in games if g.is_bye)
    assert max(byes.values(), default=0) <= 1
    assert run.state.finish in {FinishReason.COMPLETED, FinishReason.NO_PAIRING}
    assert len(run.state.rounds) <= default_rounds(n)


def test_no_legal_bye_finishes_the_tournament():
    from ginrummy.tournament import withdraw

    run = full("swiss", 5, rounds=4)
    # rounds 1 and 2 give byes to p5 and then p4; then p1 and p2 withdraw
    for _ in range(2):
        for p in run.state.current.pending():
            run.do(record_result(run.state, p.match_id, p.first, (100, 0), at=5))
    byes = [p.first for r in run.state.rounds for p in r.pairings if p.is_bye]
    others = [p for p in run.state.players if p not in byes]
    for player in others[:2]:
        run.do(withdraw(run.state, player, at=6))
    for p in run.state.current.pending():
        run.do(record_result(run.state, p.match_id, p.first, (100, 0), at=7))
    # three left, all with a bye: no fourth round can be paired
    assert run.state.finish is FinishReason.NO_PAIRING
    assert len(run.state.rounds) == 3


@settings(max_examples=40, deadline=None)
@given(st.data())
def test_whole_tournaments_keep_the_pairing_rules(data):
    # every round of a played-out Swiss, checked against the state it was paired in
    n = data.draw(st.integers(4, 9))
    run = full("swiss", n, rounds=data.draw(st.integers(1, n - 1)))
    play_drawn(data, run)
    state = None
    for event in run.log:
        if isinstance(event, RoundPaired):
            active, games = state.active(), list(state.games())
            paired = [x for p in event.pairings for x in p.players]
            assert sorted(paired) == sorted(active)  # everyone active, once; no one else
            ours = _as_matching(event.pairings)
            assert _legal(ours, games)  # no second bye
            fewest = min(_key(m, active, games)[0] for m in _possible(list(active), games))
            assert _key(ours, active, games)[0] == fewest  # no avoidable repeat
        state = fold(state, event)
    byes = Counter(g.first for g in run.state.games() if g.is_bye)
    assert max(byes.values(), default=0) <= 1


def _history(n: int, rounds: int) -> tuple[list[str], list[Game]]:
    """The ranked active players and the games of a Swiss of n after ``rounds`` rounds."""
    rng = random.Random(n * 100 + rounds)
    run = full("swiss", n, rounds=rounds + 1)
    for _ in range(rounds):
        for p in run.state.current.pending():
            run.do(record_result(run.state, p.match_id, rng.choice(p.players), (100, 50), at=5))
    state = run.state
    return [s.player for s in state.standings() if s.player in set(state.active())], list(
        state.games()
    )


@pytest.mark.parametrize(("n", "rounds"), [(64, 3), (64, 5), (63, 4)])
def test_a_large_round_is_a_verified_maximum_weight_matching(n, rounds):
    # The weights of 64 players reach 2^49: the pairing must still be the exact optimum
    # (rustworkx checks the optimum against the dual solution here).
    ranked, games = _history(n, rounds)
    edges = _edges(ranked, games, all_colours(ranked, games))
    graph = rx.PyGraph(multigraph=False)
    graph.add_nodes_from([None] * (n + n % 2))
    graph.add_edges_from(edges)
    best = rx.max_weight_matching(graph, max_cardinality=True, weight_fn=int, verify_optimum=True)
    weight = {frozenset((u, v)): w for u, v, w in edges}
    index = {p: i for i, p in enumerate(ranked)}
    ours = pair(ranked, games, round_number=rounds + 1)
    assert len(ours) == len(best)
    total = sum(weight[frozenset((index[p.first], index.get(p.second, n)))] for p in ours)
    assert total == sum(weight[frozenset(e)] for e in best)


def test_a_blocked_pair_is_kept_apart_when_another_pairing_exists() -> None:
    # Round one would pair a-c and b-d (top half against bottom half); a blocks c.
    assert [p.players for p in pair(["a", "b", "c", "d"], [], round_number=1)] == [
        ("a", "c"),
        ("b", "d"),
    ]
    apart = [frozenset(("a", "c"))]
    paired = [set(p.players) for p in pair(["a", "b", "c", "d"], [], round_number=1, avoid=apart)]
    assert {"a", "c"} not in paired
    assert sorted(len(p) for p in paired) == [2, 2]


def test_a_blocked_pair_comes_before_a_repeat_and_still_pairs_when_it_must() -> None:
    # a and b have met; a blocks c and d: a meets b again rather than a blocked person.
    games = [Game("a", "b", winner="a"), Game("c", "d", winner="c")]
    avoid = [frozenset(("a", "c")), frozenset(("a", "d"))]
    paired = [
        set(p.players) for p in pair(["a", "c", "b", "d"], games, round_number=2, avoid=avoid)
    ]
    assert {"a", "b"} in paired
    # Two players who block each other are still paired when nobody else is there.
    assert [p.players for p in pair(["a", "b"], [], round_number=1, avoid=[frozenset("ab")])] == [
        ("a", "b")
    ]
