"""The JSON HTTP API (docs/protocol.md, "HTTP"): identities, rooms, seats, records."""

from __future__ import annotations

import json
import logging
from collections.abc import Mapping, Set
from typing import Any

from starlette.requests import Request
from starlette.routing import Route

from ginrummy.engine import Rules, RulesError, Seat
from ginrummy.protocol import limits
from ginrummy.server import players as players_
from ginrummy.server.chouette import ChouetteRoom
from ginrummy.server.chouette import presenter as chouette_presenter
from ginrummy.server.clock import ManualClock
from ginrummy.server.computer import DEFAULT_LEVEL, level_keys, level_name, levels
from ginrummy.server.logcontext import note_room
from ginrummy.server.metrics import metrics_of
from ginrummy.server.quick import QuickMatch
from ginrummy.server.ratelimit import LookupRoute, RateLimited, client_address, of_app
from ginrummy.server.responses import JSONResponse, error_response, rate_limited
from ginrummy.server.reviews import ReviewBusy, ReviewJobs
from ginrummy.server.room import Room, RoomError, RoomManager, round_record
from ginrummy.server.store import StoreError
from ginrummy.server.tokens import hash_token, new_token

log = logging.getLogger("ginrummy.server.api")

MAX_BODY_BYTES = 4096
TARGETS = (50, 100, 200)
STATUS = {
    "bad_json": 400,
    "bad_request": 400,
    "bad_rules": 400,
    "bad_name": 400,
    "unauthorized": 401,
    "bad_token": 401,
    "match_running": 403,
    "round_running": 403,
    "not_allowed": 403,
    "unknown_room": 404,
    "unknown_player": 404,
    "not_found": 404,
    "room_full": 409,
    "unavailable": 503,
    "busy": 503,
    "review_failed": 500,
}


class ApiError(Exception):
    def __init__(self, code: str, message: str, status: int | None = None) -> None:
        self.code = code
        self.message = message
        self.status = status or STATUS.get(code, 400)
        super().__init__(message)


def _rooms(request: Request) -> RoomManager:
    rooms: RoomManager = request.app.state.rooms
    return rooms


async def _body(request: Request) -> dict[str, Any]:
    raw = await request.body()
    if len(raw) > MAX_BODY_BYTES:
        raise ApiError("bad_request", f"the body is limited to {MAX_BODY_BYTES} bytes", 413)
    if not raw.strip():
        return {}
    try:
        data = json.loads(raw)
    except (ValueError, UnicodeDecodeError):
        raise ApiError("bad_json", "the body is not valid JSON") from None
    if not isinstance(data, dict):
        raise ApiError("bad_json", "the body must be a JSON object")
    return data


def _bearer(request: Request) -> str | None:
    header = request.headers.get("authorization", "")
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        return None
    return token.strip()


async def _identity(request: Request, required: bool = True) -> str | None:
    """The hash of the caller's token, checked against the store."""
    token = _bearer(request)
    if token is None:
        if required:
            raise ApiError("unauthorized", "send 'Authorization: Bearer <token>'")
        return None
    token_hash = hash_token(token)
    if not await _rooms(request).store.has_identity(token_hash):
        if required:
            raise ApiError("bad_token", "unknown token; create one with POST /api/identity")
        return None
    return token_hash


def _name(data: dict[str, Any], default: str) -> str:
    """The seat name of the body (the player's nickname without one): the one name rule."""
    name = data.get("name")
    if name is None:
        return default  # the nickname, checked when it was set
    try:
        return players_.valid_name(name)
    except players_.BadName as exc:
        raise ApiError("bad_name", str(exc)) from None


def _rules(data: dict[str, Any]) -> Rules:
    preset = data.get("preset", "standard")
    if not isinstance(preset, str):
        raise ApiError("bad_rules", "preset must be a text")
    try:
        base = Rules.preset(preset)
    except RulesError as exc:
        raise ApiError("bad_rules", str(exc)) from None
    if "target_score" not in data or data["target_score"] is None:
        return base
    target = data["target_score"]
    if base.target_score is None:
        raise ApiError("bad_rules", f"the preset {preset!r} has no target score")
    if isinstance(target, bool) or target not in TARGETS:
        raise ApiError("bad_rules", f"target_score must be one of {', '.join(map(str, TARGETS))}")
    try:
        return Rules.preset(preset, target_score=target)
    except RulesError as exc:
        raise ApiError("bad_rules", str(exc)) from None


