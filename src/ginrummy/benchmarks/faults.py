"""``ginrummy bench faults``: kill server instances mid-match, then audit every event log.

The games are two-player rooms (against the computer, or two clients); in the kill
modes also chouette tables of three (``--chouettes``) and, one after the other, small
knockouts of our own clients (``--tournament-players``, ``fault_tournament``), whose
matches are rooms. Three modes, each against real ``ginrummy serve`` processes on
loopback:

- default: two instances sharing PostgreSQL (a schema of its own, dropped afterwards)
  and a private ``redis-server``; ``--cycles`` times, one instance is killed with
  SIGKILL at a random moment, its sockets reconnect to the other one, and it is
  restarted;
- ``--sqlite``: one instance on a SQLite file, killed and restarted in place;
- ``--redis-outage SECONDS``: two instances, two-player games only; the private Redis
  is stopped for that long mid-match; every seat left behind must get the fresh view
  within 2 s of its return.

Every seat (a chouette position too) is its own WebSocket speaking only
docs/protocol.md (``fault_client``). A seat whose socket drops reconnects to a live
instance, says ``hello`` with its token and resends the action it got no answer for (on
the version it saw): the server must answer with the action applied once or
``stale_version``. After the last fault every game must still move on, and the
tournament under way must finish with every match played out. At the end every table's
log is read from the store and checked (``fault_audit``): seq contiguous from 1, replay
through the server's own fold of its kind, every acknowledged action at its place, no
person's action that nobody sent, and every view a client received equal to the log's
replay at that version (so nothing told was lost). One JSON object on stdout, a
progress line on stderr; exit status 1 on any violation.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from ginrummy.benchmarks.cluster import (
    FaultError,
    Instance,
    PrivateRedis,
    fresh_schema,
)
from ginrummy.benchmarks.fault_audit import CHOUETTE_LOG, Game, audit_logs
from ginrummy.benchmarks.fault_client import ChouetteClient, RoomClient, SeatClient
from ginrummy.benchmarks.fault_tournament import Tournaments

PROGRESS_LIMIT = 30.0  # seconds every game has to move on after a fault
RESUME_LIMIT = 2.0  # seconds after Redis is back for live updates to resume
AFTERWARDS = 10  # versions every game must still make after the last fault
SLOWEST = 5  # the longest waits whose steps a summary shows
KINDS = ("cross", "same", "computer", "chouette", "tournament")  # of games (``Game.kind``)


@dataclass(frozen=True, slots=True)
class Options:
    mode: str = "kill"  # "kill" (two instances), "sqlite" or "redis-outage"
    cycles: int = 50
    games: int = 8
    # Chouette tables beside the games, and the entrants of the knockouts played one
    # after the other (0: none); both in the kill modes only.
    chouettes: int = 2
    tournament_players: int = 4
    tournaments: int | None = None  # at most this many (None: as long as the faults last)
    think: float = 0.05  # mean seconds before a decision (uniform ±50%)
    seed: int = 1
    database_url: str = ""  # PostgreSQL server for the two-instance modes
    redis_server: str = "redis-server"
    outage: float = 30.0
    # The instances' GINRUMMY_PRESENCE_INTERVAL (None: the server's default, 5 s): a
    # test's short outage outlasts the presence of the other instance's sockets (three
    # intervals) as the bench's 30 s outage outlasts the default's.
    presence_interval: float | None = None
    # The instances' GINRUMMY_LEASE_TTL (None: the default, 10 s; renewed every third of
    # it): after a kill the survivor takes the dead instance's rooms over when their
    # leases run out, so a test's kills wait a third as long with 3 s as the bench's.
    lease_ttl: float | None = None
    progress: bool = True


@dataclass
class Stats:
    violations: list[str] = field(default_factory=list)
    errors: dict[str, int] = field(default_factory=dict)
    drops: int = 0
    reconnect_s: list[float] = field(default_factory=list)
    resent: int = 0
    resent_applied: int = 0
    resent_stale: int = 0
    moved_home: int = 0
    acked: int = 0
    waits: list[tuple[float, float]] = field(default_factory=list)  # (sent, seconds) per act
    close_codes: dict[int, int] = field(default_factory=dict)  # sockets the server closed
    refused: dict[str, int] = field(default_factory=dict)  # failed connects, by why
    slowest: list[tuple[float, list[str]]] = field(default_factory=list)  # the longest waits

    def timeline(self, sent: float, answered: float, steps: list[tuple[str, float]]) -> None:
        """Keep the steps of the ``SLOWEST`` longest waits for an answer, each as the
        seconds after the act was sent (where a wait's time went)."""
        wait = answered - sent
        if len(self.slowest) >= SLOWEST and wait <= self.slowest[-1][0]:
            return
        told = [f"+{at - sent:.2f}s {what}" for what, at in steps]
        self.slowest.append((wait, [*told, f"+{wait:.2f}s answered"]))
        self.slowest.sort(key=lambda entry: -entry[0])
        del self.slowest[SLOWEST:]

    def violation(self, text: str) -> None:
        self.violations.append(text)

    def reconnects(self) -> dict[str, Any]:
        """How many sockets came back, and how long they took (the summary's part)."""
        s = self.reconnect_s
        return {
            "reconnects": len(s),
            "reconnect_s": {
                "max": round(max(s), 3) if s else None,
                "mean": round(statistics.fmean(s), 3) if s else None,
            },
        }


def keep_logs_if(failed: bool, data_dir: Path, summary: dict[str, Any]) -> dict[str, Any]:
    """The servers' logs are kept (and named in the summary) when the run failed, else
    removed."""
    if failed:
        summary["server_logs"] = str(data_dir)  # kept to look into
    else:
        shutil.rmtree(data_dir, ignore_errors=True)
    return summary


class Harness:
    """The games, their clients, the instances, and the faults done to them."""

    def __init__(self, options: Options, instances: list[Instance]) -> None:
        self.options, self.instances = options, instances
        self.rng = random.Random(options.seed)
        self.stats = Stats()
        self.stuck: set[str] = set()  # rooms that stopped moving after a fault
        self.games: list[Game] = []
        self.stopping = False
        self.tasks: list[asyncio.Task[None]] = []
        self.started = time.monotonic()
        self.tournaments: Tournaments | None = None

    @property
    def clients(self) -> list[SeatClient]:
        return [c for g in self.games for c in g.clients]

    @property
    def killing(self) -> bool:
        """A kill mode: the games include chouette tables and tournaments."""
        return self.options.mode in ("kill", "sqlite")

    # --- set-up -----------------------------------------------------------------------

    async def open_games(self) -> None:
        """Every third game against the computer; the others between two clients, their
        seats on different instances (with one instance: on the same one). In the kill
        modes, the chouette tables too, and the first tournament."""
        import httpx

        n = len(self.instances)
        async with httpx.AsyncClient(timeout=30) as http:
            for k in range(self.options.games):
                if k % 3 == 2:
                    await self._open(http, k, computer=True, homes=(k % n,))
                elif self.options.mode == "redis-outage" and k % 3 == 1:
                    await self._open(http, k, computer=False, homes=(k % n, k % n))
                else:
                    await self._open(http, k, computer=False, homes=(k % n, (k + 1) % n))
            for k in range(self.options.chouettes if self.killing else 0):
                await self._open_chouette(http, k)
        for client in self.clients:
            self.tasks.append(asyncio.create_task(client.run()))
        for client in self.clients:
            await asyncio.wait_for(client.welcomed.wait(), 30)
        if self.killing and self.options.tournament_players:
            self.tournaments = Tournaments(
                self, self.options.tournament_players, self.options.tournaments
            )
            self.tournaments.start()

    async def _identity(self, http: Any, base: str) -> str:
        r = await http.post(f"{base}/api/identity", json={})
        r.raise_for_status()
        return str(r.json()["token"])

    async def _open(self, http: Any, k: int, *, computer: bool, homes: tuple[int, ...]) -> None:
        bases = [self.instances[h].base for h in homes]
        tokens = [await self._identity(http, base) for base in bases]
        body = {"kind": "room", "opponent": "bot:random" if computer else "friend"}
        r = await http.post(f"{bases[0]}/api/rooms", json=body, headers=_auth(tokens[0]))
        r.raise_for_status()
        room = r.json()["room"]
        if not computer:
            r = await http.post(
                f"{bases[1]}/api/rooms/{room}/join", json={}, headers=_auth(tokens[1])
            )
            r.raise_for_status()
        kind = "computer" if computer else ("same" if len(set(homes)) == 1 else "cross")
        people = ("one",) if computer else ("one", "two")
        game = Game(room, kind, people)
        for j, (token, home) in enumerate(zip(tokens, homes, strict=True)):
            game.clients.append(
                RoomClient(self, game, token, home, self.options.seed * 1009 + 2 * k + j)
            )
        self.games.append(game)

    async def _open_chouette(self, http: Any, k: int) -> None:
        """A chouette table of three, its people on the instances in turn: two people
        and a computer (even ``k``), or three people (odd)."""
        n = len(self.instances)
        seats = ["me", "friend", "bot:random" if k % 2 == 0 else "friend"]
        people = [p for p, seat in enumerate(seats) if not seat.startswith("bot:")]
        homes = {p: (k + p) % n for p in people}
        tokens = {p: await self._identity(http, self.instances[homes[p]].base) for p in people}
        r = await http.post(
            f"{self.instances[homes[0]].base}/api/chouette",
            json={"seats": seats},
            headers=_auth(tokens[0]),
        )
        r.raise_for_status()
        room = r.json()["room"]
        for p in people[1:]:
            base = self.instances[homes[p]].base
            r = await http.post(
                f"{base}/api/chouette/{room}/join", json={}, headers=_auth(tokens[p])
            )
            r.raise_for_status()
            if r.json()["position"] != p:
                raise FaultError(f"chouette {room}: joined at {r.json()['position']}, not {p}")
        game = Game(room, "chouette", tuple(str(p) for p in people), log=CHOUETTE_LOG)
        for p in people:
            seed = self.options.seed * 2003 + 3 * k + p
            game.clients.append(ChouetteClient(self, game, tokens[p], homes[p], seed))
        self.games.append(game)

    # --- faults -----------------------------------------------------------------------

    async def wait_progress(self, marks: Mapping[str, int], what: str, by: int = 1) -> None:
        """Every game must move ``by`` versions past its mark (a fault stops no game)."""
        deadline = time.monotonic() + PROGRESS_LIMIT
        while True:
            stuck = [
                g for g in self.games if not g.over and g.version() < marks.get(g.room, 0) + by
            ]
            if not stuck:
                return
            if time.monotonic() > deadline:
                for g in stuck:
                    self.stuck.add(g.room)
                    seats = [(c.seat, c.version, c.at, c.pending, c.waits) for c in g.clients]
                    self.stats.violation(
                        f"room {g.room} ({g.kind}) stuck at {g.version()} after {what}: {seats}"
                    )
                return
            await asyncio.sleep(0.02)

    def marks(self) -> dict[str, int]:
        return {g.room: g.version() for g in self.games}

    async def kill_cycles(self) -> None:
        for cycle in range(self.options.cycles):
            await asyncio.sleep(self.rng.uniform(0.2, 1.0))  # a random moment mid-match
            victim = self.instances[self.rng.randrange(len(self.instances))]
            marks = self.marks()
            if self.tournaments is not None:
                self.tournaments.fault()
            victim.kill()
            if len(self.instances) > 1:
                # The survivor alone must carry every game (computer moves included).
                await self.wait_progress(marks, f"kill {cycle + 1} of server {victim.index}")
                await victim.start()
                for client in self.clients:
                    if client.home == victim.index:
                        await client.move_home()
            else:
                await victim.start()
                await self.wait_progress(marks, f"kill {cycle + 1} and restart")
            self.progress(f"cycle {cycle + 1}/{self.options.cycles}")
        await self.wait_progress(self.marks(), "the last fault", by=AFTERWARDS)
        if self.tournaments is not None:
            self.progress("the last tournament plays out")
            await self.tournaments.finish()

    async def redis_outage(self, redis: PrivateRedis) -> dict[str, Any]:
        await asyncio.sleep(2.0)  # mid-match
        before = self.marks()
        redis.stop()
        down = time.monotonic()
        while (left := self.options.outage - (time.monotonic() - down)) > 0:
            self.progress(f"redis down, {left:4.1f}s left")
            await asyncio.sleep(min(1.0, left))
        during = {g.room: g.version() - before[g.room] for g in self.games}
        for g in self.games:
            if g.kind != "cross" and during[g.room] <= 0:
                self.stats.violation(f"room {g.room} ({g.kind}): no move while Redis was down")
        behind = [
            (c, g.version()) for g in self.games for c in g.clients if c.version < g.version()
        ]
        await redis.start()
        back = time.monotonic()
        resumed: list[float] = []
        while behind and time.monotonic() - back < 10:
            for client, target in list(behind):
                if client.version >= target:
                    resumed.append(time.monotonic() - back)
                    behind.remove((client, target))
            await asyncio.sleep(0.01)
        for client, target in behind:
            self.stats.violation(
                f"room {client.game.room}: seat {client.seat} still at {client.version} < "
                f"{target} 10 s after Redis came back"
            )
        late = [t for t in resumed if t > RESUME_LIMIT]
        if late:
            self.stats.violation(f"live updates resumed after {max(late):.2f} s > {RESUME_LIMIT} s")
        await self.wait_progress(self.marks(), "Redis came back", by=AFTERWARDS)
        self.progress("redis back")
        kinds = ("cross", "same", "computer")
        return {
            "outage_s": self.options.outage,
            "versions_during_outage": {
                k: sum(v for r, v in during.items() if self._kind(r) == k) for k in kinds
            },
            "seats_behind_at_return": len(resumed) + len(behind),
            "resume_s_max": round(max(resumed), 3) if resumed else None,
        }

    def _kind(self, room: str) -> str:
        return next(g.kind for g in self.games if g.room == room)

    def progress(self, what: str) -> None:
        if not self.options.progress:
            return
        s = self.stats
        longest = max(s.reconnect_s, default=0.0)
        print(
            f"\rbench faults: {what}  {time.monotonic() - self.started:6.1f}s  acked {s.acked}"
            f"  reconnects {len(s.reconnect_s)}  max {longest:.2f}s"
            f"  violations {len(s.violations)}   ",
            end="",
            file=sys.stderr,
            flush=True,
        )

    # --- the end ----------------------------------------------------------------------

    async def settle(self) -> None:
        """Stop deciding; give acts in flight a moment to be answered; close sockets."""
        self.stopping = True
        deadline = time.monotonic() + 5
        while any(c.pending for c in self.clients) and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
        for client in self.clients:
            if client.ws is not None:
                with contextlib.suppress(Exception):
                    await client.ws.close()
        for task in self.tasks:
            task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)
        self.tasks = []

    async def audit(self, store_url: str) -> dict[str, int]:
        """Read every room's log from the store and check it against the clients."""
        return await audit_logs(store_url, self.games, self.stats.violation, self.stuck)


