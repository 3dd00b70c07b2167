"""The caller's identity: a new token, its games, its player's nickname."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any, ClassVar

from starlette.requests import Request
from starlette.routing import Route

from ginrummy.server import players as players_
from ginrummy.server.accounts.names import name_key
from ginrummy.server.api import callers
from ginrummy.server.api.bodies import Body, read, read_object
from ginrummy.server.api.errors import ApiError
from ginrummy.server.api.services import rooms_of
from ginrummy.server.api.tables import valid_name
from ginrummy.server.ratelimit import client_address, of_app
from ginrummy.server.responses import JSONResponse
from ginrummy.server.tokens import hash_token, new_token

if TYPE_CHECKING:
    from ginrummy.server.kinds import Kinds

log = logging.getLogger("ginrummy.server.api")


class Rename(Body, frozen=True):
    CODES: ClassVar = {"name": "bad_name"}
    name: str | None = None


async def create_identity(request: Request) -> JSONResponse:
    of_app(request.app).identities.check(client_address(request))
    await read_object(request)
    token = new_token()
    rooms = rooms_of(request)
    await rooms.store.add_identity(hash_token(token))
    player = await rooms.player(hash_token(token))
    log.info("identity created: player %s", player.id)
    return JSONResponse({"token": token, "player": players_.summary(player)}, status_code=201)


async def me(request: Request) -> JSONResponse:
    identity = await callers.identity(request)
    rooms = rooms_of(request)
    kinds: Kinds = request.app.state.kinds
    games: list[dict[str, Any]] = []
    for ref in await rooms.store.games_of(identity):
        room = await rooms.get_any(ref.room)
        if room is not None:
            games.append(kinds.of(room.kind).game(room, ref.seat))
    player = await rooms.player(identity)
    account = await rooms.store.account_of(identity)
    return JSONResponse(
        {
            "games": games,
            "player": players_.summary(player),
            "account": None if account is None else {"name": account.name},
        }
    )


async def rename(request: Request) -> JSONResponse:
    identity = await callers.identity(request)
    body = await read(request, Rename)
    name = valid_name(body.name)
    rooms = rooms_of(request)
    if await rooms.store.account_of(identity) is not None:
        raise ApiError("not_allowed", "an account keeps the name it was created with")
    # a guest takes no account's name (nor a lookalike): it would pass for that person
    holder = await rooms.store.account_by_key(name_key(name))
    if holder is not None and holder.identity_hash != identity:
        raise ApiError("name_taken", "an account has that name (or one that looks like it)")
    player = await rooms.player(identity)
    await rooms.store.rename_player(player.id, name)
    renamed = await rooms.store.player(player.id) or player
    rooms.player_changed(renamed)
    await rooms.lobby_changed(player=renamed.id)
    log.info("player %s renamed", player.id)
    return JSONResponse({"player": players_.summary(renamed)})


routes = [
    Route("/api/identity", create_identity, methods=["POST"]),
    Route("/api/me", me, methods=["GET"]),
    Route("/api/me", rename, methods=["PUT"]),
]
