"""``ginrummy bench faults``: kill server instances mid-match, then audit every event log.

Three modes, each against real ``ginrummy serve`` processes on loopback:

- default: two instances sharing PostgreSQL (a schema of its own, dropped afterwards)
  and a private ``redis-server``; ``--cycles`` times, one instance is killed with
  SIGKILL at a random moment, its sockets reconnect to the other one, and it is
  restarted;
- ``--sqlite``: one instance on a SQLite file, killed and restarted in place;
- ``--redis-outage SECONDS``: two instances; the private Redis is stopped for that long
  mid-match; every seat left behind must get the fresh view within 2 s of its return.

Every seat is its own WebSocket speaking only docs/protocol.md. A seat whose socket
drops reconnects to a live instance, says ``hello`` with its token and resends the
action it got no answer for (on the version it saw): the server must answer with the
action applied once or ``stale_version``. At the end every room's log is read from the
store and checked: seq contiguous from 1, replay through the server's own ``fold``,
every acknowledged action at its place, no person's action that nobody sent, and every
view a client received equal to the log's replay at that version (so nothing told was
lost). One JSON object on stdout, a progress line on stderr; exit status 1 on any
violation.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import hashlib
import json
import os
import random
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import AsyncIterator, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from ginrummy.benchmarks.load import UNLIMITED, choose, round_ask
from ginrummy.engine import GinRummyError, Seat, view_for_seat
from ginrummy.protocol import encode_seat_view
from ginrummy.server.room import Snapshot, fold
from ginrummy.server.store import Event, open_store

BOT_DELAY = 0.05  # short, so that kills also land while a computer is thinking
RECONNECT_LIMIT = 30.0  # seconds a seat may take to find a live instance
PROGRESS_LIMIT = 30.0  # seconds every game has to move on after a fault
RESUME_LIMIT = 2.0  # seconds after Redis is back for live updates to resume
AFTERWARDS = 10  # versions every game must still make after the last fault
# Codes a correct server never sends to these clients: each one is a violation.
BAD_CODES = {
    "illegal_action",
    "bad_action",
    "bad_message",
    "unknown_type",
    "hello_first",
    "unknown_room",
    "no_spectators",
    "not_a_player",
}


class FaultError(RuntimeError):
    """The harness could not set up (a missing service or binary)."""


@dataclass(frozen=True, slots=True)
class Options:
    mode: str = "kill"  # "kill" (two instances), "sqlite" or "redis-outage"
    cycles: int = 50
    games: int = 8
    think: float = 0.05  # mean seconds before a decision (uniform ±50%)
    seed: int = 1
    database_url: str = ""  # PostgreSQL server for the two-instance modes
    redis_server: str = "redis-server"
    outage: float = 30.0
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

    def violation(self, text: str) -> None:
        self.violations.append(text)


def view_digest(view: Mapping[str, Any]) -> str:
    """What a view says about the log: the hand, the round's moves, the table."""
    table = view["table"]
    facts = [
        view["hand"],
        view["moves"],
        table["discard_pile"],
        table["scores"],
        table["match_phase"],
        len(table["rounds"]),
    ]
    return hashlib.blake2b(json.dumps(facts).encode(), digest_size=12).hexdigest()


def public_text(action: str) -> str:
    """An action as the move list shows it: a knock's or gin's card lies face down.

    >>> public_text("knock 7h"), public_text("discard 7h")
    ('knock', 'discard 7h')
    """
    kind, _, _ = action.partition(" ")
    return kind if kind in ("knock", "gin") else action


@dataclass
class Game:
    """What the clients of one room sent, were told and saw."""

    room: str
    kind: str  # "cross" (seats on two instances), "same" (one instance), "computer"
    people: tuple[str, ...]  # seat labels held by our clients
    sent: set[tuple[int, str, str]] = field(default_factory=set)  # (version, seat, action)
    acked: dict[int, tuple[str, str]] = field(default_factory=dict)  # seq -> (seat, action)
    seen: dict[tuple[str, int], str] = field(default_factory=dict)  # (seat, version) -> digest
    clients: list[Client] = field(default_factory=list)

    def version(self) -> int:
        return max((c.version for c in self.clients), default=0)