def _auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


@contextlib.asynccontextmanager
async def _cluster(options: Options, data_dir: Path) -> AsyncIterator[tuple[Harness, str, Any]]:
    """The servers (and Redis) of ``options.mode``, stopped on the way out."""
    redis: PrivateRedis | None = None
    with contextlib.ExitStack() as stack:
        if options.mode == "sqlite":
            store_url = f"sqlite:///{data_dir / 'ginrummy.sqlite3'}"
            instances = [Instance(0, store_url, "memory://", data_dir)]
        else:
            if not options.database_url.startswith(("postgresql://", "postgres://")):
                raise FaultError(
                    "two instances share PostgreSQL: set --db or DATABASE_URL=postgresql://..."
                )
            store_url = stack.enter_context(fresh_schema(options.database_url))
            redis = PrivateRedis(options.redis_server, data_dir)
            stack.callback(redis.stop)
            await redis.start()
            env = _instance_env(options)
            instances = [Instance(i, store_url, redis.url, data_dir, env=env) for i in range(2)]
        harness = Harness(options, instances)
        try:
            for instance in instances:
                await instance.start()
            yield harness, store_url, redis
        finally:
            await harness.settle()
            for instance in instances:
                instance.stop()


def _instance_env(options: Options) -> dict[str, str]:
    """The settings ``options`` changes for each instance of the two-instance modes."""
    env = {}
    if options.presence_interval is not None:
        env["GINRUMMY_PRESENCE_INTERVAL"] = str(options.presence_interval)
    if options.lease_ttl is not None:
        env["GINRUMMY_LEASE_TTL"] = str(options.lease_ttl)
        env["GINRUMMY_LEASE_RENEW"] = str(options.lease_ttl / 3)
    return env


