"""Browser tests: the real server as a subprocess, Debian's Chromium through Playwright.

Run with ``pytest -m browser``. Screenshots go to ``test-artifacts/`` (gitignored).
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]

playwright_sync = pytest.importorskip("playwright.sync_api")
# An expectation waits up to 10 s (Playwright's default is 5): the suite runs three
# workers on two cores, each with its own Chromium and server, and a first render under
# that load has taken more than 5 s (a CI run found no hand 5 s after the table's status
# showed). A test that fails still fails; it only waits longer to say so.
playwright_sync.expect.set_options(timeout=10_000)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    """``python -m ginrummy serve`` on a free port and a data directory of its own."""

    def __init__(
        self, data_dir: Path, port: int | None = None, env: dict[str, str] | None = None
    ) -> None:
        self.data_dir = data_dir
        self.extra_env = env or {}
        self.port = port or free_port()
        self.proc: subprocess.Popen[bytes] | None = None
        self.log_path = data_dir / "server.log"

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        # Every test's browsers come from 127.0.0.1: the per-address limits would count
        # the whole suite as one very busy person (tests/server/test_ratelimit.py tests them).
        limited = ("IDENTITIES", "ROOMS", "LOOKUPS", "SOCKETS")
        limits_off = {f"GINRUMMY_LIMIT_{k}": "0" for k in limited}
        env = {**os.environ, "GINRUMMY_BOT_DELAY": "0.05", **limits_off, **self.extra_env}
        env.pop("DATABASE_URL", None)
        env.pop("REDIS_URL", None)
        with self.log_path.open("ab") as log:
            self.proc = subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "ginrummy",
                    "serve",
                    "--port",
                    str(self.port),
                    "--data-dir",
                    str(self.data_dir),
                ],
                cwd=ROOT,
                env=env,
                stdout=log,
                stderr=subprocess.STDOUT,
            )
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"server exited: {self.log_path.read_text()[-2000:]}")
            try:
                with urllib.request.urlopen(f"{self.url}/api/health", timeout=1) as r:
                    if json.loads(r.read()).get("ok"):
                        return
            except OSError:
                time.sleep(0.1)
        raise RuntimeError("server did not become healthy")

    def kill(self) -> None:
        """SIGKILL: no clean shutdown at all."""
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(timeout=10)
        self.proc = None

    def stop(self) -> None:
        if self.proc is None:
            return
        self.proc.terminate()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(timeout=10)
        self.proc = None


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    srv = Server(tmp_path_factory.mktemp("server"))
    srv.start()
    yield srv
    srv.stop()


@pytest.fixture(scope="session")
def clock_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server for public play whose clock moves only by ``POST /api/test/clock``."""
    srv = Server(tmp_path_factory.mktemp("clock-server"), env={"GINRUMMY_TEST_CLOCK": "1"})
    srv.start()
    yield srv
    srv.stop()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    # One Chromium a module, not a session: Playwright's sync API keeps an event loop
    # running in its thread until it stops, and a pytest-xdist worker may run asyncio
    # tests after a browser module.
    if not Path(CHROMIUM).exists():
        if os.environ.get("CI") == "true":
            pytest.fail(f"Debian's Chromium ({CHROMIUM}) is required in CI (make browser-deps)")
        pytest.skip("Debian's Chromium (/usr/bin/chromium) is not installed")
    with playwright_sync.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture
def new_page(browser: Any) -> Iterator[Callable[..., Any]]:
    """Make a page in a fresh browser context (its own localStorage: its own identity)."""
    contexts: list[Any] = []

    def make(locale: str = "en-US", width: int = 1100, height: int = 900, **kw: Any) -> Any:
        ctx = browser.new_context(
            locale=locale,
            viewport={"width": width, "height": height},
            reduced_motion="reduce",
            **kw,
        )
        ctx.set_default_timeout(15_000)
        # The computer of a game on the device answers after 50 ms, not the page's 600
        # (pages/tableparts.js, a test hook): its delay is no test's subject but cost the
        # suite about 1.3 s per turn. A test that needs another delay adds its own script after.
        ctx.add_init_script("window.ginrummyDeviceDelayMs ??= 50")
        contexts.append(ctx)
        page = ctx.new_page()
        page.errors = []  # type: ignore[attr-defined]
        page.on("pageerror", lambda e: page.errors.append(str(e)))  # type: ignore[attr-defined]
        return page

    yield make
    for ctx in contexts:
        ctx.close()


@pytest.fixture(scope="session")
def artifacts() -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS
