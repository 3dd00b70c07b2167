"""``ginrummy bench load``: many concurrent games against real server processes.

Starts the server(s) on loopback, opens ``--games`` rooms with two simulated players
each (every seat its own WebSocket, speaking only the documented protocol), and lets
them play: at human pace (each decision after a think time drawn uniformly from 1-3 s,
the default) or at saturation (``--think 0``). It measures, over ``--seconds`` after
all games are under way: moves per second, the move round trip (from sending an action
to receiving the view of the resulting version) at p50/p95/p99, errors, and the
server's CPU and resident memory per game, and the load generator's own CPU (it runs on
the same machine: near 100% it is the limit, not the server). One JSON object on
stdout; a progress line on stderr every second.

The servers run with their metrics off (``GINRUMMY_METRICS_*`` cleared) unless
``--metrics``: then they collect them, and the bench scrapes each server's
``GET /metrics`` every ``--scrape-every`` seconds as Prometheus would, reporting how
long a scrape took, so that a run with and one without show what the metrics cost.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import os
import random
import secrets
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

CLOCK_TICKS = os.sysconf("SC_CLK_TCK")
SKIPPED = ('{"type":"event"', '{"type":"presence"', '{"type":"chat')  # frames not decoded


async def send_seed(
    ws: Any, rng: random.Random, seeded: set[Any], fair: dict[str, Any] | None
) -> bool:
    """As a browser does: a seed of its own once the server has committed to a deal
    (docs/fairness.md), so that no deal waits for the seed timeout; once per commitment
    (``seeded`` remembers them). Whether a seed was sent."""
    if fair is None or fair.get("state") != "seeding" or fair.get("your_seed"):
        return False
    commitment = fair.get("commitment")
    if commitment in seeded:
        return False
    seeded.add(commitment)
    seed = rng.getrandbits(256).to_bytes(32, "big").hex()
    await ws.send(json.dumps({"type": "seed", "seed": seed, "commitment": commitment}))
    return True


@dataclass
class Stats:
    rtts: list[float] = field(default_factory=list)
    moves: int = 0
    errors: dict[str, int] = field(default_factory=dict)
    measuring: bool = False

    def error(self, code: str) -> None:
        self.errors[code] = self.errors.get(code, 0) + 1


def round_ask(
    table: Mapping[str, Any], me: Mapping[str, Any], asked: object
) -> tuple[tuple[Any, ...], str] | None:
    """Between rounds and matches, what a seat with no move asks for: ``(key, "next_round"
    | "new_match")``, or None. ``key`` names the finished round, so that a seat asks once
    per round (a view may predate the server seeing the ask); ``asked`` is the last key.
    A new match deals its first round by itself: ``next_round`` only after a round."""
    phase = table.get("match_phase")
    key = (phase, len(table.get("rounds", [])), table.get("match_result") is None)
    if key == asked:
        return None
    if phase == "deal" and table.get("rounds") and not me.get("ready"):
        return key, "next_round"
    if phase == "over" and not me.get("rematch"):
        return key, "new_match"
    return None


def choose(view: dict[str, Any], rng: random.Random) -> str | None:
    """A plain legal policy over the JSON view: knock or gin when offered, pass the
    first upcard, draw from the stock, discard the highest unmatched card."""
    legal: list[str] = view.get("legal_actions", [])
    if not legal:
        return None
    for prefix in ("gin ", "knock "):
        for action in legal:
            if action.startswith(prefix):
                return action
    if "pass" in legal:
        return "pass"
    if "draw stock" in legal:
        return "draw stock"
    arrangement = view.get("arrangement") or {}
    values = {"A": 1, "T": 10, "J": 10, "Q": 10, "K": 10}
    loose = sorted(
        arrangement.get("deadwood_cards", []),
        key=lambda c: values.get(c[0], int(c[0]) if c[0].isdigit() else 0),
        reverse=True,
    )
    for card in loose:
        if f"discard {card}" in legal:
            return f"discard {card}"
    discards = [a for a in legal if a.startswith("discard ")]
    return rng.choice(discards) if discards else legal[0]


class Seat:
    """One simulated player: its own WebSocket, acting when the view says so."""

    def __init__(
        self,
        url: str,
        room: str,
        token: str,
        think: float,
        stats: Stats,
        seed: int,
        local_address: str | None = None,
    ) -> None:
        self.url, self.room, self.token = url, room, token
        self.local_address = local_address  # the player's own source address, if any
        self.think, self.stats = think, stats
        self.rng = random.Random(seed)
        self.version = 0
        self.seat = ""
        self.sent_at: dict[int, float] = {}  # version acted on -> send time
        self._pending: asyncio.Task[None] | None = None  # the latest decision under way
        self.asked: tuple[object, ...] = ()  # the last between-rounds request sent
        self.seeded: set[object] = set()  # the commitments this seat sent its seed for

    async def run(self, stop: asyncio.Event, ready: asyncio.Event) -> None:
        import websockets

        local = None if self.local_address is None else (self.local_address, 0)
        async with websockets.connect(self.url, max_size=2**20, local_addr=local) as ws:
            await ws.send(json.dumps({"type": "hello", "room": self.room, "token": self.token}))
            ready.set()
            reader = asyncio.create_task(self._read(ws, stop))
            await stop.wait()
            reader.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await reader

    async def _read(self, ws: Any, stop: asyncio.Event) -> None:
        import websockets

        try:
            await self._read_frames(ws, stop)
        except websockets.ConnectionClosed:
            if not stop.is_set() and self.stats.measuring:
                self.stats.error("connection_closed")

    async def _read_frames(self, ws: Any, stop: asyncio.Event) -> None:
        async for raw in ws:
            if raw.startswith(SKIPPED):
                continue  # the view that follows says all a player needs
            msg = json.loads(raw)
            kind = msg.get("type")
            if kind == "welcome":
                self.seat = msg.get("seat") or ""
            if kind == "error":
                if self.stats.measuring:
                    self.stats.error(str(msg.get("code")))
                continue
            if kind != "view":
                continue
            version = int(msg["version"])
            if version <= self.version:
                continue
            now = time.perf_counter()
            sent = [v for v in self.sent_at if v < version]
            for v in sent:
                started = self.sent_at.pop(v)
                if self.stats.measuring:
                    self.stats.rtts.append(now - started)
                    self.stats.moves += 1
            self.version = version
            await send_seed(ws, self.rng, self.seeded, msg.get("fair"))
            view = msg["view"]
            me = (msg.get("players") or {}).get(self.seat) or {}
            if not stop.is_set():
                self._pending = asyncio.get_running_loop().create_task(
                    self._decide(ws, view, me, version)
                )

    async def _decide(
        self, ws: Any, view: dict[str, Any], me: dict[str, Any], version: int
    ) -> None:
        import websockets

        with contextlib.suppress(websockets.ConnectionClosed):
            await self._decide_and_send(ws, view, me, version)

    async def _decide_and_send(
        self, ws: Any, view: dict[str, Any], me: dict[str, Any], version: int
    ) -> None:
        table = view["table"]
        action = choose(view, self.rng)
        if action is None:
            if version != self.version:
                return  # a newer view arrived: it decides
            ask = round_ask(table, me, self.asked)
            if ask is not None:
                self.asked, kind = ask
                await ws.send(json.dumps({"type": kind, "version": version}))
            return
        if self.think:
            await asyncio.sleep(self.rng.uniform(self.think / 2, self.think * 1.5))
        if version != self.version:
            return  # something newer arrived while thinking; act on that instead
        self.sent_at[version] = time.perf_counter()
        await ws.send(json.dumps({"type": "act", "version": version, "action": action}))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


UNLIMITED = {
    # Saturation sends faster than a person could: lift the per-socket rate limit.
    "GINRUMMY_WS_RATE": "100000",
    # All the players open their games from this one address, hundreds a second.
    "GINRUMMY_LIMIT_IDENTITIES": "0",
    "GINRUMMY_LIMIT_ROOMS": "0",
    "GINRUMMY_LIMIT_LOOKUPS": "0",
    "GINRUMMY_LIMIT_SOCKETS": "0",
}


METRICS_ENV = ("GINRUMMY_METRICS_TOKEN", "GINRUMMY_METRICS_ALLOW")


@dataclass
class Scrapes:
    """The bench's scrapes of the servers' ``GET /metrics`` (``--metrics``)."""

    seconds: list[float] = field(default_factory=list)
    bytes: int = 0
    failed: int = 0

    def summary(self) -> dict[str, Any]:
        return {
            "scrapes": len(self.seconds),
            "failed": self.failed,
            "mean_ms": round(1000 * statistics.fmean(self.seconds), 2) if self.seconds else 0.0,
            "max_ms": round(1000 * max(self.seconds), 2) if self.seconds else 0.0,
            "bytes": self.bytes,
        }


async def scrape_forever(
    bases: Sequence[str], token: str, every: float, scrapes: Scrapes, stop: asyncio.Event
) -> None:
    """Scrape each server's metrics every ``every`` seconds until ``stop``."""
    import httpx

    headers = {"Authorization": f"Bearer {token}"}
    async with httpx.AsyncClient(timeout=10) as client:
        while not stop.is_set():
            for base in bases:
                started = time.perf_counter()
                try:
                    r = await client.get(f"{base}/metrics", headers=headers)
                    r.raise_for_status()
                except httpx.HTTPError:
                    scrapes.failed += 1
                    continue
                scrapes.seconds.append(time.perf_counter() - started)
                scrapes.bytes = len(r.content)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), every)


