"""``ginrummy bench computer``: a server's capacity with computer seats of one level.

Starts a server on loopback (``--workers``: its ``GINRUMMY_THINKING_WORKERS``) and opens
``--rooms`` rooms against the computer at ``--level`` (default ``master``), each with a
simulated person who moves at once (the computer always has the next decision to
make: saturation), beside ``--games`` games of two simulated people at human pace
(``--think``), all over real WebSockets speaking the documented protocol. Over
``--seconds`` it measures:

- the computer's decisions per second, and its *decision time* as its room sees it:
  from the view that gives the computer the move to the view of its move (the bot
  delay is 0; the wait for a worker is in it);
- the other rooms' *move round trip* (from a person's action sent to the view of its
  result): what the computer's thinking costs everybody else;
- the server's CPU (its worker processes included) and the server's own count of
  decisions (``GET /metrics``).

One JSON object on stdout; a progress line on stderr every second.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import secrets
import shutil
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ginrummy.benchmarks.load import (
    METRICS_ENV,
    UNLIMITED,
    Stats,
    choose,
    connect_seats,
    free_port,
    loop_factory,
    pct,
    proc_cpu_seconds,
    round_ask,
    rtt_summary,
    send_seed,
    start_server,
    stop_all,
    wait_healthy,
)
from ginrummy.benchmarks.load import open_game as open_people_game


class Decisions:
    """The computer's decisions as the rooms saw them (seconds each)."""

    def __init__(self) -> None:
        self.times: list[float] = []
        self.measuring = False


class Solo:
    """A person against the computer who moves at once, timing the computer's moves."""

    def __init__(self, url: str, room: str, token: str, decisions: Decisions, seed: int) -> None:
        import random

        self.url, self.room, self.token = url, room, token
        self.decisions = decisions
        self.rng = random.Random(seed)
        self.version = 0
        self.seat = ""
        self.waiting_since: float | None = None  # the computer has the move since then
        self.asked: tuple[object, ...] = ()
        self.seeded: set[object] = set()

    async def run(self, stop: asyncio.Event, ready: asyncio.Event) -> None:
        import websockets

        async with websockets.connect(self.url, max_size=2**20) as ws:
            await ws.send(json.dumps({"type": "hello", "room": self.room, "token": self.token}))
            ready.set()
            reader = asyncio.create_task(self._read(ws))
            await stop.wait()
            reader.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await reader

    async def _read(self, ws: Any) -> None:
        import websockets

        with contextlib.suppress(websockets.ConnectionClosed):
            await self._read_frames(ws)

    async def _read_frames(self, ws: Any) -> None:
        async for raw in ws:
            msg = json.loads(raw)
            if msg.get("type") == "welcome":
                self.seat = msg.get("seat") or ""
            if msg.get("type") != "view" or int(msg["version"]) <= self.version:
                continue
            now = time.perf_counter()
            if self.waiting_since is not None and self.decisions.measuring:
                self.decisions.times.append(now - self.waiting_since)
            self.waiting_since = None
            self.version = version = int(msg["version"])
            await send_seed(ws, self.rng, self.seeded, msg.get("fair"))
            view = msg["view"]
            table = view["table"]
            action = choose(view, self.rng)
            if action is not None:
                await ws.send(json.dumps({"type": "act", "version": version, "action": action}))
            elif table.get("match_phase") == "round":
                self.waiting_since = now  # the computer's move
            else:
                me = (msg.get("players") or {}).get(self.seat) or {}
                ask = round_ask(table, me, self.asked)
                if ask is not None:
                    self.asked, kind = ask
                    await ws.send(json.dumps({"type": kind, "version": version}))


async def open_solo(client: Any, base: str, level: str, n: int) -> tuple[str, str]:
    """A room against the computer at ``level``: ``(room, the person's token)``."""
    r = await client.post(f"{base}/api/identity", json={})
    r.raise_for_status()
    token = r.json()["token"]
    r = await client.post(
        f"{base}/api/rooms",
        json={"kind": "solo", "opponent": f"bot:{level}", "name": f"S{n}"},
        headers={"Authorization": f"Bearer {token}"},
    )
    r.raise_for_status()
    return r.json()["room"], token


def decisions_counted(text: str, level: str) -> float:
    """The server's count of ``level`` decisions in a scrape of ``GET /metrics``."""
    prefix = f'ginrummy_computer_decision_seconds_count{{level="{level}"}} '
    for line in text.splitlines():
        if line.startswith(prefix):
            return float(line[len(prefix) :])
    return 0.0


def tree_cpu_seconds(pid: int) -> float:
    """CPU seconds of a process and its children (the server and its worker processes)."""
    total = proc_cpu_seconds(pid)
    # Each thread lists the children it started (the pool starts its workers from one).
    for children in Path(f"/proc/{pid}/task").glob("*/children"):
        with contextlib.suppress(OSError):
            for child in children.read_text().split():
                with contextlib.suppress(OSError):
                    total += tree_cpu_seconds(int(child))
    return total


