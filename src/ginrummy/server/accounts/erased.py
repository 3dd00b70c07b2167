"""A deleted identity's name is shown anew on every instance (docs/accounts.md, "Your
data").

``POST /api/me/delete`` rewrites the store (the seats' tombstone and anonymous label, the
tournaments' logs) and the answering instance shows the change in what it has loaded
(``forget``). The other instances hear it on the bus's ``erased`` topic:
``{"kind": "erased", "origin": <instance id>, "identity": <identity hash>,
"tombstone": "deleted:<player id>", "label": "Deleted player 7f3a", "player": <player
id>, "tournaments": [<tournament id>...]}``, and each ``Eraser`` does the same with its
own loaded rooms and tournaments. Only the identity's hash travels (as on the
``revoked`` topic), never a token.

A notice lost while the bus was away (Redis down) is not told again: that instance shows
the old name until it reads the room or tournament again (an idle room is unloaded, a
tournament's log is read whole on a restart).
"""

from __future__ import annotations

import logging
from collections.abc import Collection, Mapping
from typing import Any

from ginrummy.server.pubsub import Bus
from ginrummy.server.pubsub.listener import Listener
from ginrummy.server.room.registry import RoomManager
from ginrummy.server.tournaments import TournamentService

log = logging.getLogger("ginrummy.server.accounts")

TOPIC = "erased"


async def forget(
    rooms: RoomManager,
    tournaments: TournamentService,
    identity: str,
    player_id: str,
    label: str,
    joined: Collection[str],
) -> None:
    """Show an erased identity anew in what this instance has loaded: its seats take the
    tombstone and ``label``, its player the store's, ``joined`` tournaments are read
    again."""
    rooms.identity_erased(identity, tombstone(player_id), label)
    erased = await rooms.store.player(player_id)
    if erased is not None:
        rooms.player_changed(erased)
    await tournaments.reread(joined)


def tombstone(player_id: str) -> str:
    """What an erased seat holds instead of an identity."""
    return "deleted:" + player_id


async def tell(
    rooms: RoomManager, identity: str, player_id: str, label: str, joined: Collection[str]
) -> None:
    """Tell the other instances to ``forget`` too."""
    notice = {
        "kind": "erased",
        "origin": rooms.instance_id,
        "identity": identity,
        "tombstone": tombstone(player_id),
        "label": label,
        "player": player_id,
        "tournaments": sorted(set(joined)),
    }
    await rooms.bus.publish(TOPIC, notice)


class Eraser:
    """One instance's ear for the ``erased`` topic (see the module's text)."""

    def __init__(self, rooms: RoomManager, tournaments: TournamentService) -> None:
        self._rooms = rooms
        self._tournaments = tournaments
        self._listener = Listener(TOPIC, self.apply)

    async def apply(self, notice: Mapping[str, Any]) -> bool:
        """Do what an ``erased`` notice of another instance says; whether it did."""
        if notice.get("kind") != "erased" or notice.get("origin") == self._rooms.instance_id:
            return False  # a resync, or this instance's own (done already)
        identity, player, label = notice.get("identity"), notice.get("player"), notice.get("label")
        if not (isinstance(identity, str) and isinstance(player, str) and isinstance(label, str)):
            return False
        if not (identity and player and label):
            return False
        raw = notice.get("tournaments")
        joined = [t for t in raw if isinstance(t, str)] if isinstance(raw, list) else []
        await forget(self._rooms, self._tournaments, identity, player, label, joined)
        return True

    def start(self, bus: Bus) -> None:
        """Hear the bus from now on (subscribed before this returns)."""
        self._listener.start(bus)

    async def close(self) -> None:
        await self._listener.close()
