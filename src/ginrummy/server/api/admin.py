"""The operators' routes (docs/operations.md, "The operators' console"): open reports,
a player's history, the audit log, and actions. Each route asks first whether the
caller is an operator (``not_operator`` for anyone else, a guest or a signed-in
non-operator; ``unauthorized``/``bad_token`` without a valid token)."""

from __future__ import annotations

from typing import ClassVar

from starlette.requests import Request
from starlette.routing import Route

from ginrummy.server.api import callers
from ginrummy.server.api.bodies import Body, read
from ginrummy.server.api.errors import ApiError
from ginrummy.server.api.services import rooms_of
from ginrummy.server.civility.console import Console, Operator, operator_of
from ginrummy.server.responses import JSONResponse
from ginrummy.server.settings import Settings
from ginrummy.server.sockets.revoke import revoke


class ActionBody(Body, frozen=True):
    CODES: ClassVar = {"action": "bad_action", "minutes": "bad_duration"}
    action: str
    target: str
    reason: str
    minutes: int | None = None
    name: str | None = None
    report: str | None = None


async def _operator(request: Request) -> tuple[Operator, Console]:
    identity = await callers.identity(request)
    settings: Settings = request.app.state.settings
    rooms = rooms_of(request)
    civility = rooms.civility
    operator = await operator_of(civility, identity, settings.operators)
    if operator is None:
        raise ApiError("not_operator", "only the site's operators may use the console")

    async def renamed(player_id: str) -> None:  # shown live, as PUT /api/me does
        player = await rooms.store.player(player_id)
        if player is not None:
            rooms.player_changed(player)
            await rooms.lobby_changed(player=player_id)

    return operator, Console(civility, renamed)


async def whoami(request: Request) -> JSONResponse:
    operator, _ = await _operator(request)
    return JSONResponse({"operator": operator.name, "player": operator.player})


async def open_reports(request: Request) -> JSONResponse:
    _, console = await _operator(request)
    return JSONResponse({"reports": await console.open_reports()})


async def history(request: Request) -> JSONResponse:
    _, console = await _operator(request)
    return JSONResponse(await console.history(request.path_params["player_id"]))


async def audit(request: Request) -> JSONResponse:
    _, console = await _operator(request)
    return JSONResponse({"entries": await console.audit()})


async def act(request: Request) -> JSONResponse:
    operator, console = await _operator(request)
    body = await read(request, ActionBody)
    done = await console.act(
        operator, body.action, body.target, body.reason, body.minutes, body.name, body.report
    )
    if done.get("quick_left"):  # the lobby's count of people waiting changed
        await rooms_of(request).queue_changed()
    if body.action == "close":  # every device signed out: their open sockets close
        rooms = rooms_of(request)
        closed = await rooms.store.player_identity(body.target)
        if closed is not None:
            await revoke(rooms.bus, identity=closed)
    return JSONResponse(done)


routes = [
    Route("/api/admin", whoami, methods=["GET"]),
    Route("/api/admin/reports", open_reports, methods=["GET"]),
    Route("/api/admin/players/{player_id}", history, methods=["GET"]),
    Route("/api/admin/audit", audit, methods=["GET"]),
    Route("/api/admin/actions", act, methods=["POST"]),
]
