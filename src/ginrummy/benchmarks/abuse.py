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
import base64
import contextlib
import json
import multiprocessing
import os
import resource
import secrets
import shutil
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

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

ATTACKER = "127.0.0.2"
HOST = "127.0.0.1"
OPENING = 64  # sockets being opened at once
SPARE_FILES = 2_000  # descriptors besides the attack's sockets (players, lookups, SQLite)


def player_address(n: int) -> str:
    """Player ``n``'s own loopback address: 127.1.0.1, 127.1.0.2, ... (250 per /24)."""
    return f"127.1.{n // 250}.{n % 250 + 1}"


def raise_open_files(need: int) -> int:
    """Lift this process's soft limit on open files (the server inherits it) to ``need``."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < need:
        if hard != resource.RLIM_INFINITY and hard < need:
            raise SystemExit(
                f"ginrummy bench abuse: needs {need} open files, the hard limit is {hard};"
                " use fewer --sockets or raise the limit (ulimit -Hn)"
            )
        resource.setrlimit(resource.RLIMIT_NOFILE, (need, hard))
        soft = need
    return soft


# --- the attacker's lookups ------------------------------------------------------------


@dataclass
class Lookups:
    """Tally of the attacker's room lookups."""

    wanted: int
    sent: int = 0
    statuses: dict[str, int] = field(default_factory=dict)
    failures: dict[str, int] = field(default_factory=dict)
    seconds: float = 0.0

    @property
    def answered(self) -> int:
        return sum(self.statuses.values())


async def _lookup_worker(port: int, tally: Lookups) -> None:
    """One keep-alive connection asking for random room ids until the tally is full.

    Plain HTTP/1.1 over a stream, not an HTTP client library: the attacker shares the
    machine with the server and must cost it much less per request than the server
    spends, or the benchmark measures the attacker."""
    while tally.sent < tally.wanted:
        try:
            reader, writer = await asyncio.open_connection(HOST, port, local_addr=(ATTACKER, 0))
        except OSError as exc:
            tally.failures[type(exc).__name__] = tally.failures.get(type(exc).__name__, 0) + 1
            await asyncio.sleep(0.1)
            continue
        try:
            while tally.sent < tally.wanted:
                tally.sent += 1
                room = secrets.token_urlsafe(6)
                writer.write(f"GET /api/rooms/{room} HTTP/1.1\r\nHost: {HOST}\r\n\r\n".encode())
                head = await reader.readuntil(b"\r\n\r\n")
                status, length, close = _response_head(head)
                await reader.readexactly(length)
                tally.statuses[status] = tally.statuses.get(status, 0) + 1
                if close:
                    break
        except (OSError, asyncio.IncompleteReadError, asyncio.LimitOverrunError) as exc:
            tally.failures[type(exc).__name__] = tally.failures.get(type(exc).__name__, 0) + 1
        finally:
            writer.close()


def _response_head(head: bytes) -> tuple[str, int, bool]:
    """``(status, Content-Length, closes)`` of an HTTP/1.1 response head."""
    lines = head.decode("latin-1").split("\r\n")
    status = lines[0].split(" ", 2)[1]
    headers = {k.strip().lower(): v.strip() for k, _, v in (x.partition(":") for x in lines[1:])}
    return status, int(headers.get("content-length", "0")), headers.get("connection") == "close"


async def lookups(port: int, tally: Lookups, concurrency: int) -> None:
    """Fill ``tally``: its ``wanted`` lookups over ``concurrency`` connections."""
    t0 = time.perf_counter()
    await asyncio.gather(*(_lookup_worker(port, tally) for _ in range(concurrency)))
    tally.seconds = time.perf_counter() - t0


# --- the attacker's idle sockets -------------------------------------------------------


@dataclass
class Sockets:
    """Tally of the attacker's idle WebSockets."""

    wanted: int
    opened: int = 0
    refused: dict[str, int] = field(default_factory=dict)  # status or error -> count
    closed_by_server: dict[str, int] = field(default_factory=dict)  # close code -> count
    open_now: int = 0
    pings: int = 0
    messages: int = 0  # frames other than ping and close: an idle socket expects none
    seconds_to_open: float = 0.0


