"""Quick match: pair two waiting people with the same settings into a public, rated
room (docs/protocol.md, "Lobby").

The queue lives in the store, so every instance pairs from the same one: the store's
``quick_enter`` takes a waiting entry out atomically, so two instances never pair the
same person twice and two people entering at once on two instances find each other.
The pairing instance opens the room and tells the one who waited on the bus topic of
that player, which reaches the lobby socket on whichever instance it is.

A waiting entry lives only while someone waits for it: every ``quick_confirm`` seconds
each instance confirms the entries of the people with a lobby socket open on it. An
entry unconfirmed for QUICK_LIFETIME periods (its instance died, or its last lobby
socket closed everywhere) is stale: never paired, not counted; later it is deleted.
Closing the last lobby socket here makes the entry stale at once, so it lives on only
if another instance still confirms it (a second tab there); an explicit leave deletes.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

from ginrummy.engine import Rules, Seat
from ginrummy.server.room import RoomError, RoomManager
from ginrummy.server.store import Player, QuickEntry, StoreError

log = logging.getLogger("ginrummy.server.quick")

MATCHED_KEPT = 120.0  # seconds a pairing is remembered for GET /api/quick


def player_topic(player_id: str) -> str:
    return f"player:{player_id}"


class QuickMatch:
    """This instance's door to the shared queue: enter, leave, status, lobby sockets."""

    def __init__(self, rooms: RoomManager) -> None:
        self.rooms = rooms
        self.lobby_sockets: dict[str, int] = {}  # hash -> open lobby sockets on this instance
        self._confirm_task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._confirm_task = asyncio.create_task(self._keep_confirming())

    async def close(self) -> None:
        """Stop confirming (the entries waiting here go stale unless confirmed elsewhere)."""
        task, self._confirm_task = self._confirm_task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    async def _keep_confirming(self) -> None:
        while True:
            await asyncio.sleep(self.rooms.quick_confirm)
            try:
                await self.confirm()
            except Exception:  # the next period tries again
                log.exception("quick match: confirming the waiting entries failed")

    async def confirm(self) -> None:
        """Confirm the entries of the people with a lobby socket here, delete the long
        stale ones; if the queue's length changed, tell every lobby."""
        try:
            waiting = await self.rooms.store.quick_confirm(
                list(self.lobby_sockets), self.rooms.quick_stale_after
            )
        except StoreError as exc:
            log.warning("quick match: cannot confirm the waiting entries: %s", exc)
            return
        if waiting != self.rooms.queue_waiting:
            await self.rooms.queue_changed()

    async def enter(self, identity_hash: str, player: Player, rules: Rules) -> dict[str, Any]:
        """Pair with a compatible waiting person, or wait (settings replace old ones);
        ``play_banned`` (civility: a ban or the ladder's lock) and nothing changed."""
        await self.rooms.civility.check_play(player.id)
        now = self.rooms.clock.now()
        entry = QuickEntry(identity_hash, player.id, rules.to_dict(), now)
        other = await self.rooms.store.quick_enter(entry, self.rooms.quick_stale_after)
        if other is None:
            await self.rooms.queue_changed()
            log.info("quick match: a player waits (%d waiting)", self.rooms.queue_waiting)
            return {"status": "waiting", "since": now}
        try:
            host = await self.rooms.player(other.identity_hash)
            room = await self.rooms.create(
                kind="room",
                rules=rules,
                creator_hash=other.identity_hash,
                name=host.name,
                opponent_bot=None,
                spectators=True,
                opponent_name=player.name,
                opponent_hash=identity_hash,
                options={"visibility": "public", "rated": True, "quick": True},
            )
        except (RoomError, StoreError):
            await self._put_back(other)
            raise
        paired = self.rooms.clock.now()
        seats = (
            QuickEntry(other.identity_hash, other.player, other.rules, paired, room.id, "one"),
            QuickEntry(identity_hash, player.id, entry.rules, paired, room.id, "two"),
        )
        try:
            await self.rooms.store.quick_save(seats, paired - MATCHED_KEPT)
        except StoreError as exc:  # only GET /api/quick misses it; the sockets are told
            log.error("room %s: the quick-match pairing was not remembered: %s", room.id, exc)
        notice = {"kind": "matched", "room": room.id, "seat": Seat.ONE.label}
        await self.rooms.bus.publish(player_topic(other.player), notice)
        await self.rooms.queue_changed()
        log.info("room %s: quick match paired two players", room.id)
        return {"status": "matched", "room": room.id, "seat": Seat.TWO.label}

    async def _put_back(self, other: QuickEntry) -> None:
        """The room could not be opened: the person taken out of the queue waits again."""
        try:
            await self.rooms.store.quick_save((other,), self.rooms.clock.now() - MATCHED_KEPT)
        except StoreError as exc:
            log.error("quick match: a waiting player could not be put back: %s", exc)
            return
        await self.rooms.queue_changed()

    async def leave(self, identity_hash: str) -> None:
        if await self.rooms.store.quick_leave(identity_hash):
            await self.rooms.queue_changed()

    async def status(self, identity_hash: str) -> dict[str, Any]:
        entry = await self.rooms.store.quick_entry(identity_hash, self.rooms.quick_stale_after)
        if entry is None:
            return {"status": "idle"}
        if entry.room is None:
            return {"status": "waiting", "since": entry.since}
        if self.rooms.clock.now() - entry.since < MATCHED_KEPT:
            return {"status": "matched", "room": entry.room, "seat": entry.seat}
        return {"status": "idle"}

    def socket_opened(self, identity_hash: str) -> None:
        self.lobby_sockets[identity_hash] = self.lobby_sockets.get(identity_hash, 0) + 1

    async def socket_closed(self, identity_hash: str) -> None:
        """Leaving the lobby page (its last lobby socket here) leaves the queue, unless
        a lobby socket on another instance still confirms the entry."""
        left = self.lobby_sockets.get(identity_hash, 0) - 1
        if left > 0:
            self.lobby_sockets[identity_hash] = left
            return
        self.lobby_sockets.pop(identity_hash, None)
        try:
            released = await self.rooms.store.quick_release(
                identity_hash, self.rooms.quick_stale_after
            )
        except StoreError as exc:  # no longer confirmed here: it goes stale by itself
            log.error("quick match: a player who left the lobby waits on a while: %s", exc)
            return
        if released:
            await self.rooms.queue_changed()