def start_server(port: int, data_dir: Path, env: dict[str, str]) -> subprocess.Popen[bytes]:
    args = [sys.executable, "-m", "ginrummy", "serve", "--port", str(port)]
    args += ["--data-dir", str(data_dir), "--bot-delay", "0", "--log-level", "warning"]
    return subprocess.Popen(args, env=env, stdout=subprocess.DEVNULL)


def proc_cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS


def proc_rss_kb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


async def wait_healthy(client: Any, base: str, deadline: float) -> None:
    while True:
        try:
            if (await client.get(f"{base}/api/health")).status_code == 200:
                return
        except OSError:
            pass
        except Exception as exc:  # httpx's connection errors are not OSErrors
            if time.monotonic() > deadline:
                raise RuntimeError(f"server at {base} did not start: {exc}") from None
        await asyncio.sleep(0.1)


async def open_game(clients: tuple[Any, Any], bases: Sequence[str], n: int) -> tuple[str, str, str]:
    """Room ``n`` with both seats taken: ``(room, token one, token two)``. ``clients``:
    the two players' HTTP clients (the same one twice when they share an address)."""
    base = bases[n % len(bases)]
    tokens = []
    for client in clients:
        r = await client.post(f"{base}/api/identity", json={})
        r.raise_for_status()
        tokens.append(r.json()["token"])
    auth = [{"Authorization": f"Bearer {t}"} for t in tokens]
    r = await clients[0].post(
        f"{base}/api/rooms",
        json={"kind": "room", "opponent": "friend", "name": f"A{n}"},
        headers=auth[0],
    )
    r.raise_for_status()
    room = r.json()["room"]
    join_base = bases[(n + 1) % len(bases)]
    r = await clients[1].post(
        f"{join_base}/api/rooms/{room}/join", json={"name": f"B{n}"}, headers=auth[1]
    )
    r.raise_for_status()
    return room, tokens[0], tokens[1]


