"""Per-address rate limits: new identities, new rooms and room lookups (docs/operations.md).

Each limit allows ``count`` requests per ``window`` seconds from one address, all of
them at once if need be: a token bucket of ``count`` tokens refilled at
``count / window`` per second. A bucket left alone for ``window`` seconds is full again,
as good as a new one, so it is dropped: memory follows the addresses seen in the last
window, and a hard cap bounds even that. A count of 0 switches the limit off.

The address is the peer of the connection. Behind a reverse proxy uvicorn replaces it
with the client named in ``X-Forwarded-For`` when the proxy's own address is trusted
(``FORWARDED_ALLOW_IPS``). IPv6 addresses count by their /64 network, which one host
usually holds whole.
"""

from __future__ import annotations

import functools
import ipaddress
import logging
import math
import time
from dataclasses import dataclass

from starlette.applications import Starlette
from starlette.requests import HTTPConnection
from starlette.routing import Route
from starlette.types import Scope

from ginrummy.server.bucket import Bucket
from ginrummy.server.metrics import OFF, Counting, Metrics, metrics_of
from ginrummy.server.settings import Settings

log = logging.getLogger("ginrummy.server.ratelimit")

MAX_ADDRESSES = 100_000
"""At most this many addresses tracked per limit; past it the longest-known is forgotten
(it starts again with a full bucket: lenient, never wrong against a newcomer)."""

REFUSALS_PER_LOG = 1000
"""An attack's refused sockets: one warning per so many."""


class RateLimited(Exception):
    """Over a limit: answer 429 with code ``rate_limited`` and ``Retry-After``."""

    code = "rate_limited"

    def __init__(self, what: str, retry_after: int) -> None:
        self.what = what
        self.retry_after = retry_after
        self.message = f"too many {what} from your address; try again in {retry_after} s"
        super().__init__(self.message)


class AddressLimit:
    """One limit over many addresses: ``count`` per ``window`` seconds each; 0 is off.

    >>> limit = AddressLimit("room lookups", count=2, window=60.0)
    >>> limit.check("192.0.2.1"); limit.check("192.0.2.1")
    >>> try:
    ...     limit.check("192.0.2.1")
    ... except RateLimited as exc:
    ...     print(exc.message)
    too many room lookups from your address; try again in 30 s
    """

    def __init__(self, what: str, count: int, window: float, refusals: Counting = OFF) -> None:
        """``refusals``: counts every refusal (the metrics)."""
        if count < 0 or window <= 0:
            raise ValueError(f"a rate limit needs a count >= 0 and a window > 0: {count}/{window}")
        self.what, self.count, self.window = what, count, window
        self.refusals = refusals
        self.buckets: dict[str, Bucket] = {}
        self.next_sweep = time.monotonic() + window
        self.refused = 0  # since the last sweep, for its log line
        self.refused_from: set[str] = set()

    @property
    def on(self) -> bool:
        return self.count > 0

    def check(self, address: str) -> None:
        """Count one request from ``address``; raise ``RateLimited`` if it is one too many."""
        refused = self.refusal(address)
        if refused is not None:
            raise refused
        if self.on:
            self.buckets[address].take()  # refusal() found a whole token: it is there

    def refusal(self, address: str) -> RateLimited | None:
        """The answer to one more request from ``address`` if it is one too many (then
        counted as refused), else None, and nothing taken: ``check`` takes. The gate in
        front of the routing refuses so (server/gate.py)."""
        if not self.on:
            return None
        now = time.monotonic()
        if now >= self.next_sweep:
            self.sweep()
        bucket = self.buckets.get(address)
        if bucket is None:
            if len(self.buckets) >= MAX_ADDRESSES:
                self.sweep()
                if len(self.buckets) >= MAX_ADDRESSES:
                    del self.buckets[next(iter(self.buckets))]
            bucket = self.buckets[address] = Bucket(self.count / self.window, self.count)
        if bucket.refill() >= 1:
            return None
        self.refused += 1
        self.refusals.inc()
        self.refused_from.add(address)
        # refill() brought the allowance up to now: the next whole token is this far off.
        wait = (1 - bucket.allowance) / bucket.rate
        return RateLimited(self.what, max(1, math.ceil(wait)))

    def sweep(self) -> None:
        """Forget the buckets idle for a whole window (full again); log what was refused."""
        now = time.monotonic()
        idle = [a for a, b in self.buckets.items() if now - b.last >= self.window]
        for address in idle:
            del self.buckets[address]
        if self.refused:
            log.warning(
                "rate limit on %s: %d requests from %d address(es) refused",
                self.what,
                self.refused,
                len(self.refused_from),
            )
        self.refused, self.refused_from = 0, set()
        self.next_sweep = now + self.window


