"""Where a socket's person is, for their friends (docs/accounts.md, "Friends"): a lobby
page, a seat, a room watched, or another page (a page's feed socket). Only an account
has friends, so only an account's sockets are written (``friends.presence``)."""

from __future__ import annotations

import logging
from typing import Any

from ginrummy.server.friends.presence import PresenceBoard
from ginrummy.server.sockets.frames import Connection, Identity
from ginrummy.server.store import StoreError, Whereabouts

log = logging.getLogger("ginrummy.server.sockets")


def _board(conn: Connection) -> PresenceBoard | None:
    friends: Any = getattr(conn.ws.app.state, "friends", None)
    board: PresenceBoard | None = None if friends is None else friends.presence
    return board


async def arrive(conn: Connection, identity: Identity, place: str, room: str | None) -> int | None:
    """Count the socket's person at ``place``; the ticket for ``leave`` (None: not
    counted, a guest or nobody)."""
    board = _board(conn)
    if board is None or identity.token_hash is None or identity.player is None:
        return None
    try:
        if await conn.rooms.store.account_of(identity.token_hash) is None:
            return None
    except StoreError as exc:
        log.warning("cannot tell whether a socket's person is an account: %s", exc)
        return None
    return await board.arrive(identity.player.id, Whereabouts(place, room))


async def leave(conn: Connection, ticket: int | None) -> None:
    board = _board(conn)
    if board is not None and ticket is not None:
        await board.leave(ticket)
