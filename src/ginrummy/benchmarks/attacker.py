"""The attacker of ``ginrummy bench abuse``, in a process of its own.

From 127.0.0.2 it looks up random room ids as fast as its keep-alive connections
allow, and opens WebSockets that never send a message (they answer the server's pings,
as a determined attacker's would) and holds them until told to let go. It speaks
plain HTTP/1.1 and WebSocket framing over streams, not through client libraries: it
shares the machine with the server and must cost much less per request than the
server spends, or the benchmark measures the attacker.
"""

from __future__ import annotations

import asyncio
import base64
import multiprocessing
import os
import resource
import secrets
import sys
import time
from dataclasses import dataclass, field
from multiprocessing.connection import Connection

ATTACKER = "127.0.0.2"
HOST = "127.0.0.1"
OPENING = 64  # sockets being opened at once
CONNECT_TRIES = 50  # connections refused in a row (0.1 s apart) before the attack gives up
SPARE_FILES = 2_000  # descriptors besides the attack's sockets (players, lookups, SQLite)


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
    """One keep-alive connection asking for random room ids until the tally is full."""
    refusals = 0  # in a row: the server is gone after CONNECT_TRIES
    while tally.sent < tally.wanted:
        try:
            reader, writer = await asyncio.open_connection(HOST, port, local_addr=(ATTACKER, 0))
        except OSError as exc:
            tally.failures[type(exc).__name__] = tally.failures.get(type(exc).__name__, 0) + 1
            refusals += 1
            if refusals >= CONNECT_TRIES:
                raise RuntimeError(f"the server on port {port} is gone: {exc}") from exc
            await asyncio.sleep(0.1)
            continue
        refusals = 0
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


@dataclass(frozen=True)
class Plan:
    """What the attacker is to do, against the server on ``port``."""

    port: int
    lookups: int
    sockets: int
    concurrency: int
    seconds: float
    nice: int = 0  # added to the attacker's niceness


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
    # A real attacker's CPU is not the server's; here they share the machine, and the
    # attacker, which runs flat out, would otherwise take its turns from the server.
    os.nice(plan.nice)
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
