"""HTTP bodies in the protocol's one strict JSON encoding (``ginrummy.protocol.to_json``):
no ``NaN``/``Infinity``, no lone surrogate, the same text a socket frame would carry;
and the API's error answers (docs/protocol.md, "HTTP")."""

from __future__ import annotations

from typing import Any

from starlette import responses

from ginrummy.protocol import to_json
from ginrummy.server.ratelimit import RateLimited


class JSONResponse(responses.JSONResponse):
    """Starlette's JSON response, written by the strict encoder."""

    def render(self, content: Any) -> bytes:
        return to_json(content).encode("utf-8")


def error_response(code: str, message: str, status: int) -> JSONResponse:
    """The API's error shape: ``{"error": {"code": ..., "message": ...}}``."""
    return JSONResponse({"error": {"code": code, "message": message}}, status_code=status)


def rate_limited(exc: RateLimited) -> JSONResponse:
    """429 ``rate_limited`` with ``Retry-After`` (docs/operations.md, "Rate limits")."""
    limited = error_response(exc.code, exc.message, 429)
    limited.headers["Retry-After"] = str(exc.retry_after)
    return limited
