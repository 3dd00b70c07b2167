"""Two-player rooms: open one (a solo game or a table for two), read it, take its free seat."""

from __future__ import annotations

from typing import ClassVar, Literal

import msgspec
from starlette.requests import Request
from starlette.routing import Route

from ginrummy.engine import Seat
from ginrummy.server.api import callers
from ginrummy.server.api import rated as rated_
from ginrummy.server.api.bodies import Body, read
from ginrummy.server.api.errors import ApiError
from ginrummy.server.api.services import rooms_of
from ginrummy.server.api.tables import RULES_CODES, TableBody, seat_name, table_of_path
from ginrummy.server.computer import DEFAULT_LEVEL, level_keys, level_name
from ginrummy.server.ratelimit import LookupRoute, client_address, of_app
from ginrummy.server.responses import JSONResponse
from ginrummy.server.room import Room

PUBLIC_TIMER = 30  # seconds a move of a public table may take unless the body says otherwise


class NewRoom(TableBody, frozen=True):
    """``POST /api/rooms`` (docs/protocol.md): every field optional."""

    CODES: ClassVar = {**RULES_CODES, "name": "bad_name"}
    kind: Literal["solo", "room"] = "solo"
    opponent: str | msgspec.UnsetType = msgspec.UNSET
    name: str | None = None
    spectators: bool | msgspec.UnsetType = msgspec.UNSET
    visibility: Literal["private", "public"] = "private"
    rated: bool | msgspec.UnsetType = msgspec.UNSET
    spectator_chat: bool = False


class Join(Body, frozen=True, forbid_unknown_fields=False):
    """``POST /api/rooms/{id}/join``: the seat's name (other fields are ignored)."""

    CODES: ClassVar = {"name": "bad_name"}
    name: object = None


def opponent_level(asked: str | msgspec.UnsetType, kind: str) -> str | None:
    """The computer level for seat two, or None to leave it to a friend."""
    default = f"bot:{DEFAULT_LEVEL}" if kind == "solo" else "friend"
    opponent = default if asked is msgspec.UNSET else asked
    if opponent == "friend" and kind == "room":
        return None
    if opponent.startswith("bot:"):
        level = opponent[4:]
        if level in level_keys():
            return level
        raise ApiError("bad_request", f"unknown computer level {level!r}; see GET /api/levels")
    allowed = "'bot:<level>'" if kind == "solo" else "'friend' or 'bot:<level>'"
    raise ApiError("bad_request", f"opponent must be {allowed}")


def _flag(asked: bool | msgspec.UnsetType, default: bool) -> bool:
    return default if asked is msgspec.UNSET else asked


async def looked_up(request: Request) -> Room:
    """The two-player room of the path (a lookup, counted against the address's limit);
    ``unknown_room`` if there is none."""
    return await table_of_path(request, Room, "room")


async def create_room(request: Request) -> JSONResponse:
    of_app(request.app).rooms.check(client_address(request))
    identity = await callers.identity(request)
    body = await read(request, NewRoom)
    bot = opponent_level(body.opponent, body.kind)
    public = body.visibility == "public"
    rules = body.rules(PUBLIC_TIMER if public else None)
    player = await rooms_of(request).player(identity)
    name = seat_name(body.name, player.name)
    spectators = _flag(body.spectators, body.kind == "room")
    # rated play counts accounts only: a guest's public table is casual unless it asks
    account = await rated_.has_account(request, identity)
    rated = _flag(body.rated, public and bot is None and account)
    if rated and not (public and bot is None and body.kind == "room"):
        raise ApiError("bad_request", "only public tables between two people can be rated")
    if rated and not account:
        await rated_.require_account(request, identity)
    if rated:  # civility: a play ban locks rated tables too (``play_banned``)
        await rooms_of(request).civility.check_play(player.id)
    bot_name = "" if bot is None else level_name(bot)
    options = {
        "visibility": body.visibility,
        "rated": rated,
        "spectator_chat": body.spectator_chat,
    }
    room = await rooms_of(request).create(
        kind=body.kind,
        rules=rules,
        creator_hash=identity,
        name=name,
        opponent_bot=bot,
        spectators=spectators,
        opponent_name=bot_name,
        options=options,
    )
    return JSONResponse(
        {"room": room.id, "seat": Seat.ONE.label, "invite_path": f"/r/{room.id}"},
        status_code=201,
    )


async def room_info(request: Request) -> JSONResponse:
    room = await looked_up(request)
    # Only a seat's identity changes the answer: a device's token resolves to its
    # account's identity, a signed-out device's to nobody (one store read).
    return JSONResponse(room.info(room.seat_of(await callers.maybe_identity(request))))


async def join_room(request: Request) -> JSONResponse:
    identity = await callers.identity(request)
    room = await looked_up(request)
    body = await read(request, Join)
    player = await rooms_of(request).player(identity)
    if room.rated and room.seat_of(identity) is None:  # civility: a play ban locks it
        await rated_.require_account(request, identity)  # and it counts accounts only
        await rooms_of(request).civility.check_play(player.id)
    seat = await room.join(identity, seat_name(body.name, player.name), player)
    return JSONResponse({"room": room.id, "seat": seat.label})


# A LookupRoute's handler counts the lookup first (``looked_up``); a join asks for the
# identity first (401 before 429), so it is an ordinary route.
routes = [
    Route("/api/rooms", create_room, methods=["POST"]),
    LookupRoute("/api/rooms/{room_id}", room_info, methods=["GET"]),
    Route("/api/rooms/{room_id}/join", join_room, methods=["POST"]),
]
