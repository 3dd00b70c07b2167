"""``ginrummy serve``'s flags for the server's tuning: rooms and instances, rate limits,
reviews. Each flag is its environment variable's twin (``--room-idle-s`` for
``GINRUMMY_ROOM_IDLE_S``), read and checked as the variable is (``Settings.with_env``),
so a flag and its variable cannot mean two things.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from dataclasses import dataclass

from ginrummy.server.settings import Settings


@dataclass(frozen=True, slots=True)
class Tuning:
    """One variable as a flag: its help and where its value is in ``Settings``."""

    env: str
    help: str
    value: Callable[[Settings], object]
    metavar: str = "N"

    @property
    def flag(self) -> str:
        """``GINRUMMY_ROOM_IDLE_S`` -> ``--room-idle-s``."""
        return "--" + self.env.removeprefix("GINRUMMY_").lower().replace("_", "-")

    @property
    def dest(self) -> str:
        return self.env.lower()

    def help_line(self, base: Settings) -> str:
        return f"{self.help} (default {shown(self.value(base))}; env {self.env})"


def shown(value: object) -> str:
    """A default as the help shows it: ``300.0`` as ``300``, None as ``none``."""
    if value is None:
        return "none"
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


S = "SECONDS"

GROUPS: dict[str, tuple[Tuning, ...]] = {
    "rooms and instances (docs/operations.md)": (
        Tuning(
            "GINRUMMY_INSTANCE_ID",
            "this instance's name in room leases and presence; one per instance",
            lambda s: s.instance_id or "<hostname>:<port>",
            "NAME",
        ),
        Tuning(
            "GINRUMMY_ROOM_IDLE_S",
            "seconds an unused room without sockets or work stays loaded",
            lambda s: s.room_idle_s,
            S,
        ),
        Tuning(
            "GINRUMMY_MAX_ROOMS",
            "rooms loaded at once; one more unloads the least recently used idle one",
            lambda s: s.max_rooms,
        ),
        Tuning(
            "GINRUMMY_GRACE_SECONDS",
            "seconds, 0 to 3600, a person who left a running match may come back in "
            "before the opponent may claim it",
            lambda s: s.grace_seconds,
            S,
        ),
        Tuning(
            "GINRUMMY_SEED_TIMEOUT",
            "seconds, 0 to 60, a due deal waits for the people's seeds (docs/fairness.md)",
            lambda s: s.seed_timeout,
            S,
        ),
        Tuning(
            "GINRUMMY_LEASE_TTL",
            "seconds a room's lease lasts unless renewed",
            lambda s: s.lease_ttl,
            S,
        ),
        Tuning(
            "GINRUMMY_LEASE_RENEW",
            "seconds between lease renewals and takeovers; shorter than the lease",
            lambda s: s.lease_renew,
            S,
        ),
        Tuning(
            "GINRUMMY_PRESENCE_INTERVAL",
            "seconds between renewals of this instance's socket counts per room",
            lambda s: s.presence_interval,
            S,
        ),
        Tuning(
            "GINRUMMY_QUICK_CONFIRM",
            "seconds between confirmations of the quick-match waiting entries",
            lambda s: s.quick_confirm,
            S,
        ),
        Tuning(
            "GINRUMMY_TOURNAMENT_TICK",
            "seconds between this instance's looks at the live tournaments",
            lambda s: s.tournament_tick,
            S,
        ),
        Tuning(
            "GINRUMMY_DRAIN_S",
            "seconds, 0.5 to 3600, a SIGTERM leaves to move the sockets to other "
            "instances and finish the writes before the process ends (docs/operations.md, "
            "Rolling restarts)",
            lambda s: s.drain_s,
            S,
        ),
    ),
    "sockets and rate limits (per address; a limit of 0 is off)": (
        Tuning(
            "GINRUMMY_WS_RATE",
            "client messages per second per socket, in bursts of up to 3x, before rate_limited",
            lambda s: s.ws_rate,
        ),
        Tuning(
            "GINRUMMY_SOCKET_QUEUE",
            "notices a socket may fall behind before it is closed with code 4008",
            lambda s: s.socket_queue,
        ),
        Tuning(
            "GINRUMMY_HELLO_TIMEOUT",
            "seconds a new socket has to say hello before it is closed with code 4408",
            lambda s: s.hello_timeout,
            S,
        ),
        Tuning(
            "GINRUMMY_LIMIT_IDENTITIES",
            "new identities, POST /api/identity, per address per window",
            lambda s: s.limit_identities,
        ),
        Tuning(
            "GINRUMMY_LIMIT_ROOMS",
            "new rooms, POST /api/rooms, per address per window",
            lambda s: s.limit_rooms,
        ),
        Tuning(
            "GINRUMMY_LIMIT_LOOKUPS",
            "room lookups by id, GET /api/rooms/{id} and its join and record, per address "
            "per window",
            lambda s: s.limit_lookups,
        ),
        Tuning(
            "GINRUMMY_LIMIT_WINDOW",
            "the window of the three limits above",
            lambda s: s.limit_window,
            S,
        ),
        Tuning(
            "GINRUMMY_LIMIT_SOCKETS",
            "WebSockets one address may hold open at once; one more gets HTTP 403",
            lambda s: s.limit_sockets,
        ),
        Tuning(
            "GINRUMMY_LIMIT_SCRAPES",
            "scrapes of GET /metrics per window, refused or not (when metrics are on)",
            lambda s: s.limit_scrapes,
        ),
    ),
    "accounts and passkeys (docs/accounts.md)": (
        Tuning(
            "GINRUMMY_RP_ID",
            "the passkeys' relying party id, the site's host name (unset: the request's host)",
            lambda s: s.rp_id,
            "HOST",
        ),
        Tuning(
            "GINRUMMY_ORIGIN",
            "the one origin passkeys are made and used on, like https://host "
            "(unset: the request's origin)",
            lambda s: s.origin,
            "ORIGIN",
        ),
        Tuning(
            "GINRUMMY_LIMIT_ACCOUNTS",
            "accounts one address may create per window",
            lambda s: s.limit_accounts,
        ),
        Tuning(
            "GINRUMMY_LIMIT_SIGN_INS",
            "sign-in attempts (passkey or code) one address may make per window",
            lambda s: s.limit_sign_ins,
        ),
    ),
    "friends (docs/accounts.md)": (
        Tuning(
            "GINRUMMY_LIMIT_FRIEND_REQUESTS",
            "friend requests one person may make per window",
            lambda s: s.limit_friend_requests,
        ),
        Tuning(
            "GINRUMMY_LIMIT_CHALLENGES",
            "challenges one person may send per window",
            lambda s: s.limit_challenges,
        ),
        Tuning(
            "GINRUMMY_FRIENDS_PRESENCE_S",
            "seconds between renewals of where an account's people are, for their friends "
            "(a place not renewed for three of them no longer counts)",
            lambda s: s.friends_presence_s,
            S,
        ),
    ),
    "computer players (docs/computer-players.md)": (
        Tuning(
            "GINRUMMY_THINKING_WORKERS",
            "worker processes for heavy computer levels (master); default: the cores but one",
            lambda s: s.thinking_workers,
        ),
        Tuning(
            "GINRUMMY_THINKING_QUEUE",
            "heavy decisions in the worker pool at once, running or queued there; more "
            "wait their turn (unset: twice the workers)",
            lambda s: s.thinking_bound,
        ),
    ),
    "civility and the operators (docs/operations.md)": (
        Tuning(
            "GINRUMMY_OPERATORS",
            "the operators: player ids of accounts (p_...), comma-separated",
            lambda s: ",".join(s.operators) or "none",
            "IDS",
        ),
        Tuning(
            "GINRUMMY_LIMIT_REPORTS",
            "reports one address may make per window",
            lambda s: s.limit_reports,
        ),
    ),
    "match reviews (docs/review.md)": (
        Tuning(
            "GINRUMMY_REVIEW_WORKERS",
            "threads running match reviews",
            lambda s: s.review_workers,
        ),
        Tuning(
            "GINRUMMY_REVIEW_SAMPLES",
            "worlds sampled per decision, at least 2",
            lambda s: s.review_budget.samples,
        ),
    ),
}

TUNINGS: tuple[Tuning, ...] = tuple(t for group in GROUPS.values() for t in group)


def add_tuning(parser: argparse.ArgumentParser, base: Settings) -> None:
    """The tuning flags, in groups, each with its default in ``base`` and its variable."""
    for title, tunings in GROUPS.items():
        group = parser.add_argument_group(title)
        for t in tunings:
            group.add_argument(t.flag, dest=t.dest, metavar=t.metavar, help=t.help_line(base))


def tuned(parser: argparse.ArgumentParser, args: argparse.Namespace, s: Settings) -> Settings:
    """``s`` with the tuning flags given; a bad value is the parser's error (exit 2)."""
    given: dict[str, str] = {}
    for t in TUNINGS:
        value = getattr(args, t.dest)
        if value is not None:
            given[t.env] = value
    try:
        return s.with_env(given)
    except ValueError as exc:
        message = str(exc)
        for t in TUNINGS:
            if t.env in given:
                message = message.replace(t.env, t.flag)
        parser.error(message)
