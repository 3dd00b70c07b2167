"""The ASGI app: ``create_app(settings)`` wires store, bus, rooms, HTTP, WebSocket,
the static client and the operators' metrics."""

from __future__ import annotations

import contextlib
import logging
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import AbstractAsyncContextManager
from pathlib import Path

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response
from starlette.routing import Route, WebSocketRoute

from ginrummy.server import api, health, scrape
from ginrummy.server.access import AccessLog
from ginrummy.server.accounts.erased import Eraser
from ginrummy.server.api.errors import HANDLERS
from ginrummy.server.clock import Clock, ManualClock, SystemClock
from ginrummy.server.drain import Drain
from ginrummy.server.friends.service import FriendService
from ginrummy.server.gate import LookupGate
from ginrummy.server.kinds import TableKind, table_kinds
from ginrummy.server.metrics import Metrics
from ginrummy.server.pubsub import Bus, open_bus
from ginrummy.server.quick import QuickMatch
from ginrummy.server.requestid import RequestIds
from ginrummy.server.responses import error_response
from ginrummy.server.reviews import ReviewJobs
from ginrummy.server.room import RoomManager
from ginrummy.server.settings import Settings
from ginrummy.server.sockets import websocket_endpoint
from ginrummy.server.sockets.revoke import Revoker
from ginrummy.server.static import LLMS_TXT, SERVICE_WORKER, StaticFiles
from ginrummy.server.store import Store, open_store
from ginrummy.server.thinking import ThinkingPool
from ginrummy.server.timed import timed_bus, timed_store
from ginrummy.server.tournaments import TournamentService

log = logging.getLogger("ginrummy.server")

WEB_DIR = Path(__file__).resolve().parent.parent / "web"


def create_app(settings: Settings | None = None, kinds: Sequence[TableKind] = ()) -> Starlette:
    """The app for ``settings``; the store opens (and rooms come back) on start-up.
    ``kinds``: kinds of table played beside the two-player and chouette rooms."""
    settings = settings or Settings()
    tables = table_kinds(kinds)
    static = StaticFiles.load(settings.web_dir or WEB_DIR)
    # This app's own registry: apps side by side (tests, instances) never share one.
    metrics = Metrics(on=settings.metrics_on)
    routes = [
        *_page_routes(static),
        *api.routes,
        *tables.routes,
        *health.routes,
        *(scrape.routes if metrics.on else ()),
        WebSocketRoute("/ws", websocket_endpoint),
    ]
    # Outermost the request id, which the access log and everything after it logs;
    # over-limit room lookups are answered in front of the routing (server/gate.py).
    middleware = [Middleware(RequestIds)]
    if settings.access_log:
        middleware.append(Middleware(AccessLog))
    middleware.append(Middleware(LookupGate, routes=routes))
    # The API's routes raise typed errors; these handlers answer each (server/api/errors.py).
    app = Starlette(
        routes=routes,
        middleware=middleware,
        exception_handlers={**HANDLERS, 404: _not_found(static)},
        lifespan=_lifespan(settings),
    )
    app.state.settings = settings
    app.state.kinds = tables
    app.state.static = static
    app.state.revoker = Revoker()  # signed-out tokens' sockets close (sockets/revoke.py)
    app.state.drain = Drain(settings.drain_s)  # what a SIGTERM does first (server/drain.py)
    app.state.metrics = metrics
    return app


def _room_manager(
    settings: Settings,
    store: Store,
    bus: Bus,
    metrics: Metrics,
    drain: Drain,
    clock: Clock,
    thinker: ThinkingPool,
) -> RoomManager:
    return RoomManager(
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
        seed_timeout=settings.seed_timeout,
        metrics=metrics,
        leaving=lambda: drain.draining,
        thinker=thinker,
    )


