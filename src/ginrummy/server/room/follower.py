"""A loaded room follows its topic, socket or not: what other instances write (it may
hold the lease) and their presence (it may run the grace periods)."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from ginrummy.server.pubsub import Subscription
from ginrummy.server.room.errors import RoomError

if TYPE_CHECKING:
    from ginrummy.server.room.base import RoomBase

log = logging.getLogger("ginrummy.server.room")


async def follow(room: RoomBase[Any, Any, Any], sub: Subscription) -> None:
    """Take in the room's notices until cancelled; closes ``sub`` at the end."""
    try:
        while True:
            notice = await sub.get()
            kind, told = notice.get("kind"), notice.get("version")
            if kind in ("chat", "resync"):
                room.chat.heard()  # before any wait: ``RoomBase.told`` relies on it
            if kind == "resync" or isinstance(told, int):
                # Written elsewhere (or the bus lost notices: read whatever the log
                # holds). Nothing is read if a socket of the room already has it.
                try:
                    await room.catch_up(None if kind == "resync" else told, room.carried(notice))
                except RoomError as exc:
                    log.warning("room %s: cannot follow a notice: %s", room.id, exc.message)
            if kind != "presence":
                continue
            room.take_presence(notice)
            await room.presence_changed()
            news = not notice.get("renew") and notice.get("instance") != room.ctx.instance_id
            if news and room.has_sockets:
                # Answer at once: the teller may have just loaded the room.
                await room.ctx.bus.publish(room.topic, room.presence_notice(None, renew=True))
    finally:
        sub.close()
