"""The chouette rooms' HTTP routes (docs/protocol.md, "Chouette rooms"): create, read,
join, record."""

from __future__ import annotations

import logging
from typing import Any

from starlette.requests import Request
from starlette.routing import Route

from ginrummy.engine.chouette import MAX_PLAYERS, MIN_PLAYERS
from ginrummy.server.api import (
    ApiError,
    caller_identity,
    flag,
    guard,
    json_body,
    only_fields,
    round_asked,
    rules_of,
    seat_name,
    with_timer,
)
from ginrummy.server.chouette import presenter
from ginrummy.server.chouette.room import KIND, ChouetteRoom, open_room
from ginrummy.server.computer import level_keys, level_name
from ginrummy.server.ratelimit import LookupRoute, client_address, of_app
from ginrummy.server.responses import JSONResponse
from ginrummy.server.room import RoomManager
from ginrummy.server.room.seats import SeatInfo
from ginrummy.server.store import RoomRow
from ginrummy.server.tokens import new_room_id

log = logging.getLogger("ginrummy.server.chouette")

CREATE_FIELDS = {"seats", "preset", "target_score", "timer", "name", "spectators"}


def _rooms(request: Request) -> RoomManager:
    rooms: RoomManager = request.app.state.rooms
    return rooms


def seat_plan(seats: object) -> dict[int, str | None]:
    """The computer level of each position but the creator's (None: a person's seat),
    from the request's ``seats``; ``bad_players`` or ``bad_seats`` otherwise."""
    if not isinstance(seats, list) or not MIN_PLAYERS <= len(seats) <= MAX_PLAYERS:
        count = len(seats) if isinstance(seats, list) else "no list of"
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


async def create(request: Request) -> JSONResponse:
    of_app(request.app).rooms.check(client_address(request))
    identity = await caller_identity(request)
    assert identity is not None
    data = await json_body(request)
    only_fields(data, CREATE_FIELDS)
    plan = seat_plan(data.get("seats"))
    rules = with_timer(rules_of(data), data, None)
    rooms = _rooms(request)
    player = await rooms.player(identity)
    seats = {0: SeatInfo(seat_name(data, player.name), identity, None)}
    for position, level in plan.items():
        if level is not None:
            seats[position] = SeatInfo(level_name(level), None, level)
    options = {"spectators": flag(data, "spectators", True), "visibility": "private"}
    row = RoomRow(new_room_id(), KIND, rules.to_dict(), rooms.clock.now(), options)
    room, _ = await open_room(rooms.ctx, row, seats, len(plan) + 1)
    rooms.adopt(room)
    await room.loaded()
    log.info("room %s created: chouette of %d, rules %s", room.id, room.players, rules.name)
    body = {"room": room.id, "position": 0, "invite_path": presenter.invite_path(room.id)}
    return JSONResponse(body, status_code=201)


async def _room(request: Request) -> ChouetteRoom:
    of_app(request.app).lookups.check(client_address(request))
    room = await _rooms(request).get_any(request.path_params["room_id"])
    if not isinstance(room, ChouetteRoom):
        raise ApiError("unknown_room", "there is no such chouette room")
    return room


async def info(request: Request) -> JSONResponse:
    room = await _room(request)
    identity = await caller_identity(request, required=False)
    return JSONResponse(presenter.info(room, room.position_of(identity)))


async def join(request: Request) -> JSONResponse:
    identity = await caller_identity(request)
    assert identity is not None
    room = await _room(request)
    data: dict[str, Any] = await json_body(request)
    only_fields(data, {"name"})
    player = await _rooms(request).player(identity)
    position = await room.join(identity, seat_name(data, player.name), player)
    return JSONResponse({"room": room.id, "position": position})


async def record(request: Request) -> JSONResponse:
    """The table's record between matches; ``?round=n``: round n of the current match as
    a round record with its revealed fair block, once that round is over."""
    room = await _room(request)
    number = round_asked(request)
    if number is None:
        return JSONResponse(room.record().to_dict())
    return JSONResponse(presenter.round_record(room, number))


routes = [
    Route("/api/chouette", guard(create), methods=["POST"]),
    LookupRoute("/api/chouette/{room_id}", guard(info), methods=["GET"]),
    Route("/api/chouette/{room_id}/join", guard(join), methods=["POST"]),
    LookupRoute("/api/chouette/{room_id}/record", guard(record), methods=["GET"]),
]
