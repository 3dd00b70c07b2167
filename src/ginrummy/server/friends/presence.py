"""Where this instance's people are, written to the store for every instance to read.

Every socket of a person tells ``arrive`` where it is (the lobby, a seat, a room
watched, another page) and ``leave`` when it closes. The place shown of a person's
sockets here (``friends.best_place``) is written when it changes, and renewed every
``interval_s`` while they stay; a place not renewed within ``LIFETIME`` intervals (a
dead instance) no longer counts. A change is told to ``changed`` (the person's friends).
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
from collections.abc import Awaitable, Callable

from ginrummy.server.store import Store, StoreError, Whereabouts
from ginrummy.server.store.friends import best_place

log = logging.getLogger("ginrummy.server.friends")

LIFETIME = 3  # renewal intervals a place lives unrenewed


class PresenceBoard:
    """This instance's sockets' places, by player."""

    def __init__(
        self,
        store: Store,
        instance_id: str,
        interval_s: float,
        changed: Callable[[str], Awaitable[None]],
    ) -> None:
        self._store = store
        self._instance = instance_id
        self.interval_s = interval_s
        self._changed = changed
        self._tickets = itertools.count(1)
        self._here: dict[int, tuple[str, Whereabouts]] = {}
        self._shown: dict[str, Whereabouts] = {}  # as written to the store
        self._task: asyncio.Task[None] | None = None

    @property
    def fresh_s(self) -> float:
        """How long a written place counts unrenewed."""
        return LIFETIME * self.interval_s

    def shown(self, player: str) -> Whereabouts | None:
        """Where ``player`` is as this instance last wrote it."""
        return self._shown.get(player)

    async def arrive(self, player: str, where: Whereabouts) -> int:
        """A socket of ``player`` is at ``where``; the ticket its ``leave`` gives back."""
        ticket = next(self._tickets)
        self._here[ticket] = (player, where)
        await self._settle(player)
        return ticket

    async def leave(self, ticket: int) -> None:
        found = self._here.pop(ticket, None)
        if found is not None:
            await self._settle(found[0])

    async def _settle(self, player: str) -> None:
        best = best_place([w for p, w in self._here.values() if p == player])
        if best == self._shown.get(player):
            return
        try:
            await self._store.put_whereabouts(self._instance, player, best)
        except StoreError as exc:  # the next renewal or change writes it
            log.warning("cannot write where a player is: %s", exc)
            return
        if best is None:
            self._shown.pop(player, None)
        else:
            self._shown[player] = best
        try:
            await self._changed(player)
        except StoreError as exc:
            log.warning("cannot tell a player's friends where they are: %s", exc)

    def start(self) -> None:
        self._task = asyncio.create_task(self._keep_renewing())

    async def _keep_renewing(self) -> None:
        while True:
            await asyncio.sleep(self.interval_s)
            try:
                await self._store.renew_whereabouts(self._instance, list(self._shown))
            except StoreError as exc:
                log.warning("cannot renew where players are: %s", exc)

    async def close(self) -> None:
        """Stop renewing and take this instance's places out of the store."""
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        for player in list(self._shown):
            with contextlib.suppress(StoreError):
                await self._store.put_whereabouts(self._instance, player, None)
        self._shown.clear()
        self._here.clear()