def check_log(game: Game, events: Sequence[Event]) -> list[str]:
    """Everything wrong with one room's log given what its clients saw; [] if sound."""
    where = f"room {game.room}"
    seqs = [e.seq for e in events]
    if seqs != list(range(1, len(events) + 1)):
        return [f"{where}: seq not contiguous from 1: {seqs[:5]}...{seqs[-5:]}"]
    out: list[str] = []
    wanted: dict[int, list[str]] = {}
    for seat, version in game.seen:
        wanted.setdefault(version, []).append(seat)
    snap = Snapshot(0, None)
    for event in events:
        try:
            snap = fold(snap, event)
        except (GinRummyError, KeyError, TypeError, ValueError) as exc:
            return [*out, f"{where}: event {event.seq} does not replay: {exc}"]
        for seat in wanted.pop(event.seq, []):
            if snap.match is None:
                continue
            told = game.seen[(seat, event.seq)]
            logged = view_digest(encode_seat_view(view_for_seat(snap.match, Seat.parse(seat))))
            if told != logged:
                out.append(f"{where}: seat {seat} saw version {event.seq} unlike the log's")
    for version, seats in sorted(wanted.items()):
        out.append(f"{where}: seat(s) {seats} saw version {version}, the log ends at {len(events)}")
    by_seq = {e.seq: e for e in events}
    for seq, (seat, action) in sorted(game.acked.items()):
        logged_at = by_seq.get(seq)
        if logged_at is None or logged_at.kind != "action" or logged_at.payload.get("seat") != seat:
            out.append(f"{where}: acknowledged {seat} {action!r} at {seq} is not in the log")
        elif logged_at.payload.get("action") != action:
            out.append(f"{where}: acknowledged {action!r} at {seq}, logged {logged_at.payload}")
    for event in events:
        seat = str(event.payload.get("seat"))
        if event.kind != "action" or seat not in game.people:
            continue  # a computer's move, a deal, a readiness...
        if (event.seq - 1, seat, str(event.payload.get("action"))) not in game.sent:
            out.append(f"{where}: logged {event.payload} at {event.seq} that no client sent")
    return out