class IdleSocket:
    """A WebSocket that says nothing after its handshake and answers only pings."""

    def __init__(self, port: int, tally: Sockets) -> None:
        self.port, self.tally = port, tally
        self.writer: asyncio.StreamWriter | None = None
        self.letting_go = False

    async def open(self) -> asyncio.StreamReader | None:
        """The handshake; the stream to read on once it succeeded, else None."""
        tally = self.tally
        try:
            reader, self.writer = await asyncio.open_connection(
                HOST, self.port, local_addr=(ATTACKER, 0)
            )
            key = base64.b64encode(secrets.token_bytes(16)).decode()
            self.writer.write(
                f"GET /ws HTTP/1.1\r\nHost: {HOST}:{self.port}\r\nUpgrade: websocket\r\n"
                f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                "Sec-WebSocket-Version: 13\r\n\r\n".encode()
            )
            head = await reader.readuntil(b"\r\n\r\n")
        except (OSError, asyncio.IncompleteReadError, asyncio.LimitOverrunError) as exc:
            tally.refused[type(exc).__name__] = tally.refused.get(type(exc).__name__, 0) + 1
            return None
        status = head.split(b" ", 2)[1].decode()
        if status != "101":
            tally.refused[status] = tally.refused.get(status, 0) + 1
            return None
        tally.opened += 1
        tally.open_now += 1
        return reader

    async def hold(self, reader: asyncio.StreamReader) -> None:
        """Read frames until the server closes or the attacker lets go."""
        try:
            code = await self._frames(reader)
        except (OSError, asyncio.IncompleteReadError):
            code = "eof"
        self.tally.open_now -= 1
        if not self.letting_go:
            self.tally.closed_by_server[code] = self.tally.closed_by_server.get(code, 0) + 1

    async def _frames(self, reader: asyncio.StreamReader) -> str:
        assert self.writer is not None
        while True:
            head = await reader.readexactly(2)
            opcode, length = head[0] & 0x0F, head[1] & 0x7F
            if length >= 126:
                length = int.from_bytes(await reader.readexactly(2 if length == 126 else 8))
            payload = await reader.readexactly(length)
            if opcode == 0x8:  # close: its code, or 1005 "no status"
                return str(int.from_bytes(payload[:2])) if len(payload) >= 2 else "1005"
            if opcode == 0x9:  # ping: a pong with the same payload, masked as clients must
                self.tally.pings += 1
                mask = secrets.token_bytes(4)
                masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
                self.writer.write(bytes([0x8A, 0x80 | len(payload)]) + mask + masked)
            else:
                self.tally.messages += 1

    def let_go(self) -> None:
        self.letting_go = True
        if self.writer is not None:
            self.writer.close()


async def open_idle_sockets(
    port: int, tally: Sockets, held: list[asyncio.Task[None]], idle: list[IdleSocket]
) -> None:
    """Open ``tally.wanted`` idle sockets, ``OPENING`` at a time; each is then held by a
    task in ``held``."""
    gate = asyncio.Semaphore(OPENING)
    t0 = time.perf_counter()

    async def one() -> None:
        sock = IdleSocket(port, tally)
        idle.append(sock)
        async with gate:
            reader = await sock.open()
        if reader is not None:
            held.append(asyncio.create_task(sock.hold(reader)))

    await asyncio.gather(*(one() for _ in range(tally.wanted)))
    tally.seconds_to_open = time.perf_counter() - t0


# --- the run ---------------------------------------------------------------------------


class RssWatch:
    """The server's resident memory, sampled every quarter second: its peak."""

    def __init__(self, pid: int) -> None:
        self.pid, self.peak_kb = pid, proc_rss_kb(pid)

    async def run(self) -> None:
        while True:
            self.peak_kb = max(self.peak_kb, proc_rss_kb(self.pid))
            await asyncio.sleep(0.25)


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
        env |= {f"GINRUMMY_LIMIT_{k}": "0" for k in ("IDENTITIES", "ROOMS", "LOOKUPS")}
    elif args.limit_lookups is not None:
        env["GINRUMMY_LIMIT_LOOKUPS"] = str(args.limit_lookups)
    return env


@dataclass(frozen=True)
class Plan:
    """What the attacker is to do, against the server on ``port``."""

    port: int
    lookups: int
    sockets: int
    concurrency: int
    seconds: float


@dataclass
class Attack:
    """What the attacker did and saw."""

    lookups: Lookups
    sockets: Sockets
    seconds: float = 0.0
    open_at_end: int = 0  # sockets still open when the attack ended


def attacker_process(plan: Plan, pipe: Connection) -> None:
    """The attacker, in a process of its own so that its work does not delay the
    players' (their round trips are the measurement): attacks, sends the ``Attack``
    through ``pipe``, holds its sockets until told to let go, lets go."""
    raise_open_files(plan.sockets + SPARE_FILES)
    asyncio.run(_attack(plan, pipe))


