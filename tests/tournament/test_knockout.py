"""Knockout brackets: complete for every size from 4 to 64, byes to the top seeds."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from ginrummy.tournament import FinishReason, Settings, join
from ginrummy.tournament.knockout import (
    bracket_size,
    first_round,
    keep_apart,
    rounds_for,
    seed_positions,
)
from ginrummy.tournament.state import Phase

from .helpers import better_seed, entrants, full, opened, play_out

SIZES = range(4, 65)


@pytest.mark.parametrize("size", [2, 4, 8, 16, 32, 64])
def test_seed_positions_pair_seeds_that_sum_to_size_plus_one(size):
    order = seed_positions(size)
    assert sorted(order) == list(range(1, size + 1))
    assert all(order[i] + order[i + 1] == size + 1 for i in range(0, size, 2))
    # seeds 1 and 2 sit in different halves, so they can meet only in the final
    assert (order.index(1) < size // 2) != (order.index(2) < size // 2)


def test_seed_positions_of_sixteen_are_the_standard_order():
    assert seed_positions(16) == (1, 16, 8, 9, 4, 13, 5, 12, 2, 15, 7, 10, 3, 14, 6, 11)


@pytest.mark.parametrize("n", SIZES)
def test_first_round_gives_the_byes_to_the_top_seeds(n):
    seeds = [f"p{k}" for k in range(1, n + 1)]
    pairings = first_round(seeds)
    assert len(pairings) == bracket_size(n) // 2
    assert sorted(p for pairing in pairings for p in pairing.players) == sorted(seeds)
    byes = [p.first for p in pairings if p.is_bye]
    assert sorted(byes, key=seeds.index) == seeds[: bracket_size(n) - n]


@pytest.mark.parametrize("n", SIZES)
def test_the_bracket_is_complete_when_the_better_seed_always_wins(n):
    run = full("knockout", n)
    play_out(run, better_seed(run))
    state = run.state
    assert state.phase is Phase.FINISHED and state.finish is FinishReason.COMPLETED
    assert len(state.rounds) == rounds_for(n)
    # each round halves the field; the final is one match between seeds 1 and 2
    assert [len(r.pairings) for r in state.rounds] == [
        bracket_size(n) >> k for k in range(1, rounds_for(n) + 1)
    ]
    assert state.rounds[-1].pairings[0].players == ("p1", "p2")
    assert [p.player for p in state.placings()] == [f"p{k}" for k in range(1, n + 1)]


@pytest.mark.parametrize("n", SIZES)
def test_the_bracket_is_complete_with_random_winners_no_shows_and_withdrawals(n):
    rng = random.Random(n)
    run = full("knockout", n, third_place=True)
    play_out(run, lambda p: rng.choice(p.players), rng)
    state = run.state
    assert state.finish is FinishReason.COMPLETED
    assert len(state.rounds) == rounds_for(n)
    # every main match sends exactly one player on; the champion won every tie
    alive = set(state.players)
    for rnd in state.rounds:
        losers = {
            p
            for pairing, game in rnd.decided()
            if not pairing.third_place
            for p in pairing.players
            if not game.won(p)
        }
        assert losers <= alive
        alive -= losers
    champion = state.placings()[0]
    assert alive == {champion.player}
    final = state.rounds[-1]
    assert [p.third_place for p in final.pairings] == [False, True]
    assert sorted(p.player for p in state.placings()) == sorted(state.players)


def test_without_a_third_place_match_the_final_is_alone():
    run = full("knockout", 8)
    play_out(run, better_seed(run))
    assert [p.players for p in run.state.rounds[-1].pairings] == [("p1", "p2")]


def test_placings_rank_the_third_place_winner_before_its_loser():
    run = full("knockout", 4, third_place=True)
    # semi-finals: p1-p4 and p2-p3; the underdogs win, then p1 beats p2 for third place
    play_out(run, lambda p: "p1" if p.third_place and "p1" in p.players else p.players[-1])
    placings = run.state.placings()
    assert [(p.player, p.reached) for p in placings] == [("p4", 3), ("p3", 2), ("p1", 1), ("p2", 1)]
    assert [p.rank for p in placings] == [1, 2, 3, 4]
    assert [p.place for p in placings] == [1, 2, 3, 4]  # the third-place match decides


def test_without_a_third_place_match_players_out_in_the_same_round_share_a_place():
    run = full("knockout", 8)
    play_out(run, better_seed(run))
    placings = run.state.placings()
    # p1 beat p2 in the final; p3 and p4 lost the semi-finals, p5 to p8 round one
    assert [(p.player, p.place) for p in placings] == [
        ("p1", 1), ("p2", 2), ("p3", 3), ("p4", 3), ("p5", 5), ("p6", 5), ("p7", 5), ("p8", 5),
    ]  # fmt: skip
    assert [p.rank for p in placings] == list(range(1, 9))  # the order stays distinct


def test_a_player_out_after_a_bye_shares_the_place_of_that_round():
    run = full("knockout", 5)  # p1, p2, p3 have byes; p4 beats p5, then p1 beats p4
    play_out(run, better_seed(run))
    assert [(p.player, p.reached, p.place) for p in run.state.placings()] == [
        ("p1", 4, 1), ("p2", 3, 2), ("p3", 2, 3), ("p4", 2, 3), ("p5", 1, 5),
    ]  # fmt: skip


def test_a_withdrawn_winner_gives_the_next_opponent_a_walkover():
    from ginrummy.tournament import ResultReason, record_result, withdraw

    run = full("knockout", 8)
    first = run.state.current.pairings
    run.do(record_result(run.state, first[0].match_id, "p1", (100, 20), at=5))
    run.do(withdraw(run.state, "p1", at=6))  # p1 already won round one
    for pairing in run.state.current.pending():
        run.do(record_result(run.state, pairing.match_id, pairing.first, (100, 0), at=7))
    semi = run.state.rounds[1]
    result = semi.result_of(semi.pairings[0].match_id)
    assert semi.pairings[0].players == ("p1", "p4")
    assert result.winner == "p4" and result.reason is ResultReason.WITHDRAWAL
    assert result.absent == ("p1",)


def test_settings_refuse_knockout_rounds():
    from ginrummy.tournament import ErrorCode, TournamentError

    with pytest.raises(TournamentError) as err:
        Settings("Cup", "knockout", 8, rounds=3)
    assert err.value.code is ErrorCode.BAD_SETTINGS


def _boards(pairings):
    return [frozenset(p.players) for p in pairings]


def test_a_blocked_first_round_pair_is_parted_by_one_swap_of_the_nearest_seeds():
    seeds = [f"p{k}" for k in range(1, 9)]
    plain = _boards(first_round(seeds))
    parted = _boards(first_round(seeds, [frozenset(("p1", "p8"))]))
    assert frozenset(("p1", "p8")) not in parted
    # seeds 8 and 7 change places, the top seeds and every other board stay
    assert parted == [
        frozenset(("p1", "p7"))
        if b == frozenset(("p1", "p8"))
        else frozenset(("p2", "p8"))
        if b == frozenset(("p2", "p7"))
        else b
        for b in plain
    ]
    # the better seed still deals first
    firsts = first_round(seeds, [frozenset(("p1", "p8"))])
    assert all(p.first == min(p.players, key=seeds.index) for p in firsts)


def test_a_bye_is_not_a_blocked_pair_and_stays_with_the_top_seeds():
    seeds = ["a", "b", "c", "d", "e"]  # a, b, c have byes; d meets e
    pairings = first_round(seeds, [frozenset("de"), frozenset("ab")])
    assert frozenset("de") not in _boards(pairings)
    assert [len(p.players) for p in pairings] == [1, 2, 1, 1]
    assert pairings[0].players == ("a",)


def test_with_no_other_arrangement_the_bracket_stays_as_seeded():
    everyone = [frozenset(("a", x)) for x in "bcd"]
    assert first_round("abcd", everyone) == first_round("abcd")


@pytest.mark.parametrize("n", SIZES)
def test_parting_blocked_pairs_keeps_the_bracket_and_never_adds_a_blocked_board(n):
    rng = random.Random(n)
    seeds = [f"p{k}" for k in range(1, n + 1)]
    standard = seed_positions(bracket_size(n))
    for _ in range(5):
        avoid = frozenset(frozenset(rng.sample(seeds, 2)) for _ in range(rng.randint(1, n // 2)))
        order = keep_apart(standard, n, seeds, avoid)
        assert sorted(order) == sorted(standard)
        assert [s > n for s in order] == [s > n for s in standard]  # byes keep their places

        def blocked(slots, avoid=avoid):
            pairs = (slots[i : i + 2] for i in range(0, len(slots), 2))
            return sum(max(p) <= n and frozenset(seeds[s - 1] for s in p) in avoid for p in pairs)

        assert blocked(order) <= blocked(standard)
        if len(avoid) == 1:  # one pair can always be parted (four players at least)
            assert blocked(order) == 0


def test_the_tournament_starts_its_knockout_with_blocked_pairs_apart():
    run = opened(Settings("Cup", "knockout", 4))
    people = entrants(4)
    for entrant in people[:3]:
        run.do(join(run.state, entrant, at=1))
    run.state = replace(run.state, apart=frozenset([frozenset(("p1", "p4"))]))
    run.do(join(run.state, people[3], at=1))
    assert run.state.phase is Phase.RUNNING
    assert _boards(run.state.rounds[0].pairings) == [
        frozenset(("p1", "p3")),
        frozenset(("p2", "p4")),
    ]
