"""Accounts without passwords: the routes of docs/protocol.md, "Accounts".

The routes validate and answer; the flows are ``accounts.service``'s. Each refusal has
its code (``AccountError``), and nothing is changed by one.
"""

from __future__ import annotations

import logging
from typing import Any, ClassVar

from starlette.requests import Request
from starlette.routing import Route

from ginrummy.protocol.limits import BadName
from ginrummy.server import players as players_
from ginrummy.server.accounts.labels import device_label
from ginrummy.server.accounts.names import account_name
from ginrummy.server.accounts.passkeys import RelyingParty
from ginrummy.server.accounts.service import AccountError, Accounts, SignedIn
from ginrummy.server.api import callers
from ginrummy.server.api.bodies import Body, read
from ginrummy.server.api.errors import ApiError
from ginrummy.server.api.services import rooms_of
from ginrummy.server.ratelimit import client_address, of_app
from ginrummy.server.responses import JSONResponse
from ginrummy.server.settings import Settings
from ginrummy.server.sockets.revoke import revoke
from ginrummy.server.store import Device

log = logging.getLogger("ginrummy.server.api")


class NewPasskey(Body, frozen=True):
    CODES: ClassVar = {"name": "bad_name", "confirm": "bad_request"}
    name: str | None = None  # a new account's name; None: one more passkey
    confirm: dict[str, Any] | None = None  # one more passkey: a confirm answer


class Confirm(Body, frozen=True):
    CODES: ClassVar = {"confirm": "bad_request"}
    confirm: dict[str, Any] | None = None  # an answer to the confirm options


class Answer(Body, frozen=True):
    CODES: ClassVar = {"credential": "bad_request"}
    credential: dict[str, Any]


class Code(Body, frozen=True):
    CODES: ClassVar = {"code": "bad_code"}
    code: str


def relying_party(request: Request) -> RelyingParty:
    """The site's RP ID and origin: the settings' (``GINRUMMY_RP_ID``,
    ``GINRUMMY_ORIGIN``), else the request's own host and origin."""
    settings: Settings = request.app.state.settings
    url = request.url
    rp_id = settings.rp_id or (url.hostname or "localhost")
    origin = settings.origin or f"{url.scheme}://{url.netloc}"
    return RelyingParty(rp_id, origin)


def accounts_of(request: Request) -> Accounts:
    rooms = rooms_of(request)
    return Accounts(rooms.store, rooms.clock.now, relying_party(request))


async def _answer(request: Request, flow: Any) -> Any:
    try:
        return await flow
    except AccountError as exc:
        raise ApiError(exc.code, exc.message) from None


def _device(d: Device, token_hash: str) -> dict[str, Any]:
    return {
        "id": d.id,
        "label": d.label,
        "created": d.created,
        "last_seen": d.last_seen,
        "this": d.token_hash == token_hash,
    }


async def account(request: Request) -> JSONResponse:
    who = await callers.caller(request)
    store = rooms_of(request).store
    found = await store.account_of(who.identity)
    if found is None:
        return JSONResponse({"account": None, "devices": [], "passkeys": 0})
    devices = await accounts_of(request).devices(who.identity, who.token_hash)
    return JSONResponse(
        {
            "account": {"name": found.name, "created": found.created},
            "devices": [_device(d, who.token_hash) for d in devices],
            "passkeys": len(await store.passkeys_of(who.identity)),
        }
    )


async def registration_options(request: Request) -> JSONResponse:
    who = await callers.caller(request)
    body = await read(request, NewPasskey)
    name = None
    if body.name is not None:
        try:
            name = account_name(body.name)
        except BadName as exc:
            raise ApiError("bad_name", str(exc)) from None
    of_app(request.app).accounts.check(client_address(request))
    await rooms_of(request).player(who.identity)  # the player an account upgrades
    flow = accounts_of(request).registration_options(
        who.identity, name, body.confirm, who.token_hash
    )
    return JSONResponse({"options": await _answer(request, flow)})


async def confirm_options(request: Request) -> JSONResponse:
    who = await callers.caller(request)
    await read(request, Body)
    of_app(request.app).sign_ins.check(client_address(request))
    options = await _answer(request, accounts_of(request).confirm_options(who.identity))
    return JSONResponse({"options": options})


async def register(request: Request) -> JSONResponse:
    who = await callers.caller(request)
    body = await read(request, Answer)
    label = device_label(request.headers.get("user-agent", ""))
    flow = accounts_of(request).register(who.token_hash, who.identity, body.credential, label)
    made = await _answer(request, flow)
    rooms = rooms_of(request)
    player = await rooms.player(who.identity)
    rooms.player_changed(player)
    await rooms.lobby_changed(player=player.id)
    log.info("passkey registered: player %s", player.id)
    return JSONResponse(
        {"account": {"name": made.name}, "player": players_.summary(player)}, status_code=201
    )


async def sign_in_options(request: Request) -> JSONResponse:
    await read(request, Body)
    of_app(request.app).sign_ins.check(client_address(request))
    return JSONResponse({"options": await _answer(request, accounts_of(request).sign_in_options())})


async def sign_in(request: Request) -> JSONResponse:
    body = await read(request, Answer)
    of_app(request.app).sign_ins.check(client_address(request))
    label = device_label(request.headers.get("user-agent", ""))
    return await _signed_in(
        request, await _answer(request, accounts_of(request).sign_in(body.credential, label))
    )


async def new_code(request: Request) -> JSONResponse:
    who = await callers.caller(request)
    await read(request, Body)
    of_app(request.app).sign_ins.check(client_address(request))  # codes made count too
    code, expires = await _answer(request, accounts_of(request).new_code(who.identity))
    return JSONResponse({"code": code, "expires": expires}, status_code=201)


async def sign_in_by_code(request: Request) -> JSONResponse:
    body = await read(request, Code)
    of_app(request.app).sign_ins.check(client_address(request))
    label = device_label(request.headers.get("user-agent", ""))
    flow = accounts_of(request).sign_in_by_code(body.code, label)
    return await _signed_in(request, await _answer(request, flow))


async def sign_out(request: Request) -> JSONResponse:
    who = await callers.caller(request)
    body = await read(request, Confirm)
    device = request.path_params["id"]
    flow = accounts_of(request).sign_out(who.identity, device, who.token_hash, body.confirm)
    signed_out = await _answer(request, flow)
    await revoke(rooms_of(request).bus, tokens=[signed_out])  # its open sockets close
    log.info("device signed out")
    return JSONResponse({"signed_out": request.path_params["id"]})


async def _signed_in(request: Request, done: SignedIn) -> JSONResponse:
    rooms = rooms_of(request)
    player = await rooms.player(done.identity)
    found = await rooms.store.account_of(done.identity)
    log.info("device signed in: player %s", player.id)
    return JSONResponse(
        {
            "token": done.token,
            "device": done.device.id,
            "account": None if found is None else {"name": found.name},
            "player": players_.summary(player),
        },
        status_code=201,
    )


routes = [
    Route("/api/account", account, methods=["GET"]),
    Route("/api/account/passkeys/options", registration_options, methods=["POST"]),
    Route("/api/account/passkeys", register, methods=["POST"]),
    Route("/api/account/confirm/options", confirm_options, methods=["POST"]),
    Route("/api/account/sign-in/options", sign_in_options, methods=["POST"]),
    Route("/api/account/sign-in", sign_in, methods=["POST"]),
    Route("/api/account/codes", new_code, methods=["POST"]),
    Route("/api/account/sign-in/code", sign_in_by_code, methods=["POST"]),
    Route("/api/account/devices/{id}", sign_out, methods=["DELETE"]),
]
