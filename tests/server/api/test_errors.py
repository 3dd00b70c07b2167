"""A route raises a typed error; the exception handlers registered once on the app answer
it with the API's JSON error (docs/protocol.md, "HTTP"), each counted by code."""

from __future__ import annotations

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route
from starlette.testclient import TestClient

from ginrummy.server.api.errors import HANDLERS, ApiError
from ginrummy.server.metrics import Metrics
from ginrummy.server.ratelimit import RateLimited
from ginrummy.server.room import RoomError
from ginrummy.server.store import StoreError

RAISED: dict[str, Exception] = {
    "api": ApiError("unknown_player", "there is no such player"),
    "api-status": ApiError("unknown_tournament", "no such tournament", 404),
    "room": RoomError("room_full", "both seats are taken"),
    "room-unlisted": RoomError("odd_code", "a code STATUS does not list"),
    "store": StoreError("the database went away"),
    "limit": RateLimited("new rooms", 7),
}


async def _raise(request: Request) -> Response:
    raise RAISED[request.path_params["what"]]


def _app() -> Starlette:
    app = Starlette(routes=[Route("/raise/{what}", _raise)], exception_handlers=dict(HANDLERS))
    app.state.metrics = Metrics(on=True)
    return app


def test_a_raised_typed_error_is_answered_with_its_status_code_and_message() -> None:
    with TestClient(_app()) as c:
        answers = {what: c.get(f"/raise/{what}") for what in RAISED}
    got = {what: (r.status_code, r.json()["error"]["code"]) for what, r in answers.items()}
    assert got == {
        "api": (404, "unknown_player"),
        "api-status": (404, "unknown_tournament"),
        "room": (409, "room_full"),
        "room-unlisted": (400, "odd_code"),
        "store": (503, "unavailable"),
        "limit": (429, "rate_limited"),
    }
    assert answers["api"].json() == {
        "error": {"code": "unknown_player", "message": "there is no such player"}
    }
    # The store's own words stay in the log: the client is told to come back.
    assert answers["store"].json()["error"]["message"] == "the server cannot save right now"
    assert answers["limit"].headers["retry-after"] == "7"
    assert all(r.headers["content-type"] == "application/json" for r in answers.values())


def test_each_answered_error_is_counted_by_code() -> None:
    app = _app()
    with TestClient(app) as c:
        c.get("/raise/room")
        c.get("/raise/room")
        c.get("/raise/store")
    registry = app.state.metrics.registry

    def counted(code: str) -> float | None:
        labels = {"code": code, "transport": "http"}
        value: float | None = registry.get_sample_value("ginrummy_errors_total", labels)
        return value

    assert (counted("room_full"), counted("unavailable")) == (2.0, 1.0)
