"""``ginrummy bench deploy``: a rolling restart while games are played, then an audit of
every room's event log.

Two or three ``ginrummy serve`` processes share PostgreSQL (a schema of its own, dropped
afterwards) and a private ``redis-server``. ``--games`` games are played at human pace
by the fault test's clients (``fault_client``: one WebSocket per seat speaking only
docs/protocol.md, reconnecting with exponential backoff and jitter to any instance,
resending the act a dropped socket left unanswered). After ``--warmup`` seconds each
instance in turn is restarted as a deploy behind a load balancer does it
(docs/operations.md, "Rolling restarts"): SIGTERM (the instance drains and exits), the
new process started on the same port, ``/api/ready`` awaited, then ``--between``
seconds before the next one. Play goes on for ``--after`` seconds, every game must have
moved on, and every room's log is audited as ``ginrummy bench faults`` does.

Printed (one JSON object on stdout, a progress line on stderr): acknowledged actions,
lost and duplicated actions (both must be 0), the longest time a player waited for a
move to be answered during the deploy (goal: at most 5 s), the move round trip outside
and during the restarts, what the clients saw (error frames, close codes, refused
connection attempts), each restart's timings, the steps of the five longest waits,
and what the servers measured from the first restart on (``servers_measured``: how many
hellos and how long they took, the store's calls by operation; the instances run with
their metrics on for 127.0.0.1, benchmarks/serverside.py). Exit status 1 on any
violation.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

from ginrummy.benchmarks.cluster import FaultError, Instance, PrivateRedis, fresh_schema
from ginrummy.benchmarks.faults import Harness, keep_logs_if
from ginrummy.benchmarks.faults import Options as FaultOptions
from ginrummy.benchmarks.load import pct
from ginrummy.benchmarks.serverside import Key, Tally, parse

WAIT_GOAL_S = 5.0  # the longest a player should wait for a move during a deploy
# Error frames the page answers by itself (a resync), which no person sees as an error.
SILENT_CODES = frozenset({"stale_version", "not_your_turn"})


@dataclass(frozen=True, slots=True)
class Options:
    games: int = 1000
    instances: int = 2
    think: float = 2.0  # mean seconds before a decision (uniform ±50%)
    warmup: float = 10.0  # seconds of play before the first restart
    between: float = 5.0  # seconds between one instance ready and the next SIGTERM
    after: float = 10.0  # seconds of play after the last restart
    drain_s: float = 20.0  # each instance's grace period (GINRUMMY_DRAIN_S)
    bot_delay: float = 0.8  # the computer's delay, as in production
    seed: int = 1
    database_url: str = ""
    redis_server: str = "redis-server"
    progress: bool = True


@dataclass(frozen=True, slots=True)
class Restart:
    """One instance's restart: when (monotonic) it was told, had gone, was ready again."""

    instance: int
    signalled: float
    exited: float
    ready: float
    status: int  # the old process's exit status (0: drained within its grace period)

    def overlaps(self, start: float, seconds: float) -> bool:
        return start <= self.ready and start + seconds >= self.signalled


@contextlib.asynccontextmanager
async def cluster(options: Options, data_dir: Path) -> AsyncIterator[tuple[Harness, str]]:
    """The instances on a fresh PostgreSQL schema and a private Redis, and the fault
    test's harness over them; everything stopped on the way out."""
    if not options.database_url.startswith(("postgresql://", "postgres://")):
        raise FaultError(
            "the instances share PostgreSQL: set --db or DATABASE_URL=postgresql://..."
        )
    with contextlib.ExitStack() as stack:
        store_url = stack.enter_context(fresh_schema(options.database_url))
        redis = PrivateRedis(options.redis_server, data_dir)
        stack.callback(redis.stop)
        await redis.start()
        # The metrics on for the bench's own address: what the servers measured.
        env = {"GINRUMMY_DRAIN_S": str(options.drain_s), "GINRUMMY_METRICS_ALLOW": "127.0.0.1"}
        instances = [
            Instance(i, store_url, redis.url, data_dir, options.bot_delay, env)
            for i in range(options.instances)
        ]
        faults = FaultOptions(
            mode="deploy",
            games=options.games,
            think=options.think,
            seed=options.seed,
            database_url=options.database_url,
            progress=False,
        )
        harness = Harness(faults, instances)
        try:
            for instance in instances:
                await instance.start("ready")
            yield harness, store_url
        finally:
            await harness.settle()
            for instance in instances:
                instance.stop()


