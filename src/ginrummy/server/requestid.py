"""The request id: taken from a request's ``X-Request-ID`` when it is a short safe
token, else made up; in the log context of everything its handling logs. The API and
the WebSocket's handshake echo it when the request carried one (a proxy or a client that
traces its requests) and on every error answer of the API, the one a person reports
(docs/operations.md, "Logs").

The client's own files (the pages, ``/static/``, the service worker) go without it,
and so do the API's plain answers to a page that did not ask: the browser and the
service worker keep the files, so an id on them would name a request long past, and the
first visit's budget (docs/offline.md, ~69 requests in 150 KB) has no room for 32 bytes
more on each.
"""

from __future__ import annotations

import re
import secrets

from starlette.datastructures import Headers
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ginrummy.server.logcontext import log_context

HEADER = "x-request-id"
ECHOED = ("/api/", "/ws")  # the paths whose answers carry the id
# Short enough that no seat token (43 characters) passes for one: a client that sends
# its token as the id gets a made-up id instead of its token in the logs.
SAFE_ID = re.compile(r"[A-Za-z0-9._:-]{1,40}")


def request_id(given: str | None) -> str:
    """``given`` if it is a short safe token, else a new random one.

    >>> request_id("web-7f3a")
    'web-7f3a'
    >>> len(request_id("a b"))
    16
    """
    if given is not None and SAFE_ID.fullmatch(given):
        return given
    return secrets.token_hex(8)


class RequestIds:
    """ASGI middleware: each HTTP request and WebSocket gets its id (see above)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        given = Headers(scope=scope).get(HEADER)
        rid = request_id(given)
        echoed = (HEADER.encode("latin-1"), rid.encode("latin-1"))
        asked = given is not None

        async def send_with_id(message: Message) -> None:
            kind = message["type"]
            error = kind == "http.response.start" and message["status"] >= 400
            if kind in ("http.response.start", "websocket.accept") and (asked or error):
                message = {**message, "headers": [*message.get("headers", ()), echoed]}
            await send(message)

        echo = str(scope["path"]).startswith(ECHOED)
        with log_context(request_id=rid):
            await self.app(scope, receive, send_with_id if echo else send)
