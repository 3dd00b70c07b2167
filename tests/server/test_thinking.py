"""Heavy levels think in worker processes: the same decisions as in-process, a bound on
what waits for the pool, dead workers replaced, nothing left behind at shutdown, and
rooms that move while a master thinks."""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import random
import signal
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import asynccontextmanager
from functools import partial
from itertools import islice
from pathlib import Path
from typing import TypeVar

import pytest

from ginrummy.bots import PortableRandom, make_bot
from ginrummy.engine import (
    Action,
    ActionKind,
    MatchPhase,
    Rules,
    Seat,
    SeatView,
    apply_match,
    deal,
    draw_first_dealer,
    legal_actions,
    new_match,
    shuffled_deck,
    view_for_seat,
)
from ginrummy.server.computer import computer_move
from ginrummy.server.metrics import Metrics
from ginrummy.server.room import Room
from ginrummy.server.settings import Settings
from ginrummy.server.thinking import Carried, RngState, ThinkingClosed, ThinkingPool
from ginrummy.server.tournaments.matches import play_computers
from ginrummy.tournament import Entrant, Format, Pairing, Tournament
from ginrummy.tournament import Settings as TournamentSettings

from .room.helpers import manager, two_people
from .thinkers import started

T = TypeVar("T")
WAIT = 60.0  # seconds a test waits for a worker at most: a safety net, never a measure


def views(seed: int) -> Iterator[SeatView]:
    """Every decision of a match between two experts."""
    rng = random.Random(seed)
    expert = make_bot("expert")
    match = new_match(Rules(), draw_first_dealer(rng))
    while not match.is_over:
        if match.phase is MatchPhase.DEAL:
            match = deal(match, shuffled_deck(rng))
            continue
        assert match.turn is not None
        view = view_for_seat(match, match.turn)
        yield view
        match = apply_match(match, expert(view, rng))


def choices(seed: int, count: int) -> list[SeatView]:
    """``count`` views with a real choice, from a match of experts."""
    return list(islice((v for v in views(seed) if len(v.legal_actions) > 1), count))


async def until(check: Callable[[], bool]) -> None:
    """Wait (yielding to the loop) until ``check()`` holds."""
    async with asyncio.timeout(WAIT):
        while not check():
            await asyncio.sleep(0.01)


@asynccontextmanager
async def pool(workers: int = 1, bound: int = 1, **options: object) -> AsyncIterator[ThinkingPool]:
    thinking = ThinkingPool(workers, bound, **options)  # type: ignore[arg-type]
    try:
        yield thinking
    finally:
        await thinking.close()
        # Shutdown leaves no process behind.
        assert multiprocessing.active_children() == []


def gated(folder: Path) -> Callable[[str, SeatView, Carried], tuple[Action, RngState | None]]:
    from .thinkers import gated as work

    return partial(work, str(folder))


def dies(level: str, view: SeatView, carried: Carried) -> tuple[Action, RngState | None]:
    os._exit(3)  # a worker that dies at every decision


async def test_master_in_a_worker_decides_as_in_process_and_moves_the_generator_alike() -> None:
    master = make_bot("master")
    async with pool(bound=2) as thinking:
        for i, view in enumerate(choices(11, 5)):
            for kind in (PortableRandom, random.Random):
                here, there = kind(i), kind(i)
                expected = master(view, here)
                assert await thinking.decide("master", view, there) == expected
                assert there.getstate() == here.getstate()
        assert thinking.restarts == 0


async def test_a_generator_without_state_still_gets_a_legal_decision() -> None:
    view = choices(12, 1)[0]
    async with pool() as thinking:
        action = await thinking.decide("master", view, random.SystemRandom())
    assert action in view.legal_actions


async def test_a_caller_beyond_the_bound_waits_its_turn_and_is_not_dropped(
    tmp_path: Path,
) -> None:
    metrics = Metrics()
    views = choices(13, 3)
    async with pool(bound=1, metrics=metrics, work=gated(tmp_path)) as thinking:
        calls = [
            asyncio.create_task(thinking.decide("master", v, PortableRandom(i)))
            for i, v in enumerate(views)
        ]
        await until(lambda: len(started(tmp_path)) == 1 and thinking.waiting == 2)
        assert thinking.busy == 1 and not any(c.done() for c in calls)
        gauge = metrics.registry.get_sample_value
        assert gauge("ginrummy_thinking_waiting") == 2
        assert gauge("ginrummy_thinking_busy") == 1
        (tmp_path / "gate").touch()
        async with asyncio.timeout(WAIT):
            actions = await asyncio.gather(*calls)
        assert [a in v.legal_actions for a, v in zip(actions, views, strict=True)] == [True] * 3
        assert thinking.waiting == 0 and thinking.busy == 0
        assert gauge("ginrummy_thinking_wait_seconds_count") == 3


async def test_a_worker_killed_mid_decision_is_replaced_and_the_decision_asked_again(
    tmp_path: Path,
) -> None:
    metrics = Metrics()
    view = choices(14, 1)[0]
    expected_rng = PortableRandom(5)
    expected = make_bot("master")(view, expected_rng)
    rng = PortableRandom(5)
    async with pool(metrics=metrics, work=gated(tmp_path)) as thinking:
        call = asyncio.create_task(thinking.decide("master", view, rng))
        await until(lambda: len(started(tmp_path)) == 1)
        (first,) = started(tmp_path)
        os.kill(first, signal.SIGKILL)
        await until(lambda: len(started(tmp_path)) == 2)  # a new worker, the same decision
        (tmp_path / "gate").touch()
        async with asyncio.timeout(WAIT):
            action = await call
    assert action == expected and rng.getstate() == expected_rng.getstate()
    assert thinking.restarts == 1
    assert metrics.registry.get_sample_value("ginrummy_thinking_restarts_total") == 1


