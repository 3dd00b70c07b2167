"""Swiss standings and their tie-breaks (docs/tournaments.md, tie-breaks).

Players rank by match points (a win or a bye is 1, a loss 0), then Buchholz (the sum of
the match points of every opponent met; a bye adds nothing), then Sonneborn-Berger (the
sum of the match points of every opponent beaten), then head-to-head (wins against the
other players still tied on all of the above), then points scored (game points over all
matches), and last the seed, so that every rank is distinct and reproducible.

>>> games = [Game("a", "b", "a", 100, 30), Game("c", "d", "d", 20, 104),
...          Game("a", "d", "d", 90, 101), Game("b", "c", "b", 120, 15)]
>>> [(s.player, s.match_points, s.buchholz, s.sonneborn_berger) for s in standings("abcd", games)]
[('d', 2, 1, 1), ('a', 1, 3, 1), ('b', 1, 1, 0), ('c', 0, 3, 0)]
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from ginrummy.tournament.games import Game


@dataclass(frozen=True, slots=True)
class Standing:
    rank: int
    player: str
    match_points: int
    buchholz: int
    sonneborn_berger: int
    head_to_head: int  # wins against the players tied with this one on the three before
    points_scored: int
    played: int  # games, byes included


def match_points(players: Iterable[str], games: Sequence[Game]) -> dict[str, int]:
    """Wins and byes of each player."""
    points = dict.fromkeys(players, 0)
    for game in games:
        if game.winner is not None:
            points[game.winner] += 1
    return points


def standings(seeds: Sequence[str], games: Sequence[Game]) -> tuple[Standing, ...]:
    """Every player of ``seeds`` (best seed first), withdrawn ones included, ranked."""
    mp = match_points(seeds, games)
    buchholz = dict.fromkeys(seeds, 0)
    sonneborn = dict.fromkeys(seeds, 0)
    scored = dict.fromkeys(seeds, 0)
    played = dict.fromkeys(seeds, 0)
    for game in games:
        for player in (game.first, game.second):
            if player is None:
                continue
            played[player] += 1
            scored[player] += game.points_of(player)
            opponent = game.opponent(player)
            if opponent is None:
                continue
            buchholz[player] += mp[opponent]
            if game.won(player):
                sonneborn[player] += mp[opponent]
    primary = {p: (mp[p], buchholz[p], sonneborn[p]) for p in seeds}
    h2h = _head_to_head(primary, games)
    seed = {p: i for i, p in enumerate(seeds)}
    order = sorted(seeds, key=lambda p: (*(-v for v in primary[p]), -h2h[p], -scored[p], seed[p]))
    return tuple(
        Standing(i + 1, p, mp[p], buchholz[p], sonneborn[p], h2h[p], scored[p], played[p])
        for i, p in enumerate(order)
    )


def _head_to_head(
    primary: dict[str, tuple[int, int, int]], games: Sequence[Game]
) -> dict[str, int]:
    """Each player's wins against the players with the same primary key as theirs."""
    wins = dict.fromkeys(primary, 0)
    for game in games:
        loser = game.opponent(game.winner) if game.winner is not None else None
        if game.winner is not None and loser is not None and primary[game.winner] == primary[loser]:
            wins[game.winner] += 1
    return wins
