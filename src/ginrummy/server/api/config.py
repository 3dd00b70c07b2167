"""What the browser configures itself from: the computer levels, the validation limits."""

from __future__ import annotations

from starlette.requests import Request
from starlette.routing import Route

from ginrummy.protocol import limits
from ginrummy.server.computer import DEFAULT_LEVEL, levels
from ginrummy.server.responses import JSONResponse


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


routes = [
    Route("/api/levels", get_levels, methods=["GET"]),
    Route("/api/config", get_config, methods=["GET"]),
]
