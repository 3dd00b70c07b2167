"""The drain on SIGTERM (server/drain.py, docs/operations.md "Rolling restarts"): a real
``ginrummy serve`` process on a SQLite file, its open sockets, an act whose write is
in flight (held back by the test, which holds the file's write lock), then signals.

The drain's own bookkeeping (grace period, budgets, the sockets it tells) is tested
with a hand-moved clock first.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import socket
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import ClientConnection, connect

from ginrummy.server.drain import Drain
from ginrummy.server.sockets import SERVICE_RESTART
from ginrummy.server.store import open_store

from .helpers import client, simple_choice

# --- the drain's bookkeeping ----------------------------------------------------------


class FakeSocket:
    def __init__(self) -> None:
        self.restarts = 0

    def restart(self) -> None:
        self.restarts += 1


def test_the_drain_tells_every_open_socket_once_and_counts_the_grace_period() -> None:
    now = [100.0]
    drain = Drain(20.0, clock=lambda: now[0])
    early, late = FakeSocket(), FakeSocket()
    with drain.track(early):
        assert not drain.draining and drain.left() == 20.0
        assert drain.sockets_budget() == 17.0  # 3 s kept for the shutdown after the sockets
        assert drain.begin() and not drain.begin()  # a second begin changes nothing
        assert early.restarts == 1
        with drain.track(late):  # accepted as the drain began: told at once
            assert late.restarts == 1 and drain.open_sockets == 2
        now[0] += 15.5
        assert drain.left() == 4.5 and drain.sockets_budget() == 1.5
        now[0] += 10
        assert drain.left() == 0.0 and drain.sockets_budget() == 0.0
    assert drain.open_sockets == 0 and early.restarts == 1


def test_a_short_grace_period_keeps_a_quarter_for_the_shutdown() -> None:
    drain = Drain(2.0, clock=lambda: 0.0)
    assert drain.reserve_s == 0.5 and drain.sockets_budget() == 1.5


def test_the_drain_waits_for_the_sockets_at_most_their_budget() -> None:
    async def scenario() -> tuple[bool, bool]:
        now = [0.0]
        drain = Drain(4.0, clock=lambda: now[0])  # 1 s reserve: 3 s for the sockets
        sock = FakeSocket()
        with drain.track(sock):
            drain.begin()
            now[0] = 2.95  # 0.05 s of the sockets' budget left
            stuck = await drain.sockets_closed()
        return stuck, await drain.sockets_closed()

    assert asyncio.run(scenario()) == (False, True)


def test_the_sockets_are_told_one_after_the_other_over_the_spread() -> None:
    async def scenario() -> list[list[int]]:
        drain = Drain(4.0)  # 3 s for the sockets: spread over 1.5 s
        socks = [FakeSocket() for _ in range(3)]
        seen = []
        with drain.track(socks[0]), drain.track(socks[1]), drain.track(socks[2]):
            drain.begin()
            seen.append([s.restarts for s in socks])
            await asyncio.sleep(0.6)
            seen.append([s.restarts for s in socks])
            await asyncio.sleep(0.6)
            seen.append([s.restarts for s in socks])
        return seen

    assert drain_spread(4.0) == 1.5
    first, mid, last = asyncio.run(scenario())
    assert sum(first) == 1 and sum(mid) == 2 and last == [1, 1, 1]


def drain_spread(grace_s: float) -> float:
    return Drain(grace_s, clock=lambda: 0.0).spread_s()


def test_a_draining_app_is_not_ready_and_refuses_new_sockets() -> None:
    with client() as c:
        assert c.get("/api/ready").status_code == 200
        c.app.state.drain.begin()  # type: ignore[attr-defined]
        ready = c.get("/api/ready")
        assert ready.status_code == 503
        assert ready.json()["ready"] is False and ready.json()["draining"] is True
        assert c.get("/api/health").status_code == 200  # alive all the same
        with pytest.raises(Exception) as refused, c.websocket_connect("/ws"):
            pass
        assert getattr(refused.value, "status_code", None) == 503


# --- a real process -------------------------------------------------------------------


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@dataclass
class Server:
    proc: subprocess.Popen[bytes]
    port: int
    db: Path

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/ws"

    def output(self) -> str:
        if self.proc.poll() is None:
            return ""
        assert self.proc.stdout is not None
        return self.proc.stdout.read().decode(errors="replace")[-3000:]


@contextmanager
def serve(tmp_path: Path, drain_s: float) -> Iterator[Server]:
    port = _free_port()
    env = {**os.environ, "GINRUMMY_SEED_TIMEOUT": "0", "GINRUMMY_BOT_DELAY": "0"}
    cmd = [sys.executable, "-m", "ginrummy", "serve", "--port", str(port)]
    cmd += ["--data-dir", str(tmp_path), "--drain-s", str(drain_s)]
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    server = Server(proc, port, tmp_path / "ginrummy.sqlite3")
    try:
        deadline = time.monotonic() + 20
        while True:
            try:
                if httpx.get(f"{server.base}/api/ready", timeout=1).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            assert proc.poll() is None, server.output()
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.05)
        yield server
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait()
        if proc.stdout is not None:
            proc.stdout.close()


@dataclass
class Seat:
    ws: ClientConnection
    view: dict[str, Any]

    def frames(self, timeout: float = 10.0) -> tuple[list[dict[str, Any]], int | None]:
        """Every frame until the server closes the socket, and its close code."""
        got: list[dict[str, Any]] = []
        try:
            while True:
                got.append(json.loads(self.ws.recv(timeout=timeout)))
        except ConnectionClosed as exc:
            return got, None if exc.rcvd is None else exc.rcvd.code


def _table(server: Server, sockets: ExitStack) -> tuple[Seat, Seat, str]:
    """A room between two people, each seat's socket (closed with ``sockets``); the one
    to move first."""
    with httpx.Client(base_url=server.base, timeout=10) as http:
        tokens = [http.post("/api/identity", json={}).json()["token"] for _ in range(2)]
        auths = [{"Authorization": f"Bearer {t}"} for t in tokens]
        body = {"kind": "room", "opponent": "friend"}
        room = http.post("/api/rooms", json=body, headers=auths[0]).json()["room"]
        assert http.post(f"/api/rooms/{room}/join", json={}, headers=auths[1]).status_code == 200
    seats = []
    for token in tokens:
        ws = sockets.enter_context(connect(server.ws_url, open_timeout=5))
        ws.send(json.dumps({"type": "hello", "room": room, "token": token}))
        while (msg := json.loads(ws.recv(timeout=5)))["type"] != "view":
            pass
        seats.append(Seat(ws, msg))
    mover, other = seats if seats[0].view["view"]["legal_actions"] else seats[::-1]
    assert mover.view["view"]["legal_actions"]
    return mover, other, room


@contextmanager
def writes_held(db: Path) -> Iterator[sqlite3.Connection]:
    """The SQLite file's write lock, held by the test: the server's writes wait (its busy
    timeout is 5 s) until the block ends (``ROLLBACK``: nothing of ours is written)."""
    lock = sqlite3.connect(db, isolation_level=None)
    lock.execute("BEGIN IMMEDIATE")
    try:
        yield lock
    finally:
        if lock.in_transaction:
            lock.execute("ROLLBACK")
        lock.close()


def _logged(db: Path, room: str, seq: int) -> dict[str, Any] | None:
    """The room's event ``seq`` as the store has it (None: not written)."""

    async def read() -> dict[str, Any] | None:
        store = open_store(f"sqlite:///{db}")
        await store.open()
        try:
            stored = await store.load_room(room)
        finally:
            await store.close()
        assert stored is not None
        events = [e for e in stored.events if e.seq == seq]
        return {"kind": events[0].kind, **events[0].payload} if events else None

    return asyncio.run(read())


