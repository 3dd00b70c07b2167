"""Knockout brackets: seeding by rating, byes for the top seeds, winners advance
(docs/tournaments.md, knockout).

Seed 1 is the best-rated player. The bracket has the next power of two places; the
places past the last seed are byes, and the standard order puts them against the top
seeds. Round ``r + 1`` pairs the winners of boards ``2i`` and ``2i + 1`` of round ``r``,
so seeds 1 and 2 can meet only in the final.

Two people of whom one blocks the other (``avoid``, docs/accounts.md) are kept apart in
round one where another arrangement exists: the fewest changes of places that part
every such pair, each the swap of two players nearest in seed (``keep_apart``).

>>> seed_positions(8)
(1, 8, 4, 5, 2, 7, 3, 6)
>>> [p.players for p in first_round(["a", "b", "c", "d", "e"])]
[('a',), ('d', 'e'), ('b',), ('c',)]
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

from ginrummy.tournament.games import Game, Pairing

MIN_PLAYERS = 4
MAX_PLAYERS = 64


def bracket_size(players: int) -> int:
    """The next power of two at or above ``players``."""
    return 1 << (players - 1).bit_length()


def rounds_for(players: int) -> int:
    """Rounds of the main bracket: the final is round ``rounds_for(n)``."""
    return bracket_size(players).bit_length() - 1


def seed_positions(size: int) -> tuple[int, ...]:
    """Seed numbers (1-based) in bracket order: each pair of neighbours meets in round
    one and the seeds of every pair sum to ``size + 1``."""
    order = [1]
    while len(order) < size:
        mirror = 2 * len(order) + 1
        order = [s for seed in order for s in (seed, mirror - seed)]
    return tuple(order)


def first_round(
    seeds: Sequence[str], avoid: Collection[frozenset[str]] = ()
) -> tuple[Pairing, ...]:
    """Round one for players in seed order; a seed past the field is a bye for its
    neighbour, and the better seed deals first. ``avoid``: pairs kept apart where
    another arrangement exists (``keep_apart``)."""
    n = len(seeds)
    positions = keep_apart(seed_positions(bracket_size(n)), n, seeds, frozenset(avoid))
    pairings = []
    for board in range(len(positions) // 2):
        top, bottom = sorted(positions[2 * board : 2 * board + 2])
        second = seeds[bottom - 1] if bottom <= n else None
        pairings.append(Pairing(board + 1, seeds[top - 1], second))
    return tuple(pairings)


def keep_apart(
    positions: Sequence[int], n: int, seeds: Sequence[str], avoid: frozenset[frozenset[str]]
) -> tuple[int, ...]:
    """``positions`` (seed numbers in bracket order; past ``n``: byes) with blocked pairs
    parted: while a board pairs two of ``avoid``, the swap of two players' places that
    leaves the fewest such boards is made: of those, the one of the two seeds nearest each
    other, then of the weaker seeds (the top seeds keep their places and byes where they
    can), then the first places, so the choice is fixed. It stops when no swap leaves
    fewer. Byes stay where they are.

    >>> keep_apart((1, 4, 2, 3), 4, "abcd", frozenset([frozenset("ad")]))
    (1, 3, 2, 4)
    >>> keep_apart((1, 4, 2, 3), 4, "abcd", frozenset([frozenset("ad"), frozenset("ac")]))
    (1, 2, 4, 3)
    >>> keep_apart((1, 4, 2, 3), 4, "abcd", frozenset([frozenset("ab"), frozenset("ac"),
    ...                                                frozenset("ad")]))
    (1, 4, 2, 3)
    """
    order = list(positions)
    if not avoid:
        return tuple(order)

    def blocked(slots: Sequence[int]) -> int:
        boards = (slots[i : i + 2] for i in range(0, len(slots), 2))
        return sum(
            max(pair) <= n and frozenset(seeds[s - 1] for s in pair) in avoid for pair in boards
        )

    now = blocked(order)
    people = [i for i, s in enumerate(order) if s <= n]
    while now:
        best: tuple[int, int, int, int, int] | None = None
        for x, i in enumerate(people):
            for j in people[x + 1 :]:
                if i // 2 == j // 2:
                    continue  # the same board: no change
                order[i], order[j] = order[j], order[i]
                key = (blocked(order), abs(order[i] - order[j]), -min(order[i], order[j]), i, j)
                order[i], order[j] = order[j], order[i]
                if best is None or key < best:
                    best = key
        if best is None or best[0] >= now:
            break  # no arrangement reachable by a swap parts more pairs
        now, _, _, i, j = best
        order[i], order[j] = order[j], order[i]
    return tuple(order)


def next_round(
    previous: Sequence[Pairing],
    winners: Mapping[int, str],
    seeds: Sequence[str],
    *,
    third_place: bool,
) -> tuple[Pairing, ...]:
    """The round after ``previous`` (its main boards), given the winner of each of its
    boards (a bye's winner is its player). After the semi-finals, the losers meet for
    third place when ``third_place`` is on. Empty after the final."""
    main = [p for p in previous if not p.third_place]
    if len(main) < 2:
        return ()
    rank = {player: i for i, player in enumerate(seeds)}
    pairings = []
    for board in range(len(main) // 2):
        a, b = winners[main[2 * board].board], winners[main[2 * board + 1].board]
        first, second = sorted((a, b), key=rank.__getitem__)  # the better seed deals first
        pairings.append(Pairing(board + 1, first, second))
    if third_place and len(main) == 2:
        losers = [_loser(p, winners[p.board]) for p in main]
        first, second = sorted(losers, key=rank.__getitem__)
        pairings.append(Pairing(2, first, second, third_place=True))
    return tuple(pairings)


def _loser(pairing: Pairing, winner: str) -> str:
    # semi-finals are never byes: fewer than half the bracket's places are byes
    assert pairing.second is not None, "a semi-final is a bye"
    return pairing.second if winner == pairing.first else pairing.first


@dataclass(frozen=True, slots=True)
class Placing:
    """A player's place: ``reached`` is the round they lost in (the rounds plus one for
    the champion). ``rank`` orders the field (ties in the same round go to the better
    seed); ``place`` is what the player finished, shared by everyone who went out in
    the same round (both losing semi-finalists are third without a third-place match,
    the four losing quarter-finalists fifth)."""

    rank: int
    place: int
    player: str
    reached: int
    wins: int
    points_scored: int


def placings(
    rounds: Sequence[Sequence[tuple[Pairing, Game]]], seeds: Sequence[str]
) -> tuple[Placing, ...]:
    """Places after the rounds played so far: the champion, the finalist, the third-place
    winner before its loser, then by the round each player went out in.

    >>> from ginrummy.tournament.games import Game
    >>> semis = [(Pairing(1, "a", "d"), Game("a", "d", "a", 100, 40)),
    ...          (Pairing(2, "b", "c"), Game("b", "c", "c", 80, 100))]
    >>> final = [(Pairing(1, "a", "c"), Game("a", "c", "a", 100, 90))]
    >>> [(p.place, p.player) for p in placings([semis, final], "abcd")]
    [(1, 'a'), (2, 'c'), (3, 'b'), (3, 'd')]
    """
    reached = dict.fromkeys(seeds, len(rounds) + 1)
    third = dict.fromkeys(seeds, 0)
    wins = dict.fromkeys(seeds, 0)
    scored = dict.fromkeys(seeds, 0)
    for number, played in enumerate(rounds, start=1):
        for pairing, game in played:
            if pairing.is_bye:
                continue  # a bye advances without a win
            for player in pairing.players:
                scored[player] += game.points_of(player)
                if game.won(player):
                    wins[player] += 1
                    if pairing.third_place:
                        third[player] = -1  # third place before fourth
                elif not pairing.third_place:
                    reached[player] = number
    rank = {player: i for i, player in enumerate(seeds)}
    out = {p: (-reached[p], third[p]) for p in seeds}  # how far each got: less is further
    order = sorted(seeds, key=lambda p: (*out[p], rank[p]))
    place = {p: 1 + sum(out[q] < out[p] for q in seeds) for p in seeds}
    return tuple(
        Placing(i + 1, place[p], p, reached[p], wins[p], scored[p]) for i, p in enumerate(order)
    )
