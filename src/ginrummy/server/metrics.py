"""The operators' metrics of one app: its own registry and every instrument in it
(docs/operations.md, "Metrics").

Each app owns a ``CollectorRegistry``: several apps in one process (tests, or instances
run side by side) never share a series, and each instance exposes only its own. With
metrics off (the default) every instrument is ``OFF``, which records nothing, so the
code that measures stays the same either way and costs nothing when nobody scrapes.

No label carries a player, a room, a token or any text a client wrote: label values
come from small fixed sets (action kinds, computer levels, store operations, limits,
socket and game kinds) or, for error codes, from the server's own codes, checked and
capped (``MAX_CODES``).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterable, Mapping
from typing import Protocol, TypeVar

from prometheus_client import (
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    PlatformCollector,
    ProcessCollector,
)
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.metrics_core import Metric
from starlette.applications import Starlette

from ginrummy.bots import LEVELS
from ginrummy.engine import ActionKind, GinRummyError, parse_action


class Observing(Protocol):
    """A histogram (or one of its labelled children)."""

    def observe(self, amount: float) -> None: ...


class Counting(Protocol):
    """A counter (or one of its labelled children)."""

    def inc(self, amount: float = 1) -> None: ...


class Level(Counting, Protocol):
    """A gauge moved up and down (or one of its labelled children)."""

    def dec(self, amount: float = 1) -> None: ...


class Off:
    """The instrument of metrics switched off: it records nothing."""

    def observe(self, amount: float) -> None:
        pass

    def inc(self, amount: float = 1) -> None:
        pass

    def dec(self, amount: float = 1) -> None:
        pass


OFF = Off()

OTHER = "other"
"""The label value of anything outside a label's fixed set."""

GAME_KINDS = ("solo", "room", "chouette")
SOCKET_KINDS = (
    "unbound",  # accepted, no hello yet
    "room_seat",
    "room_spectator",
    "chouette_seat",
    "chouette_spectator",
    "lobby",
)
LIMITS = (
    "identities",
    "rooms",
    "lookups",
    "sockets",
    "frames",
    "chat",
    "scrapes",
    "accounts",
    "sign_ins",
    "reports",  # civility
    "friend_requests",
    "challenges",
)
"""The rate limits: the per-address ones of ``ratelimit.RateLimits``, a socket's frame
and chat rates, the scrapes of ``GET /metrics``, new accounts and sign-in attempts."""
TRANSPORTS = ("http", "socket")
MAX_CODES = 100
"""Error codes with a series of their own at most; any further one counts as ``other``."""
_CODE = re.compile(r"[a-z][a-z0-9_]{0,39}")

