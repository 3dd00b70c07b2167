"""A player's page and the leaderboard."""

from __future__ import annotations

from starlette.requests import Request
from starlette.routing import Route

from ginrummy.server import players as players_
from ginrummy.server.api.errors import ApiError
from ginrummy.server.api.services import rooms_of, tournaments_of
from ginrummy.server.responses import JSONResponse

LEADERS = 50  # players the leaderboard lists


async def player_page(request: Request) -> JSONResponse:
    rooms = rooms_of(request)
    player = await rooms.store.player(request.path_params["player_id"])
    if player is None:
        raise ApiError("unknown_player", "there is no such player")
    results = await rooms.store.results_of(player.id)
    names: dict[str, str] = {}
    for opponent in {r.opponent for r in results if r.opponent is not None}:
        found = await rooms.store.player(opponent)
        if found is not None:
            names[opponent] = players_.tag(found)
    return JSONResponse(
        {
            "player": players_.summary(player),
            "stats": players_.statistics(results),
            "matches": players_.history(results, names),
            "tournaments": await tournaments_of(request).played_by(player.id),
        }
    )


async def leaderboard(request: Request) -> JSONResponse:
    top = await rooms_of(request).store.leaderboard(LEADERS)
    return JSONResponse({"players": [players_.summary(p) for p in top]})


routes = [
    Route("/api/players/{player_id}", player_page, methods=["GET"]),
    Route("/api/leaderboard", leaderboard, methods=["GET"]),
]
