"""Civility's routes for everyone with an identity (docs/protocol.md, "Civility"):
report a player, block and unblock, and one's own conduct (play bans, chat locks).

The reporter and the blocker are always the caller: no body names them, and the
evidence of a report is gathered by the server (``civility.service``).
"""

from __future__ import annotations

from typing import ClassVar

from starlette.requests import Request
from starlette.routing import Route

from ginrummy.server.api import callers
from ginrummy.server.api.bodies import Body, read
from ginrummy.server.api.services import rooms_of
from ginrummy.server.ratelimit import client_address, of_app
from ginrummy.server.responses import JSONResponse


class ReportBody(Body, frozen=True):
    CODES: ClassVar = {"reason": "bad_reason"}
    player: str
    reason: str
    place: str = "player"  # "table" | "chat" | "player"
    room: str | None = None
    note: str = ""


async def report(request: Request) -> JSONResponse:
    identity = await callers.identity(request)
    body = await read(request, ReportBody)
    of_app(request.app).reports.check(client_address(request))
    rooms = rooms_of(request)
    me = await rooms.player(identity)
    made = await rooms.civility.report(
        me.id, body.player, body.reason, body.place, body.room, body.note
    )
    return JSONResponse({"id": made.id, "status": made.status}, status_code=201)


async def blocks(request: Request) -> JSONResponse:
    rooms = rooms_of(request)
    me = await rooms.player(await callers.identity(request))
    return JSONResponse({"blocked": await rooms.store.blocks_of(me.id)})


async def block(request: Request) -> JSONResponse:
    rooms = rooms_of(request)
    me = await rooms.player(await callers.identity(request))
    await rooms.civility.block(me.id, request.path_params["player_id"])
    return JSONResponse({"blocked": await rooms.store.blocks_of(me.id)})


async def unblock(request: Request) -> JSONResponse:
    rooms = rooms_of(request)
    me = await rooms.player(await callers.identity(request))
    await rooms.civility.unblock(me.id, request.path_params["player_id"])
    return JSONResponse({"blocked": await rooms.store.blocks_of(me.id)})


async def conduct(request: Request) -> JSONResponse:
    rooms = rooms_of(request)
    me = await rooms.player(await callers.identity(request))
    return JSONResponse(await rooms.civility.conduct(me.id))


routes = [
    Route("/api/reports", report, methods=["POST"]),
    Route("/api/me/blocks", blocks, methods=["GET"]),
    Route("/api/me/blocks/{player_id}", block, methods=["PUT"]),
    Route("/api/me/blocks/{player_id}", unblock, methods=["DELETE"]),
    Route("/api/me/conduct", conduct, methods=["GET"]),
]