async def run(options: Options) -> dict[str, Any]:
    """Run the faults of ``options``; the summary (``violations`` lists what went wrong)."""
    data_dir = Path(tempfile.mkdtemp(prefix="ginrummy-faults-"))
    started = time.monotonic()
    extra: dict[str, Any] = {}
    async with _cluster(options, data_dir) as (harness, store_url, redis):
        await harness.open_games()
        harness.progress("games under way")
        if options.mode == "redis-outage":
            extra = await harness.redis_outage(redis)
        else:
            await harness.kill_cycles()
        if options.progress:
            print(file=sys.stderr)
        await harness.settle()
        for instance in harness.instances:
            instance.stop()  # nothing is written while the logs are read
        counts = await harness.audit(store_url)
    s = harness.stats
    summary: dict[str, Any] = {
        "mode": options.mode,
        "store": "sqlite" if options.mode == "sqlite" else "postgresql",
        "instances": len(harness.instances),
        "cycles": 0 if options.mode == "redis-outage" else options.cycles,
        "games": {k: sum(g.kind == k for g in harness.games) for k in KINDS},
        "seconds": round(time.monotonic() - started, 1),
        "events": counts["events"],
        "moves": counts["actions"],
        "computer_moves": counts["computer_moves"],
        "acknowledged_actions": s.acked,
        "acknowledged_by_kind": {
            k: sum(len(g.acked) for g in harness.games if g.kind == k) for k in KINDS
        },
        "lost": counts["lost"],
        "duplicated": counts["duplicated"],
        "tournaments": None if harness.tournaments is None else harness.tournaments.summary(),
        "server_starts": sum(i.starts for i in harness.instances),
        **s.reconnects(),
        "resent_pending": {
            "sent": s.resent,
            "applied": s.resent_applied,
            "stale_version": s.resent_stale,
        },
        "moved_home": s.moved_home,
        "error_codes": s.errors,
        **extra,
        "violations": len(s.violations),
        "violation_list": s.violations[:50],
    }
    return keep_logs_if(bool(s.violations), data_dir, summary)