class Client:
    """One seat: its own WebSocket, reconnecting to any live instance when it drops."""

    def __init__(self, harness: Harness, game: Game, token: str, home: int, seed: int) -> None:
        self.h, self.game, self.token, self.home = harness, game, token, home
        self.rng = random.Random(seed)
        self.seat = ""
        self.version = 0
        self.fresh = False  # take the next view even if not newer (after hello, a refusal)
        self.pending: tuple[int, str] | None = None  # an act sent, not yet answered
        self.resending = False
        self.rehello = False  # the next view answers a hello on a new socket
        self.asked: tuple[object, ...] = ()  # the last between-rounds request sent
        self.at = home  # the instance it is (or was last) connected to
        self.prefer = home
        self.moving = False  # a planned move back home, not a fault
        self.dropped_at: float | None = None
        self.ws: Any = None
        self.decider: asyncio.Task[None] | None = None
        self.welcomed = asyncio.Event()

    async def run(self) -> None:
        import websockets

        while not self.h.stopping:
            ws = await self._connect()
            if ws is None:
                return
            try:
                async for raw in ws:
                    await self._on(ws, json.loads(raw))
            except websockets.ConnectionClosed:
                pass
            finally:
                self.ws, self.resending = None, False  # an unanswered resend goes again
                if self.decider is not None:
                    self.decider.cancel()
            if self.h.stopping:
                return
            if self.moving:
                self.moving = False
            else:
                self.dropped_at = time.monotonic()
                self.h.stats.drops += 1

    async def move_home(self) -> None:
        """Close the socket on purpose and reconnect to the home instance."""
        if self.ws is not None and self.at != self.home:
            self.prefer, self.moving = self.home, True
            self.h.stats.moved_home += 1
            await self.ws.close()

    async def _connect(self) -> Any:
        import websockets

        n = len(self.h.instances)
        if self.dropped_at is not None:
            order = sorted(range(n), key=lambda i: i == self.at)  # the one that failed last
        else:
            order = sorted(range(n), key=lambda i: i != self.prefer)  # home first
        deadline = time.monotonic() + RECONNECT_LIMIT
        delay = 0.05
        while not self.h.stopping:
            for index in order:
                try:
                    ws = await websockets.connect(
                        self.h.instances[index].ws_url, max_size=2**20, open_timeout=3
                    )
                except (OSError, TimeoutError, websockets.InvalidHandshake):
                    continue
                self.at, self.prefer, self.ws = index, self.home, ws
                self.fresh = self.rehello = True
                hello = {"type": "hello", "room": self.game.room, "token": self.token}
                await ws.send(json.dumps(hello))
                return ws
            if time.monotonic() > deadline:
                self.h.stats.violation(f"room {self.game.room}: a seat found no live instance")
                return None
            await asyncio.sleep(delay)
            delay = min(0.5, delay * 2)
        return None

    async def _on(self, ws: Any, msg: dict[str, Any]) -> None:
        kind = msg.get("type")
        if kind == "welcome":
            self.seat = msg.get("seat") or ""
            self.asked = ()
            self.welcomed.set()
        elif kind == "event":
            self._on_event(msg)
        elif kind == "error":
            await self._on_error(ws, msg)
        elif kind == "view":
            await self._on_view(ws, msg)

    def _on_event(self, msg: Mapping[str, Any]) -> None:
        pending = self.pending
        if msg.get("kind") != "action" or msg.get("seat") != self.seat or pending is None:
            return
        version = int(msg["version"])
        if version != pending[0] + 1:
            return
        if msg.get("action") != public_text(pending[1]):
            self.h.stats.violation(
                f"room {self.game.room}: sent {pending[1]!r}, told {msg.get('action')!r}"
            )
        self._acked(version)

    def _acked(self, version: int) -> None:
        assert self.pending is not None
        self.game.acked[version] = (self.seat, self.pending[1])
        self.h.stats.acked += 1
        if self.resending:
            self.h.stats.resent_applied += 1
        self.pending, self.resending = None, False

    async def _on_error(self, ws: Any, msg: Mapping[str, Any]) -> None:
        code = str(msg.get("code"))
        self.h.stats.errors[code] = self.h.stats.errors.get(code, 0) + 1
        if code in BAD_CODES:
            self.h.stats.violation(f"room {self.game.room}: error {code}: {msg.get('message')}")
        if code in ("stale_version", "not_your_turn", *BAD_CODES) and self.pending is not None:
            if self.resending:
                self.h.stats.resent_stale += 1
            self.pending, self.resending, self.fresh = None, False, True
        elif code == "unavailable" and self.pending is not None:
            await asyncio.sleep(0.2)
            await self._send_act(ws, *self.pending)

    async def _on_view(self, ws: Any, msg: Mapping[str, Any]) -> None:
        version = int(msg["version"])
        view = msg["view"]
        digest = view_digest(view)
        known = self.game.seen.setdefault((self.seat, version), digest)
        if known != digest:
            self.h.stats.violation(f"room {self.game.room}: two different views of {version}")
        if version < self.version:
            self.h.stats.violation(
                f"room {self.game.room}: seat {self.seat} was at {self.version}, now told {version}"
            )
        if version <= self.version and not self.fresh:
            return
        self.version, self.fresh = version, False
        if self.dropped_at is not None:
            self.h.stats.reconnect_s.append(time.monotonic() - self.dropped_at)
            self.dropped_at = None
        after_hello, self.rehello = self.rehello, False
        pending = self.pending
        if pending is not None and after_hello:
            # No answer came before the socket dropped: send it again, as it was.
            self.resending = True
            self.h.stats.resent += 1
            await self._send_act(ws, *pending)
            return
        if pending is not None:
            mine = {"seat": self.seat, "action": public_text(pending[1])}
            if version == pending[0] + 1 and view["moves"][-1:] == [mine]:
                self._acked(version)  # the view with it applied (its event was skipped)
            else:
                return  # its answer (the event or an error) is on the way
        if not self.h.stopping:
            if self.decider is not None:
                self.decider.cancel()
            me = (msg.get("players") or {}).get(self.seat) or {}
            self.decider = asyncio.create_task(self._decide(ws, view, me, version))

    async def _send_act(self, ws: Any, version: int, action: str) -> None:
        import websockets

        with contextlib.suppress(websockets.ConnectionClosed):
            await ws.send(json.dumps({"type": "act", "version": version, "action": action}))

    async def _decide(
        self, ws: Any, view: Mapping[str, Any], me: Mapping[str, Any], version: int
    ) -> None:
        import websockets

        action = choose(dict(view), self.rng)
        if action is None:
            ask = round_ask(view["table"], me, self.asked)
            if ask is not None:
                self.asked, kind = ask
                with contextlib.suppress(websockets.ConnectionClosed):
                    await ws.send(json.dumps({"type": kind, "version": version}))
            return
        if self.h.options.think:
            think = self.h.options.think
            await asyncio.sleep(self.rng.uniform(think / 2, think * 1.5))
        if version != self.version or self.h.stopping or self.pending is not None:
            return
        # Recorded before it leaves: it may be applied even if the socket dies now.
        self.game.sent.add((version, self.seat, action))
        self.pending = (version, action)
        await self._send_act(ws, version, action)


