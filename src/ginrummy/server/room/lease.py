"""The lease keeper: one instance at a time runs a room's computer and clocks.

While work is due (a computer to move, a move timer or grace period running) the keeper
takes the room's lease in the store and renews it; once none is left it gives it up.
Another instance may hold it: then it asks again each renewal period, so that the
holder's lease, if that instance dies, runs out into this one (docs/operations.md).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable

from ginrummy.server.store import Store, StoreError

log = logging.getLogger("ginrummy.server.room")


class LeaseKeeper:
    def __init__(
        self,
        room_id: str,
        store: Store,
        instance_id: str,
        ttl: float,
        renew: float,
        work_due: Callable[[], bool],
        taken: Callable[[], Awaitable[bool]],
        monotonic: Callable[[], float] = time.monotonic,
    ) -> None:
        """``taken`` runs when this instance gets the lease (the last holder may have
        written what it has not seen); False: not ready to act under it yet.
        ``monotonic``: the clock a held lease runs out by here (a test's own)."""
        self._now = monotonic
        self._room_id = room_id
        self._store = store
        self._instance_id = instance_id
        self._ttl = ttl
        self._renew = renew
        self._work_due = work_due
        self._taken = taken
        self.task: asyncio.Task[None] | None = None
        self.asked = False  # ever asked: a take may be in flight when the keeper stops
        self._leased = asyncio.Event()  # set while this instance holds the lease
        self._until = 0.0  # when the held lease runs out (monotonic, our own reckoning)

    @property
    def holds(self) -> bool:
        """This instance holds the room's lease: it alone makes the computer's moves and
        ends the move timer and grace periods."""
        return self._leased.is_set() and self._now() < self._until

    @property
    def idle(self) -> bool:
        """No keeper runs (nothing held, nothing asked for)."""
        return self.task is None or self.task.done()

    def want(self) -> None:
        """Keep the lease (or keep trying to take it) while work is due."""
        if self.idle and self._work_due():
            self.asked = True
            self.task = asyncio.create_task(self._keep())

    async def wait(self) -> None:
        """Return once this instance holds the room's lease."""
        while not self.holds:
            self._leased.clear()  # run out unrenewed: the keeper sets it again
            self.want()
            await self._leased.wait()

    async def _keep(self) -> None:
        taken = False
        try:
            while True:
                while self._work_due():
                    taken = await self._take() or taken
                    await asyncio.sleep(self._renew)
                self._leased.clear()
                if taken:
                    taken = False
                    await self.release()
                if not self._work_due():
                    return
        finally:
            self._leased.clear()

    async def _take(self) -> bool:
        asked = self._now()
        try:
            held = await self._store.acquire_lease(self._room_id, self._instance_id, self._ttl)
        except StoreError as exc:
            log.warning("room %s: cannot take or renew its lease: %s", self._room_id, exc)
            return False
        if not held:
            if self._leased.is_set():
                log.warning("room %s: lease lost to another instance", self._room_id)
            self._leased.clear()
            return False
        self._until = asked + self._ttl
        if not self._leased.is_set():
            log.info("room %s: lease taken by instance %s", self._room_id, self._instance_id)
            if await self._taken():
                self._leased.set()
        return True

    async def release(self) -> None:
        """Give the lease up (if held); it runs out by itself if the store is away."""
        try:
            await self._store.release_lease(self._room_id, self._instance_id)
        except StoreError as exc:
            log.warning("room %s: cannot release its lease: %s", self._room_id, exc)
            return
        log.info("room %s: lease released (no computer or clock to run)", self._room_id)
