"""Swiss pairing by maximum-weight matching (docs/tournaments.md, pairing weights).

Every allowed pair of active players is an edge of a complete graph; when their number
is odd, a bye node joins, linked only to players who have had no bye. rustworkx's
``max_weight_matching`` with ``max_cardinality=True`` (exact, as networkx's, of which it
is a port, but compiled: a round of 64 in a few milliseconds rather than a tenth of a
second) pairs everyone, and each edge's integer weight is a mixed-radix number whose
digits, most significant first, are

0. ``apart``: 0 if one of the two blocks the other (``avoid``), else 1 (a bye edge: 1),
   so a blocked pair is seated together only when no other pairing is possible,
1. ``fresh``: 1 if the two have not met yet (a bye edge: 1),
2. ``bye``: for a bye edge, 1 + the player's place in the standings (0 = the leader),
3. ``closeness``: ``D² - (score difference)²`` (a bye edge: ``D²``),
4. ``colour``: how many of the two can be given the first deal they are due (0-2),
5. ``dutch``: in a score group of ``g`` players, ``Q - (2·|place distance| - g)²``, so
   the top half meets the bottom half (other edges: ``Q``).

Each radix exceeds the largest sum its lower digits can reach over one matching, so
the best matching is the lexicographic optimum: fewest blocked pairs; then fewest repeat
pairings; then the bye
to the lowest-ranked player without one; then the least sum of squared score
differences; then the most first deals as due; then Dutch pairing in score groups.

>>> [p.players for p in pair(["a", "b", "c", "d", "e"], [], round_number=1)]
[('a', 'c'), ('b', 'd'), ('e',)]
"""

from __future__ import annotations

import math
from collections.abc import Collection, Sequence
from dataclasses import dataclass

import rustworkx as rx

from ginrummy.tournament.games import Game, Pairing

Edge = tuple[int, int, int]  # (node, node, weight); node i < n is ranked[i], n the bye


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


def all_colours(players: Sequence[str], games: Sequence[Game]) -> dict[str, _Colours]:
    """``colours`` of every one of ``players``, in one pass over the games."""
    firsts = dict.fromkeys(players, 0)
    seconds = dict.fromkeys(players, 0)
    last: dict[str, bool] = {}
    for game in games:
        if game.second is None:  # a bye: no deal
            continue
        for player, dealt in ((game.first, True), (game.second, False)):
            if player in firsts:
                firsts[player] += dealt
                seconds[player] += not dealt
                last[player] = dealt
    return {p: _colours(firsts[p], seconds[p], last.get(p)) for p in players}


def _colours(firsts: int, seconds: int, last: bool | None) -> _Colours:
    if firsts != seconds:
        return _Colours(firsts, seconds, firsts < seconds)
    return _Colours(firsts, seconds, None if last is None else not last)


def had_bye(player: str, games: Sequence[Game]) -> bool:
    return any(g.is_bye and g.first == player for g in games)


def bye_possible(ranked: Sequence[str], games: Sequence[Game]) -> bool:
    """Whether the active players can be paired: an even number, or someone without a bye."""
    return len(ranked) % 2 == 0 or any(not had_bye(p, games) for p in ranked)


def pair(
    ranked: Sequence[str],
    games: Sequence[Game],
    *,
    round_number: int,
    avoid: Collection[frozenset[str]] = (),
) -> tuple[Pairing, ...]:
    """Pairings of the active players ``ranked`` (best first, by the standings) given all
    earlier games; boards follow the better player's place, the bye last. ``avoid``: the
    pairs kept apart where another pairing exists (a block, docs/accounts.md). Raises
    ``ValueError`` if the number is odd and everyone has had a bye (see ``bye_possible``)."""
    if not bye_possible(ranked, games):
        raise ValueError("an odd number of players who have all had a bye cannot be paired")
    n = len(ranked)
    info = all_colours(ranked, games)
    graph: rx.PyGraph[None, int] = rx.PyGraph(multigraph=False)
    graph.add_nodes_from([None] * (n + n % 2))
    graph.add_edges_from(_edges(ranked, games, info, frozenset(avoid)))
    matching = rx.max_weight_matching(graph, max_cardinality=True, weight_fn=int)
    if 2 * len(matching) != graph.num_nodes():
        raise AssertionError(f"round {round_number}: the complete graph had no perfect matching")
    ties: list[tuple[int, str, str | None]] = []
    for u, v in matching:
        a, b = min(u, v), max(u, v)  # a is the better-placed (b == n: the bye)
        if b == n:
            ties.append((n, ranked[a], None))
            continue
        first, second = _orient(ranked[a], ranked[b], info)
        ties.append((a, first, second))
    ties.sort(key=lambda t: t[0])
    return tuple(Pairing(i + 1, first, second) for i, (_, first, second) in enumerate(ties))


def _edges(
    ranked: Sequence[str],
    games: Sequence[Game],
    info: dict[str, _Colours],
    avoid: frozenset[frozenset[str]] = frozenset(),
) -> list[Edge]:
    """Every allowed pair of the complete graph with its weight (module docstring)."""
    met = {(g.first, g.second) for g in games if g.second is not None}
    met |= {(b, a) for a, b in met}
    score = dict.fromkeys(ranked, 0)
    for g in games:
        if g.winner in score:
            score[g.winner] += 1
    group = {s: sum(1 for p in ranked if score[p] == s) for s in score.values()}
    n = len(ranked)
    edges = (n + 1) // 2
    d2 = (max(score.values(), default=0) + 1) ** 2
    q = (2 * n) ** 2
    radix_dutch = edges * q + 1
    radix_colour = 2 * edges + 1
    radix_close = edges * d2 + 1
    radix_bye = n + 2
    radix_fresh = 2 * edges + 1  # the sum of ``fresh`` over a matching is at most ``edges``

    def weight(fresh: int, bye: int, close: int, colour: int, dutch: int, apart: int = 1) -> int:
        high = ((apart * radix_fresh + fresh) * radix_bye + bye) * radix_close + close
        return (high * radix_colour + colour) * radix_dutch + dutch

    out: list[Edge] = []
    for i, a in enumerate(ranked):
        for j in range(i + 1, n):
            b = ranked[j]
            fresh = int((a, b) not in met)
            close = d2 - (score[a] - score[b]) ** 2
            dutch = q - (2 * (j - i) - group[score[a]]) ** 2 if score[a] == score[b] else q
            colour = _satisfied(*_orient(a, b, info), info)
            apart = int(frozenset((a, b)) not in avoid)
            out.append((i, j, weight(fresh, 0, close, colour, dutch, apart)))
    if n % 2:
        byes = {g.first for g in games if g.is_bye}
        for i, a in enumerate(ranked):
            if a not in byes:
                out.append((i, n, weight(1, 1 + i, d2, 2, q)))
    return out


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