# Seconds. A move's round trip and a store call take milliseconds; a publish on the
# bus, microseconds; a computer's decision and a tournament's turnover, up to seconds.
MOVE_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)
STORE_BUCKETS = (0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1.0)
BUS_BUCKETS = (0.00001, 0.000025, 0.00005, 0.0001, 0.00025, 0.0005, 0.001, 0.005, 0.025, 0.1)
COMPUTER_BUCKETS = (0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
TURNOVER_BUCKETS = (0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0)


def action_label(kind: ActionKind) -> str:
    """``draw stock`` -> ``draw_stock``: label values without spaces."""
    return kind.name.lower()


@functools.lru_cache(maxsize=256)
def action_kind(text: str) -> str:
    """The label of an action's text (``discard 7h`` -> ``discard``), read by the
    engine's own parser; ``other`` for a text it does not read.

    >>> action_kind("draw stock"), action_kind("knock 7h"), action_kind("fly")
    ('draw_stock', 'knock', 'other')
    """
    try:
        return action_label(parse_action(text).kind)
    except GinRummyError:
        return OTHER


class Metrics:
    """An app's instruments and the registry they are exposed from; ``on=False`` makes
    every instrument ``OFF`` and the registry empty.

    >>> metrics = Metrics()
    >>> metrics.applied("discard 7h")
    >>> metrics.registry.get_sample_value("ginrummy_actions_total", {"kind": "discard"})
    1.0
    """

    def __init__(self, on: bool = True) -> None:
        self.on = on
        self.registry = CollectorRegistry()
        self._games: GamesInPlay | None = None
        self._error_children: dict[tuple[str, str], Counting] = {}
        if not on:
            self.move: Observing = OFF
            self.hello: Observing = OFF
            self.turnover: Observing = OFF
            self.bus_publish: Observing = OFF
            self.bus_reconnects: Counting = OFF
            self._actions: Mapping[str, Counting] = {}
            self._decisions: Mapping[str, Observing] = {}
            self.thinking_waiting: Level = OFF
            self.thinking_busy: Level = OFF
            self.thinking_wait: Observing = OFF
            self.thinking_restarts: Counting = OFF
            self.refusals: Mapping[str, Counting] = dict.fromkeys(LIMITS, OFF)
            self.sockets: dict[str, Level] = dict.fromkeys(SOCKET_KINDS, OFF)
            self._sockets_gauge: Gauge | None = None
            return
        r = self.registry
        ProcessCollector(registry=r)
        PlatformCollector(registry=r)
        self.move = Histogram(
            "ginrummy_move_seconds",
            "Move round trip: from an act frame's arrival to its result published on the bus.",
            buckets=MOVE_BUCKETS,
            registry=r,
        )
        self.hello = Histogram(
            "ginrummy_hello_seconds",
            "From a hello's arrival to the room's first frames sent (a reconnect's wait here).",
            buckets=MOVE_BUCKETS,
            registry=r,
        )
        actions = Counter(
            "ginrummy_actions_total", "Actions applied here, by kind.", ["kind"], registry=r
        )
        self._actions = _children(actions, [*map(action_label, ActionKind), OTHER])
        self._store = Histogram(
            "ginrummy_store_seconds",
            "Store call latency, by operation (its method).",
            ["op"],
            buckets=STORE_BUCKETS,
            registry=r,
        )
        self.bus_publish = Histogram(
            "ginrummy_bus_publish_seconds",
            "Bus publish latency: local delivery, and queueing for Redis.",
            buckets=BUS_BUCKETS,
            registry=r,
        )
        self.bus_reconnects = Counter(
            "ginrummy_bus_reconnects_total", "Reconnections of the Redis bus.", registry=r
        )
        refusals = Counter(
            "ginrummy_rate_limit_refusals_total",
            "Requests refused by a rate limit, by limit.",
            ["limit"],
            registry=r,
        )
        self.refusals = _children(refusals, LIMITS)
        decisions = Histogram(
            "ginrummy_computer_decision_seconds",
            "Time a computer player took to decide, by level.",
            ["level"],
            buckets=COMPUTER_BUCKETS,
            registry=r,
        )
        self._decisions = _children(decisions, [*LEVELS, OTHER])
        # The worker processes of the heavy levels (server/thinking.py).
        self.thinking_waiting = Gauge(
            "ginrummy_thinking_waiting",
            "Heavy computer decisions waiting for a place in the worker pool.",
            registry=r,
        )
        self.thinking_busy = Gauge(
            "ginrummy_thinking_busy",
            "Heavy computer decisions in the worker pool (running or queued there).",
            registry=r,
        )
        self.thinking_wait = Histogram(
            "ginrummy_thinking_wait_seconds",
            "Time a heavy computer decision waited for a place in the worker pool.",
            buckets=COMPUTER_BUCKETS,
            registry=r,
        )
        self.thinking_restarts = Counter(
            "ginrummy_thinking_restarts_total",
            "Worker pools replaced because a worker process died.",
            registry=r,
        )
        self.turnover = Histogram(
            "ginrummy_tournament_turnover_seconds",
            "From a tournament round's last result to the next round's deals.",
            buckets=TURNOVER_BUCKETS,
            registry=r,
        )
        self._errors = Counter(
            "ginrummy_errors_total",
            "Errors sent to clients, by code and transport.",
            ["code", "transport"],
            registry=r,
        )
        sockets = Gauge(
            "ginrummy_sockets_open", "WebSockets open here, by what they are bound to.",
            ["kind"], registry=r,
        )  # fmt: skip
        self.sockets = dict(_children(sockets, SOCKET_KINDS))
        self._sockets_gauge = sockets

    def socket_kind(self, kind: str) -> Level:
        """The open sockets bound as ``kind``: the fixed ones, or a kind of table
        registered beside them (``<kind>_seat``, ``<kind>_spectator``), made once."""
        level = self.sockets.get(kind)
        if level is None:
            gauge = self._sockets_gauge
            level = self.sockets[kind] = OFF if gauge is None else gauge.labels(kind)
        return level

    # --- what the server tells -----------------------------------------------------

    def applied(self, action: str) -> None:
        """An action (its text) was applied here."""
        if self.on:
            self._actions[action_kind(action)].inc()

    def decision(self, level: str) -> Observing:
        """The decision times of computer level ``level``."""
        if not self.on:
            return OFF
        return self._decisions.get(level) or self._decisions[OTHER]

    def store_op(self, op: str) -> Observing:
        """The latencies of store operation ``op`` (a method of ``store.Store``)."""
        return self._store.labels(op) if self.on else OFF

    def error(self, transport: str, code: str) -> None:
        """An error with ``code`` was sent to a client over ``transport``."""
        if not self.on:
            return
        key = (transport, code)
        child = self._error_children.get(key)
        if child is None:
            known = _CODE.fullmatch(code) and len(self._error_children) < MAX_CODES
            child = self._errors.labels(code if known else OTHER, transport)
            self._error_children[key] = child
        child.inc()

    # --- read when scraped -----------------------------------------------------------

    def count_games(self, in_play: Callable[[], Mapping[str, int]] | None) -> None:
        """Expose ``in_play()`` (games in play here by room kind) as a gauge read at each
        scrape; None stops (the rooms closed)."""
        if not self.on:
            return
        if self._games is None:
            self._games = GamesInPlay()
            self.registry.register(self._games)
        self._games.source = in_play


class GamesInPlay:
    """A collector: the games in play here by kind, counted when scraped."""

    def __init__(self) -> None:
        self.source: Callable[[], Mapping[str, int]] | None = None

    def collect(self) -> Iterable[Metric]:
        family = GaugeMetricFamily(
            "ginrummy_games_in_play",
            "Games being played with a socket open here, by kind.",
            labels=["kind"],
        )
        counts = dict.fromkeys(GAME_KINDS, 0)
        for kind, n in (self.source() if self.source is not None else {}).items():
            label = kind if kind in counts else OTHER
            counts[label] = counts.get(label, 0) + n
        for kind, n in counts.items():
            family.add_metric([kind], n)
        yield family

    def describe(self) -> Iterable[Metric]:
        """The family without reading the rooms (registration checks names with it)."""
        yield GaugeMetricFamily("ginrummy_games_in_play", "", labels=["kind"])


M = TypeVar("M", Counter, Gauge, Histogram)


def _children(metric: M, values: Iterable[str]) -> dict[str, M]:
    """One child per label value, made once (a ``labels()`` call per event costs a lock)."""
    return {value: metric.labels(value) for value in values}


def metrics_of(app: Starlette) -> Metrics:
    """The app's metrics (``create_app`` makes them); off for an app made without."""
    metrics: Metrics | None = getattr(app.state, "metrics", None)
    if metrics is None:
        metrics = app.state.metrics = Metrics(on=False)
    return metrics