async def loop_lag(lags: list[float], every: float = 0.05) -> None:
    """How late this process's event loop wakes (the clients' own delay, not the
    servers'): appended to ``lags`` until cancelled."""
    while True:
        asked = time.monotonic()
        await asyncio.sleep(every)
        lags.append(time.monotonic() - asked - every)


class Deploy:
    """The restarts, one instance after the other, with play going on."""

    def __init__(self, options: Options, harness: Harness) -> None:
        self.options, self.h = options, harness
        self.restarts: list[Restart] = []
        self.started = time.monotonic()
        self.measured = Tally()  # the servers' own figures from the first restart on

    async def scrape(self, index: int) -> dict[Key, float]:
        """Instance ``index``'s hello and store histograms (its ``GET /metrics``)."""
        import httpx

        async with httpx.AsyncClient(timeout=10) as client:
            r = await client.get(f"{self.h.instances[index].base}/metrics")
        if r.status_code != 200:
            raise FaultError(f"server {index}: GET /metrics answered {r.status_code}")
        return parse(r.text)

    async def measure_from_now(self) -> None:
        for instance in self.h.instances:
            self.measured.start(await self.scrape(instance.index))

    async def measure_to_now(self) -> None:
        for instance in self.h.instances:
            self.measured.add(await self.scrape(instance.index))

    async def play(self, seconds: float, what: str) -> None:
        until = time.monotonic() + seconds
        while (left := until - time.monotonic()) > 0:
            self.progress(f"{what}, {left:4.1f}s left")
            await asyncio.sleep(min(1.0, left))

    async def roll(self) -> None:
        for n, instance in enumerate(self.h.instances):
            if n:
                await self.play(self.options.between, "between restarts")
            self.progress(f"restarting server {instance.index}")
            self.measured.add(await self.scrape(instance.index))  # its figures die with it
            signalled = time.monotonic()
            status = await instance.drain()
            exited = time.monotonic()
            if status != 0:
                self.h.stats.violation(f"server {instance.index} exited with {status} on SIGTERM")
            await instance.start("ready")
            self.restarts.append(
                Restart(instance.index, signalled, exited, time.monotonic(), status)
            )

    def progress(self, what: str) -> None:
        if not self.options.progress:
            return
        s = self.h.stats
        print(
            f"\rbench deploy: {what}  {time.monotonic() - self.started:6.1f}s  acked {s.acked}"
            f"  reconnects {len(s.reconnect_s)}  violations {len(s.violations)}   ",
            end="",
            file=sys.stderr,
            flush=True,
        )

    def waits(self) -> tuple[list[float], list[float]]:
        """How long each answered act took, outside the restarts and during one."""
        outside: list[float] = []
        during: list[float] = []
        for sent, seconds in self.h.stats.waits:
            hit = any(r.overlaps(sent, seconds) for r in self.restarts)
            (during if hit else outside).append(seconds)
        return outside, during


def _rtt(values: list[float]) -> dict[str, Any]:
    return {
        "moves": len(values),
        "p50_ms": pct(values, 0.50),
        "p99_ms": pct(values, 0.99),
        "max_ms": round(1000 * max(values), 1) if values else None,
    }


