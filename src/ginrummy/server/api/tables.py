"""What every kind of table's routes share: the table a path names, and what a new
table's body asks for (its rules, its move timer, the creator's seat name)."""

from __future__ import annotations

from typing import Any, ClassVar, TypeVar

import msgspec
from starlette.requests import Request

from ginrummy.engine import Rules, RulesError
from ginrummy.server import players as players_
from ginrummy.server.api.bodies import Body
from ginrummy.server.api.errors import ApiError
from ginrummy.server.api.services import rooms_of
from ginrummy.server.logcontext import note_room
from ginrummy.server.ratelimit import client_address, of_app
from ginrummy.server.room.base import RoomBase

T = TypeVar("T", bound=RoomBase[Any, Any, Any])


async def table_of_path(request: Request, kind: type[T], what: str) -> T:
    """The table of kind ``kind`` the path's ``room_id`` names (a lookup, counted
    against the address's limit); ``unknown_room`` ("there is no such ``what``") if
    there is none of that kind."""
    of_app(request.app).lookups.check(client_address(request))
    room_id = request.path_params["room_id"]
    note_room(room_id)
    room = await rooms_of(request).get_any(room_id)
    if not isinstance(room, kind):
        raise ApiError("unknown_room", f"there is no such {what}")
    return room


TARGETS = (50, 100, 200)
RULES_CODES = {"preset": "bad_rules", "target_score": "bad_rules", "timer": "bad_rules"}


class TableBody(Body, frozen=True):
    """The fields every new table's body has: the rules' preset and target, the timer
    (``UNSET``: the route's default; null: off)."""

    CODES: ClassVar = RULES_CODES
    preset: str = "standard"
    target_score: int | None = None
    timer: int | msgspec.UnsetType | None = msgspec.UNSET

    def rules(self, timer: int | None) -> Rules:
        """The rules asked for, with the move timer (``timer`` unless the body has one);
        ``bad_rules`` for a preset, target or timer the rules do not allow."""
        return with_timer(rules_of(self.preset, self.target_score), self.timer, timer)


def rules_of(preset: str, target: int | None) -> Rules:
    try:
        base = Rules.preset(preset)
    except RulesError as exc:
        raise ApiError("bad_rules", str(exc)) from None
    if target is None:
        return base
    if base.target_score is None:
        raise ApiError("bad_rules", f"the preset {preset!r} has no target score")
    if target not in TARGETS:
        raise ApiError("bad_rules", f"target_score must be one of {', '.join(map(str, TARGETS))}")
    try:
        return Rules.preset(preset, target_score=target)
    except RulesError as exc:
        raise ApiError("bad_rules", str(exc)) from None


def with_timer(rules: Rules, asked: int | msgspec.UnsetType | None, default: int | None) -> Rules:
    """The rules with the move timer asked for (``UNSET``: ``default``)."""
    timer = default if asked is msgspec.UNSET else asked
    try:
        return rules.with_(move_timer_seconds=timer)
    except RulesError as exc:
        raise ApiError("bad_rules", str(exc)) from None


def seat_name(name: object, default: str) -> str:
    """The seat name asked for (None: the player's nickname, checked when it was set):
    the one name rule, ``bad_name`` otherwise."""
    if name is None:
        return default
    return valid_name(name)


def valid_name(name: object) -> str:
    """A name a person typed, or ``bad_name`` with the reason."""
    try:
        return players_.valid_name(name)
    except players_.BadName as exc:
        raise ApiError("bad_name", str(exc)) from None
