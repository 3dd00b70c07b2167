"""Health checks for a load balancer: liveness (the process answers) and readiness
(the store answers, the bus is connected, the instance is not draining);
docs/operations.md."""

from __future__ import annotations

from starlette.requests import Request
from starlette.routing import Route

from ginrummy.server.drain import drain_of
from ginrummy.server.responses import JSONResponse
from ginrummy.server.room import RoomManager
from ginrummy.server.store import StoreError


async def health(request: Request) -> JSONResponse:
    """Liveness: the process answers."""
    return JSONResponse({"ok": True})


async def ready(request: Request) -> JSONResponse:
    """Readiness: the store answers and the bus is connected (for a load balancer); 503
    at once while the instance drains (server/drain.py)."""
    drain = drain_of(request.app)
    if drain.draining:
        body = {"ready": False, "draining": True, "grace_left_s": round(drain.left(), 1)}
        return JSONResponse(body, status_code=503)
    rooms: RoomManager = request.app.state.rooms
    checks: dict[str, str] = {}
    try:
        await rooms.store.has_identity("readiness-check")
        checks["store"] = "ok"
    except StoreError as exc:
        checks["store"] = f"unavailable: {exc}"
    connected = getattr(rooms.bus, "connected", None)  # only the Redis bus can be away
    if connected is None or connected.is_set():
        checks["bus"] = "ok"
    else:
        checks["bus"] = "unavailable: reconnecting to Redis"
    ok = all(v == "ok" for v in checks.values())
    return JSONResponse({"ready": ok, **checks}, status_code=200 if ok else 503)


routes = [
    Route("/api/health", health, methods=["GET"]),
    Route("/api/ready", ready, methods=["GET"]),
]
