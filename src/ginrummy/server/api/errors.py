"""Typed API errors, each answered with its JSON error by an exception handler.

A route raises; it never builds an error answer itself. ``HANDLERS`` is registered once
on the app (server/app.py): ``ApiError``, ``RoomError``, ``StoreError`` and
``RateLimited`` become ``{"error": {"code": ..., "message": ...}}`` with the status of
docs/protocol.md ("HTTP"), each counted by code in the metrics.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Mapping

from starlette.requests import Request
from starlette.responses import Response

from ginrummy.server.civility.service import CivilityError
from ginrummy.server.metrics import metrics_of
from ginrummy.server.ratelimit import RateLimited
from ginrummy.server.responses import JSONResponse, error_response, rate_limited
from ginrummy.server.room import RoomError
from ginrummy.server.store import StoreError

log = logging.getLogger("ginrummy.server.api")

STATUS = {
    "bad_json": 400,
    "bad_request": 400,
    "bad_rules": 400,
    "bad_name": 400,
    "bad_code": 400,
    "bad_challenge": 400,
    "passkey_refused": 400,
    "unknown_passkey": 400,
    "unauthorized": 401,
    "bad_token": 401,
    "match_running": 403,
    "round_running": 403,
    "not_allowed": 403,
    "no_account": 403,
    "confirm_needed": 403,
    "no_passkey": 403,
    "unknown_device": 404,
    "codes_paused": 429,
    "name_taken": 409,
    "account_exists": 409,
    "unknown_room": 404,
    "unknown_player": 404,
    "not_found": 404,
    "room_full": 409,
    "unavailable": 503,
    "busy": 503,
    "review_failed": 500,
    # -- civility (issue 22, parts 3 and 4) --
    "bad_reason": 400,
    "bad_action": 400,
    "bad_duration": 400,
    "not_operator": 403,
    "report_closed": 409,
    "report_mismatch": 400,
    "not_in_room": 403,
    "play_banned": 403,
    "muted": 403,
    "chat_timeout": 403,
    # -- your data (issue 22, part 5) --
    "not_confirmed": 400,
    "already_deleted": 409,
    # -- rated play counts accounts only (issue 22, part 1) --
    "account_required": 403,
    # friends (docs/accounts.md, "Friends")
    "not_yourself": 400,
    "challenges_closed": 403,
    "unknown_challenge": 404,
    "challenge_closed": 409,
}
"""The status of each error code a route or a room raises (any other: 400)."""


class ApiError(Exception):
    """A refused request: ``code`` is the wire error code, ``status`` its HTTP status
    (by default the one ``STATUS`` gives the code)."""

    def __init__(self, code: str, message: str, status: int | None = None) -> None:
        self.code = code
        self.message = message
        self.status = status or STATUS.get(code, 400)
        super().__init__(message)


def _refused(request: Request, code: str, answer: JSONResponse) -> JSONResponse:
    metrics_of(request.app).error("http", code)
    return answer


async def api_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, ApiError)
    return _refused(request, exc.code, error_response(exc.code, exc.message, exc.status))


async def room_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, RoomError)
    status = STATUS.get(exc.code, 400)
    return _refused(request, exc.code, error_response(exc.code, exc.message, status))


async def store_error(request: Request, exc: Exception) -> Response:
    log.error("store error on %s: %s", request.url.path, exc)
    code = "unavailable"
    return _refused(request, code, error_response(code, "the server cannot save right now", 503))


async def civility_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, CivilityError)
    status = STATUS.get(exc.code, 400)
    return _refused(request, exc.code, error_response(exc.code, exc.message, status))


async def over_limit(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, RateLimited)
    return _refused(request, exc.code, rate_limited(exc))


HANDLERS: Mapping[type[Exception], Callable[[Request, Exception], Awaitable[Response]]] = {
    ApiError: api_error,
    RoomError: room_error,
    StoreError: store_error,
    RateLimited: over_limit,
    CivilityError: civility_error,
}
"""Starlette's ``exception_handlers`` for the API (server/app.py registers them)."""
