"""The log: each accepted action is applied by the engine once; history and catch-up."""

from __future__ import annotations

import pytest

from ginrummy.engine import Seat
from ginrummy.engine import match as engine_match
from ginrummy.server.room import log as room_log
from ginrummy.server.room import replay
from ginrummy.server.room.log import History, Snapshot

from .helpers import manager, play_one, two_people


async def test_an_accepted_action_is_applied_by_the_engine_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    calls = 0
    real = engine_match.apply_round

    def counting(*args: object) -> object:
        nonlocal calls
        calls += 1
        return real(*args)  # type: ignore[arg-type]

    # Every engine application of an action to a round passes here, whoever calls it.
    monkeypatch.setattr(engine_match, "apply_round", counting)
    async with manager() as rooms:
        room = await two_people(rooms)
        before = room.current.version
        await play_one(room)
        assert room.current.version == before + 1
        assert calls == 1  # checked and committed from the same fold


async def test_the_live_state_is_the_replay_of_the_stored_log() -> None:
    async with manager() as rooms:
        room = await two_people(rooms)
        for _ in range(5):
            await play_one(room)
        stored = await rooms.store.load_room(room.id)
        assert stored is not None
        assert replay(stored.events) == room.current


def test_history_keeps_recent_snapshots_in_order() -> None:
    history = History(Snapshot(0, None))
    history.extend([Snapshot(1, None), Snapshot(2, None)])
    assert history.current.version == 2
    assert history.at(1).version == 1
    assert history.at(99) is history.current
    with pytest.raises(ValueError, match="does not follow"):
        history.extend([Snapshot(5, None)])


def test_history_stays_bounded_and_answers_an_old_version_with_the_current() -> None:
    history = History(Snapshot(0, None))
    for version in range(1, 10 * room_log.HISTORY):
        history.extend([Snapshot(version, None)])
    last = 10 * room_log.HISTORY - 1
    oldest = last - room_log.HISTORY + 1
    assert history.at(oldest).version == oldest
    assert history.at(oldest - 1) is history.current
    assert sum(1 for v in range(last + 1) if history.at(v).version == v) == room_log.HISTORY


async def test_catch_up_folds_only_the_news() -> None:
    async with manager() as rooms:
        room = await two_people(rooms)
        start = room.current
        for _ in range(3):
            await play_one(room)
        stored = await rooms.store.load_room(room.id, after=start.version)
        assert stored is not None
        news = room_log.news(start, stored)
        assert [e.seq for e in news.events] == [start.version + 1 + i for i in range(3)]
        assert news.snaps[-1] == room.current
        assert not news.more_than_moves
        assert set(news.seats) == {Seat.ONE, Seat.TWO}
