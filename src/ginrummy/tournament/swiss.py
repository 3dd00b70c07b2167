"""Swiss pairing by maximum-weight matching (docs/tournaments.md, pairing weights).

Every allowed pair of active players is an edge of a complete graph; when their number
is odd, a ``BYE`` node joins, linked only to players who have had no bye. networkx's
``max_weight_matching`` with ``maxcardinality=True`` pairs everyone, and each edge's
integer weight is a mixed-radix number whose digits, most significant first, are

1. ``fresh``: 1 if the two have not met yet (a bye edge: 1),
2. ``bye``: for a bye edge, 1 + the player's place in the standings (0 = the leader),
3. ``closeness``: ``D² - (score difference)²`` (a bye edge: ``D²``),
4. ``colour``: how many of the two can be given the first deal they are due (0-2),
5. ``dutch``: in a score group of ``g`` players, ``Q - (2·|place distance| - g)²``, so
   the top half meets the bottom half (other edges: ``Q``).

Each radix exceeds the largest sum its lower digits can reach over one matching, so
the best matching is the lexicographic optimum: fewest repeat pairings; then the bye
to the lowest-ranked player without one; then the least sum of squared score
differences; then the most first deals as due; then Dutch pairing in score groups.

>>> [p.players for p in pair(["a", "b", "c", "d", "e"], [], round_number=1)]
[('a', 'c'), ('b', 'd'), ('e',)]
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import networkx as nx

from ginrummy.tournament.games import Game, Pairing


class _Bye:
    """The bye node of the pairing graph: an object no player id can equal."""

    def __repr__(self) -> str:
        return "BYE"


BYE = _Bye()


def default_rounds(players: int) -> int:
    """ceil(log2(n)) + 1 rounds; never more than n - 1, when every pair would have met."""
    return min(math.ceil(math.log2(players)) + 1, players - 1)


@dataclass(frozen=True, slots=True)
class _Colours:
    """A player's first deals and the one they are due next (None: no preference)."""

    firsts: int
    seconds: int
    due_first: bool | None

    @property
    def imbalance(self) -> int:
        return abs(self.firsts - self.seconds)


def colours(player: str, games: Sequence[Game]) -> _Colours:
    firsts = seconds = 0
    last: bool | None = None
    for game in games:
        if game.is_bye or not game.involves(player):
            continue
        last = game.first == player
        firsts, seconds = firsts + last, seconds + (not last)
    if firsts != seconds:
        return _Colours(firsts, seconds, firsts < seconds)
    return _Colours(firsts, seconds, None if last is None else not last)


def had_bye(player: str, games: Sequence[Game]) -> bool:
    return any(g.is_bye and g.first == player for g in games)


def bye_possible(ranked: Sequence[str], games: Sequence[Game]) -> bool:
    """Whether the active players can be paired: an even number, or someone without a bye."""
    return len(ranked) % 2 == 0 or any(not had_bye(p, games) for p in ranked)


def pair(ranked: Sequence[str], games: Sequence[Game], *, round_number: int) -> tuple[Pairing, ...]:
    """Pairings of the active players ``ranked`` (best first, by the standings) given all
    earlier games; boards follow the better player's place, the bye last. Raises
    ``ValueError`` if the number is odd and everyone has had a bye (see ``bye_possible``)."""
    if not bye_possible(ranked, games):
        raise ValueError("an odd number of players who have all had a bye cannot be paired")
    graph = _graph(ranked, games)
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    if 2 * len(matching) != graph.number_of_nodes():
        raise AssertionError(f"round {round_number}: the complete graph had no perfect matching")
    place = {p: i for i, p in enumerate(ranked)}
    info = {p: colours(p, games) for p in ranked}
    ties: list[tuple[int, str, str | None]] = []
    for u, v in matching:
        if u is BYE or v is BYE:
            ties.append((len(ranked), u if v is BYE else v, None))
            continue
        a, b = sorted((u, v), key=place.__getitem__)
        first, second = _orient(a, b, info)
        ties.append((place[a], first, second))
    ties.sort(key=lambda t: t[0])
    return tuple(Pairing(i + 1, first, second) for i, (_, first, second) in enumerate(ties))


def _graph(ranked: Sequence[str], games: Sequence[Game]) -> nx.Graph:
    met = {frozenset((g.first, g.second)) for g in games if g.second is not None}
    score = dict.fromkeys(ranked, 0)
    for g in games:
        if g.winner in score:
            score[g.winner] += 1
    group = {s: sum(1 for p in ranked if score[p] == s) for s in score.values()}
    info = {p: colours(p, games) for p in ranked}
    n = len(ranked)
    edges = (n + 1) // 2
    d2 = (max(score.values(), default=0) + 1) ** 2
    q = (2 * n) ** 2
    radix_dutch = edges * q + 1
    radix_colour = 2 * edges + 1
    radix_close = edges * d2 + 1
    radix_bye = n + 2

    def weight(fresh: int, bye: int, close: int, colour: int, dutch: int) -> int:
        high = (fresh * radix_bye + bye) * radix_close + close
        return (high * radix_colour + colour) * radix_dutch + dutch

    graph = nx.Graph()
    graph.add_nodes_from(ranked)
    for i, a in enumerate(ranked):
        for j in range(i + 1, n):
            b = ranked[j]
            fresh = int(frozenset((a, b)) not in met)
            close = d2 - (score[a] - score[b]) ** 2
            dutch = q - (2 * (j - i) - group[score[a]]) ** 2 if score[a] == score[b] else q
            colour = _satisfied(*_orient(a, b, info), info)
            graph.add_edge(a, b, weight=weight(fresh, 0, close, colour, dutch))
    if n % 2:
        for i, a in enumerate(ranked):
            if not had_bye(a, games):
                graph.add_edge(a, BYE, weight=weight(1, 1 + i, d2, 2, q))
    return graph


def _satisfied(first: str, second: str, info: dict[str, _Colours]) -> int:
    """How many of the two get the first deal they are due (no preference counts)."""
    return int(info[first].due_first is not False) + int(info[second].due_first is not True)


def _orient(better: str, worse: str, info: dict[str, _Colours]) -> tuple[str, str]:
    """(first, second): whoever is due the first deal gets it; when both are due the
    same, the one further out of balance, then the better-placed player; with no
    preference at all, the better-placed player deals first."""
    a, b = info[better], info[worse]
    if a.due_first is b.due_first:  # both due the same, or neither has played
        favoured_b = b.imbalance > a.imbalance
        b_first = favoured_b if a.due_first is not False else not favoured_b
        return (worse, better) if b_first else (better, worse)
    if a.due_first is True or b.due_first is False:
        return better, worse
    return worse, better