def _opponent(data: dict[str, Any], kind: str) -> str | None:
    """The computer level for seat two, or None to leave it to a friend."""
    default = f"bot:{DEFAULT_LEVEL}" if kind == "solo" else "friend"
    opponent = data.get("opponent", default)
    if opponent == "friend" and kind == "room":
        return None
    if isinstance(opponent, str) and opponent.startswith("bot:"):
        level = opponent[4:]
        if level in level_keys():
            return level
        raise ApiError("bad_request", f"unknown computer level {level!r}; see GET /api/levels")
    allowed = "'bot:<level>'" if kind == "solo" else "'friend' or 'bot:<level>'"
    raise ApiError("bad_request", f"opponent must be {allowed}")


async def _room(request: Request) -> Room:
    of_app(request.app).lookups.check(client_address(request))
    room_id = request.path_params["room_id"]
    note_room(room_id)
    room = await _rooms(request).get(room_id)
    if room is None:
        raise ApiError("unknown_room", "there is no such room")
    return room


async def create_identity(request: Request) -> JSONResponse:
    of_app(request.app).identities.check(client_address(request))
    await _body(request)
    token = new_token()
    rooms = _rooms(request)
    await rooms.store.add_identity(hash_token(token))
    player = await rooms.player(hash_token(token))
    log.info("identity created: player %s", player.id)
    return JSONResponse({"token": token, "player": players_.summary(player)}, status_code=201)


async def me(request: Request) -> JSONResponse:
    identity = await _identity(request)
    rooms = _rooms(request)
    games = []
    for ref in await rooms.store.games_of(identity or ""):
        room = await rooms.get_any(ref.room)
        if isinstance(room, ChouetteRoom):
            games.append(chouette_presenter.game(room, int(ref.seat)))
        if not isinstance(room, Room):
            continue
        seat = Seat.parse(ref.seat)
        other = room.seats.get(seat.other)
        games.append(
            {
                "room": room.id,
                "seat": seat.label,
                "kind": room.kind,
                "status": room.status,
                "opponent": None if other is None else other.name,
                "opponent_bot": None if other is None else other.bot,
                "rules": room.rules.name,
                "path": f"/r/{room.id}",
            }
        )
    player = await rooms.player(identity or "")
    return JSONResponse({"games": games, "player": players_.summary(player)})


async def rename(request: Request) -> JSONResponse:
    identity = await _identity(request)
    assert identity is not None
    data = await _body(request)
    _only(data, {"name"})
    try:
        name = players_.valid_name(data.get("name"))
    except players_.BadName as exc:
        raise ApiError("bad_name", str(exc)) from None
    rooms = _rooms(request)
    player = await rooms.player(identity)
    await rooms.store.rename_player(player.id, name)
    renamed = await rooms.store.player(player.id) or player
    rooms.player_changed(renamed)
    await rooms.lobby_changed(player=renamed.id)
    log.info("player %s renamed", player.id)
    return JSONResponse({"player": players_.summary(renamed)})


def _quick(request: Request) -> QuickMatch:
    quick: QuickMatch = request.app.state.quick
    return quick


async def lobby(request: Request) -> JSONResponse:
    return JSONResponse(lobby_body(request.app.state))


def lobby_body(state: Any) -> dict[str, Any]:
    """The lobby: tables, matches, the queue and the open and running tournaments."""
    return {**state.rooms.lobby(), "tournaments": state.tournaments.lobby()}


async def quick_enter(request: Request) -> JSONResponse:
    identity = await _identity(request)
    assert identity is not None
    data = await _body(request)
    _only(data, {"preset", "target_score", "timer"})
    rules = _with_timer(_rules(data), data, 30)
    player = await _rooms(request).player(identity)
    return JSONResponse(await _quick(request).enter(identity, player, rules))


async def quick_status(request: Request) -> JSONResponse:
    identity = await _identity(request)
    assert identity is not None
    return JSONResponse(await _quick(request).status(identity))


async def quick_leave(request: Request) -> JSONResponse:
    identity = await _identity(request)
    assert identity is not None
    await _quick(request).leave(identity)
    return JSONResponse({"status": "idle"})


async def player_page(request: Request) -> JSONResponse:
    rooms = _rooms(request)
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
            "tournaments": await request.app.state.tournaments.played_by(player.id),
        }
    )


async def leaderboard(request: Request) -> JSONResponse:
    top = await _rooms(request).store.leaderboard(50)
    return JSONResponse({"players": [players_.summary(p) for p in top]})


