"""``ginrummy bench abuse``: real games at human pace while an attacker hammers the server.

Starts one server (SQLite) on loopback and ``--games`` games of two simulated players
(``bench load``'s players, each from a loopback address of its own, 127.1.x.y, as people
come from theirs). After a quiet ``--baseline`` window an attacker from 127.0.0.2 looks
up ``--lookups`` random room ids as fast as ``--concurrency`` keep-alive connections
allow, and opens ``--sockets`` WebSockets that never say a word (they answer the
server's pings, as a determined attacker's would) and holds them for at least
``--seconds``. Then it lets go, and the server gets ``--settle`` seconds.

One JSON object on stdout: the real games' round trips before, during and after the
attack, their errors, the lookups' rate and answers (404 vs 429), what became of the
sockets, and the server's resident memory before the attack, at its peak and after.
With the server's default rate limits most lookups get a quick 429; ``--no-limits``
shows what a miss itself costs.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import shutil
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ginrummy.benchmarks.attacker import (
    HOST,
    SPARE_FILES,
    Attack,
    Attacker,
    Plan,
    raise_open_files,
)
from ginrummy.benchmarks.load import (
    Stats,
    connect_seats,
    free_port,
    loop_factory,
    open_game,
    proc_cpu_seconds,
    proc_rss_kb,
    rtt_summary,
    start_server,
    stop_all,
    wait_healthy,
)


def player_address(n: int) -> str:
    """Player ``n``'s own loopback address: 127.1.0.1, 127.1.0.2, ... (250 per /24)."""
    return f"127.1.{n // 250}.{n % 250 + 1}"


class RssWatch:
    """The server's resident memory, sampled every quarter second: its peak, and its
    trend over a window (the games' own growth: their rooms keep every move)."""

    def __init__(self, pid: int) -> None:
        self.pid, self.peak_kb = pid, proc_rss_kb(pid)
        self.samples: list[tuple[float, int]] = []  # (monotonic s, kB)

    async def run(self) -> None:
        while True:
            kb = proc_rss_kb(self.pid)
            self.peak_kb = max(self.peak_kb, kb)
            self.samples.append((time.monotonic(), kb))
            await asyncio.sleep(0.25)

    def trend_kb_per_s(self, start: float, end: float) -> float:
        """Growth from ``start`` to ``end``, in kB per second (0 if it shrank)."""
        window = [(t, kb) for t, kb in self.samples if start <= t <= end]
        if len(window) < 2 or window[-1][0] <= window[0][0]:
            return 0.0
        (t0, kb0), (t1, kb1) = window[0], window[-1]
        return max(0.0, (kb1 - kb0) / (t1 - t0))


async def _open_games(base: str, games: int) -> list[tuple[str, str, str]]:
    """``games`` rooms with both seats taken, every player from its own address."""
    import httpx

    gate = asyncio.Semaphore(16)

    async def one(n: int) -> tuple[str, str, str]:
        async with gate, contextlib.AsyncExitStack() as stack:
            clients = [
                await stack.enter_async_context(
                    httpx.AsyncClient(
                        timeout=30,
                        transport=httpx.AsyncHTTPTransport(local_address=player_address(a)),
                    )
                )
                for a in (2 * n, 2 * n + 1)
            ]
            return await open_game((clients[0], clients[1]), [base], n)

    async with httpx.AsyncClient(timeout=30) as client:
        await wait_healthy(client, base, time.monotonic() + 20)
    return list(await asyncio.gather(*(one(n) for n in range(games))))


def _server_env(args: argparse.Namespace) -> dict[str, str]:
    """This process's environment for the server: SQLite and one process, whatever is set."""
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    env = {k: v for k, v in env.items() if k not in ("GINRUMMY_DB", "GINRUMMY_BUS")}
    if args.no_limits:
        env |= {f"GINRUMMY_LIMIT_{k}": "0" for k in ("IDENTITIES", "ROOMS", "LOOKUPS", "SOCKETS")}
    elif args.limit_lookups is not None:
        env["GINRUMMY_LIMIT_LOOKUPS"] = str(args.limit_lookups)
    return env


async def _run(args: argparse.Namespace) -> dict[str, Any]:
    raise_open_files(args.sockets + SPARE_FILES)
    data_dir = Path(tempfile.mkdtemp(prefix="ginrummy-abuse-"))
    port = free_port()
    proc = start_server(port, data_dir, _server_env(args))
    base = f"http://{HOST}:{port}"
    stats, stop = Stats(), asyncio.Event()
    tasks: list[asyncio.Task[None]] = []
    progress = sys.stderr
    plan = Plan(port, args.lookups, args.sockets, args.concurrency, args.seconds, args.nice)
    attacker = Attacker(plan)
    try:
        games = await _open_games(base, args.games)
        await connect_seats(
            tasks,
            games,
            [base],
            args.think,
            stats,
            args.seed,
            stop,
            lambda n: (player_address(2 * n), player_address(2 * n + 1)),
        )
        print(f"bench abuse: {2 * len(games)} players; warming up", file=progress)
        await asyncio.sleep(args.warmup)
        stats.measuring = True
        watch = RssWatch(proc.pid)
        watching = asyncio.create_task(watch.run())
        baseline_start = time.monotonic()
        await asyncio.sleep(args.baseline)
        rss_before, before = proc_rss_kb(proc.pid), len(stats.rtts)
        trend = watch.trend_kb_per_s(baseline_start, time.monotonic())
        attack_start = time.monotonic()
        cpu0, t0 = proc_cpu_seconds(proc.pid), time.perf_counter()
        attack = await attacker.attack()
        during = len(stats.rtts)
        cpu = 100 * (proc_cpu_seconds(proc.pid) - cpu0) / (time.perf_counter() - t0)
        await attacker.let_go()
        print(f"bench abuse: attack over; settling {args.settle:g} s", file=progress)
        await asyncio.sleep(args.settle)
        watching.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await watching
        phases = {"before": stats.rtts[:before], "during": stats.rtts[before:during]}
        phases["after"] = stats.rtts[during:]
        trend_kb = trend * (time.monotonic() - attack_start)
        memory = Memory(rss_before, watch.peak_kb, proc_rss_kb(proc.pid), round(trend_kb))
        died = proc.poll() is not None
        return _report(args, stats, phases, attack, cpu, memory, died)
    finally:
        attacker.kill()
        await stop_all(stop, tasks, [proc])
        shutil.rmtree(data_dir, ignore_errors=True)


