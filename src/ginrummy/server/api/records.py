"""A table's record: the match record once over, or one finished round (``?round=n``)."""

from __future__ import annotations

from starlette.requests import Request

from ginrummy.server.api.chouette import looked_up as chouette_looked_up
from ginrummy.server.api.errors import ApiError
from ginrummy.server.api.rooms import looked_up
from ginrummy.server.chouette import presenter as chouette_presenter
from ginrummy.server.ratelimit import LookupRoute
from ginrummy.server.responses import JSONResponse
from ginrummy.server.room import round_record


def round_asked(request: Request) -> int | None:
    """The round a record request asks for (``?round=n``), None for the whole record;
    ``bad_request`` unless it is a whole number of at most six digits."""
    number = request.query_params.get("round")
    if number is None:
        return None
    if not number.isdigit() or len(number) > 6:
        raise ApiError("bad_request", "round is a whole number from 1")
    return int(number)


async def room_record(request: Request) -> JSONResponse:
    """The match record once the match is over; ``?round=n``: round n of the current
    match as a round record once that round is over (the table's verify link)."""
    room = await looked_up(request)
    number = round_asked(request)
    if number is None:
        return JSONResponse(room.record().to_dict())
    return JSONResponse(round_record(room.rules, room.current, number))


async def chouette_record(request: Request) -> JSONResponse:
    """The chouette table's record between matches; ``?round=n``: round n of the current
    match as a round record with its revealed fair block, once that round is over."""
    room = await chouette_looked_up(request)
    number = round_asked(request)
    if number is None:
        return JSONResponse(room.record().to_dict())
    return JSONResponse(chouette_presenter.round_record(room, number))


routes = [
    LookupRoute("/api/rooms/{room_id}/record", room_record, methods=["GET"]),
    LookupRoute("/api/chouette/{room_id}/record", chouette_record, methods=["GET"]),
]
