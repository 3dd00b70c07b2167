"""The processes of a fault test: ``ginrummy serve`` instances that can be killed (or
drained) and started again, a private ``redis-server`` that can be stopped, a fresh
PostgreSQL schema (``ginrummy bench faults``, ``ginrummy bench deploy``,
tests/server/test_faults.py)."""

from __future__ import annotations

import asyncio
import contextlib
import os
import shutil
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

from ginrummy.benchmarks.load import UNLIMITED

BOT_DELAY = 0.05  # short, so that kills also land while a computer is thinking


class FaultError(RuntimeError):
    """The harness could not set up (a missing service or binary)."""


class Instance:
    """One ``ginrummy serve`` process that can be killed (or drained) and started again."""

    def __init__(
        self,
        index: int,
        store_url: str,
        bus_url: str,
        data_dir: Path,
        bot_delay: float = BOT_DELAY,
        env: dict[str, str] | None = None,
    ) -> None:
        """``env``: settings for the server beyond the harness's own (``GINRUMMY_DRAIN_S``)."""
        self.index, self.store_url, self.bus_url, self.data_dir = (
            index,
            store_url,
            bus_url,
            data_dir,
        )
        self.bot_delay, self.env = bot_delay, env or {}
        self.port = free_port()
        self.log = data_dir / f"server-{index}.log"
        self.proc: subprocess.Popen[bytes] | None = None
        self.starts = 0

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/ws"

    async def start(self, check: str = "health") -> None:
        """Start the process; return once ``/api/{check}`` answers 200 (``ready``: the
        store and the bus too)."""
        args = [sys.executable, "-m", "ginrummy", "serve", "--port", str(self.port)]
        args += ["--data-dir", str(self.data_dir), "--db", self.store_url]
        args += ["--redis", self.bus_url, "--bot-delay", str(self.bot_delay)]
        args += ["--log-level", "warning"]
        env = {**os.environ, **UNLIMITED, **self.env}  # many players from one address, fast
        with self.log.open("ab") as out:
            self.proc = subprocess.Popen(args, env=env, stdout=out, stderr=subprocess.STDOUT)
        self.starts += 1
        await self._wait_healthy(time.monotonic() + 30, check)

    async def _wait_healthy(self, deadline: float, check: str) -> None:
        import httpx

        async with httpx.AsyncClient(timeout=2) as client:
            while True:
                if self.proc is not None and self.proc.poll() is not None:
                    raise FaultError(f"server {self.index} exited at start; see {self.log}")
                with contextlib.suppress(httpx.HTTPError):
                    if (await client.get(f"{self.base}/api/{check}")).status_code == 200:
                        return
                if time.monotonic() > deadline:
                    raise FaultError(f"server {self.index} did not start; see {self.log}")
                await asyncio.sleep(0.05)

    def kill(self) -> None:
        """SIGKILL: no shutdown, no flush, sockets reset by the kernel."""
        if self.proc is not None:
            self.proc.kill()
            self.proc.wait()

    async def drain(self) -> int:
        """SIGTERM, as a deploy does: wait (without blocking the loop) until the process
        has drained and exited; its exit status."""
        proc = self.proc
        if proc is None or proc.poll() is not None:
            raise FaultError(f"server {self.index} is not running")
        proc.terminate()
        while proc.poll() is None:
            await asyncio.sleep(0.02)
        return proc.returncode

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
        self.port = free_port()
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    async def start(self) -> None:
        args = [self.binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", ""]
        args += ["--appendonly", "no", "--dir", str(self.data_dir)]
        self.proc = subprocess.Popen(args, stdout=subprocess.DEVNULL)
        deadline = time.monotonic() + 10
        while not reachable(self.port):
            if time.monotonic() > deadline:
                raise FaultError("the private redis-server did not start")
            await asyncio.sleep(0.02)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def reachable(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.2):
            return True
    except OSError:
        return False


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
