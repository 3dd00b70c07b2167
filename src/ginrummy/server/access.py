"""The access log: one line per HTTP request and per WebSocket handshake, logger
``ginrummy.access`` at INFO (docs/operations.md, "Logs"). Its path has no query
string: a query string may carry a secret.

uvicorn's own access lines are off (``main.uvicorn_config``), and ``Handshakes`` drops
its lines of WebSocket handshakes, which carry the query string: this log says the same
without it, and switching it off (``Settings.access_log``) leaves no access line at all.
"""

from __future__ import annotations

import logging
import time

from starlette.types import ASGIApp, Message, Receive, Scope, Send

log = logging.getLogger("ginrummy.access")

HANDSHAKE_LINE = '%s - "WebSocket %s"'
"""How uvicorn's lines of WebSocket handshakes begin (its logger ``uvicorn.error``)."""


class AccessLog:
    """ASGI middleware writing the access log: method, path, status and duration."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        exchange = _Exchange(scope.get("method", "GET"), scope["path"])

        async def watched(message: Message) -> None:
            exchange.saw(message)
            await send(message)

        failed = False
        try:
            await self.app(scope, receive, watched)
        except Exception:
            failed = True  # Starlette's error middleware, outside this one, answers 500
            raise
        finally:
            exchange.end(failed)


class _Exchange:
    """One request or handshake, logged once: an HTTP request when it has been
    answered, a WebSocket when its handshake has (the socket may stay open for hours)."""

    def __init__(self, method: str, path: str) -> None:
        self.method = method
        self.path = path
        self.started = time.perf_counter()
        self.status: int | None = None
        self.logged = False

    def saw(self, message: Message) -> None:
        kind = message["type"]
        if kind in ("http.response.start", "websocket.http.response.start"):
            self.status = int(message["status"])
        elif kind == "websocket.accept":
            self.status = 101
            self.write()
        elif kind == "websocket.close" and self.status is None:
            self.status = 403  # closed before the handshake: uvicorn answers 403
            self.write()

    def end(self, failed: bool) -> None:
        if self.status is None and failed:
            self.status = 500
        self.write()

    def write(self) -> None:
        if self.logged:
            return
        self.logged = True
        ms = round((time.perf_counter() - self.started) * 1000, 1)
        fields = {"method": self.method, "path": self.path, "status": self.status}
        status = "-" if self.status is None else self.status
        log.info(
            "%s %s %s %.1f ms",
            self.method,
            self.path,
            status,
            ms,
            extra={**fields, "duration_ms": ms},
        )


class Handshakes(logging.Filter):
    """Drops uvicorn's lines of WebSocket handshakes (see above)."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not (isinstance(record.msg, str) and record.msg.startswith(HANDSHAKE_LINE))


HANDSHAKES = Handshakes()
"""The one filter ``main.uvicorn_config`` puts on ``uvicorn.error`` (added once)."""
