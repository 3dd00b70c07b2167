"""The tournaments' HTTP API (docs/protocol.md, Tournaments): create, read, join,
leave, start, withdraw. The core's error codes keep their names; each has a status."""

from __future__ import annotations

import logging
from typing import Any

from starlette.requests import Request
from starlette.routing import Route

from ginrummy.engine import Rules, RulesError
from ginrummy.server.api import ApiError, caller_identity, guard, json_body, only_fields
from ginrummy.server.computer import level_keys
from ginrummy.server.responses import JSONResponse
from ginrummy.server.room import RoomManager
from ginrummy.server.store import Player
from ginrummy.server.tournaments import view
from ginrummy.server.tournaments.records import Loaded
from ginrummy.server.tournaments.service import Contended, TournamentService, UnknownTournament
from ginrummy.tournament import ErrorCode, Settings, TournamentError

log = logging.getLogger("ginrummy.server.tournaments")

STATUS = {
    ErrorCode.UNKNOWN_FORMAT: 400,
    ErrorCode.SIZE_OUT_OF_RANGE: 400,
    ErrorCode.ROUNDS_OUT_OF_RANGE: 400,
    ErrorCode.START_IN_PAST: 400,
    ErrorCode.BAD_SETTINGS: 400,
    ErrorCode.BAD_RESULT: 400,
    ErrorCode.NOT_CREATOR: 403,
    ErrorCode.UNKNOWN_MATCH: 404,
}  # every other code is a conflict with the tournament's state: 409
SETTINGS_FIELDS = {
    "name", "format", "max_players", "rules_preset", "target_score", "move_timer_seconds",
    "rated", "start_at", "public", "rounds", "third_place", "computer_level", "grace_seconds",
}  # fmt: skip
TYPES: dict[str, tuple[type, ...]] = {
    "name": (str,), "format": (str,), "max_players": (int,), "rules_preset": (str,),
    "target_score": (int, type(None)), "move_timer_seconds": (int, type(None)), "rated": (bool,),
    "start_at": (int, float, type(None)), "public": (bool,), "rounds": (int, type(None)),
    "third_place": (bool,), "computer_level": (str, type(None)), "grace_seconds": (int,),
}  # fmt: skip


def _service(request: Request) -> TournamentService:
    service: TournamentService = request.app.state.tournaments
    return service


async def _caller(request: Request) -> tuple[str, Player]:
    identity = await caller_identity(request)
    assert identity is not None
    rooms: RoomManager = request.app.state.rooms
    return identity, await rooms.player(identity)


def settings_of(data: dict[str, Any]) -> Settings:
    """The creator's settings from a request body (``bad_request`` for a wrong field)."""
    only_fields(data, SETTINGS_FIELDS)
    for key, value in data.items():
        # bool is an int in Python: a flag is no number and a number no flag
        if not isinstance(value, TYPES[key]) or (isinstance(value, bool) != (bool in TYPES[key])):
            raise ApiError("bad_request", f"{key} has the wrong type")
    for key in ("name", "format", "max_players"):
        if key not in data:
            raise ApiError("bad_request", f"{key} is required")
    if "target_score" not in data:  # the preset's own: none for first-to-knock
        try:
            preset = Rules.preset(str(data.get("rules_preset", "standard")))
            data["target_score"] = preset.target_score
        except RulesError as exc:
            raise ApiError("bad_settings", str(exc)) from None
    level = data.get("computer_level")
    if level is not None and level not in level_keys():
        raise ApiError("bad_request", f"unknown computer level {level!r}")
    return Settings(**data)


async def _answer(request: Request, action: Any, status: int = 200) -> JSONResponse:
    try:
        loaded: Loaded = await action
    except TournamentError as exc:
        raise ApiError(exc.code.value, exc.message, STATUS.get(exc.code, 409)) from None
    except UnknownTournament as exc:
        raise ApiError("unknown_tournament", str(exc), 404) from None
    except Contended as exc:
        raise ApiError("busy", str(exc), 503) from None
    return JSONResponse({"tournament": view.full(loaded)}, status_code=status)


async def create(request: Request) -> JSONResponse:
    """A new tournament from the settings; ``"join": true`` enters its creator at once
    (create and play, docs/protocol.md, Tournaments)."""
    identity, player = await _caller(request)
    data = await json_body(request)
    play = data.pop("join", False)
    if not isinstance(play, bool):
        raise ApiError("bad_request", "join has the wrong type")
    try:
        settings = settings_of(data)
    except TournamentError as exc:
        raise ApiError(exc.code.value, exc.message, STATUS.get(exc.code, 400)) from None
    created = _service(request).create(settings, identity, player, play=play)
    return await _answer(request, created, 201)


async def read(request: Request) -> JSONResponse:
    return await _answer(request, _service(request).get(request.path_params["tid"]))


async def join(request: Request) -> JSONResponse:
    identity, player = await _caller(request)
    tid = request.path_params["tid"]
    return await _answer(request, _service(request).join(tid, identity, player))


async def leave(request: Request) -> JSONResponse:
    _, player = await _caller(request)
    return await _answer(request, _service(request).leave(request.path_params["tid"], player))


async def start(request: Request) -> JSONResponse:
    _, player = await _caller(request)
    tid = request.path_params["tid"]
    return await _answer(request, _service(request).start_now(tid, player))


async def withdraw(request: Request) -> JSONResponse:
    _, player = await _caller(request)
    tid = request.path_params["tid"]
    return await _answer(request, _service(request).withdraw(tid, player))


routes = [
    Route("/api/tournaments", guard(create), methods=["POST"]),
    Route("/api/tournaments/{tid}", guard(read), methods=["GET"]),
    Route("/api/tournaments/{tid}/join", guard(join), methods=["POST"]),
    Route("/api/tournaments/{tid}/leave", guard(leave), methods=["POST"]),
    Route("/api/tournaments/{tid}/start", guard(start), methods=["POST"]),
    Route("/api/tournaments/{tid}/withdraw", guard(withdraw), methods=["POST"]),
]