class Instance:
    """One ``ginrummy serve`` process that can be killed and started again."""

    def __init__(self, index: int, store_url: str, bus_url: str, data_dir: Path) -> None:
        self.index, self.store_url, self.bus_url, self.data_dir = (
            index,
            store_url,
            bus_url,
            data_dir,
        )
        self.port = _free_port()
        self.log = data_dir / f"server-{index}.log"
        self.proc: subprocess.Popen[bytes] | None = None
        self.starts = 0

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/ws"

    async def start(self) -> None:
        args = [sys.executable, "-m", "ginrummy", "serve", "--port", str(self.port)]
        args += ["--data-dir", str(self.data_dir), "--db", self.store_url]
        args += ["--redis", self.bus_url, "--bot-delay", str(BOT_DELAY), "--log-level", "warning"]
        env = {**os.environ, **UNLIMITED}  # many players from one address, fast
        with self.log.open("ab") as out:
            self.proc = subprocess.Popen(args, env=env, stdout=out, stderr=subprocess.STDOUT)
        self.starts += 1
        await self._wait_healthy(time.monotonic() + 30)

    async def _wait_healthy(self, deadline: float) -> None:
        import httpx

        async with httpx.AsyncClient(timeout=2) as client:
            while True:
                if self.proc is not None and self.proc.poll() is not None:
                    raise FaultError(f"server {self.index} exited at start; see {self.log}")
                with contextlib.suppress(httpx.HTTPError):
                    if (await client.get(f"{self.base}/api/health")).status_code == 200:
                        return
                if time.monotonic() > deadline:
                    raise FaultError(f"server {self.index} did not start; see {self.log}")
                await asyncio.sleep(0.05)

    def kill(self) -> None:
        """SIGKILL: no shutdown, no flush, sockets reset by the kernel."""
        if self.proc is not None:
            self.proc.kill()
            self.proc.wait()

    def stop(self) -> None:
        if self.proc is None or self.proc.poll() is not None:
            return
        self.proc.terminate()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


class PrivateRedis:
    """A ``redis-server`` of our own on a free port, so that it can be stopped."""

    def __init__(self, binary: str, data_dir: Path) -> None:
        path = shutil.which(binary)
        if path is None:
            raise FaultError(f"{binary!r} not found: install redis-server or pass --redis-server")
        self.binary, self.data_dir = path, data_dir
        self.port = _free_port()
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    async def start(self) -> None:
        args = [self.binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", ""]
        args += ["--appendonly", "no", "--dir", str(self.data_dir)]
        self.proc = subprocess.Popen(args, stdout=subprocess.DEVNULL)
        deadline = time.monotonic() + 10
        while not _reachable(self.port):
            if time.monotonic() > deadline:
                raise FaultError("the private redis-server did not start")
            await asyncio.sleep(0.02)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()


class Harness:
    """The games, their clients, the instances, and the faults done to them."""

    def __init__(self, options: Options, instances: list[Instance]) -> None:
        self.options, self.instances = options, instances
        self.rng = random.Random(options.seed)
        self.stats = Stats()
        self.games: list[Game] = []
        self.stopping = False
        self.tasks: list[asyncio.Task[None]] = []
        self.started = time.monotonic()

    @property
    def clients(self) -> list[Client]:
        return [c for g in self.games for c in g.clients]

    # --- set-up -----------------------------------------------------------------------

    async def open_games(self) -> None:
        """Every third game against the computer; the others between two clients, their
        seats on different instances (with one instance: on the same one)."""
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
        for client in self.clients:
            self.tasks.append(asyncio.create_task(client.run()))
        for client in self.clients:
            await asyncio.wait_for(client.welcomed.wait(), 30)

    async def _open(self, http: Any, k: int, *, computer: bool, homes: tuple[int, ...]) -> None:
        bases = [self.instances[h].base for h in homes]
        tokens = []
        for base in bases:
            r = await http.post(f"{base}/api/identity", json={})
            r.raise_for_status()
            tokens.append(r.json()["token"])
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
                Client(self, game, token, home, self.options.seed * 1009 + 2 * k + j)
            )
        self.games.append(game)

    # --- faults -----------------------------------------------------------------------

    async def wait_progress(self, marks: Mapping[str, int], what: str, by: int = 1) -> None:
        """Every game must move ``by`` versions past its mark (a fault stops no game)."""
        deadline = time.monotonic() + PROGRESS_LIMIT
        while True:
            stuck = [g for g in self.games if g.version() < marks[g.room] + by]
            if not stuck:
                return
            if time.monotonic() > deadline:
                for g in stuck:
                    seats = [(c.seat, c.version, c.at, c.pending) for c in g.clients]
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
        store = open_store(store_url)
        await store.open()
        counts = {"events": 0, "actions": 0, "computer_moves": 0}
        try:
            for game in self.games:
                stored = await store.load_room(game.room)
                if stored is None:
                    self.stats.violation(f"room {game.room}: not in the store")
                    continue
                for problem in check_log(game, stored.events):
                    self.stats.violation(problem)
                actions = [e for e in stored.events if e.kind == "action"]
                counts["events"] += len(stored.events)
                counts["actions"] += len(actions)
                counts["computer_moves"] += sum(
                    e.payload.get("seat") not in game.people for e in actions
                )
        finally:
            await store.close()
        return counts


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _reachable(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.2):
            return True
    except OSError:
        return False


