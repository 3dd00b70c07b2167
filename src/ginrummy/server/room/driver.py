"""The computer player's driver: when it is a computer's turn, think (in a worker
thread, or a heavy level in the thinker's worker processes) and play the move through
the room's master like a person would."""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Awaitable, Callable
from typing import Protocol

from ginrummy.bots import PortableRandom
from ginrummy.engine import MatchState, Seat, view_for_seat
from ginrummy.server.computer import DEFAULT_LEVEL, Thinker, computer_move
from ginrummy.server.metrics import Metrics
from ginrummy.server.room.errors import RoomError

log = logging.getLogger("ginrummy.server.room")


class Moving(Protocol):
    """What the driver reads of a room's state: its version and the match played (a
    two-player room's snapshot, or a chouette room's: box and captain)."""

    @property
    def version(self) -> int: ...

    @property
    def match(self) -> MatchState | None: ...


class ComputerDriver:
    def __init__(
        self,
        room_id: str,
        delay: float,
        rng: random.Random,
        *,
        to_move: Callable[[], tuple[Seat, str | None] | None],
        current: Callable[[], Moving],
        lease: Callable[[], Awaitable[None]],
        act: Callable[[Seat, int, str], Awaitable[None]],
        moved: Callable[[], None],
        metrics: Metrics | None = None,
        thinker: Thinker | None = None,
    ) -> None:
        """``to_move``: the computer seat to move and its level, if any; ``lease``:
        returns once this instance may move; ``act``: plays through the master;
        ``moved``: counts a move made here; ``metrics``: its decision times;
        ``thinker``: where a heavy level thinks."""
        self._room_id = room_id
        self._delay = delay
        self._rng = PortableRandom(rng.getrandbits(64))  # the bots' portable source
        self._to_move = to_move
        self._current = current
        self._lease = lease
        self._act = act
        self._moved = moved
        self._metrics = metrics
        self._thinker = thinker
        self.task: asyncio.Task[None] | None = None

    @property
    def thinking(self) -> bool:
        return self.task is not None and not self.task.done()

    def schedule(self) -> bool:
        """Start the computer's move if it is its turn and it is not already thinking;
        True if a move is (or was already) on its way."""
        if self.thinking:
            return True
        turn = self._to_move()
        if turn is None:
            return False
        self.task = asyncio.create_task(self._turn(turn[0], turn[1], self._current().version))
        return True

    async def _turn(self, seat: Seat, level: str | None, version: int) -> None:
        try:
            await asyncio.sleep(self._delay)
            await self._lease()
            snap = self._current()
            if snap.version != version or snap.match is None:
                # Something else changed the room meanwhile: think again about the new state.
                self.task = None
                self.schedule()
                return
            view = view_for_seat(snap.match, seat)
            action = await computer_move(
                level or DEFAULT_LEVEL, view, self._rng, self._metrics, self._thinker
            )
            self.task = None  # so that the move just made may schedule the next one
            self._moved()
            await self._act(seat, version, str(action))
        except RoomError as exc:
            log.warning(
                "room %s: computer move refused: %s %s", self._room_id, exc.code, exc.message
            )
        except Exception:
            log.exception("room %s: computer player failed", self._room_id)