async def run(options: Options) -> dict[str, Any]:
    """Play, roll the restarts, audit; the summary (``violations`` lists what went wrong)."""
    data_dir = Path(tempfile.mkdtemp(prefix="ginrummy-deploy-"))
    started = time.monotonic()
    async with cluster(options, data_dir) as (harness, store_url):
        deploy = Deploy(options, harness)
        await harness.open_games()
        await deploy.play(options.warmup, "playing")
        marks = harness.marks()
        await deploy.measure_from_now()
        lags: list[float] = []
        probe = asyncio.create_task(loop_lag(lags))
        await deploy.roll()
        probe.cancel()
        await deploy.play(options.after, "after the deploy")
        await harness.wait_progress(marks, "the deploy", by=2)  # no game stuck
        await deploy.measure_to_now()
        if options.progress:
            print(file=sys.stderr)
        await harness.settle()
        for instance in harness.instances:
            instance.stop()  # nothing is written while the logs are read
        counts = await harness.audit(store_url)
    s = harness.stats
    outside, during = deploy.waits()
    longest = max(during, default=0.0)
    visible = {k: v for k, v in s.errors.items() if k not in SILENT_CODES}
    summary: dict[str, Any] = {
        "store": "postgresql",
        "bus": "redis",
        "instances": options.instances,
        "games": {k: sum(g.kind == k for g in harness.games) for k in ("cross", "computer")},
        "think_s": options.think,
        "drain_s": options.drain_s,
        "seconds": round(time.monotonic() - started, 1),
        "restarts": [
            {
                "instance": r.instance,
                "sigterm_to_exit_s": round(r.exited - r.signalled, 2),
                "exit_to_ready_s": round(r.ready - r.exited, 2),
                "exit_status": r.status,
            }
            for r in deploy.restarts
        ],
        "moves_logged": counts["actions"],
        "computer_moves": counts["computer_moves"],
        "acknowledged_actions": s.acked,
        "lost_actions": counts["lost"],
        "duplicated_actions": counts["duplicated"],
        "longest_wait_during_deploy_s": round(longest, 3),
        "wait_goal_met": longest <= WAIT_GOAL_S,
        "move_rtt": {"outside_restarts": _rtt(outside), "during_restarts": _rtt(during)},
        "servers_measured": deploy.measured.summary(),
        # The bench's own event loop (every client's socket is in it): how late it ran
        # during the restarts, part of every wait above and not the servers' doing.
        "clients_loop_lag_ms": {"p99": pct(lags, 0.99), "max": pct(lags, 1.0)},
        "slowest_waits": [{"wait_s": round(w, 3), "steps": steps} for w, steps in s.slowest],
        **s.reconnects(),
        "resent_pending": {"sent": s.resent, "applied": s.resent_applied},
        "clients_saw": {
            "error_codes": s.errors,
            "errors_a_person_would_see": sum(visible.values()),
            "close_codes": {str(k): v for k, v in sorted(s.close_codes.items())},
            "refused_connects": s.refused,
        },
        "violations": len(s.violations),
        "violation_list": s.violations[:50],
    }
    failed = bool(s.violations or counts["lost"] or counts["duplicated"])
    return keep_logs_if(failed, data_dir, summary)


def main(argv: Sequence[str], out: TextIO | None = None) -> int:
    parser = argparse.ArgumentParser(prog="ginrummy bench deploy", description=__doc__)
    parser.add_argument("--games", type=int, default=1000, help="concurrent games (default 1000)")
    parser.add_argument(
        "--instances", type=int, default=2, choices=(2, 3), help="server processes (default 2)"
    )
    parser.add_argument(
        "--think", type=float, default=2.0, help="mean think time in s, uniform ±50%% (default 2)"
    )
    parser.add_argument(
        "--warmup", type=float, default=10.0, help="seconds of play before the first restart"
    )
    parser.add_argument(
        "--between", type=float, default=5.0, help="seconds from one instance ready to the next"
    )
    parser.add_argument(
        "--after", type=float, default=10.0, help="seconds of play after the last restart"
    )
    parser.add_argument(
        "--drain-s",
        type=float,
        default=20.0,
        help="each instance's grace period, as GINRUMMY_DRAIN_S (default 20)",
    )
    parser.add_argument(
        "--bot-delay", type=float, default=0.8, help="the computer's delay in s (default 0.8)"
    )
    parser.add_argument("--seed", type=int, default=1, help="seed of the clients' decisions")
    parser.add_argument(
        "--db",
        default=os.environ.get("DATABASE_URL", ""),
        help="PostgreSQL server (env DATABASE_URL); a schema of its own is created there "
        "and dropped",
    )
    parser.add_argument("--redis-server", default="redis-server", help="redis-server binary")
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error("--games must be at least 1")
    if min(args.think, args.warmup, args.between, args.after) < 0 or args.drain_s <= 0:
        parser.error("times must not be negative (--drain-s positive)")
    try:
        import httpx  # noqa: F401
        import websockets  # noqa: F401
    except ImportError as exc:
        print(
            f"ginrummy bench deploy needs: pip install 'ginrummy[bench]' ({exc})", file=sys.stderr
        )
        return 2
    options = Options(
        games=args.games,
        instances=args.instances,
        think=args.think,
        warmup=args.warmup,
        between=args.between,
        after=args.after,
        drain_s=args.drain_s,
        bot_delay=args.bot_delay,
        seed=args.seed,
        database_url=args.db,
        redis_server=args.redis_server,
    )
    try:
        summary = asyncio.run(run(options))
    except FaultError as exc:
        print(f"ginrummy bench deploy: {exc}", file=sys.stderr)
        return 2
    print(json.dumps(summary, indent=2), file=out or sys.stdout)
    failed = summary["violations"] or summary["lost_actions"] or summary["duplicated_actions"]
    return 1 if failed else 0