def pct(values: list[float], q: float) -> float:
    """The ``q`` quantile of ``values`` (seconds) in milliseconds."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return round(1000 * ordered[min(len(ordered) - 1, int(q * len(ordered)))], 2)


def rtt_summary(rtts: list[float]) -> dict[str, float]:
    """p50/p95/p99 and mean of round trips in seconds, in milliseconds."""
    return {
        "p50": pct(rtts, 0.50),
        "p95": pct(rtts, 0.95),
        "p99": pct(rtts, 0.99),
        "mean": round(1000 * statistics.fmean(rtts), 2) if rtts else 0.0,
    }


async def connect_seats(
    tasks: list[asyncio.Task[None]],
    games: Sequence[tuple[str, str, str]],
    bases: Sequence[str],
    think: float,
    stats: Stats,
    seed: int,
    stop: asyncio.Event,
    addresses: Callable[[int], tuple[str | None, str | None]] = lambda n: (None, None),
) -> None:
    """Add to ``tasks`` one running ``Seat`` per player of ``games`` (from ``open_game``),
    each connected before the next starts; ``addresses(n)``: game n's players' source
    addresses (None: any)."""
    for n, (room, one, two) in enumerate(games):
        for k, token in enumerate((one, two)):
            url = bases[(n + k) % len(bases)].replace("http://", "ws://") + "/ws"
            source = addresses(n)[k]
            seat = Seat(url, room, token, think, stats, seed * 100_003 + 2 * n + k, source)
            ready = asyncio.Event()
            tasks.append(asyncio.create_task(seat.run(stop, ready)))
            await ready.wait()


async def stop_all(
    stop: asyncio.Event,
    tasks: Sequence[asyncio.Task[None]],
    procs: Sequence[subprocess.Popen[bytes]],
) -> None:
    """End the players, then the servers (killed if they do not stop within 10 s)."""
    stop.set()
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    for proc in procs:
        proc.terminate()
    for proc in procs:
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()


async def _open_games(
    bases: Sequence[str], procs: Sequence[subprocess.Popen[bytes]], n: int
) -> tuple[list[tuple[str, str, str]], int]:
    """Wait for the servers, note their memory, then open ``n`` games (32 at a time)."""
    import httpx

    limits = httpx.Limits(max_connections=64)
    async with httpx.AsyncClient(timeout=30, limits=limits) as client:
        for base in bases:
            await wait_healthy(client, base, time.monotonic() + 20)
        rss_before = sum(proc_rss_kb(p.pid) for p in procs)
        sem = asyncio.Semaphore(32)

        async def open_one(i: int) -> tuple[str, str, str]:
            async with sem:
                return await open_game((client, client), bases, i)

        games = await asyncio.gather(*(open_one(i) for i in range(n)))
    return list(games), rss_before


async def _measure(
    stats: Stats, procs: Sequence[subprocess.Popen[bytes]], seconds: float, progress: TextIO
) -> tuple[float, float, float]:
    """Measure for ``seconds``, showing progress: elapsed time, the servers' CPU seconds
    and this process's."""
    cpu0 = sum(proc_cpu_seconds(p.pid) for p in procs)
    own0 = time.process_time()
    t0 = time.perf_counter()
    stats.measuring = True
    while (elapsed := time.perf_counter() - t0) < seconds:
        await asyncio.sleep(1)
        elapsed = time.perf_counter() - t0
        print(
            f"\rbench load: {elapsed:5.1f}s  moves {stats.moves}"
            f"  {stats.moves / elapsed:7.1f}/s  p99 {pct(stats.rtts, 0.99):7.1f} ms"
            f"  errors {sum(stats.errors.values())}",
            end="",
            file=progress,
            flush=True,
        )
    stats.measuring = False
    elapsed = time.perf_counter() - t0
    cpu = sum(proc_cpu_seconds(p.pid) for p in procs) - cpu0
    return elapsed, cpu, time.process_time() - own0