async def test_clock(request: Request) -> JSONResponse:
    clock = _rooms(request).clock
    if not request.app.state.settings.test_clock or not isinstance(clock, ManualClock):
        raise ApiError("not_found", "there is no such page")
    data = await _body(request)
    advance = data.get("advance", 0)
    if isinstance(advance, bool) or not isinstance(advance, int | float) or advance < 0:
        raise ApiError("bad_request", "advance must be a number of seconds, at least 0")
    clock.advance(float(advance))
    return JSONResponse({"now": clock.now()})


async def create_room(request: Request) -> JSONResponse:
    of_app(request.app).rooms.check(client_address(request))
    identity = await _identity(request)
    assert identity is not None
    data = await _body(request)
    kind = data.get("kind", "solo")
    if kind not in ("solo", "room"):
        raise ApiError("bad_request", "kind must be 'solo' or 'room'")
    _only(data, CREATE_FIELDS)
    bot = _opponent(data, kind)
    visibility = data.get("visibility", "private")
    if visibility not in ("private", "public"):
        raise ApiError("bad_request", "visibility must be 'private' or 'public'")
    public = visibility == "public"
    rules = _with_timer(_rules(data), data, 30 if public else None)
    player = await _rooms(request).player(identity)
    name = _name(data, player.name)
    spectators = _flag(data, "spectators", kind == "room")
    spectator_chat = _flag(data, "spectator_chat", False)
    rated = _flag(data, "rated", public and bot is None)
    if rated and not (public and bot is None and kind == "room"):
        raise ApiError("bad_request", "only public tables between two people can be rated")
    bot_name = "" if bot is None else level_name(bot)
    room = await _rooms(request).create(
        kind=kind,
        rules=rules,
        creator_hash=identity,
        name=name,
        opponent_bot=bot,
        spectators=spectators,
        opponent_name=bot_name,
        options={"visibility": visibility, "rated": rated, "spectator_chat": spectator_chat},
    )
    return JSONResponse(
        {"room": room.id, "seat": Seat.ONE.label, "invite_path": f"/r/{room.id}"},
        status_code=201,
    )


CREATE_FIELDS = {
    "kind",
    "preset",
    "target_score",
    "opponent",
    "name",
    "spectators",
    "visibility",
    "rated",
    "timer",
    "spectator_chat",
}


def _only(data: Mapping[str, Any], fields: Set[str]) -> None:
    """Refuse a body with a field not in ``fields`` (``bad_request``, naming them)."""
    unknown = sorted(set(data) - fields)
    if unknown:
        raise ApiError("bad_request", f"unknown field(s): {', '.join(unknown)}")


def _flag(data: dict[str, Any], field: str, default: bool) -> bool:
    value = data.get(field, default)
    if not isinstance(value, bool):
        raise ApiError("bad_request", f"{field} must be true or false")
    return value


def _with_timer(rules: Rules, data: dict[str, Any], default: int | None) -> Rules:
    """The rules with the move timer of the request (``timer``: null or seconds)."""
    timer = data.get("timer", default)
    if timer is not None and (isinstance(timer, bool) or not isinstance(timer, int)):
        raise ApiError("bad_rules", "timer must be null (off) or whole seconds")
    try:
        return rules.with_(move_timer_seconds=timer)
    except RulesError as exc:
        raise ApiError("bad_rules", str(exc)) from None


async def room_info(request: Request) -> JSONResponse:
    room = await _room(request)
    # Only a seat's token changes the answer, and a token that took a seat is known:
    # who the caller is needs no store read (the page reads this at every table).
    token = _bearer(request)
    return JSONResponse(room.info(room.seat_of(None if token is None else hash_token(token))))


async def join_room(request: Request) -> JSONResponse:
    identity = await _identity(request)
    assert identity is not None
    room = await _room(request)
    data = await _body(request)
    player = await _rooms(request).player(identity)
    name = _name(data, player.name)
    seat = await room.join(identity, name, player)
    return JSONResponse({"room": room.id, "seat": seat.label})


async def room_record(request: Request) -> JSONResponse:
    """The match record once the match is over; ``?round=n``: round n of the current
    match as a round record once that round is over (the table's verify link)."""
    room = await _room(request)
    number = round_asked(request)
    if number is None:
        return JSONResponse(room.record().to_dict())
    return JSONResponse(round_record(room.rules, room.current, number))


def round_asked(request: Request) -> int | None:
    """The round a record request asks for (``?round=n``), None for the whole record;
    ``bad_request`` unless it is a whole number of at most six digits."""
    number = request.query_params.get("round")
    if number is None:
        return None
    if not number.isdigit() or len(number) > 6:
        raise ApiError("bad_request", "round is a whole number from 1")
    return int(number)


