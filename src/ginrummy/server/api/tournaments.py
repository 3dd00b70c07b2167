"""Tournaments (docs/protocol.md, Tournaments): create, read, join, leave, start, withdraw.

The tournament core's error codes keep their names; each has a status."""

from __future__ import annotations

import logging
from collections.abc import Awaitable

import msgspec
from starlette.requests import Request
from starlette.routing import Route

from ginrummy.engine import Rules, RulesError
from ginrummy.server.api import callers
from ginrummy.server.api.bodies import Body, decode, given, read_object
from ginrummy.server.api.errors import ApiError
from ginrummy.server.api.rated import require_account
from ginrummy.server.api.services import rooms_of, tournaments_of
from ginrummy.server.computer import level_keys
from ginrummy.server.responses import JSONResponse
from ginrummy.server.store import Player
from ginrummy.server.tournaments import view
from ginrummy.server.tournaments.records import Loaded
from ginrummy.server.tournaments.service import Contended, UnknownTournament
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

Unset = msgspec.UnsetType
UNSET = msgspec.UNSET


class NewTournament(Body, frozen=True):
    """``POST /api/tournaments``: the creator's settings (``tournament.Settings``, whose
    defaults hold for a field not sent) and ``join``: enter the creator at once."""

    name: str | Unset = UNSET
    format: str | Unset = UNSET
    max_players: int | Unset = UNSET
    rules_preset: str | Unset = UNSET
    target_score: int | Unset | None = UNSET
    move_timer_seconds: int | Unset | None = UNSET
    rated: bool | Unset = UNSET
    start_at: int | float | Unset | None = UNSET
    public: bool | Unset = UNSET
    rounds: int | Unset | None = UNSET
    third_place: bool | Unset = UNSET
    computer_level: str | Unset | None = UNSET
    grace_seconds: int | Unset = UNSET
    join: bool = False


def settings_of(body: NewTournament) -> Settings:
    """The creator's settings from a request body (``bad_request`` for a missing field)."""
    data = given(body)
    data.pop("join", None)
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
    try:
        return Settings(**data)
    except TournamentError as exc:
        raise ApiError(exc.code.value, exc.message, STATUS.get(exc.code, 400)) from None


async def _caller(request: Request) -> tuple[str, Player]:
    identity = await callers.identity(request)
    return identity, await rooms_of(request).player(identity)


async def _answer_of(action: Awaitable[Loaded]) -> Loaded:
    try:
        return await action
    except TournamentError as exc:
        raise ApiError(exc.code.value, exc.message, STATUS.get(exc.code, 409)) from None
    except UnknownTournament as exc:
        raise ApiError("unknown_tournament", str(exc), 404) from None
    except Contended as exc:
        raise ApiError("busy", str(exc), 503) from None


async def _answer(action: Awaitable[Loaded], status: int = 200) -> JSONResponse:
    loaded = await _answer_of(action)
    return JSONResponse({"tournament": view.full(loaded)}, status_code=status)


async def create(request: Request) -> JSONResponse:
    """A new tournament from the settings; ``"join": true`` enters its creator at once
    (create and play, docs/protocol.md, Tournaments)."""
    identity, player = await _caller(request)
    body = decode(await read_object(request), NewTournament)
    settings = settings_of(body)
    if body.join and settings.rated:  # accounts only, and not while banned from play
        await require_account(request, identity)
        await rooms_of(request).civility.check_play(player.id)
    created = tournaments_of(request).create(settings, identity, player, play=body.join)
    return await _answer(created, 201)


async def read(request: Request) -> JSONResponse:
    return await _answer(tournaments_of(request).get(request.path_params["tid"]))


async def join(request: Request) -> JSONResponse:
    identity, player = await _caller(request)
    tid = request.path_params["tid"]
    await _rated_checks(request, tid, identity, player.id)
    return await _answer(tournaments_of(request).join(tid, identity, player))


async def _rated_checks(request: Request, tid: str, identity: str, player: str) -> None:
    """A rated tournament's players are accounts (``account_required``) not banned from
    play (``play_banned``); an unrated one allows guests (docs/accounts.md)."""
    try:
        loaded = await tournaments_of(request).get(tid)
    except UnknownTournament:
        return  # joining answers unknown_tournament
    if loaded.state.settings.rated:
        await require_account(request, identity)
        await rooms_of(request).civility.check_play(player)


async def leave(request: Request) -> JSONResponse:
    _, player = await _caller(request)
    return await _answer(tournaments_of(request).leave(request.path_params["tid"], player))


async def start(request: Request) -> JSONResponse:
    _, player = await _caller(request)
    tid = request.path_params["tid"]
    return await _answer(tournaments_of(request).start_now(tid, player))


async def withdraw(request: Request) -> JSONResponse:
    _, player = await _caller(request)
    tid = request.path_params["tid"]
    return await _answer(tournaments_of(request).withdraw(tid, player))


routes = [
    Route("/api/tournaments", create, methods=["POST"]),
    Route("/api/tournaments/{tid}", read, methods=["GET"]),
    Route("/api/tournaments/{tid}/join", join, methods=["POST"]),
    Route("/api/tournaments/{tid}/leave", leave, methods=["POST"]),
    Route("/api/tournaments/{tid}/start", start, methods=["POST"]),
    Route("/api/tournaments/{tid}/withdraw", withdraw, methods=["POST"]),
]