async def _run(args: argparse.Namespace) -> dict[str, Any]:
    env = {k: v for k, v in os.environ.items() if k not in METRICS_ENV}
    env.update(UNLIMITED)
    token = secrets.token_urlsafe(24)
    if args.metrics:
        env["GINRUMMY_METRICS_TOKEN"] = token
    if args.instances > 1 and not (
        env.get("DATABASE_URL", "").startswith("postgres") and env.get("REDIS_URL")
    ):
        raise SystemExit(
            "ginrummy bench load: several instances need a shared store and bus: set "
            "DATABASE_URL=postgresql://... and REDIS_URL=redis://..."
        )
    data_dir = Path(tempfile.mkdtemp(prefix="ginrummy-load-"))
    ports = [free_port() for _ in range(args.instances)]
    procs = [start_server(p, data_dir, env) for p in ports]
    bases = [f"http://127.0.0.1:{p}" for p in ports]
    stats = Stats()
    scrapes = Scrapes()
    stop = asyncio.Event()
    tasks: list[asyncio.Task[None]] = []
    progress = sys.stderr
    try:
        games, rss_before = await _open_games(bases, procs, args.games)
        print(f"bench load: {len(games)} games opened; connecting", file=progress)
        await connect_seats(tasks, games, bases, args.think, stats, args.seed, stop)
        if args.metrics:
            scraping = scrape_forever(bases, token, args.scrape_every, scrapes, stop)
            tasks.append(asyncio.create_task(scraping))
        print(f"bench load: {2 * len(games)} sockets; warming up", file=progress)
        await asyncio.sleep(args.warmup)
        elapsed, cpu, own = await _measure(stats, procs, args.seconds, progress)
        rss_after = sum(proc_rss_kb(p.pid) for p in procs)
        print(file=progress)
        dead = [p.pid for p in procs if p.poll() is not None]
        return {
            "games": args.games,
            "sockets": 2 * args.games,
            "instances": args.instances,
            "store": "postgresql" if args.instances > 1 else "sqlite",
            "think_s": args.think,
            "seconds": round(elapsed, 1),
            "moves": stats.moves,
            "moves_per_second": round(stats.moves / elapsed, 1),
            "rtt_ms": rtt_summary(stats.rtts),
            "errors": sum(stats.errors.values()),
            "error_codes": stats.errors,
            "server_cpu_percent": round(100 * cpu / elapsed, 1),
            "loadgen_cpu_percent": round(100 * own / elapsed, 1),
            # CPU per move: steadier than rates when other work shares the cores.
            "server_cpu_ms_per_move": round(1000 * cpu / max(1, stats.moves), 3),
            "loadgen_cpu_ms_per_move": round(1000 * own / max(1, stats.moves), 3),
            "server_rss_mb": round(rss_after / 1024, 1),
            "server_kb_per_game": round((rss_after - rss_before) / max(1, args.games), 1),
            "servers_died": dead,
            "metrics": scrapes.summary() if args.metrics else None,
        }
    finally:
        await stop_all(stop, tasks, procs)
        shutil.rmtree(data_dir, ignore_errors=True)