def _auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


@contextlib.contextmanager
def fresh_schema(database_url: str) -> Iterator[str]:
    """A store URL on a new, empty PostgreSQL schema, dropped afterwards."""
    try:
        import psycopg
    except ImportError as exc:
        raise FaultError(
            f"PostgreSQL needs its driver: pip install 'ginrummy[postgres]' ({exc})"
        ) from None
    url = database_url.replace("postgres://", "postgresql://", 1)
    schema = f"ginrummy_faults_{uuid.uuid4().hex[:12]}"
    try:
        with psycopg.connect(url, autocommit=True, connect_timeout=5) as db:
            db.execute(f'CREATE SCHEMA "{schema}"'.encode())
    except psycopg.Error as exc:
        raise FaultError(f"PostgreSQL at {url} is not usable: {exc}") from None
    try:
        yield f"{url}{'&' if '?' in url else '?'}search_path={schema}"
    finally:
        with psycopg.connect(url, autocommit=True, connect_timeout=5) as db:
            db.execute(f'DROP SCHEMA "{schema}" CASCADE'.encode())


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
            instances = [Instance(i, store_url, redis.url, data_dir) for i in range(2)]
        harness = Harness(options, instances)
        try:
            for instance in instances:
                await instance.start()
            yield harness, store_url, redis
        finally:
            await harness.settle()
            for instance in instances:
                instance.stop()


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
        "games": {
            k: sum(g.kind == k for g in harness.games) for k in ("cross", "same", "computer")
        },
        "seconds": round(time.monotonic() - started, 1),
        "events": counts["events"],
        "moves": counts["actions"],
        "computer_moves": counts["computer_moves"],
        "acknowledged_actions": s.acked,
        "server_starts": sum(i.starts for i in harness.instances),
        "reconnects": len(s.reconnect_s),
        "reconnect_s": {
            "max": round(max(s.reconnect_s), 3) if s.reconnect_s else None,
            "mean": round(statistics.fmean(s.reconnect_s), 3) if s.reconnect_s else None,
        },
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
    if s.violations:
        summary["server_logs"] = str(data_dir)  # kept to look into
    else:
        shutil.rmtree(data_dir, ignore_errors=True)
    return summary


def main(argv: Sequence[str], out: TextIO | None = None) -> int:
    parser = argparse.ArgumentParser(prog="ginrummy bench faults", description=__doc__)
    parser.add_argument("--cycles", type=int, default=50, help="kill -9 cycles (default 50)")
    parser.add_argument("--games", type=int, default=8, help="concurrent games (default 8)")
    parser.add_argument("--think", type=float, default=0.05, help="mean think time in s")
    parser.add_argument("--seed", type=int, default=1)
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
