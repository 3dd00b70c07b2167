"""The gate in front of the routing: an address over its room lookup limit is answered
there (docs/operations.md, "Rate limits").

An attacker probing room ids gets 429 ``rate_limited`` for nearly every request, and
the server answered each one as it answers a found room: routing through every route's
pattern, a request object, the handler, the exception turned into a response rendered
anew. At a few thousand a second that was the whole of a core, on the event loop the
games share (bench/RESULTS.md, "Abuse"). The gate answers those requests before all
that, with the same answer made once: the same status, headers and body as the route's
own (``responses.rate_limited``), which it sends as they are.

It only refuses. The routes it watches are the ``LookupRoute``\\ s, whose handlers count
the lookup before anything else; it asks the limit whether one more request would be
refused (``AddressLimit.refusal``, which takes nothing) and otherwise lets the request
through, to be counted by its handler as before. Everything else (other paths, other
methods, WebSockets) goes through untouched, and so would a watched path under a
``root_path`` (the server has none): whatever the gate lets through is answered as
before.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from starlette.routing import BaseRoute
from starlette.types import ASGIApp, Receive, Scope, Send

from ginrummy.server.metrics import metrics_of
from ginrummy.server.ratelimit import LookupRoute, RateLimited, of_app, scope_address
from ginrummy.server.responses import rate_limited

Answer = tuple[int, tuple[tuple[bytes, bytes], ...], bytes]  # status, headers, body

MAX_ANSWERS = 256
"""Answers kept ready (one per message: a limit's name and a Retry-After)."""


class LookupGate:
    """ASGI middleware: requests to a ``LookupRoute`` from an address over the lookup
    limit are answered 429 here; all others go on to ``app``."""

    def __init__(self, app: ASGIApp, routes: Sequence[BaseRoute]) -> None:
        self.app = app
        lookups = [r for r in routes if isinstance(r, LookupRoute)]
        self.patterns: tuple[tuple[re.Pattern[str], frozenset[str]], ...] = tuple(
            (r.path_regex, frozenset(r.methods or ())) for r in lookups
        )
        # The fixed start of each watched path: one test sends all other paths on.
        self.prefixes = tuple({r.path.split("{", 1)[0] for r in lookups})
        self.answers: dict[str, Answer] = {}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        refused = self.refusal(scope) if scope["type"] == "http" else None
        if refused is None:
            await self.app(scope, receive, send)
        else:
            metrics_of(scope["app"]).error("http", refused.code)
            await self.refuse(refused, send)

    def refusal(self, scope: Scope) -> RateLimited | None:
        """The lookup limit's refusal of an HTTP request to a ``LookupRoute``; None for
        any other request and for one within the limit (counted later, by its handler)."""
        path, method = scope["path"], scope["method"]
        if not path.startswith(self.prefixes):
            return None
        if not any(method in ms and pattern.match(path) for pattern, ms in self.patterns):
            return None
        return of_app(scope["app"]).lookups.refusal(scope_address(scope))

    async def refuse(self, refused: RateLimited, send: Send) -> None:
        """Send the route's own 429 for ``refused``."""
        status, headers, body = self.answer(refused)
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body", "body": body})

    def answer(self, refused: RateLimited) -> Answer:
        """The route's own answer to ``refused``, made once per message."""
        answer = self.answers.get(refused.message)
        if answer is None:
            if len(self.answers) >= MAX_ANSWERS:
                self.answers.clear()
            response = rate_limited(refused)
            answer = (response.status_code, tuple(response.raw_headers), bytes(response.body))
            self.answers[refused.message] = answer
        return answer
