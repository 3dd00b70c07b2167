"""Server configuration: defaults, then environment variables, then command-line flags."""

from __future__ import annotations

import ipaddress
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from ginrummy.review import Budget
from ginrummy.server.logformat import LOG_FORMATS, LogFormat

Network = ipaddress.IPv4Network | ipaddress.IPv6Network

DEFAULT_BOT_DELAY = 0.8
DEFAULT_DRAIN_S = 20.0
"""Seconds a stopping instance has to move its sockets on and finish its writes
(docs/operations.md, "Rolling restarts")."""
METRICS_TOKEN_MIN = 16
"""Characters an operator token has at least (it guards what the server tells of its load)."""
QUEUE_PER_THINKER = 2
"""Heavy decisions in the thinking pool per worker process by default (one running, one
ready to start as it ends)."""
WS_MAX_BYTES = 65536
"""Transport limit for one WebSocket frame (uvicorn drops the connection above it);
frames between the protocol's ``MAX_FRAME_BYTES`` and this get a ``frame_too_large``
error and the connection stays usable."""


@dataclass(frozen=True, slots=True)
class Settings:
    """Everything the app needs to start; ``create_app(Settings())`` runs in memory."""

    host: str = "127.0.0.1"
    port: int = 8000
    data_dir: Path = Path("data")
    database_url: str | None = None  # None: sqlite file under data_dir
    bus_url: str = "memory://"  # redis://host:port/db to fan out across instances
    bot_delay: float = DEFAULT_BOT_DELAY  # seconds before a computer move
    allowed_origins: tuple[str, ...] = ()  # extra WebSocket origins besides the server's own
    log_level: str = "info"
    log_format: LogFormat = "text"  # or "json": one JSON object a line (server/logformat.py)
    access_log: bool = True  # a line per HTTP request and WebSocket handshake (server/access.py)
    ws_rate: float = 20.0  # client messages per second per socket, sustained (burst: 3x)
    web_dir: Path | None = None  # None: the package's web/ directory
    grace_seconds: float = 60.0  # a person who left may come back before the opponent claims
    lobby_interval: float = 0.5  # at most one lobby update per socket this often (seconds)
    socket_queue: int = 256  # notices a socket may fall behind before it is closed (4008)
    test_clock: bool = False  # a hand-moved clock and POST /api/test/clock (tests only)
    instance_id: str | None = None  # names this instance's room leases; None: random at start
    lease_ttl: float = 10.0  # seconds a room's lease lasts unless renewed (docs/operations.md)
    lease_renew: float = 3.0  # seconds between renewals (and takeover attempts)
    presence_interval: float = 5.0  # seconds between renewals of this instance's socket counts
    quick_confirm: float = 5.0  # seconds between confirmations of quick-match waiting entries
    room_idle_s: float = 300.0  # seconds an unused room without sockets or work stays loaded
    max_rooms: int = 5000  # rooms loaded at once; a new one evicts the least recently used
    # Per-address rate limits (server/ratelimit.py): so many per ``limit_window`` seconds
    # from one address, all at once if need be; 0 switches a limit off.
    limit_identities: int = 60  # POST /api/identity
    limit_rooms: int = 60  # POST /api/rooms
    limit_lookups: int = 600  # /api/rooms/{id}, its join and its record
    limit_window: float = 60.0
    limit_sockets: int = 100  # WebSockets open at once per address (HTTP 403 past it)
    limit_scrapes: int = 60  # GET /metrics, when metrics are on
    limit_accounts: int = 10  # new accounts and passkeys (their registration options)
    limit_sign_ins: int = 30  # passkey sign-ins and codes typed (docs/accounts.md)
    # -- friends (docs/accounts.md, "Friends"): limits per person, not per address
    limit_friend_requests: int = 20  # friend requests sent a window
    limit_challenges: int = 20  # challenges sent a window
    friends_presence_s: float = 20.0  # seconds between renewals of where people are
    # Passkeys' relying party (docs/accounts.md): None takes each request's own host and
    # origin, right for `make run` on localhost; a public site names its own.
    rp_id: str | None = None  # GINRUMMY_RP_ID, e.g. "gin.example.org"
    origin: str | None = None  # GINRUMMY_ORIGIN, e.g. "https://gin.example.org"
    # -- civility (issue 22, parts 3 and 4) --
    # The operators (docs/operations.md): player ids of accounts; none by default. Not
    # names: a name nobody holds yet could be registered by anyone.
    operators: tuple[str, ...] = ()  # GINRUMMY_OPERATORS, e.g. "p_abcdefghij, p_klmnopqrst"
    limit_reports: int = 10  # reports made per window from one address
    hello_timeout: float = 10.0  # seconds a new socket has to bind with a hello (else 4408)
    seed_timeout: float = 3.0  # seconds a deal waits for people's seeds (docs/fairness.md)
    tournament_tick: float = 1.0  # seconds between the pairing instance's looks at tournaments
    review_workers: int = 1  # threads running match reviews (server/reviews.py)
    review_budget: Budget = field(default_factory=Budget)  # worlds per decision (docs/review.md)
    # Worker processes for heavy computer levels (server/thinking.py): a core left over
    # for the event loop, at least one.
    thinking_workers: int = field(default_factory=lambda: default_thinkers(os.cpu_count()))
    thinking_queue: int = 0  # heavy decisions in the pool at once; 0: QUEUE_PER_THINKER a worker
    drain_s: float = DEFAULT_DRAIN_S  # a SIGTERM's grace period (server/drain.py)
    # GET /metrics for operators (docs/operations.md, "Metrics"): on when a token or
    # operator networks are set; a scrape must pass every check that is set.
    metrics_token: str | None = None  # sent as "Authorization: Bearer <token>"
    metrics_allow: tuple[Network, ...] = ()  # the addresses that may scrape

    @property
    def metrics_on(self) -> bool:
        """Whether the metrics are collected and ``GET /metrics`` answers."""
        return self.metrics_token is not None or bool(self.metrics_allow)

    @property
    def thinking_bound(self) -> int:
        """Heavy decisions in the thinking pool at once (running or queued there)."""
        return self.thinking_queue or QUEUE_PER_THINKER * self.thinking_workers

    @property
    def store_url(self) -> str:
        """The store's URL: ``database_url`` or ``sqlite:///<data_dir>/ginrummy.sqlite3``."""
        if self.database_url:
            return self.database_url
        return f"sqlite:///{self.data_dir / 'ginrummy.sqlite3'}"

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> Settings:
        """Defaults overridden by ``GINRUMMY_*`` variables (and ``DATABASE_URL``)."""
        return cls().with_env(os.environ if env is None else env)

    def with_env(self, env: Mapping[str, str]) -> Settings:
        """These settings overridden by the variables set in ``env``, checked as
        ``from_env`` checks them (``ginrummy serve``'s flags come this way too)."""
        s = self
        if v := env.get("GINRUMMY_HOST"):
            s = replace(s, host=v)
        if v := env.get("GINRUMMY_PORT"):
            s = replace(s, port=_int("GINRUMMY_PORT", v))
        if v := env.get("GINRUMMY_DATA_DIR"):
            s = replace(s, data_dir=Path(v))
        if v := env.get("GINRUMMY_BUS") or env.get("REDIS_URL"):
            s = replace(s, bus_url=v)
        if v := env.get("GINRUMMY_DB") or env.get("DATABASE_URL"):
            s = replace(s, database_url=v)
        if v := env.get("GINRUMMY_WS_RATE"):
            s = replace(s, ws_rate=float(_int("GINRUMMY_WS_RATE", v)))
        if v := env.get("GINRUMMY_SOCKET_QUEUE"):
            s = replace(s, socket_queue=_positive("GINRUMMY_SOCKET_QUEUE", v))
        if v := env.get("GINRUMMY_BOT_DELAY"):
            s = replace(s, bot_delay=_delay("GINRUMMY_BOT_DELAY", v))
        if v := env.get("GINRUMMY_ALLOWED_ORIGINS"):
            s = replace(s, allowed_origins=parse_origins(v))
        if v := env.get("GINRUMMY_LOG_LEVEL"):
            s = replace(s, log_level=v.lower())
        for name, (field_name, low, high) in _SECONDS.items():
            if v := env.get(name):
                seconds: dict[str, Any] = {field_name: _seconds(name, v, low, high)}
                s = replace(s, **seconds)
        if v := env.get("GINRUMMY_INSTANCE_ID"):
            s = replace(s, instance_id=v)
        if v := env.get("GINRUMMY_MAX_ROOMS"):
            s = replace(s, max_rooms=_positive("GINRUMMY_MAX_ROOMS", v))
        s = _limits_from_env(s, env)
        s = _logs_from_env(s, env)
        if v := env.get("GINRUMMY_REVIEW_WORKERS"):
            s = replace(s, review_workers=_positive("GINRUMMY_REVIEW_WORKERS", v))
        if v := env.get("GINRUMMY_THINKING_WORKERS"):
            s = replace(s, thinking_workers=_positive("GINRUMMY_THINKING_WORKERS", v))
        if v := env.get("GINRUMMY_THINKING_QUEUE"):
            s = replace(s, thinking_queue=_positive("GINRUMMY_THINKING_QUEUE", v))
        if v := env.get("GINRUMMY_REVIEW_SAMPLES"):
            n = _int("GINRUMMY_REVIEW_SAMPLES", v)
            if n < 2:  # one world gives a loss no standard error
                raise ValueError(f"GINRUMMY_REVIEW_SAMPLES must be at least 2, got {n}")
            s = replace(s, review_budget=Budget(samples=n, screen=min(2, n), confirm=2 * n))
        if s.lease_renew >= s.lease_ttl:
            raise ValueError(
                f"GINRUMMY_LEASE_RENEW ({s.lease_renew:g} s) must be shorter than"
                f" GINRUMMY_LEASE_TTL ({s.lease_ttl:g} s)"
            )
        if v := env.get("GINRUMMY_METRICS_TOKEN"):
            s = replace(s, metrics_token=metrics_token("GINRUMMY_METRICS_TOKEN", v))
        if v := env.get("GINRUMMY_METRICS_ALLOW"):
            s = replace(s, metrics_allow=parse_networks("GINRUMMY_METRICS_ALLOW", v))
        if env.get("GINRUMMY_TEST_CLOCK") == "1":
            s = replace(s, test_clock=True)
        return s