class AddressSockets:
    """At most ``count`` WebSockets open at once per address; 0 is off. Entries live
    only while their address has a socket open, so memory follows the open sockets.

    >>> sockets = AddressSockets(1)
    >>> sockets.open("192.0.2.1"), sockets.open("192.0.2.1"), sockets.open("192.0.2.2")
    (True, False, True)
    >>> sockets.close("192.0.2.1"); sockets.open("192.0.2.1")
    True
    """

    def __init__(self, count: int, refusals: Counting = OFF) -> None:
        """``refusals``: counts every refusal (the metrics)."""
        if count < 0:
            raise ValueError(f"a socket limit needs a count >= 0, got {count}")
        self.count = count
        self.refusals = refusals
        self.open_by: dict[str, int] = {}
        self.refused = 0  # since start, for the logs

    def open(self, address: str) -> bool:
        """Count one more socket from ``address``; False (and not counted) if it would
        be one too many."""
        if self.refuses(address):
            return False
        if self.count:
            self.open_by[address] = self.open_by.get(address, 0) + 1
        return True

    def refuses(self, address: str) -> bool:
        """Whether one more socket from ``address`` would be one too many (then counted
        as refused, with a warning per ``REFUSALS_PER_LOG``), and nothing taken:
        ``open`` takes. The HTTP protocol refuses so before the upgrade
        (server/protocols.py)."""
        if not self.count or self.open_by.get(address, 0) < self.count:
            return False
        self.refused += 1
        self.refusals.inc()
        if self.refused % REFUSALS_PER_LOG == 1:
            log.warning(
                "websocket refused: %s has %d open (GINRUMMY_LIMIT_SOCKETS); %d refused so far",
                address,
                self.count,
                self.refused,
            )
        return True

    def close(self, address: str) -> None:
        """One socket counted by ``open`` has closed."""
        held = self.open_by.get(address, 0)
        if held <= 1:
            self.open_by.pop(address, None)
        else:
            self.open_by[address] = held - 1


@dataclass(frozen=True, slots=True)
class RateLimits:
    """The limits of one app (settings ``limit_*``)."""

    identities: AddressLimit
    rooms: AddressLimit
    lookups: AddressLimit
    sockets: AddressSockets
    scrapes: AddressLimit  # GET /metrics (server/scrape.py)
    accounts: AddressLimit  # new accounts and passkeys (server/api/accounts.py)
    sign_ins: AddressLimit  # passkey sign-ins and codes typed
    reports: AddressLimit  # civility: reports made (server/api/civility.py)
    friend_requests: AddressLimit  # per person (their identity), not per address
    challenges: AddressLimit  # per person (their identity), not per address

    @classmethod
    def from_settings(cls, settings: Settings, metrics: Metrics | None = None) -> RateLimits:
        """The limits of ``settings``, their refusals counted in ``metrics``."""
        window = settings.limit_window
        refused = (metrics or Metrics(on=False)).refusals
        return cls(
            identities=AddressLimit(
                "new identities", settings.limit_identities, window, refused["identities"]
            ),
            rooms=AddressLimit("new rooms", settings.limit_rooms, window, refused["rooms"]),
            lookups=AddressLimit(
                "room lookups", settings.limit_lookups, window, refused["lookups"]
            ),
            sockets=AddressSockets(settings.limit_sockets, refused["sockets"]),
            scrapes=AddressLimit("scrapes", settings.limit_scrapes, window, refused["scrapes"]),
            accounts=AddressLimit(
                "new accounts", settings.limit_accounts, window, refused["accounts"]
            ),
            sign_ins=AddressLimit(
                "sign-in attempts", settings.limit_sign_ins, window, refused["sign_ins"]
            ),
            reports=AddressLimit("reports", settings.limit_reports, window, refused["reports"]),
            friend_requests=AddressLimit(
                "friend requests",
                settings.limit_friend_requests,
                window,
                refused["friend_requests"],
            ),
            challenges=AddressLimit(
                "challenges", settings.limit_challenges, window, refused["challenges"]
            ),
        )


def of_app(app: Starlette) -> RateLimits:
    """The app's limits, made from ``app.state.settings`` on first use."""
    limits: RateLimits | None = getattr(app.state, "rate_limits", None)
    if limits is None:
        limits = RateLimits.from_settings(app.state.settings, metrics_of(app))
        app.state.rate_limits = limits
    return limits


class LookupRoute(Route):
    """A route whose handler counts a room lookup (``RateLimits.lookups``) before anything
    else, so that a request from an address over that limit is answered 429 whatever else
    it holds: the gate in front of the routing answers it so (server/gate.py)."""


def client_address(conn: HTTPConnection) -> str:
    """The address a request counts against: the peer's, an IPv6 one by its /64.

    >>> client_address(HTTPConnection({"type": "http", "client": ("2001:db8::1", 5)}))
    '2001:db8::/64'
    """
    return scope_address(conn.scope)


def scope_address(scope: Scope) -> str:
    """``client_address`` of an ASGI scope."""
    client = scope.get("client")
    return counted_address(client[0] if client is not None else "")


@functools.lru_cache(maxsize=4096)
def counted_address(host: str) -> str:
    """The address ``host`` counts as (parsed once while it keeps coming)."""
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        return host  # not an IP (a test client, a Unix socket): counted as it is
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, 64), strict=False))
    return str(ip)
