"""Friends and challenges: the routes of docs/protocol.md, "Friends".

The caller is always the token's identity (``callers``), and an account
(``no_account`` otherwise); a body names only the *other* person. The flows are
``friends.service``'s; each refusal has its code and changes nothing.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable
from dataclasses import replace
from typing import ClassVar, TypeVar

import msgspec
from starlette.requests import Request
from starlette.routing import Route

from ginrummy.engine import Seat
from ginrummy.server.api import callers
from ginrummy.server.api.bodies import Body, given, read
from ginrummy.server.api.errors import ApiError
from ginrummy.server.api.services import rooms_of
from ginrummy.server.api.tables import RULES_CODES, rules_of
from ginrummy.server.friends.errors import FriendError
from ginrummy.server.friends.service import FriendService
from ginrummy.server.ratelimit import of_app
from ginrummy.server.responses import JSONResponse
from ginrummy.server.room import RoomError
from ginrummy.server.store import MatchChallenge, Player, StoreError

log = logging.getLogger("ginrummy.server.api")

T = TypeVar("T")


class Someone(Body, frozen=True):
    """Another person: an account's name, or a player id (their player page)."""

    CODES: ClassVar = {"name": "bad_name", "player": "unknown_player"}
    name: str | None = None
    player: str | None = None


class NewChallenge(Someone, frozen=True):
    CODES: ClassVar = {**Someone.CODES, **RULES_CODES}
    preset: str = "standard"
    target_score: int | None = None


class Privacy(Body, frozen=True):
    CODES: ClassVar = {"hide_whereabouts": "bad_request", "friends_only": "bad_request"}
    hide_whereabouts: bool | msgspec.UnsetType = msgspec.UNSET
    friends_only: bool | msgspec.UnsetType = msgspec.UNSET


def friends_of(request: Request) -> FriendService:
    service: FriendService = request.app.state.friends
    return service


async def _refused(flow: Awaitable[T]) -> T:
    try:
        return await flow
    except FriendError as exc:
        raise ApiError(exc.code, exc.message) from None


async def _me(request: Request) -> tuple[str, Player]:
    """The caller's identity and player; ``no_account`` unless an account."""
    identity = await callers.identity(request)
    return identity, await _refused(friends_of(request).me(identity))


async def _other(request: Request, body: Someone) -> Player:
    if (body.name is None) == (body.player is None):
        raise ApiError("bad_request", "name the other person by 'name' or by 'player'")
    return await _refused(friends_of(request).find(body.name, body.player))


async def listing(request: Request) -> JSONResponse:
    _, me = await _me(request)
    return JSONResponse(await friends_of(request).listing(me))


async def befriend(request: Request) -> JSONResponse:
    identity, me = await _me(request)
    body = await read(request, Someone)
    other = await _other(request, body)
    of_app(request.app).friend_requests.check(identity)
    state = await _refused(friends_of(request).request(me, other))
    return JSONResponse({"state": state, "player": {"id": other.id, "name": other.name}})


async def unfriend(request: Request) -> JSONResponse:
    _, me = await _me(request)
    await friends_of(request).remove(me, request.path_params["player"])
    return JSONResponse({"removed": request.path_params["player"]})


async def privacy(request: Request) -> JSONResponse:
    _, me = await _me(request)
    body = await read(request, Privacy)
    service = friends_of(request)
    old = await service.store.social(me.id)
    new = replace(old, **given(body))
    await service.set_social(me, new)
    return JSONResponse(
        {"hide_whereabouts": new.hide_whereabouts, "friends_only": new.friends_only}
    )


async def challenge(request: Request) -> JSONResponse:
    identity, me = await _me(request)
    body = await read(request, NewChallenge)
    rules_of(body.preset, body.target_score)  # bad_rules before anything is kept
    other = await _other(request, body)
    of_app(request.app).challenges.check(identity)
    flow = friends_of(request).challenge(me, other, body.preset, body.target_score)
    return JSONResponse({"challenge": await _refused(flow)}, status_code=201)


async def _close(request: Request, state: str) -> MatchChallenge:
    await read(request, Body)
    _, me = await _me(request)
    flow = friends_of(request).close(me, request.path_params["id"], state)
    return await _refused(flow)


async def _sender(service: FriendService, challenge: MatchChallenge) -> tuple[Player, str]:
    """The challenge's sender and their account's identity; ``unknown_player`` if their
    account is gone."""
    sender = await service.store.player(challenge.sender)
    identity = None if sender is None else await service.account_identity(sender)
    if sender is None or identity is None:
        raise ApiError("unknown_player", "the player who challenged you has no account now")
    return sender, identity


async def accept(request: Request) -> JSONResponse:
    await read(request, Body)
    identity, me = await _me(request)
    service, rooms = friends_of(request), rooms_of(request)
    challenge_id = request.path_params["id"]
    # The sender's account before the challenge is closed: a refusal changes nothing.
    found = await service.store.match_challenge(challenge_id)
    if found is not None and found.receiver == me.id and found.state == "open":
        await _sender(service, found)
    accepted = await _refused(service.close(me, challenge_id, "accepted"))
    try:  # again, closed: the account may have gone meanwhile
        sender, sender_identity = await _sender(service, accepted)
    except ApiError:
        await service.store.reopen_match_challenge(accepted.id)
        raise
    receiver = await rooms.player(identity)
    try:
        room = await rooms.create(
            kind="room",
            rules=rules_of(accepted.preset, accepted.target_score),
            creator_hash=sender_identity,
            name=sender.name,
            opponent_bot=None,
            spectators=True,
            opponent_name=receiver.name,
            opponent_hash=identity,
            options={"visibility": "private", "rated": False, "spectator_chat": False},
        )
    except (RoomError, StoreError):
        # No room: the challenge is open again, to be accepted again until it expires.
        await service.store.reopen_match_challenge(accepted.id)
        raise
    shown = await service.opened(accepted, room.id)
    log.info("room %s: opened for an accepted challenge", room.id)
    return JSONResponse(
        {"room": room.id, "seat": Seat.TWO.label, "challenge": shown}, status_code=201
    )


async def decline(request: Request) -> JSONResponse:
    closed = await _close(request, "declined")
    return JSONResponse({"challenge": await friends_of(request).shown(closed)})


async def withdraw(request: Request) -> JSONResponse:
    closed = await _close(request, "withdrawn")
    return JSONResponse({"challenge": await friends_of(request).shown(closed)})


routes = [
    Route("/api/friends", listing, methods=["GET"]),
    Route("/api/friends", befriend, methods=["POST"]),
    Route("/api/friends/settings", privacy, methods=["PUT"]),
    Route("/api/friends/{player}", unfriend, methods=["DELETE"]),
    Route("/api/challenges", challenge, methods=["POST"]),
    Route("/api/challenges/{id}/accept", accept, methods=["POST"]),
    Route("/api/challenges/{id}/decline", decline, methods=["POST"]),
    Route("/api/challenges/{id}", withdraw, methods=["DELETE"]),
]
