"""Who is calling: the bearer token of a request, the identity it names.

Every token resolves here, through the store (``token_identity``): a guest's token is
its identity; an account's devices each have a token of their own that resolves to the
account's identity until the device is signed out (docs/accounts.md).
"""

from __future__ import annotations

from dataclasses import dataclass

from starlette.requests import Request

from ginrummy.server.api.errors import ApiError
from ginrummy.server.api.services import rooms_of
from ginrummy.server.tokens import hash_token


@dataclass(frozen=True, slots=True)
class Caller:
    """A resolved caller: the hash of the token it sent, and the identity it names."""

    token_hash: str
    identity: str


def bearer(request: Request) -> str | None:
    """The token of ``Authorization: Bearer <token>``, or None."""
    header = request.headers.get("authorization", "")
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        return None
    return token.strip()


async def caller(request: Request) -> Caller:
    """The caller: ``unauthorized`` without a token, ``bad_token`` for one the store does
    not know (or a signed-out device's)."""
    token = bearer(request)
    if token is None:
        raise ApiError("unauthorized", "send 'Authorization: Bearer <token>'")
    token_hash = hash_token(token)
    identity = await rooms_of(request).store.token_identity(token_hash)
    if identity is None:
        raise ApiError("bad_token", "unknown token; create one with POST /api/identity")
    return Caller(token_hash, identity)


async def identity(request: Request) -> str:
    """The identity (its hash) of the caller's token, as ``caller`` resolves it."""
    return (await caller(request)).identity


async def maybe_identity(request: Request) -> str | None:
    """The identity of the caller's token if the store knows it, else None (no error)."""
    token = bearer(request)
    if token is None:
        return None
    return await rooms_of(request).store.token_identity(hash_token(token))