def _limits_from_env(s: Settings, env: Mapping[str, str]) -> Settings:
    if v := env.get("GINRUMMY_LIMIT_IDENTITIES"):
        s = replace(s, limit_identities=_count("GINRUMMY_LIMIT_IDENTITIES", v))
    if v := env.get("GINRUMMY_LIMIT_ROOMS"):
        s = replace(s, limit_rooms=_count("GINRUMMY_LIMIT_ROOMS", v))
    if v := env.get("GINRUMMY_LIMIT_LOOKUPS"):
        s = replace(s, limit_lookups=_count("GINRUMMY_LIMIT_LOOKUPS", v))
    if v := env.get("GINRUMMY_LIMIT_SOCKETS"):
        s = replace(s, limit_sockets=_count("GINRUMMY_LIMIT_SOCKETS", v))
    if v := env.get("GINRUMMY_LIMIT_SCRAPES"):
        s = replace(s, limit_scrapes=_count("GINRUMMY_LIMIT_SCRAPES", v))
    if v := env.get("GINRUMMY_LIMIT_ACCOUNTS"):
        s = replace(s, limit_accounts=_count("GINRUMMY_LIMIT_ACCOUNTS", v))
    if v := env.get("GINRUMMY_LIMIT_SIGN_INS"):
        s = replace(s, limit_sign_ins=_count("GINRUMMY_LIMIT_SIGN_INS", v))
    if v := env.get("GINRUMMY_LIMIT_FRIEND_REQUESTS"):
        s = replace(s, limit_friend_requests=_count("GINRUMMY_LIMIT_FRIEND_REQUESTS", v))
    if v := env.get("GINRUMMY_LIMIT_CHALLENGES"):
        s = replace(s, limit_challenges=_count("GINRUMMY_LIMIT_CHALLENGES", v))
    if v := env.get("GINRUMMY_RP_ID"):
        s = replace(s, rp_id=v.strip().lower())
    if v := env.get("GINRUMMY_ORIGIN"):
        origins = parse_origins(v)
        if len(origins) != 1 or "://" not in origins[0]:
            raise ValueError(f"GINRUMMY_ORIGIN must be one origin like https://host, got {v!r}")
        s = replace(s, origin=origins[0])
    # -- civility --
    if v := env.get("GINRUMMY_OPERATORS"):
        s = replace(s, operators=operator_ids(v))
    if v := env.get("GINRUMMY_LIMIT_REPORTS"):
        s = replace(s, limit_reports=_count("GINRUMMY_LIMIT_REPORTS", v))
    if v := env.get("GINRUMMY_LIMIT_WINDOW"):
        s = replace(s, limit_window=_seconds("GINRUMMY_LIMIT_WINDOW", v, 0.01, 86400))
    if v := env.get("GINRUMMY_HELLO_TIMEOUT"):
        s = replace(s, hello_timeout=_seconds("GINRUMMY_HELLO_TIMEOUT", v, 0.01, 3600))
    return s