def loop_factory() -> Callable[[], asyncio.AbstractEventLoop] | None:
    """uvloop when installed (uvicorn[standard] brings it): a cheaper load generator."""
    try:
        import uvloop
    except ImportError:
        return None
    return uvloop.new_event_loop


def main(argv: Sequence[str]) -> int:
    parser = argparse.ArgumentParser(prog="ginrummy bench load", description=__doc__)
    parser.add_argument("--games", type=int, default=100, help="concurrent games (default 100)")
    parser.add_argument(
        "--instances",
        type=int,
        default=1,
        help="server processes (default 1; more need DATABASE_URL and REDIS_URL)",
    )
    parser.add_argument(
        "--think", type=float, default=2.0, help="mean think time in s (uniform ±50%%); 0: none"
    )
    parser.add_argument("--seconds", type=float, default=30.0, help="measured window")
    parser.add_argument(
        "--warmup", type=float, default=5.0, help="seconds played before measuring (default 5)"
    )
    parser.add_argument("--seed", type=int, default=1, help="seed of the players (default 1)")
    parser.add_argument(
        "--metrics",
        action="store_true",
        help="run the servers with their metrics on and scrape them (default: off)",
    )
    parser.add_argument(
        "--scrape-every", type=float, default=5.0, help="seconds between scrapes (--metrics)"
    )
    args = parser.parse_args(argv)
    if args.games < 1 or args.instances < 1:
        parser.error("--games and --instances must be at least 1")
    try:
        import httpx  # noqa: F401
        import websockets  # noqa: F401
    except ImportError as exc:
        print(f"ginrummy bench load needs: pip install 'ginrummy[bench]' ({exc})", file=sys.stderr)
        return 2
    gc.freeze()  # as the server does: no long collection pauses in the measurement
    gc.set_threshold(50_000, 20, 10)
    with asyncio.Runner(loop_factory=loop_factory()) as runner:
        result = runner.run(_run(args))
    print(json.dumps(result, indent=2))
    return 0