async def room_review(request: Request) -> JSONResponse:
    """Start or poll the review of one seat of the room's finished match: 202 while it
    runs (with its progress), 200 with the review once done (docs/protocol.md)."""
    room = await _room(request)
    own = room.seat_of(await _identity(request, required=False))
    asked = request.query_params.get("seat") or (own.label if own is not None else None)
    if asked not in ("one", "two"):
        raise ApiError("bad_request", "seat must be 'one' or 'two'")
    seat = Seat.parse(asked)
    if own is not None and seat != own:
        raise ApiError("not_allowed", "a player reviews their own seat only")
    if own is None and not (room.public and room.spectators):
        raise ApiError("not_allowed", "only the players review a private match")
    record = room.record()  # RoomError match_running until the match is over
    reviews: ReviewJobs = request.app.state.reviews
    try:
        job = reviews.start(record, seat)
    except ReviewBusy:
        raise ApiError("busy", "too many reviews are waiting; try again in a minute") from None
    if job.state == "failed":
        raise ApiError("review_failed", f"the review failed: {job.error}")
    return JSONResponse(job.to_dict(), status_code=200 if job.state == "done" else 202)


async def get_levels(request: Request) -> JSONResponse:
    return JSONResponse(
        {
            "levels": [{"key": lv.key, "names": {"de": lv.de, "en": lv.en}} for lv in levels()],
            "default": DEFAULT_LEVEL,
        }
    )


async def get_config(request: Request) -> JSONResponse:
    """The validation limits and quick phrases the browser uses (docs/protocol.md)."""
    return JSONResponse(limits.config())


def _guard(endpoint: Any) -> Any:
    """Turn ``ApiError``/``RoomError``/``StoreError`` into the JSON error shape (each
    counted by code in the metrics)."""

    async def handler(request: Request) -> JSONResponse:
        try:
            response: JSONResponse = await endpoint(request)
            return response
        except ApiError as exc:
            code, refused = exc.code, error_response(exc.code, exc.message, exc.status)
        except RoomError as exc:
            code = exc.code
            refused = error_response(exc.code, exc.message, STATUS.get(exc.code, 400))
        except StoreError as exc:
            log.error("store error on %s: %s", request.url.path, exc)
            code = "unavailable"
            refused = error_response(code, "the server cannot save right now", 503)
        except RateLimited as exc:
            code, refused = exc.code, rate_limited(exc)
        metrics_of(request.app).error("http", code)
        return refused

    handler.__name__ = endpoint.__name__
    return handler


# Shared with the other route modules (server/tournaments/api.py).
guard, caller_identity, json_body = _guard, _identity, _body
# Shared with the chouette rooms' routes (server/chouette/api.py).
rules_of, with_timer, seat_name, flag, only_fields = _rules, _with_timer, _name, _flag, _only


# A LookupRoute's handler counts the lookup first (``_room``); a join asks for the
# identity first (401 before 429), so it is an ordinary route.
routes = [
    Route("/api/identity", _guard(create_identity), methods=["POST"]),
    Route("/api/me", _guard(me), methods=["GET"]),
    Route("/api/me", _guard(rename), methods=["PUT"]),
    Route("/api/lobby", _guard(lobby), methods=["GET"]),
    Route("/api/quick", _guard(quick_enter), methods=["POST"]),
    Route("/api/quick", _guard(quick_status), methods=["GET"]),
    Route("/api/quick", _guard(quick_leave), methods=["DELETE"]),
    Route("/api/players/{player_id}", _guard(player_page), methods=["GET"]),
    Route("/api/leaderboard", _guard(leaderboard), methods=["GET"]),
    Route("/api/test/clock", _guard(test_clock), methods=["POST"]),
    Route("/api/rooms", _guard(create_room), methods=["POST"]),
    LookupRoute("/api/rooms/{room_id}", _guard(room_info), methods=["GET"]),
    Route("/api/rooms/{room_id}/join", _guard(join_room), methods=["POST"]),
    LookupRoute("/api/rooms/{room_id}/record", _guard(room_record), methods=["GET"]),
    LookupRoute("/api/rooms/{room_id}/review", _guard(room_review), methods=["GET", "POST"]),
    Route("/api/levels", _guard(get_levels), methods=["GET"]),
    Route("/api/config", _guard(get_config), methods=["GET"]),
]
