"""The ASGI app: ``create_app(settings)`` wires store, bus, rooms, HTTP, WebSocket and
the static client."""

from __future__ import annotations

import contextlib
import logging
from collections.abc import AsyncIterator
from pathlib import Path

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles

from ginrummy.server import api
from ginrummy.server.clock import Clock, ManualClock, SystemClock
from ginrummy.server.pubsub import open_bus
from ginrummy.server.quick import QuickMatch
from ginrummy.server.room import RoomManager
from ginrummy.server.settings import Settings
from ginrummy.server.sockets import websocket_endpoint
from ginrummy.server.store import open_store
from ginrummy.server.tournaments import TournamentService
from ginrummy.server.tournaments import api as tournament_api

log = logging.getLogger("ginrummy.server")

WEB_DIR = Path(__file__).resolve().parent.parent / "web"


def create_app(settings: Settings | None = None) -> Starlette:
    """The app for ``settings``; the store opens (and rooms come back) on start-up."""
    settings = settings or Settings()
    web_dir = settings.web_dir or WEB_DIR

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        store = open_store(settings.store_url)
        await store.open()
        bus = open_bus(settings.bus_url)
        clock: Clock = ManualClock() if settings.test_clock else SystemClock()
        rooms = RoomManager(
            store,
            bus,
            settings.bot_delay,
            clock=clock,
            grace_seconds=settings.grace_seconds,
            instance_id=settings.instance_id,
            lease_ttl=settings.lease_ttl,
            lease_renew=settings.lease_renew,
            presence_interval=settings.presence_interval,
            quick_confirm=settings.quick_confirm,
            idle_s=settings.room_idle_s,
            max_rooms=settings.max_rooms,
        )
        app.state.rooms = rooms
        app.state.quick = QuickMatch(rooms)
        app.state.tournaments = TournamentService(
            rooms, settings.tournament_tick, settings.lease_ttl
        )
        log.info("store %s open", settings.store_url.split(":", 1)[0])
        log.info(
            "instance %s (room leases last %g s, renewed every %g s)",
            rooms.instance_id,
            settings.lease_ttl,
            settings.lease_renew,
        )
        if settings.test_clock:
            log.warning("GINRUMMY_TEST_CLOCK is set: the clock moves by POST /api/test/clock")
        await rooms.start()  # the listed rooms, then the lobby notices of every instance
        app.state.quick.start()
        await app.state.tournaments.start()
        try:
            yield
        finally:
            await app.state.tournaments.close()
            await app.state.quick.close()
            await rooms.close()
            await bus.close()
            await store.close()
            log.info("server stopped")

    async def index(request: Request) -> Response:
        page = web_dir / "index.html"
        if not page.is_file():
            return PlainTextResponse("the web client is not installed", status_code=404)
        return FileResponse(page, headers={"Cache-Control": "no-cache"})

    routes = [
        Route("/", index, methods=["GET", "HEAD"]),
        Route("/r/{room_id}", index, methods=["GET", "HEAD"]),
        Route("/lobby", index, methods=["GET", "HEAD"]),
        Route("/leaderboard", index, methods=["GET", "HEAD"]),
        Route("/p/{player_id}", index, methods=["GET", "HEAD"]),
        Route("/t/{tournament_id}", index, methods=["GET", "HEAD"]),
        *api.routes,
        *tournament_api.routes,
        WebSocketRoute("/ws", websocket_endpoint),
        Mount("/static", StaticFiles(directory=web_dir, check_dir=False), name="static"),
    ]
    app = Starlette(routes=routes, lifespan=lifespan)
    app.state.settings = settings
    return app