def _ready(server: Server) -> httpx.Response:
    return httpx.get(f"{server.base}/api/ready", timeout=2)


def _act(seat: Seat) -> tuple[int, str]:
    version, action = seat.view["version"], simple_choice(seat.view["view"])
    seat.ws.send(json.dumps({"type": "act", "version": version, "action": action}))
    time.sleep(0.3)  # the server answers it: its write waits for the test's lock
    return version, action


@pytest.mark.system  # a server process
def test_sigterm_drains_finishing_the_write_in_flight(tmp_path: Path) -> None:
    with serve(tmp_path, drain_s=10) as server, ExitStack() as sockets:
        mover, other, room = _table(server, sockets)
        with writes_held(server.db) as lock:
            version, action = _act(mover)
            signalled = time.monotonic()
            server.proc.send_signal(signal.SIGTERM)
            ready = _ready(server)
            assert ready.status_code == 503, ready.text
            assert ready.json()["draining"] is True
            assert time.monotonic() - signalled < 1.0
            with pytest.raises(InvalidStatus) as refused, connect(server.ws_url, open_timeout=5):
                pass
            assert refused.value.response.status_code == 503
            time.sleep(0.5)
            assert server.proc.poll() is None, "it waits for the write in flight"
            lock.execute("ROLLBACK")  # the server's write goes through now
        told, code = mover.frames()
        assert code == SERVICE_RESTART
        assert other.frames()[1] == SERVICE_RESTART
        assert server.proc.wait(timeout=10) == 0, server.output()
        assert time.monotonic() - signalled < 10
    # Answered in full before the close: written, and the mover was told.
    acked = [m for m in told if m["type"] == "event" and m["version"] == version + 1]
    assert acked and acked[0]["seat"] == mover.view["view"]["seat"]
    assert _logged(server.db, room, version + 1) == {
        "kind": "action",
        "seat": acked[0]["seat"],
        "action": action,
    }


@pytest.mark.system  # a server process
def test_a_second_sigterm_exits_at_once_losing_nothing_acknowledged(tmp_path: Path) -> None:
    with serve(tmp_path, drain_s=60) as server, ExitStack() as sockets:
        mover, _, room = _table(server, sockets)
        with writes_held(server.db):
            version, _ = _act(mover)
            server.proc.send_signal(signal.SIGTERM)
            assert _ready(server).status_code == 503  # draining, held by the write
            again = time.monotonic()
            server.proc.send_signal(signal.SIGTERM)
            assert server.proc.wait(timeout=5) == 128 + signal.SIGTERM
            assert time.monotonic() - again < 1.5
        told, _ = mover.frames()
    assert not [m for m in told if m["type"] == "event"]  # not acknowledged...
    assert _logged(server.db, room, version + 1) is None  # ...and not written


@pytest.mark.system  # a server process
def test_the_process_ends_when_the_grace_period_is_over(tmp_path: Path) -> None:
    with serve(tmp_path, drain_s=2) as server, ExitStack() as sockets:
        mover, _, room = _table(server, sockets)
        with writes_held(server.db):  # longer than the grace period
            version, _ = _act(mover)
            signalled = time.monotonic()
            server.proc.send_signal(signal.SIGTERM)
            status = server.proc.wait(timeout=10)
            took = time.monotonic() - signalled
        told, _ = mover.frames()
    assert status == 1 and 1.5 < took < 3.0, (status, took)
    acked = [m for m in told if m["type"] == "event" and m["version"] == version + 1]
    assert not acked or _logged(server.db, room, version + 1) is not None
