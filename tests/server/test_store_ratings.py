"""A match's rating is settled in the store, in the transaction that ends the match.

Two server instances are two stores on one database (one SQLite file, or one
PostgreSQL schema). Each ends a match of the same two players at the same moment,
round after round: no update may be lost, and the ratings are those of applying
every match in the order the store committed them.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from dataclasses import replace
from pathlib import Path

import pytest

from ginrummy.ratings import Rating, rate_match
from ginrummy.server.store import (
    Event,
    Outcome,
    Player,
    RatedMatch,
    ResultRow,
    RoomRow,
    Store,
    StoreError,
    open_store,
)

from .test_postgres import fresh_schema

# A server, a service or a bench: the system layer (tests/conftest.py).
pytestmark = pytest.mark.system

ROUNDS = 30
ANN, BOB = "p_ann0000000", "p_bob0000000"


@contextlib.asynccontextmanager
async def _opened(url: str) -> AsyncIterator[Store]:
    store = open_store(url)
    await store.open()
    try:
        yield store
    finally:
        await store.close()


@contextlib.asynccontextmanager
async def _two_instances(kind: str, tmp_path: Path) -> AsyncIterator[tuple[Store, Store]]:
    with contextlib.ExitStack() as schema:
        if kind == "postgres":
            url = schema.enter_context(fresh_schema())
        else:
            url = f"sqlite:///{tmp_path / 'shared.sqlite3'}"
        async with _opened(url) as a, _opened(url) as b:
            yield a, b


def _row(room: str, seq: int, player: str, opponent: str, won: bool) -> ResultRow:
    return ResultRow(
        room=room, match_seq=seq, player=player, seat="one" if player == ANN else "two",
        opponent=opponent, bot=None, rated=True, won=won, rounds=1, gins=0,
        undercuts_scored=0, undercuts_suffered=0, points=100 if won else 0,
        margin=100 if won else -100, forfeit=None, rating=None, rd=None, t=float(seq),
    )  # fmt: skip


def _match(room: str, seq: int, ann_won: bool) -> Outcome:
    """Ann against Bob in ``room``, its ``seq``-th match."""
    rows = (_row(room, seq, ANN, BOB, ann_won), _row(room, seq, BOB, ANN, not ann_won))
    return Outcome(rows, RatedMatch(ANN, BOB, 1.0 if ann_won else 0.0))


async def _setup(store: Store) -> None:
    await store.ensure_player("h_ann", Player(ANN, "Ann"))
    await store.ensure_player("h_bob", Player(BOB, "Bob"))
    for room in ("ra", "rb"):
        await store.create_room(RoomRow(room, "room", {}, 1.0), [], [])


def _rating(p: Player) -> Rating:
    return Rating(p.rating, p.rd, p.volatility)


@pytest.mark.parametrize("kind", ["sqlite", "postgres"])
async def test_matches_ending_at_once_on_two_instances_lose_no_rating(
    kind: str, tmp_path: Path
) -> None:
    async with _two_instances(kind, tmp_path) as (a, b):
        await _setup(a)
        for seq in range(1, ROUNDS + 1):
            # Ann wins in room ra (instance a) and loses in room rb (instance b).
            await asyncio.gather(
                a.append_events("ra", [Event(seq, "forfeit", {})], _match("ra", seq, True)),
                b.append_events("rb", [Event(seq, "forfeit", {})], _match("rb", seq, False)),
            )
        ann, bob = await a.player(ANN), await b.player(BOB)
        results = {(r.room, r.match_seq): r for r in await a.results_of(ANN)}
    assert ann is not None and bob is not None
    assert ann.rated_matches == bob.rated_matches == 2 * ROUNDS
    # Replay: each round's two matches in the one order the ratings written agree with.
    one, two = Rating(), Rating()
    for seq in range(1, ROUNDS + 1):
        orders = []
        for first, second in (("ra", "rb"), ("rb", "ra")):
            x1, x2 = rate_match(one, two, 1.0 if first == "ra" else 0.0)
            y1, y2 = rate_match(x1, x2, 1.0 if second == "ra" else 0.0)
            if (results[first, seq].rating, results[second, seq].rating) == (x1.rating, y1.rating):
                orders.append((y1, y2))
        assert len(orders) == 1, f"round {seq}: no commit order gives the ratings written"
        one, two = orders[0]
    assert (_rating(ann), _rating(bob)) == (one, two)


@pytest.fixture(params=["memory", "sqlite", "postgres"])
async def store(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Store]:
    with contextlib.ExitStack() as schema:
        if request.param == "postgres":
            url = schema.enter_context(fresh_schema())
        elif request.param == "sqlite":
            url = f"sqlite:///{tmp_path / 's.sqlite3'}"
        else:
            url = "memory://"
        async with _opened(url) as s:
            yield s


async def test_a_rating_starts_from_what_the_store_holds(store: Store) -> None:
    await _setup(store)
    await store.append_events("ra", [Event(1, "forfeit", {})], _match("ra", 1, True))
    await store.append_events("rb", [Event(1, "forfeit", {})], _match("rb", 1, True))
    first = rate_match(Rating(), Rating(), 1.0)
    second = rate_match(*first, 1.0)
    ann = await store.player(ANN)
    assert ann is not None and (_rating(ann), ann.rated_matches) == (second[0], 2)
    rows = await store.results_of(BOB)
    assert [(r.rating, r.rd) for r in rows] == [(p[1].rating, p[1].rd) for p in (first, second)]


async def test_an_unrated_outcome_changes_no_rating(store: Store) -> None:
    await _setup(store)
    row = replace(_row("ra", 1, ANN, BOB, False), rated=False, forfeit="abandoned")
    await store.append_events("ra", [Event(1, "forfeit", {})], Outcome((row,), None, (ANN,)))
    ann = await store.player(ANN)
    assert ann == Player(ANN, "Ann", abandons=1)
    assert await store.results_of(ANN) == [row]


async def test_an_outcome_of_an_unknown_player_writes_nothing(store: Store) -> None:
    await _setup(store)
    outcome = Outcome((), RatedMatch(ANN, "p_nobody0000", 1.0))
    with pytest.raises(StoreError, match="p_nobody0000"):
        await store.append_events("ra", [Event(1, "forfeit", {})], outcome)
    loaded = await store.load_room("ra")
    assert loaded is not None and loaded.events == ()
    assert await store.player(ANN) == Player(ANN, "Ann")


def test_an_outcome_refuses_rows_that_disagree_with_its_rating() -> None:
    with pytest.raises(ValueError, match="rated"):
        Outcome((_row("ra", 1, ANN, BOB, True),), None)
    with pytest.raises(ValueError, match="two players"):
        RatedMatch(ANN, ANN, 1.0)
    assert Outcome((), RatedMatch(BOB, ANN, 0.5), (BOB,)).player_ids == (ANN, BOB)
