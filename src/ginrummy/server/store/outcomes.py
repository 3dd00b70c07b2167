"""What a match's outcome does to its players: the one pure function every store settles with.

A store calls ``settle`` inside the transaction that appends the match's last event,
with the players' rows as they are there (locked): so the rating update is computed
from what is committed, never from what an instance read earlier.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace

from ginrummy.ratings import Rating, rate_match
from ginrummy.server.store.base import Outcome, Player, ResultRow, StoreError


@dataclass(frozen=True, slots=True)
class Settled:
    """The rows to write for an outcome: whole players (in ``Outcome.player_ids``
    order) and result rows with the rating after the match filled in."""

    players: tuple[Player, ...]
    results: tuple[ResultRow, ...]


def settle(outcome: Outcome, current: Mapping[str, Player]) -> Settled:
    """The players after ``outcome``, given their ``current`` rows (by id).

    ``StoreError`` if one of ``outcome.player_ids`` has no row: a result of nobody.
    """
    missing = [pid for pid in outcome.player_ids if pid not in current]
    if missing:
        raise StoreError(f"the outcome names players the store does not have: {missing}")
    after = {pid: current[pid] for pid in outcome.player_ids}
    if outcome.rated is not None:
        one, two = after[outcome.rated.one], after[outcome.rated.two]
        new_one, new_two = rate_match(_rating(one), _rating(two), outcome.rated.score_one)
        after[one.id] = _rated(one, new_one)
        after[two.id] = _rated(two, new_two)
    for pid in outcome.abandons:
        after[pid] = replace(after[pid], abandons=after[pid].abandons + 1)
    results = tuple(
        replace(r, rating=after[r.player].rating, rd=after[r.player].rd) if r.rated else r
        for r in outcome.results
    )
    return Settled(tuple(after.values()), results)


def _rating(p: Player) -> Rating:
    return Rating(p.rating, p.rd, p.volatility)


def _rated(p: Player, r: Rating) -> Player:
    return replace(
        p, rating=r.rating, rd=r.rd, volatility=r.volatility, rated_matches=p.rated_matches + 1
    )
