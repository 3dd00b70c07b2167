"""The lobby's listing and the quick match's queue: enter, poll, leave."""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.routing import Route

from ginrummy.server.api import callers
from ginrummy.server.api.bodies import read
from ginrummy.server.api.rated import require_account
from ginrummy.server.api.services import quick_of, rooms_of
from ginrummy.server.api.tables import TableBody
from ginrummy.server.responses import JSONResponse

QUICK_TIMER = 30  # seconds a move of a quick match may take unless the body says otherwise


async def lobby(request: Request) -> JSONResponse:
    return JSONResponse(lobby_body(request.app.state))


def lobby_body(state: Any) -> dict[str, Any]:
    """The lobby: tables, matches, the queue and the open and running tournaments."""
    return {**state.rooms.lobby(), "tournaments": state.tournaments.lobby()}


async def quick_enter(request: Request) -> JSONResponse:
    identity = await callers.identity(request)
    body = await read(request, TableBody)
    rules = body.rules(QUICK_TIMER)
    await require_account(request, identity)  # the quick match is rated: accounts only
    player = await rooms_of(request).player(identity)
    return JSONResponse(await quick_of(request).enter(identity, player, rules))


async def quick_status(request: Request) -> JSONResponse:
    identity = await callers.identity(request)
    return JSONResponse(await quick_of(request).status(identity))


async def quick_leave(request: Request) -> JSONResponse:
    identity = await callers.identity(request)
    await quick_of(request).leave(identity)
    return JSONResponse({"status": "idle"})


routes = [
    Route("/api/lobby", lobby, methods=["GET"]),
    Route("/api/quick", quick_enter, methods=["POST"]),
    Route("/api/quick", quick_status, methods=["GET"]),
    Route("/api/quick", quick_leave, methods=["DELETE"]),
]
