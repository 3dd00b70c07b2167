"""Who is calling: the bearer token of a request, the identity it names."""

from __future__ import annotations

from starlette.requests import Request

from ginrummy.server.api.errors import ApiError
from ginrummy.server.api.services import rooms_of
from ginrummy.server.tokens import hash_token


def bearer(request: Request) -> str | None:
    """The token of ``Authorization: Bearer <token>``, or None."""
    header = request.headers.get("authorization", "")
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        return None
    return token.strip()


async def identity(request: Request) -> str:
    """The hash of the caller's token, checked against the store: ``unauthorized``
    without a token, ``bad_token`` for one the store does not know."""
    token = bearer(request)
    if token is None:
        raise ApiError("unauthorized", "send 'Authorization: Bearer <token>'")
    token_hash = hash_token(token)
    if not await rooms_of(request).store.has_identity(token_hash):
        raise ApiError("bad_token", "unknown token; create one with POST /api/identity")
    return token_hash


async def maybe_identity(request: Request) -> str | None:
    """The hash of the caller's token if the store knows it, else None (no error)."""
    token = bearer(request)
    if token is None:
        return None
    token_hash = hash_token(token)
    return token_hash if await rooms_of(request).store.has_identity(token_hash) else None