def _lifespan(settings: Settings) -> Callable[[Starlette], AbstractAsyncContextManager[None]]:
    """Open the store and the bus, start the rooms and the quick match; close in reverse."""

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        metrics: Metrics = app.state.metrics
        # One clock for the rooms and the store (leases, the quick match, what is recorded).
        clock: Clock = ManualClock() if settings.test_clock else SystemClock()
        # Timed here, at one place, whatever the backends (with metrics on).
        store = timed_store(open_store(settings.store_url, now=clock.now), metrics)
        await store.open()
        bus = timed_bus(
            open_bus(settings.bus_url, on_reconnect=metrics.bus_reconnects.inc), metrics
        )
        # Heavy computer levels think in worker processes, started at the first decision.
        thinker = ThinkingPool(settings.thinking_workers, settings.thinking_bound, metrics)
        app.state.thinker = thinker
        rooms = _room_manager(settings, store, bus, metrics, app.state.drain, clock, thinker)
        metrics.count_games(rooms.in_play)
        app.state.kinds.register(rooms)  # each kind's rooms replay their own logs
        app.state.rooms = rooms
        app.state.revoker.start(bus)
        app.state.quick = QuickMatch(rooms)
        friends = FriendService(
            store, bus, clock, rooms.player, rooms.instance_id, settings.friends_presence_s
        )
        app.state.friends = friends
        app.state.tournaments = TournamentService(
            rooms, settings.tournament_tick, settings.lease_ttl
        )
        # A deleted identity's name, shown anew on every instance (accounts/erased.py).
        eraser = Eraser(rooms, app.state.tournaments)
        eraser.start(bus)
        reviews = ReviewJobs(
            settings.data_dir / "reviews", settings.review_budget, settings.review_workers
        )
        app.state.reviews = reviews
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
        friends.presence.start()
        await app.state.tournaments.start()
        try:
            yield
        finally:
            await eraser.close()
            await app.state.tournaments.close()
            await app.state.quick.close()
            await friends.presence.close()
            reviews.close()
            await app.state.revoker.close()
            await rooms.close()
            await thinker.close()  # after the rooms: no decision is asked any more
            await bus.close()
            await store.close()
            metrics.count_games(None)
            log.info("server stopped")

    return lifespan


def _not_found(static: StaticFiles) -> Callable[[Request, Exception], Awaitable[Response]]:
    """What a path no route has is answered with (404): under ``/api/`` the API's JSON
    error ``not_found``; a page's path (a GET of anything but the client's files) the
    page itself, whose router says that there is no such page, with the site's header
    and a link back to the start page (web/js/routes.js, pages/notfound.js)."""

    async def not_found(request: Request, exc: Exception) -> Response:
        path = request.url.path
        if path == "/api" or path.startswith("/api/"):
            return error_response("not_found", "There is no such API path.", 404)
        page = request.method in ("GET", "HEAD") and not path.startswith("/static/")
        if page and "index.html" in static.assets:
            return static.response(request, "index.html", status_code=404)
        return PlainTextResponse("Not Found", status_code=404)

    return not_found


def _page_routes(static: StaticFiles) -> list[Route]:
    """The client's pages (one HTML page, routed in the browser), its files and the
    service worker."""

    async def index(request: Request) -> Response:
        if "index.html" not in static.assets:
            return PlainTextResponse("the web client is not installed", status_code=404)
        return static.response(request, "index.html")

    async def static_file(request: Request) -> Response:
        return static.response(request, request.path_params["name"])

    async def service_worker(request: Request) -> Response:
        # At the root, so that its scope is the whole site.
        return static.response(request, SERVICE_WORKER)

    async def llms_txt(request: Request) -> Response:
        # How the table works, for AI agents that drive a browser (the llms.txt convention).
        return static.response(request, LLMS_TXT)

    # Every route of the page (web/js/site.json: the room, review, device, tournament,
    # chouette, lobby, leaderboard and player pages), routed in the browser (web/js/routes.js).
    pages = [route.path for route in static.site.routes]
    return [
        *(Route(path, index, methods=["GET", "HEAD"]) for path in pages),
        Route("/sw.js", service_worker, methods=["GET", "HEAD"]),
        Route(f"/{LLMS_TXT}", llms_txt, methods=["GET", "HEAD"]),
        Route("/static/{name:path}", static_file, methods=["GET", "HEAD"]),
    ]
