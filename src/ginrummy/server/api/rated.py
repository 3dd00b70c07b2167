"""Rated play counts accounts only (docs/accounts.md, "Rated play needs an account"):
a rated table, the quick match (always rated) and a rated tournament refuse a guest
with ``account_required``; casual tables and unrated tournaments stay open to guests."""

from __future__ import annotations

from starlette.requests import Request

from ginrummy.server.api.errors import ApiError
from ginrummy.server.api.services import rooms_of


async def has_account(request: Request, identity: str) -> bool:
    return await rooms_of(request).store.account_of(identity) is not None


async def require_account(request: Request, identity: str) -> None:
    """``account_required`` (403) unless ``identity`` is an account's."""
    if not await has_account(request, identity):
        raise ApiError("account_required", "rated play needs an account: create one to play rated")
