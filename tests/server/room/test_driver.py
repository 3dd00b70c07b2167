"""The computer driver alone: it reads the room through a snapshot getter and plays
through a command it is given, never the room itself."""

from __future__ import annotations

import asyncio
import random
from dataclasses import dataclass

from ginrummy.engine import (
    MatchState,
    Rules,
    Seat,
    deal,
    legal_actions,
    new_match,
    shuffled_deck,
)
from ginrummy.server.room.driver import ComputerDriver


@dataclass(frozen=True)
class Snap:
    version: int
    match: MatchState | None


def dealt(seed: int) -> MatchState:
    rng = random.Random(seed)
    return deal(new_match(Rules(), Seat.TWO), shuffled_deck(rng))


async def test_the_computer_moves_once_legally_on_the_version_it_read() -> None:
    snap = Snap(7, dealt(1))
    seat = snap.match.turn if snap.match else None
    assert seat is not None
    played: list[tuple[Seat, int, str]] = []

    async def act(who: Seat, version: int, text: str) -> None:
        played.append((who, version, text))

    async def lease() -> None:
        return None

    driver = ComputerDriver(
        "r1", 0.0, random.Random(3), to_move=lambda: (seat, "expert"), current=lambda: snap,
        lease=lease, act=act, moved=lambda: None,
    )  # fmt: skip
    assert driver.schedule() and driver.schedule()  # the second finds it thinking
    assert driver.task is not None
    await asyncio.wait_for(driver.task, 5)
    assert len(played) == 1
    who, version, text = played[0]
    assert (who, version) == (seat, 7)
    assert snap.match is not None and snap.match.round is not None
    assert text in {str(a) for a in legal_actions(snap.match.round)}


async def test_a_room_that_moved_on_while_it_waited_is_read_again() -> None:
    match = dealt(2)
    seat = match.turn
    assert seat is not None
    state = {"snap": Snap(3, match)}
    played: list[int] = []
    gate = asyncio.Event()

    async def lease() -> None:
        await gate.wait()

    async def act(who: Seat, version: int, text: str) -> None:
        played.append(version)

    driver = ComputerDriver(
        "r1", 0.0, random.Random(4), to_move=lambda: (seat, "random"),
        current=lambda: state["snap"], lease=lease, act=act, moved=lambda: None,
    )  # fmt: skip
    driver.schedule()
    await asyncio.sleep(0.01)
    state["snap"] = Snap(4, match)  # a person's message changed the room meanwhile
    gate.set()
    async with asyncio.timeout(5):
        while not played:
            await asyncio.sleep(0.01)
    assert played == [4]  # it thought again on version 4, never played on 3