async def _attack(plan: Plan, pipe: Connection) -> None:
    attack = Attack(Lookups(plan.lookups), Sockets(plan.sockets))
    idle: list[IdleSocket] = []
    held: list[asyncio.Task[None]] = []
    t0 = time.perf_counter()
    looking = asyncio.create_task(lookups(plan.port, attack.lookups, plan.concurrency))
    opening = asyncio.create_task(open_idle_sockets(plan.port, attack.sockets, held, idle))
    while not (looking.done() and opening.done()) or time.perf_counter() - t0 < plan.seconds:
        await asyncio.sleep(0.5)
        print(
            f"\rbench abuse: attack {time.perf_counter() - t0:5.1f}s"
            f"  lookups {attack.lookups.sent}  sockets open {attack.sockets.open_now}",
            end="",
            file=sys.stderr,
            flush=True,
        )
    print(file=sys.stderr)
    looking.result()  # a failure of either is the run's
    opening.result()
    attack.seconds = time.perf_counter() - t0
    attack.open_at_end = attack.sockets.open_now
    pipe.send(attack)
    while not pipe.poll():
        await asyncio.sleep(0.1)
    for sock in idle:
        sock.let_go()
    await asyncio.gather(*held, return_exceptions=True)


class Attacker:
    """The attacker's process, seen from the players' side."""

    def __init__(self, plan: Plan) -> None:
        context = multiprocessing.get_context("spawn")  # no fork of a running event loop
        self.pipe, child_end = context.Pipe()
        self.process = context.Process(target=attacker_process, args=(plan, child_end))

    async def attack(self) -> Attack:
        """Start it; the ``Attack`` when the attack is over (its sockets still held)."""
        self.process.start()
        while not self.pipe.poll():
            if not self.process.is_alive():
                raise RuntimeError(f"the attacker died (exit code {self.process.exitcode})")
            await asyncio.sleep(0.1)
        attack: Attack = self.pipe.recv()
        return attack

    async def let_go(self) -> None:
        """Close its sockets and wait until it is gone."""
        self.pipe.send("let go")
        while self.process.is_alive():
            await asyncio.sleep(0.1)

    def kill(self) -> None:
        if self.process.is_alive():
            self.process.kill()


async def _run(args: argparse.Namespace) -> dict[str, Any]:
    raise_open_files(args.sockets + SPARE_FILES)
    data_dir = Path(tempfile.mkdtemp(prefix="ginrummy-abuse-"))
    port = free_port()
    proc = start_server(port, data_dir, _server_env(args))
    base = f"http://{HOST}:{port}"
    stats, stop = Stats(), asyncio.Event()
    tasks: list[asyncio.Task[None]] = []
    progress = sys.stderr
    attacker = Attacker(Plan(port, args.lookups, args.sockets, args.concurrency, args.seconds))
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
        await asyncio.sleep(args.baseline)
        rss_before, before = proc_rss_kb(proc.pid), len(stats.rtts)
        watch = RssWatch(proc.pid)
        watching = asyncio.create_task(watch.run())
        cpu0, t0 = proc_cpu_seconds(proc.pid), time.perf_counter()
        attack = await attacker.attack()
        during = len(stats.rtts)
        cpu = 100 * (proc_cpu_seconds(proc.pid) - cpu0) / (time.perf_counter() - t0)
        await attacker.let_go()
        print(f"bench abuse: attack over; settling {args.settle:g} s", file=progress)
        await asyncio.sleep(args.settle)
        watching.cancel()
        phases = {"before": stats.rtts[:before], "during": stats.rtts[before:during]}
        phases["after"] = stats.rtts[during:]
        memory = Memory(rss_before, watch.peak_kb, proc_rss_kb(proc.pid))
        died = proc.poll() is not None
        return _report(args, stats, phases, attack, cpu, memory, died)
    finally:
        attacker.kill()
        await stop_all(stop, tasks, [proc])
        shutil.rmtree(data_dir, ignore_errors=True)


@dataclass(frozen=True)
class Memory:
    """The server's resident memory in kB: before the attack, its peak, after settling."""

    before: int
    peak: int
    after: int

    def to_dict(self) -> dict[str, float]:
        return {
            "before": round(self.before / 1024, 1),
            "peak": round(self.peak / 1024, 1),
            "after": round(self.after / 1024, 1),
            "after_vs_before_percent": round(100 * (self.after - self.before) / self.before, 1),
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
            "rss_after_within_10_percent": memory.after <= 1.1 * memory.before,
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
    parser.add_argument("--warmup", type=float, default=5.0)
    parser.add_argument("--baseline", type=float, default=10.0, help="quiet measured window")
    parser.add_argument("--settle", type=float, default=10.0, help="quiet time after")
    parser.add_argument("--no-limits", action="store_true", help="server without rate limits")
    parser.add_argument("--limit-lookups", type=int, help="the server's lookups per minute")
    parser.add_argument("--seed", type=int, default=1)
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
