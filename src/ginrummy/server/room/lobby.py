"""The lobby of this instance: open public tables, running public matches, the queue.

Every instance keeps the listed rooms loaded and follows the lobby notices of all
instances (a public room's id and version, a renamed player, the queue): it reads what
changed from the store, then tells its own lobby sockets (``news``).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from ginrummy.server.pubsub import Bus, Subscription
from ginrummy.server.pubsub.memory import MemoryBus
from ginrummy.server.room import presenter
from ginrummy.server.room.errors import RoomError
from ginrummy.server.room.room import Room
from ginrummy.server.store import Store, StoreError

if TYPE_CHECKING:
    from ginrummy.server.room.registry import RoomManager

log = logging.getLogger("ginrummy.server.room")

LOBBY_TOPIC = "lobby"
QUICK_LIFETIME = 3  # confirm periods a quick-match waiting entry lives unconfirmed


class Lobby:
    def __init__(self, rooms: RoomManager, store: Store, bus: Bus, quick_confirm: float) -> None:
        self._rooms = rooms
        self._store = store
        self._bus = bus
        self.news = MemoryBus()  # this instance's lobby sockets: the lobby is current
        self.queue_waiting = 0  # people in the quick-match queue, as last counted
        self.quick_confirm = quick_confirm  # seconds between confirmations of waiting entries
        self.quick_stale_after = QUICK_LIFETIME * quick_confirm  # unconfirmed: not waiting
        self.task: asyncio.Task[None] | None = None
        self.generation = 0  # counts the news told to this instance's lobby sockets
        self._message: tuple[int, str] | None = None  # (generation, the lobby frame)

    async def changed(
        self, room: Room | None = None, *, player: str | None = None, queue: bool = False
    ) -> None:
        """Tell every instance's lobby: a public room, a player's name or the queue changed."""
        if room is not None and not room.public:
            return
        notice: dict[str, Any] = {"kind": "lobby"}
        if room is not None:
            notice.update(room=room.id, version=room.current.version)
        if player is not None:
            notice["player"] = player
        if queue:
            notice["queue"] = True
        await self._bus.publish(LOBBY_TOPIC, notice)

    async def count_queue(self) -> None:
        try:
            self.queue_waiting = await self._store.quick_waiting(self.quick_stale_after)
        except StoreError as exc:
            log.warning("cannot count the quick-match queue: %s", exc)

    async def start(self) -> None:
        """Load the listed rooms, then follow the lobby changes made on any instance."""
        sub = self._bus.subscribe(LOBBY_TOPIC)  # first: no change falls in between
        await self._rooms.load_listed()
        await self.count_queue()
        self.task = asyncio.create_task(self._follow(sub))

    async def _follow(self, sub: Subscription) -> None:
        try:
            while True:
                notices = [await sub.get()]
                while not sub.empty():
                    notices.append(await sub.get())
                for notice in notices:
                    try:
                        await self._take(notice)
                    except (RoomError, StoreError) as exc:
                        log.warning("lobby: cannot follow %s: %s", dict(notice), exc)
                    except Exception:  # the follower must outlive one bad notice
                        log.exception("lobby: following %s failed", dict(notice))
                await self.tell()
        finally:
            sub.close()

    async def tell(self) -> None:
        """This instance's lobby sockets: the lobby changed (send it again)."""
        self.generation += 1
        await self.news.publish(LOBBY_TOPIC, {"kind": "lobby"})

    def message(self, make: Callable[[], str]) -> str:
        """The lobby frame as of the last news: made (``make``) once per news for all
        the lobby sockets, not once per socket (each would list every loaded room)."""
        if self._message is None or self._message[0] != self.generation:
            self._message = (self.generation, make())
        return self._message[1]

    async def _take(self, notice: Mapping[str, Any]) -> None:
        if notice.get("kind") == "resync":  # the bus lost notices: look at everything
            await self._rooms.load_listed()
            for listed in [r for r in self._rooms.loaded() if r.public]:
                try:
                    await listed.catch_up()
                except RoomError as exc:
                    log.warning("room %s: cannot catch up after a resync: %s", listed.id, exc)
            await self.count_queue()
            return
        room_id, version = notice.get("room"), notice.get("version")
        if isinstance(room_id, str):
            room = await self._rooms.get(room_id)  # opened on another instance: load it
            if room is not None and isinstance(version, int):
                await room.catch_up(version)  # none to read if a socket has just read it
        player_id = notice.get("player")
        if isinstance(player_id, str):
            fresh = await self._store.player(player_id)
            if fresh is not None:
                self._rooms.player_changed(fresh)
        if notice.get("queue"):
            await self.count_queue()

    def listing(self) -> dict[str, Any]:
        """Open public tables, running public matches, the quick-match queue's length."""
        tables, matches = [], []
        for room in sorted(self._rooms.loaded(), key=lambda r: r.created, reverse=True):
            if not room.listed:
                continue
            if room.status == "waiting":
                if room.open_to_join:  # a table whose host left is not offered
                    tables.append(presenter.lobby_table(room))
            elif (entry := presenter.lobby_match(room)) is not None:
                matches.append(entry)
        return {"tables": tables, "matches": matches, "queue": self.queue_waiting}
