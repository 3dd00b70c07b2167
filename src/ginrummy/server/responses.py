"""HTTP bodies in the protocol's one strict JSON encoding (``ginrummy.protocol.to_json``):
no ``NaN``/``Infinity``, no lone surrogate, the same text a socket frame would carry."""

from __future__ import annotations

from typing import Any

from starlette import responses

from ginrummy.protocol import to_json


class JSONResponse(responses.JSONResponse):
    """Starlette's JSON response, written by the strict encoder."""

    def render(self, content: Any) -> bytes:
        return to_json(content).encode("utf-8")
