"""The test clock: a browser test moves the server's time (only with GINRUMMY_TEST_CLOCK)."""

from __future__ import annotations

from starlette.requests import Request
from starlette.routing import Route

from ginrummy.server.api.bodies import Body, read
from ginrummy.server.api.errors import ApiError
from ginrummy.server.api.services import rooms_of
from ginrummy.server.clock import ManualClock
from ginrummy.server.responses import JSONResponse


class Advance(Body, frozen=True, forbid_unknown_fields=False):
    advance: int | float = 0


async def test_clock(request: Request) -> JSONResponse:
    clock = rooms_of(request).clock
    if not request.app.state.settings.test_clock or not isinstance(clock, ManualClock):
        raise ApiError("not_found", "there is no such page")
    body = await read(request, Advance)
    if body.advance < 0:
        raise ApiError("bad_request", "advance must be a number of seconds, at least 0")
    clock.advance(float(body.advance))
    return JSONResponse({"now": clock.now()})


routes = [Route("/api/test/clock", test_clock, methods=["POST"])]
