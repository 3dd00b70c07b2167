"""Chouette rooms (docs/protocol.md, "Chouette rooms"): open one, read it, take a seat."""

from __future__ import annotations

import logging
from typing import ClassVar

from starlette.requests import Request
from starlette.routing import Route

from ginrummy.engine.chouette import MAX_PLAYERS, MIN_PLAYERS
from ginrummy.server.api import callers
from ginrummy.server.api.bodies import Body, read
from ginrummy.server.api.errors import ApiError
from ginrummy.server.api.services import rooms_of
from ginrummy.server.api.tables import RULES_CODES, TableBody, seat_name, table_of_path
from ginrummy.server.chouette import presenter
from ginrummy.server.chouette.room import KIND, ChouetteRoom, open_room
from ginrummy.server.computer import level_keys, level_name
from ginrummy.server.ratelimit import LookupRoute, client_address, of_app
from ginrummy.server.responses import JSONResponse
from ginrummy.server.room.seats import SeatInfo
from ginrummy.server.store import RoomRow
from ginrummy.server.tokens import new_room_id

log = logging.getLogger("ginrummy.server.chouette")


class NewChouette(TableBody, frozen=True):
    """``POST /api/chouette``: the seats (``["me", "friend" | "bot:<level>", ...]``)."""

    CODES: ClassVar = {**RULES_CODES, "seats": "bad_players", "name": "bad_name"}
    seats: list[object] | None = None
    name: str | None = None
    spectators: bool = True


class Join(Body, frozen=True):
    CODES: ClassVar = {"name": "bad_name"}
    name: str | None = None


def seat_plan(seats: list[object] | None) -> dict[int, str | None]:
    """The computer level of each position but the creator's (None: a person's seat),
    from the request's ``seats``; ``bad_players`` or ``bad_seats`` otherwise."""
    if seats is None or not MIN_PLAYERS <= len(seats) <= MAX_PLAYERS:
        count = "no list of" if seats is None else len(seats)
        raise ApiError(
            "bad_players", f"a chouette has {MIN_PLAYERS} to {MAX_PLAYERS} seats, not {count}"
        )
    if seats[0] != "me":
        raise ApiError("bad_seats", "the first seat is the creator's: 'me'")
    plan: dict[int, str | None] = {}
    for position, entry in enumerate(seats[1:], 1):
        if entry == "friend":
            plan[position] = None
        elif isinstance(entry, str) and entry.startswith("bot:") and entry[4:] in level_keys():
            plan[position] = entry[4:]
        else:
            wanted = "'friend' or 'bot:<level>' (a level of GET /api/levels)"
            raise ApiError("bad_seats", f"seat {position} must be {wanted}, not {entry!r}")
    return plan


async def looked_up(request: Request) -> ChouetteRoom:
    """The chouette room of the path (a lookup, counted against the address's limit);
    ``unknown_room`` if there is none."""
    return await table_of_path(request, ChouetteRoom, "chouette room")


async def create(request: Request) -> JSONResponse:
    of_app(request.app).rooms.check(client_address(request))
    identity = await callers.identity(request)
    body = await read(request, NewChouette)
    plan = seat_plan(body.seats)
    rules = body.rules(None)
    rooms = rooms_of(request)
    player = await rooms.player(identity)
    seats = {0: SeatInfo(seat_name(body.name, player.name), identity, None)}
    for position, level in plan.items():
        if level is not None:
            seats[position] = SeatInfo(level_name(level), None, level)
    options = {"spectators": body.spectators, "visibility": "private"}
    row = RoomRow(new_room_id(), KIND, rules.to_dict(), rooms.clock.now(), options)
    room = await open_room(rooms, row, seats, len(plan) + 1)
    log.info("room %s created: chouette of %d, rules %s", room.id, room.players, rules.name)
    answer = {"room": room.id, "position": 0, "invite_path": presenter.invite_path(room.id)}
    return JSONResponse(answer, status_code=201)


async def info(request: Request) -> JSONResponse:
    room = await looked_up(request)
    identity = await callers.maybe_identity(request)
    return JSONResponse(presenter.info(room, room.position_of(identity)))


async def join(request: Request) -> JSONResponse:
    identity = await callers.identity(request)
    room = await looked_up(request)
    body = await read(request, Join)
    player = await rooms_of(request).player(identity)
    position = await room.join(identity, seat_name(body.name, player.name), player)
    return JSONResponse({"room": room.id, "position": position})


routes = [
    Route("/api/chouette", create, methods=["POST"]),
    LookupRoute("/api/chouette/{room_id}", info, methods=["GET"]),
    Route("/api/chouette/{room_id}/join", join, methods=["POST"]),
]
