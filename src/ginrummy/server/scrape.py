"""``GET /metrics`` for operators: the app's registry in the Prometheus text format,
served only to the operators' addresses and token (docs/operations.md, "Metrics").

The route exists only with metrics on (``Settings.metrics_on``); otherwise the path is
an unknown one, 404. A scrape is first counted against its address's limit (429, as
any route: a flood of wrong tokens is a flood too), then must come from an address of
``Settings.metrics_allow`` if that is set (403) and carry ``Settings.metrics_token``
if that is set (401). The token is compared in constant time, by digest, so neither
its characters nor its length show in the answer's timing.
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
from collections.abc import Sequence

from prometheus_client.exposition import choose_encoder
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from ginrummy.server.metrics import metrics_of
from ginrummy.server.ratelimit import RateLimited, client_address, of_app
from ginrummy.server.responses import error_response, rate_limited
from ginrummy.server.settings import Network, Settings

PATH = "/metrics"


def bearer_matches(header: str | None, token: str) -> bool:
    """Whether an ``Authorization`` header is ``Bearer <token>`` (constant time).

    >>> bearer_matches("Bearer s3cret-s3cret-s3cret", "s3cret-s3cret-s3cret")
    True
    >>> bearer_matches("Bearer guess", "s3cret-s3cret-s3cret"), bearer_matches(None, "x")
    (False, False)
    """
    scheme, _, given = (header or "").strip().partition(" ")
    expected = hashlib.sha256(token.encode()).digest()
    offered = hashlib.sha256(given.strip().encode()).digest()
    return hmac.compare_digest(offered, expected) and scheme.lower() == "bearer"


def operator_address(host: str | None, allowed: Sequence[Network]) -> bool:
    """Whether the peer ``host`` is in one of the ``allowed`` networks.

    >>> from ginrummy.server.settings import parse_networks
    >>> nets = parse_networks("allow", "10.0.0.0/8")
    >>> operator_address("10.1.2.3", nets), operator_address("192.0.2.1", nets)
    (True, False)
    """
    try:
        ip = ipaddress.ip_address(host or "")
    except ValueError:
        return False  # not an IP address (a Unix socket, a test client): not an operator's
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return any(ip in network for network in allowed)


async def scrape(request: Request) -> Response:
    """The app's metrics, to an operator."""
    settings: Settings = request.app.state.settings
    metrics = metrics_of(request.app)
    try:
        of_app(request.app).scrapes.check(client_address(request))
    except RateLimited as exc:
        metrics.error("http", exc.code)
        return rate_limited(exc)
    if settings.metrics_allow:
        host = request.client.host if request.client is not None else None
        if not operator_address(host, settings.metrics_allow):
            metrics.error("http", "forbidden")
            return error_response("forbidden", "metrics are for the operators' addresses", 403)
    token = settings.metrics_token
    if token is not None and not bearer_matches(request.headers.get("authorization"), token):
        metrics.error("http", "unauthorized")
        refused = error_response("unauthorized", "metrics need the operator token", 401)
        refused.headers["WWW-Authenticate"] = 'Bearer realm="metrics"'
        return refused
    encode, content_type = choose_encoder(request.headers.get("accept", ""))
    return Response(encode(metrics.registry), media_type=content_type)


routes = [Route(PATH, scrape, methods=["GET"])]
