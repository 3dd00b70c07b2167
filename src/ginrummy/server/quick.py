"""Quick match: pair two waiting people with the same settings into a public, rated
room (docs/protocol.md, "Lobby"). The queue lives in this process."""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from typing import Any

from ginrummy.engine import Rules, Seat
from ginrummy.server.rooms import RoomManager
from ginrummy.server.store import Player

log = logging.getLogger("ginrummy.server.quick")

MATCHED_KEPT = 120.0  # seconds a pairing is remembered for GET /api/quick


def player_topic(player_id: str) -> str:
    return f"player:{player_id}"


@dataclass(frozen=True, slots=True)
class Waiting:
    identity_hash: str
    player: Player
    rules: Rules  # preset and target score, with the move timer
    since: float


class QuickMatch:
    def __init__(self, rooms: RoomManager) -> None:
        self.rooms = rooms
        self.queue: dict[str, Waiting] = {}  # by identity hash, oldest first
        self.matched: dict[str, tuple[str, str, float]] = {}  # hash -> room, seat, when
        self.lobby_sockets: dict[str, int] = {}  # hash -> open lobby sockets
        self._lock = asyncio.Lock()

    def __len__(self) -> int:
        return len(self.queue)

    async def enter(self, identity_hash: str, player: Player, rules: Rules) -> dict[str, Any]:
        """Pair with a compatible waiting person, or wait (settings replace old ones)."""
        async with self._lock:
            self.queue.pop(identity_hash, None)
            self.matched.pop(identity_hash, None)
            other = next(
                (w for w in self.queue.values() if w.rules == rules and w.player.id != player.id),
                None,
            )
            if other is None:
                waiting = Waiting(identity_hash, player, rules, self.rooms.clock.now())
                self.queue[identity_hash] = waiting
                await self.rooms.lobby_changed()
                log.info("quick match: a player waits (%d waiting)", len(self.queue))
                return {"status": "waiting", "since": waiting.since}
            del self.queue[other.identity_hash]
            room = await self.rooms.create(
                kind="room",
                rules=rules,
                creator_hash=other.identity_hash,
                name=other.player.name,
                opponent_bot=None,
                spectators=True,
                opponent_name=player.name,
                opponent_hash=identity_hash,
                options={"visibility": "public", "rated": True, "quick": True},
            )
            now = self.rooms.clock.now()
            self.matched[other.identity_hash] = (room.id, Seat.ONE.label, now)
            self.matched[identity_hash] = (room.id, Seat.TWO.label, now)
            notice = {"kind": "matched", "room": room.id, "seat": Seat.ONE.label}
            await self.rooms.bus.publish(player_topic(other.player.id), notice)
            await self.rooms.lobby_changed()
            return {"status": "matched", "room": room.id, "seat": Seat.TWO.label}

    async def leave(self, identity_hash: str) -> None:
        async with self._lock:
            if self.queue.pop(identity_hash, None) is not None:
                await self.rooms.lobby_changed()

    def status(self, identity_hash: str) -> dict[str, Any]:
        waiting = self.queue.get(identity_hash)
        if waiting is not None:
            return {"status": "waiting", "since": waiting.since}
        matched = self.matched.get(identity_hash)
        if matched is not None and self.rooms.clock.now() - matched[2] < MATCHED_KEPT:
            return {"status": "matched", "room": matched[0], "seat": matched[1]}
        return {"status": "idle"}

    def socket_opened(self, identity_hash: str) -> None:
        self.lobby_sockets[identity_hash] = self.lobby_sockets.get(identity_hash, 0) + 1

    async def socket_closed(self, identity_hash: str) -> None:
        """Leaving the lobby page (its last lobby socket) leaves the queue."""
        left = self.lobby_sockets.get(identity_hash, 0) - 1
        if left > 0:
            self.lobby_sockets[identity_hash] = left
            return
        self.lobby_sockets.pop(identity_hash, None)
        await self.leave(identity_hash)
