"""The JSON HTTP API (docs/protocol.md, "HTTP"), one module per topic; ``routes`` has them
all but a kind of table's own (``chouette``: server/kinds.py registers them).

Routes raise typed errors (``errors.ApiError``, a room's ``RoomError``, ...) and the app's
exception handlers (``errors.HANDLERS``, registered in server/app.py) answer them; request
bodies are decoded into typed values by ``bodies``.
"""

from __future__ import annotations

from starlette.routing import BaseRoute

from ginrummy.server.api import (
    accounts,
    admin,
    civility,
    clock,
    config,
    friends,
    identity,
    lobby,
    players,
    records,
    reviews,
    rooms,
    tournaments,
    yourdata,
)

routes: list[BaseRoute] = [
    *identity.routes,
    *accounts.routes,
    *friends.routes,
    *lobby.routes,
    *players.routes,
    *clock.routes,
    *rooms.routes,
    *records.routes,
    *reviews.routes,
    *config.routes,
    *tournaments.routes,
    *civility.routes,  # civility (issue 22, part 3)
    *admin.routes,  # the operators' console (issue 22, part 4)
    *yourdata.routes,  # your data: export and deletion (issue 22, part 5)
]
