"""The review of a finished match's seat: start it, poll its progress, get it."""

from __future__ import annotations

from starlette.requests import Request

from ginrummy.engine import Seat
from ginrummy.server.api import callers
from ginrummy.server.api.errors import ApiError
from ginrummy.server.api.rooms import looked_up
from ginrummy.server.api.services import reviews_of
from ginrummy.server.ratelimit import LookupRoute
from ginrummy.server.responses import JSONResponse
from ginrummy.server.reviews import ReviewBusy


async def room_review(request: Request) -> JSONResponse:
    """Start or poll the review of one seat of the room's finished match: 202 while it
    runs (with its progress), 200 with the review once done (docs/protocol.md)."""
    room = await looked_up(request)
    own = room.seat_of(await callers.maybe_identity(request))
    asked = request.query_params.get("seat") or (own.label if own is not None else None)
    if asked not in ("one", "two"):
        raise ApiError("bad_request", "seat must be 'one' or 'two'")
    seat = Seat.parse(asked)
    if own is not None and seat != own:
        raise ApiError("not_allowed", "a player reviews their own seat only")
    if own is None and not (room.public and room.spectators):
        raise ApiError("not_allowed", "only the players review a private match")
    record = room.record()  # RoomError match_running until the match is over
    try:
        job = reviews_of(request).start(record, seat)
    except ReviewBusy:
        raise ApiError("busy", "too many reviews are waiting; try again in a minute") from None
    if job.state == "failed":
        raise ApiError("review_failed", f"the review failed: {job.error}")
    return JSONResponse(job.to_dict(), status_code=200 if job.state == "done" else 202)


routes = [LookupRoute("/api/rooms/{room_id}/review", room_review, methods=["GET", "POST"])]