def _logs_from_env(s: Settings, env: Mapping[str, str]) -> Settings:
    if v := env.get("GINRUMMY_LOG_FORMAT"):
        log_format = next((f for f in LOG_FORMATS if f == v), None)
        if log_format is None:
            raise ValueError(f"GINRUMMY_LOG_FORMAT must be text or json, got {v!r}")
        s = replace(s, log_format=log_format)
    if v := env.get("GINRUMMY_ACCESS_LOG"):
        if v not in ("0", "1"):
            raise ValueError(f"GINRUMMY_ACCESS_LOG must be 0 (off) or 1 (on), got {v!r}")
        s = replace(s, access_log=v == "1")
    return s


DRAIN_MIN_S, DRAIN_MAX_S = 0.5, 3600.0

# Durations read from the environment: variable -> (field, lowest, highest seconds).
_SECONDS: dict[str, tuple[str, float, float]] = {
    "GINRUMMY_GRACE_SECONDS": ("grace_seconds", 0, 3600),
    "GINRUMMY_LEASE_TTL": ("lease_ttl", 0.1, 3600),
    "GINRUMMY_LEASE_RENEW": ("lease_renew", 0.01, 3600),
    "GINRUMMY_PRESENCE_INTERVAL": ("presence_interval", 0.01, 3600),
    "GINRUMMY_QUICK_CONFIRM": ("quick_confirm", 0.01, 3600),
    "GINRUMMY_ROOM_IDLE_S": ("room_idle_s", 0.1, 86400),
    "GINRUMMY_SEED_TIMEOUT": ("seed_timeout", 0, 60),
    "GINRUMMY_TOURNAMENT_TICK": ("tournament_tick", 0.01, 3600),
    "GINRUMMY_DRAIN_S": ("drain_s", DRAIN_MIN_S, DRAIN_MAX_S),
    "GINRUMMY_FRIENDS_PRESENCE_S": ("friends_presence_s", 0.01, 3600),
}


