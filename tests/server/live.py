"""The app under a real uvicorn in a thread, for tests that need the wire itself (UTF-8
encoding, TCP back-pressure, close codes), and a bare WebSocket client that reads
only when told."""

from __future__ import annotations

import asyncio
import base64
import json
import os
import socket
import struct
import threading
from collections.abc import Coroutine, Iterator, Sequence
from contextlib import contextmanager
from typing import Any, TypeVar

import httpx
import uvicorn

from ginrummy.server.app import create_app
from ginrummy.server.kinds import TableKind
from ginrummy.server.main import uvicorn_config

from .helpers import settings

T = TypeVar("T")


class Live:
    """A running server: ``url`` for HTTP, ``ws_url`` for sockets, ``call`` to run a
    coroutine on the server's own loop (to look at its rooms and bus)."""

    def __init__(self, kinds: Sequence[TableKind] = (), **changes: Any) -> None:
        self.app = create_app(settings(**changes), kinds)
        config = uvicorn_config(self.app, "127.0.0.1", 0, "warning")
        self.server = uvicorn.Server(config)
        self.loop: asyncio.AbstractEventLoop | None = None
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        asyncio.run(self._serve())

    async def _serve(self) -> None:
        self.loop = asyncio.get_running_loop()
        await self.server.serve()

    @property
    def port(self) -> int:
        port: int = self.server.servers[0].sockets[0].getsockname()[1]
        return port

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/ws"

    def call(self, coro: Coroutine[Any, Any, T], timeout: float = 10.0) -> T:
        assert self.loop is not None
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(timeout)

    def http(self) -> httpx.Client:
        return httpx.Client(base_url=self.url, timeout=10)


@contextmanager
def live(kinds: Sequence[TableKind] = (), **changes: Any) -> Iterator[Live]:
    server = Live(kinds, **changes)
    server.thread.start()
    try:
        for _ in range(500):
            if server.server.started:
                break
            server.thread.join(0.02)
        assert server.server.started, "uvicorn did not start"
        yield server
    finally:
        server.server.should_exit = True
        server.thread.join(15)


def upgrade(
    port: int, source: str = "127.0.0.1", headers: str = "", rcvbuf: int | None = None
) -> tuple[socket.socket, bytes]:
    """Ask for a WebSocket from the address ``source`` (any 127.x.y.z on Linux) with extra
    ``headers`` ("Name: value\\r\\n" each); the socket and what came back up to the end
    of the answer's head (and whatever followed it in the same reads)."""
    sock = socket.socket()
    if rcvbuf is not None:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
    sock.settimeout(10)
    sock.bind((source, 0))
    sock.connect(("127.0.0.1", port))
    key = base64.b64encode(os.urandom(16)).decode()
    sock.sendall(
        (
            "GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n"
            f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
            f"Sec-WebSocket-Version: 13\r\n{headers}\r\n"
        ).encode()
    )
    received = b""
    while b"\r\n\r\n" not in received:
        chunk = sock.recv(65536)
        if not chunk:
            raise ConnectionError(f"the server closed the TCP connection after {received!r}")
        received += chunk
    return sock, received


class BareSocket:
    """A WebSocket client on a plain TCP socket with a small receive buffer: it reads
    nothing unless asked, so the server's frames back up like a stalled phone's."""

    def __init__(
        self, port: int, rcvbuf: int = 4096, source: str = "127.0.0.1", headers: str = ""
    ) -> None:
        self.sock, head = upgrade(port, source, headers, rcvbuf)
        head, self.buffer = head.split(b"\r\n\r\n", 1)
        assert head.startswith(b"HTTP/1.1 101"), head

    def _recv(self) -> bytes:
        chunk = self.sock.recv(65536)
        if not chunk:
            raise ConnectionError("the server closed the TCP connection")
        return chunk

    def _take(self, n: int) -> bytes:
        while len(self.buffer) < n:
            self.buffer += self._recv()
        data, self.buffer = self.buffer[:n], self.buffer[n:]
        return data

    def send_json(self, message: Any) -> None:
        payload = json.dumps(message).encode()
        mask = os.urandom(4)
        n = len(payload)
        if n < 126:
            header = struct.pack("!BB", 0x81, 0x80 | n)
        else:
            header = struct.pack("!BBH", 0x81, 0x80 | 126, n)
        masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
        self.sock.sendall(header + mask + masked)

    def frame(self) -> tuple[int, bytes]:
        """The next frame from the server: its opcode and payload."""
        first, second = self._take(2)
        n = second & 0x7F
        if n == 126:
            (n,) = struct.unpack("!H", self._take(2))
        elif n == 127:
            (n,) = struct.unpack("!Q", self._take(8))
        return first & 0x0F, self._take(n)

    def close(self) -> None:
        self.sock.close()
