"""Your data: export everything kept about the caller, delete the caller's identity
(docs/protocol.md, "Your data"; docs/accounts.md). Guests and accounts alike; no
request names another person: both act on the caller's own identity."""

from __future__ import annotations

import logging
from typing import ClassVar

from starlette.requests import Request
from starlette.routing import Route

from ginrummy.server.accounts import erased
from ginrummy.server.accounts.yourdata import EVERYTHING, DataError, YourData
from ginrummy.server.api import callers
from ginrummy.server.api.bodies import Body, read
from ginrummy.server.api.errors import ApiError
from ginrummy.server.api.services import rooms_of, tournaments_of
from ginrummy.server.responses import JSONResponse
from ginrummy.server.sockets.revoke import revoke

log = logging.getLogger("ginrummy.server.api")


class Deletion(Body, frozen=True):
    CODES: ClassVar = {"confirm": "not_confirmed"}
    confirm: bool = False  # must be true: the deletion cannot be undone


def your_data(request: Request) -> YourData:
    rooms = rooms_of(request)
    return YourData(rooms.store, rooms.clock.now)


async def export(request: Request) -> JSONResponse:
    who = await callers.caller(request)
    player = await rooms_of(request).player(who.identity)
    document = await your_data(request).export(who.identity, player.id)
    disposition = 'attachment; filename="ginrummy-my-data.json"'
    return JSONResponse(document, headers={"content-disposition": disposition})


async def delete(request: Request) -> JSONResponse:
    who = await callers.caller(request)
    body = await read(request, Deletion)
    if body.confirm is not True:
        raise ApiError("not_confirmed", 'send {"confirm": true}: a deletion cannot be undone')
    rooms = rooms_of(request)
    player = await rooms.player(who.identity)
    joined = await rooms.store.player_tournaments(player.id, EVERYTHING)
    try:
        label = await your_data(request).erase(who.identity, player.id)
    except DataError as exc:
        raise ApiError(exc.code, exc.message) from None
    await revoke(rooms.bus, identity=who.identity)  # its open sockets close
    ids = [t.id for t in joined]
    await erased.forget(rooms, tournaments_of(request), who.identity, player.id, label, ids)
    await erased.tell(rooms, who.identity, player.id, label, ids)  # the other instances
    await rooms.lobby_changed(player=player.id)
    log.info("identity deleted: player %s", player.id)
    return JSONResponse({"deleted": True, "name": label})


routes = [
    Route("/api/me/export", export, methods=["GET"]),
    Route("/api/me/delete", delete, methods=["POST"]),
]