async def _run(args: argparse.Namespace) -> dict[str, Any]:
    import httpx

    env = {k: v for k, v in os.environ.items() if k not in METRICS_ENV}
    env.update(UNLIMITED)
    token = secrets.token_urlsafe(24)
    env["GINRUMMY_METRICS_TOKEN"] = token
    if args.workers:
        env["GINRUMMY_THINKING_WORKERS"] = str(args.workers)
    data_dir = Path(tempfile.mkdtemp(prefix="ginrummy-computer-"))
    port = free_port()
    proc = start_server(port, data_dir, env)
    base = f"http://127.0.0.1:{port}"
    url = base.replace("http://", "ws://") + "/ws"
    decisions, people = Decisions(), Stats()
    stop = asyncio.Event()
    tasks: list[asyncio.Task[None]] = []
    progress = sys.stderr
    auth = {"Authorization": f"Bearer {token}"}
    try:
        async with httpx.AsyncClient(timeout=30) as client:
            await wait_healthy(client, base, time.monotonic() + 30)
            solos = [await open_solo(client, base, args.level, n) for n in range(args.rooms)]
            games = [await open_people_game((client, client), [base], n) for n in range(args.games)]
            for n, (room, person) in enumerate(solos):
                solo = Solo(url, room, person, decisions, args.seed * 1000 + n)
                ready = asyncio.Event()
                tasks.append(asyncio.create_task(solo.run(stop, ready)))
                await ready.wait()
            await connect_seats(tasks, games, [base], args.think, people, args.seed, stop)
            print(
                f"bench computer: {args.rooms} rooms, {args.games} games; warming up", file=progress
            )
            await asyncio.sleep(args.warmup)
            counted0 = decisions_counted(
                (await client.get(f"{base}/metrics", headers=auth)).text, args.level
            )
            cpu0 = tree_cpu_seconds(proc.pid)
            t0 = time.perf_counter()
            decisions.measuring = people.measuring = True
            while (elapsed := time.perf_counter() - t0) < args.seconds:
                await asyncio.sleep(1)
                elapsed = time.perf_counter() - t0
                print(
                    f"\rbench computer: {elapsed:5.1f}s  decisions {len(decisions.times)}"
                    f"  p99 {pct(decisions.times, 0.99):7.1f} ms  people's moves {people.moves}"
                    f"  p99 {pct(people.rtts, 0.99):7.1f} ms",
                    end="",
                    file=progress,
                    flush=True,
                )
            decisions.measuring = people.measuring = False
            elapsed = time.perf_counter() - t0
            cpu = tree_cpu_seconds(proc.pid) - cpu0
            counted = decisions_counted(
                (await client.get(f"{base}/metrics", headers=auth)).text, args.level
            )
        print(file=progress)
        return {
            "level": args.level,
            "rooms": args.rooms,
            "games": args.games,
            "workers": args.workers or "default",
            "think_s": args.think,
            "seconds": round(elapsed, 1),
            "decisions": len(decisions.times),
            "decisions_per_second": round(len(decisions.times) / elapsed, 2),
            "server_decisions_per_second": round((counted - counted0) / elapsed, 2),
            "decision_ms": rtt_summary(decisions.times),
            "people_moves": people.moves,
            "people_rtt_ms": rtt_summary(people.rtts),
            "errors": sum(people.errors.values()),
            "server_cpu_percent": round(100 * cpu / elapsed, 1),
            "server_died": proc.poll() is not None,
        }
    finally:
        await stop_all(stop, tasks, [proc])
        shutil.rmtree(data_dir, ignore_errors=True)


def main(argv: Sequence[str]) -> int:
    parser = argparse.ArgumentParser(prog="ginrummy bench computer", description=__doc__)
    parser.add_argument("--level", default="master", help="the computer's level (default master)")
    parser.add_argument(
        "--rooms", type=int, default=4, help="rooms against the computer (default 4)"
    )
    parser.add_argument(
        "--games", type=int, default=20, help="games of two people beside them (default 20)"
    )
    parser.add_argument(
        "--think", type=float, default=1.0, help="the people's mean think time in s (default 1)"
    )
    parser.add_argument(
        "--workers", type=int, default=0, help="GINRUMMY_THINKING_WORKERS (default: the server's)"
    )
    parser.add_argument("--seconds", type=float, default=30.0, help="measured window")
    parser.add_argument("--warmup", type=float, default=5.0, help="seconds before measuring")
    parser.add_argument("--seed", type=int, default=1, help="seed of the players (default 1)")
    args = parser.parse_args(argv)
    if args.rooms < 0 or args.games < 0 or args.workers < 0:
        parser.error("--rooms, --games and --workers must be 0 or more")
    try:
        import httpx  # noqa: F401
        import websockets  # noqa: F401
    except ImportError as exc:
        print(
            f"ginrummy bench computer needs: pip install 'ginrummy[bench]' ({exc})", file=sys.stderr
        )
        return 2
    with asyncio.Runner(loop_factory=loop_factory()) as runner:
        result = runner.run(_run(args))
    print(json.dumps(result, indent=2))
    return 0
