"""``ginrummy serve`` for real: a subprocess on a free port answers / and /api/health."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect

# A server, a service or a bench: the system layer (tests/conftest.py).
pytestmark = pytest.mark.system


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def test_serve_smoke(tmp_path: Path) -> None:
    port = _free_port()
    env = {**os.environ, "GINRUMMY_BOT_DELAY": "0"}
    cmd = [sys.executable, "-m", "ginrummy", "serve", "--port", str(port)]
    cmd += ["--data-dir", str(tmp_path), "--log-level", "warning"]
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        base = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 20
        while True:
            try:
                health = httpx.get(f"{base}/api/health", timeout=1)
                break
            except httpx.TransportError:
                assert proc.poll() is None, proc.stdout.read() if proc.stdout else ""
                assert time.monotonic() < deadline, "the server did not start"
                time.sleep(0.1)
        assert health.json() == {"ok": True}
        page = httpx.get(f"{base}/", timeout=5)
        assert page.status_code == 200
        assert "text/html" in page.headers["content-type"]
        assert (tmp_path / "ginrummy.sqlite3").exists()
        # A real WebSocket through uvicorn: same origin works, another one is refused.
        token = httpx.post(f"{base}/api/identity", json={}).json()["token"]
        headers = {"Authorization": f"Bearer {token}"}
        room = httpx.post(f"{base}/api/rooms", json={}, headers=headers).json()["room"]
        url = f"ws://127.0.0.1:{port}/ws"
        with connect(url, origin=base, open_timeout=5) as ws:  # type: ignore[arg-type]
            ws.send(json.dumps({"type": "hello", "room": room, "token": token}))
            assert json.loads(ws.recv(timeout=5))["type"] == "welcome"
            assert json.loads(ws.recv(timeout=5))["type"] == "view"
        with (
            pytest.raises(InvalidStatus),
            connect(url, origin="http://evil.example", open_timeout=5),  # type: ignore[arg-type]
        ):
            pass
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        if proc.stdout is not None:
            proc.stdout.close()