async def test_workers_that_keep_dying_give_a_simple_legal_move(
    caplog: pytest.LogCaptureFixture,
) -> None:
    view = choices(15, 1)[0]
    async with pool(work=dies, tries=2) as thinking:
        with caplog.at_level(logging.ERROR, "ginrummy.server"):
            action = await computer_move("master", view, PortableRandom(1), thinker=thinking)
    assert action in view.legal_actions
    assert thinking.restarts == 2
    assert "computer level master failed" in caplog.text


async def test_a_closed_pool_takes_no_decision() -> None:
    view = choices(16, 1)[0]
    async with pool() as thinking:
        await thinking.decide("master", view, PortableRandom(1))
        assert thinking.started
    assert not thinking.started
    with pytest.raises(ThinkingClosed):
        await thinking.decide("master", view, PortableRandom(1))


class Recorder:
    """A thinker that records what it is asked and answers the first legal action."""

    def __init__(self) -> None:
        self.asked: list[str] = []

    async def decide(self, level: str, view: SeatView, rng: random.Random) -> Action:
        self.asked.append(level)
        return view.legal_actions[0]

    async def run(self, what: str, work: Callable[..., T], *args: object) -> T:
        self.asked.append(what)
        return work(*args)


async def test_only_heavy_levels_go_to_the_thinker() -> None:
    view = choices(17, 1)[0]
    thinker = Recorder()
    for level in ("casual", "expert", "random", "master"):
        assert await computer_move(level, view, PortableRandom(2), thinker=thinker) in (
            view.legal_actions
        )
    assert thinker.asked == ["master"]


async def test_a_tournament_match_of_computers_with_a_heavy_level_is_played_in_the_pool() -> None:
    def state(level: str) -> Tournament:
        entrants = (Entrant("c1", "C1", 1500, level), Entrant("c2", "C2", 1500, "random"))
        settings = TournamentSettings("T", Format.KNOCKOUT, 4, target_score=10)
        return Tournament(settings, "h1", 0.0, entrants=entrants)

    pairing = Pairing(1, "c1", "c2", "m1")
    thinker = Recorder()
    light = await play_computers(state("casual"), pairing, thinker)
    assert thinker.asked == [] and light.winner in ("c1", "c2")
    heavy = await play_computers(state("master"), pairing, thinker)
    assert thinker.asked == ["computers' match"] and heavy.winner in ("c1", "c2")


ENDS = (ActionKind.KNOCK, ActionKind.GIN, ActionKind.BIG_GIN)


async def play_on(room: Room) -> None:
    """A legal action of the seat to move that does not end the round (the deals are
    the server's own random: a first legal action could be a knock)."""
    match = room.current.match
    assert match is not None and match.round is not None and match.turn is not None
    legal = legal_actions(match.round)
    action = next((a for a in legal if a.kind not in ENDS), legal[0])
    await room.act(match.turn, room.current.version, str(action))


def in_round(room: Room) -> bool:
    match = room.current.match
    return match is not None and match.phase is MatchPhase.ROUND


def human_turn(room: Room) -> bool:
    match = room.current.match
    return match is not None and match.turn is Seat.ONE


async def test_rooms_move_while_a_master_thinks_in_another(tmp_path: Path) -> None:
    async with (
        pool(bound=2, work=gated(tmp_path)) as thinking,
        manager(thinker=thinking) as rooms,
    ):
        solo = await rooms.create(
            kind="room", rules=Rules(), creator_hash="h1", name="Ann", opponent_bot="master",
            spectators=True,
        )  # fmt: skip
        async with asyncio.timeout(WAIT):
            while not started(tmp_path):  # the person moves until the master thinks
                if human_turn(solo) and not thinking.busy:
                    await play_on(solo)
                await asyncio.sleep(0.01)
        thinking_at = solo.current.version
        # Meanwhile a person's move in another room, and another computer's answer.
        people = await two_people(rooms)
        before = people.current.version
        await play_on(people)
        await play_on(people)
        assert people.current.version == before + 2
        computer_moves = rooms.computer_moves
        casual = await rooms.create(
            kind="room", rules=Rules(), creator_hash="h3", name="Cy", opponent_bot="casual",
            spectators=True,
        )  # fmt: skip
        for _ in range(3):  # the person moves, the casual computer answers
            await until(lambda: human_turn(casual) or not in_round(casual))
            if not human_turn(casual):
                break  # the computer ended the round
            await play_on(casual)
        await until(lambda: rooms.computer_moves > computer_moves)
        # All the while the master has not moved: its worker still thinks.
        assert solo.current.version == thinking_at and thinking.busy == 1
        (tmp_path / "gate").touch()
        await until(lambda: solo.current.version > thinking_at)


def test_the_pool_settings_from_the_environment() -> None:
    s = Settings.from_env({})
    assert s.thinking_workers == max(1, (os.cpu_count() or 1) - 1)
    assert s.thinking_bound == 2 * s.thinking_workers
    s = Settings.from_env({"GINRUMMY_THINKING_WORKERS": "3", "GINRUMMY_THINKING_QUEUE": "5"})
    assert (s.thinking_workers, s.thinking_bound) == (3, 5)
    with pytest.raises(ValueError, match="GINRUMMY_THINKING_WORKERS"):
        Settings.from_env({"GINRUMMY_THINKING_WORKERS": "0"})