def main(argv: Sequence[str], out: TextIO | None = None) -> int:
    parser = argparse.ArgumentParser(prog="ginrummy bench faults", description=__doc__)
    parser.add_argument("--cycles", type=int, default=50, help="kill -9 cycles (default 50)")
    parser.add_argument("--games", type=int, default=8, help="concurrent games (default 8)")
    parser.add_argument(
        "--chouettes", type=int, default=2, help="chouette tables of three (default 2)"
    )
    parser.add_argument(
        "--tournament-players",
        type=int,
        default=4,
        help="entrants of each knockout played during the kills (default 4; 0: none)",
    )
    parser.add_argument(
        "--tournaments",
        type=int,
        default=None,
        help="at most this many knockouts (default: one after the other while the kills last)",
    )
    parser.add_argument("--think", type=float, default=0.05, help="mean think time in s")
    parser.add_argument("--seed", type=int, default=1, help="seed of the players (default 1)")
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--sqlite", action="store_true", help="one instance on a SQLite file")
    mode.add_argument(
        "--redis-outage", type=float, metavar="SECONDS", help="stop Redis this long mid-match"
    )
    parser.add_argument(
        "--db",
        default=os.environ.get("DATABASE_URL", ""),
        help="PostgreSQL server for two instances (env DATABASE_URL); a schema of its own "
        "is created there and dropped",
    )
    parser.add_argument("--redis-server", default="redis-server", help="redis-server binary")
    args = parser.parse_args(argv)
    if args.cycles < 1 or args.games < 1:
        parser.error("--cycles and --games must be at least 1")
    if args.chouettes < 0 or args.tournament_players not in (0, 4, 8, 16):
        parser.error("--chouettes is at least 0; --tournament-players is 0, 4, 8 or 16")
    if args.tournaments is not None and args.tournaments < 1:
        parser.error("--tournaments must be at least 1")
    if args.redis_outage is not None and args.redis_outage <= 0:
        parser.error("--redis-outage must be positive")
    try:
        import httpx  # noqa: F401
        import websockets  # noqa: F401
    except ImportError as exc:
        print(
            f"ginrummy bench faults needs: pip install 'ginrummy[bench]' ({exc})", file=sys.stderr
        )
        return 2
    options = Options(
        mode="sqlite" if args.sqlite else "redis-outage" if args.redis_outage else "kill",
        cycles=args.cycles,
        games=args.games,
        chouettes=args.chouettes,
        tournament_players=args.tournament_players,
        tournaments=args.tournaments,
        think=args.think,
        seed=args.seed,
        database_url=args.db,
        redis_server=args.redis_server,
        outage=args.redis_outage or 0.0,
    )
    try:
        summary = asyncio.run(run(options))
    except FaultError as exc:
        print(f"ginrummy bench faults: {exc}", file=sys.stderr)
        return 2
    print(json.dumps(summary, indent=2), file=out or sys.stdout)
    return 1 if summary["violations"] else 0