@dataclass(frozen=True)
class Memory:
    """The server's resident memory in kB: before the attack, its peak, after settling;
    and how much the games alone would have added meanwhile, at their baseline trend."""

    before: int
    peak: int
    after: int
    games_growth: int

    @property
    def expected(self) -> int:
        """What the server would hold after settling without the attack."""
        return self.before + self.games_growth

    def to_dict(self) -> dict[str, float]:
        return {
            "before": round(self.before / 1024, 1),
            "peak": round(self.peak / 1024, 1),
            "after": round(self.after / 1024, 1),
            "after_vs_before_percent": round(100 * (self.after - self.before) / self.before, 1),
            "games_growth_meanwhile": round(self.games_growth / 1024, 1),
            "after_vs_no_attack_percent": round(
                100 * (self.after - self.expected) / self.expected, 1
            ),
        }


def _report(
    args: argparse.Namespace,
    stats: Stats,
    phases: dict[str, list[float]],
    attack: Attack,
    server_cpu_percent: float,
    memory: Memory,
    died: bool,
) -> dict[str, Any]:
    looked, sockets = attack.lookups, attack.sockets
    p99 = rtt_summary(phases["during"])["p99"]
    return {
        "games": args.games,
        "think_s": args.think,
        "store": "sqlite",
        "limits": "off" if args.no_limits else "default",
        "attacker_nice": args.nice,
        "attack_seconds": round(attack.seconds, 1),
        "rtt_ms": {phase: rtt_summary(rtts) for phase, rtts in phases.items()},
        "moves": {phase: len(rtts) for phase, rtts in phases.items()},
        "errors": sum(stats.errors.values()),
        "error_codes": stats.errors,
        "lookups": {
            "sent": looked.sent,
            "answered": looked.answered,
            "per_second": round(looked.answered / max(looked.seconds, 1e-9), 1),
            "not_found_404": looked.statuses.get("404", 0),
            "rate_limited_429": looked.statuses.get("429", 0),
            "statuses": looked.statuses,
            "failures": looked.failures,
        },
        "sockets": {
            "wanted": sockets.wanted,
            "opened": sockets.opened,
            "seconds_to_open": round(sockets.seconds_to_open, 1),
            "refused": sockets.refused,
            "closed_by_server": sockets.closed_by_server,
            "open_at_end_of_attack": attack.open_at_end,
            "pings_answered": sockets.pings,
            "other_frames": sockets.messages,
        },
        "server_cpu_percent_during_attack": round(server_cpu_percent, 1),
        "server_rss_mb": memory.to_dict(),
        "targets": {
            "rss_after_within_10_percent": memory.after <= 1.1 * memory.expected,
            "rss_after_within_10_percent_of_before": memory.after <= 1.1 * memory.before,
            "p99_during_attack_at_most_100_ms": p99 <= 100,
        },
        "server_died": died,
    }


def main(argv: Sequence[str]) -> int:
    parser = argparse.ArgumentParser(prog="ginrummy bench abuse", description=__doc__)
    parser.add_argument("--games", type=int, default=200, help="real games (default 200)")
    parser.add_argument("--lookups", type=int, default=100_000, help="random room lookups")
    parser.add_argument("--sockets", type=int, default=10_000, help="idle WebSockets")
    parser.add_argument("--seconds", type=float, default=30.0, help="shortest attack")
    parser.add_argument("--concurrency", type=int, default=32, help="lookup connections")
    parser.add_argument(
        "--think", type=float, default=2.0, help="mean think time in s (uniform ±50%%)"
    )
    parser.add_argument(
        "--warmup", type=float, default=15.0, help="before the baseline: games reach their pace"
    )
    parser.add_argument("--baseline", type=float, default=10.0, help="quiet measured window")
    parser.add_argument("--settle", type=float, default=10.0, help="quiet time after")
    parser.add_argument("--no-limits", action="store_true", help="server without rate limits")
    parser.add_argument("--limit-lookups", type=int, help="the server's lookups per minute")
    parser.add_argument(
        "--nice", type=int, default=10, help="the attacker's niceness (0: as the server's)"
    )
    parser.add_argument("--seed", type=int, default=1, help="seed of the players (default 1)")
    args = parser.parse_args(argv)
    if min(args.games, args.concurrency) < 1 or min(args.lookups, args.sockets) < 0:
        parser.error("--games and --concurrency must be at least 1, the others at least 0")
    try:
        import httpx  # noqa: F401
        import websockets  # noqa: F401
    except ImportError as exc:
        print(f"ginrummy bench abuse needs: pip install 'ginrummy[bench]' ({exc})", file=sys.stderr)
        return 2
    with asyncio.Runner(loop_factory=loop_factory()) as runner:
        result = runner.run(_run(args))
    print(json.dumps(result, indent=2))
    return 0