def default_thinkers(cpus: int | None) -> int:
    """Worker processes for heavy levels by default: all cores but one, at least one.

    >>> default_thinkers(1), default_thinkers(2), default_thinkers(8), default_thinkers(None)
    (1, 1, 7, 1)
    """
    return max(1, (cpus or 1) - 1)


OPERATOR_ID = re.compile(r"p_[A-Za-z0-9_-]{1,32}")
"""What ``GINRUMMY_OPERATORS`` takes: a player id (``players.new_player``)."""


def operator_ids(text: str) -> tuple[str, ...]:
    """``GINRUMMY_OPERATORS``: player ids (``p_...``), separated by commas. A name is
    refused: anyone could register a name that no account holds yet (or a lookalike).

    >>> operator_ids(" p_abcdefghij, p_Kl-mn_0pqr ,,")
    ('p_abcdefghij', 'p_Kl-mn_0pqr')
    >>> operator_ids("Opal")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: GINRUMMY_OPERATORS takes player ids (p_...), not names: 'Opal' ...
    """
    ids = tuple(part.strip() for part in text.split(",") if part.strip())
    for one in ids:
        if not OPERATOR_ID.fullmatch(one):
            raise ValueError(
                f"GINRUMMY_OPERATORS takes player ids (p_...), not names: {one!r}"
                " (an operator's id is on their account page and in GET /api/me)"
            )
    return ids


def parse_origins(text: str) -> tuple[str, ...]:
    """``"https://a.example, https://b.example"`` -> a tuple without trailing slashes."""
    return tuple(o.strip().rstrip("/") for o in text.split(",") if o.strip())


def metrics_token(name: str, text: str) -> str:
    """An operator token: at least ``METRICS_TOKEN_MIN`` characters, no space."""
    token = text.strip()
    if len(token) < METRICS_TOKEN_MIN or any(c.isspace() for c in token):
        raise ValueError(
            f"{name} must be at least {METRICS_TOKEN_MIN} characters without spaces"
            " (e.g. the output of: openssl rand -hex 32)"
        )
    return token


def parse_networks(name: str, text: str) -> tuple[Network, ...]:
    """``"10.0.0.0/8, 127.0.0.1, ::1"`` -> networks (an address is a network of one).

    >>> parse_networks("GINRUMMY_METRICS_ALLOW", "10.1.0.0/16, ::1")
    (IPv4Network('10.1.0.0/16'), IPv6Network('::1/128'))
    """
    try:
        return tuple(
            ipaddress.ip_network(part.strip(), strict=False)
            for part in text.split(",")
            if part.strip()
        )
    except ValueError as exc:
        raise ValueError(f"{name} must list addresses or networks: {exc}") from None


def _int(name: str, text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise ValueError(f"{name} must be a whole number, got {text!r}") from None


def _positive(name: str, text: str) -> int:
    value = _int(name, text)
    if value < 1:
        raise ValueError(f"{name} must be at least 1, got {value}")
    return value


def _count(name: str, text: str) -> int:
    value = _int(name, text)
    if value < 0:
        raise ValueError(f"{name} must be 0 (off) or more, got {value}")
    return value


def _delay(name: str, text: str) -> float:
    return _seconds(name, text, 0, 60)


def _seconds(name: str, text: str, low: float, high: float) -> float:
    try:
        value = float(text)
    except ValueError:
        raise ValueError(f"{name} must be a number of seconds, got {text!r}") from None
    if not low <= value <= high:
        raise ValueError(f"{name} must be between {low:g} and {high:g} seconds, got {value}")
    return value
