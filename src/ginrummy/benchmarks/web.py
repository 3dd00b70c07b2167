"""``ginrummy bench web``: what the home page costs a browser, cold and again.

Starts the server on loopback behind a counting TCP proxy and opens the home page in
headless Chromium (Playwright, ``--chromium``): first with an empty cache, then once more
in the same browser profile. It reports, as the median over ``--runs``:

- ``first_visit_bytes``: every byte both ways through the proxy (headers included) from
  the first request until the service worker, if any, is active (it has kept its files)
  and then nothing moved for a second, so the worker's own downloads count too;
  ``first_visit_requests`` the HTTP requests among them;
- ``repeat_requests_before_paint``: the requests that reached the server before the
  repeat visit's first contentful paint (same clock: this machine's); ``repeat_requests``
  all of the repeat visit's requests until it was quiet;
- ``first_visit_fcp_ms`` and ``repeat_fcp_ms``: first contentful paint (the ``paint``
  performance entry) of the same two visits in another fresh profile, straight to the
  server, so that the proxy's own delay is left out; ``first_visit_page_ms``: in the
  first of them, when the page's own content (a heading in ``<main>``) was in, which a
  first paint of the page's shell alone does not show;
- ``click_to_hand`` (issue 11: at most 100 ms, online or offline): in a third fresh
  profile, after a first visit whose service worker is active, from the click on "Play
  against the computer" (by role and name) to the moment the table's "Your hand" holds
  its cards, which take drag and drop from then on (``hand_ms``), and to the first
  legal action enabled for the person (``move_ms``: the same moment when the person acts
  first, else after the computer's first decision and its pace of 600 ms); online, then
  with the network cut. The click comes a second after the button can be clicked (a
  person reads the page first; the device-game modules load after the first paint);
  ``online_at_once`` and ``offline_at_once`` click the moment it can
  be. p50 and max over ``--runs``; ``person_first`` counts the runs in which the person
  had the first decision.

``--baseline DIR`` measures a second checkout (its ``src/``) the same way in the same run,
for old and new side by side. One JSON object on stdout.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

SOURCE = Path(__file__).resolve().parents[2]  # the src/ directory of this checkout
METHODS = (b"GET ", b"POST ", b"HEAD ", b"PUT ", b"DELETE ", b"PATCH ", b"OPTIONS ")
QUIET = 1.0  # seconds without a byte that end a visit
READING = 1000  # ms from the home page's "Play against the computer" enabled to its click
CLICK_TRIES = 3  # clicks on "Play against the computer" until the page gets one


@dataclass
class Traffic:
    """What passed through the proxy: bytes both ways and when each request began."""

    size: int = 0
    requests: list[tuple[float, str]] = field(default_factory=list)
    last: float = 0.0
    lock: threading.Lock = field(default_factory=threading.Lock)

    def reset(self) -> None:
        with self.lock:
            self.size, self.requests, self.last = 0, [], time.time()

    def count(self, data: bytes, upstream: bool) -> None:
        with self.lock:
            self.size += len(data)
            self.last = time.time()
            if upstream and data.startswith(METHODS):
                line = data.split(b"\r\n", 1)[0].decode("latin-1")
                self.requests.append((self.last, line))


class CountingProxy:
    """A TCP proxy on its own thread that counts what passes (HTTP/1.1, loopback)."""

    def __init__(self, target_port: int) -> None:
        self.target_port = target_port
        self.port = free_port()
        self.traffic = Traffic()
        self.loop = asyncio.new_event_loop()
        self.ready = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.server: asyncio.Server | None = None

    def start(self) -> None:
        self.thread.start()
        self.ready.wait(10)

    def stop(self) -> None:
        asyncio.run_coroutine_threadsafe(self._close(), self.loop).result(10)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)
        self.loop.close()

    def _run(self) -> None:
        asyncio.set_event_loop(self.loop)
        self.server = self.loop.run_until_complete(
            asyncio.start_server(self._connection, "127.0.0.1", self.port)
        )
        self.ready.set()
        self.loop.run_forever()

    async def _close(self) -> None:
        """Stop listening and end the connections still open (the browser's keep-alives)."""
        if self.server is not None:
            self.server.close()
        others = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
        for task in others:
            task.cancel()
        await asyncio.gather(*others, return_exceptions=True)

    async def _connection(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        up_reader, up_writer = await asyncio.open_connection("127.0.0.1", self.target_port)
        await asyncio.gather(
            self._pipe(reader, up_writer, upstream=True),
            self._pipe(up_reader, writer, upstream=False),
        )

    async def _pipe(
        self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, upstream: bool
    ) -> None:
        try:
            while data := await reader.read(65536):
                self.traffic.count(data, upstream)
                writer.write(data)
                await writer.drain()
        except ConnectionError:
            pass  # the other side went away: this connection is done either way
        finally:
            writer.close()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_server(source: Path, data_dir: Path) -> tuple[subprocess.Popen[bytes], int]:
    """``python -m ginrummy serve`` with the package from ``source`` (a ``src/`` directory)."""
    port = free_port()
    env = {**os.environ, "PYTHONPATH": str(source), "GINRUMMY_LOG_LEVEL": "warning"}
    env.pop("DATABASE_URL", None)
    env.pop("REDIS_URL", None)
    args = [sys.executable, "-m", "ginrummy", "serve", "--port", str(port)]
    proc = subprocess.Popen(
        [*args, "--data-dir", str(data_dir)], cwd=data_dir, env=env, stdout=subprocess.DEVNULL
    )
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/health", timeout=1):
                return proc, port
        except OSError:
            time.sleep(0.1)
    proc.kill()
    raise RuntimeError(f"the server from {source} did not start")


FCP = """() => new Promise((resolve) => {
  const seen = () => performance.getEntriesByName('first-contentful-paint')[0];
  const done = () => resolve({
    at: performance.timeOrigin + seen().startTime, ms: seen().startTime,
  });
  if (seen()) return done();
  new PerformanceObserver(() => { if (seen()) done(); }).observe({ type: 'paint', buffered: true });
})"""


# Set up before the page's own scripts: notes when ``<main>`` first holds a heading.
PAGE_SHOWN = """new MutationObserver((_, observer) => {
  if (document.querySelector('main h1, main h2')) {
    window.ginrummyBenchPageShown = performance.now();
    observer.disconnect();
  }
}).observe(document, { subtree: true, childList: true });"""


# Once the page has loaded and a second has passed: the service worker, if the page
# registered one, has activated (at most 15 s).
SETTLED = """async () => {
  await new Promise((ok) => setTimeout(ok, 1000));
  const registration = await navigator.serviceWorker?.getRegistration();
  for (const end = Date.now() + 15000; registration && Date.now() < end;) {
    if (registration.active?.state === 'activated') return;
    await new Promise((ok) => setTimeout(ok, 50));
  }
}"""


# Set up before the page's own scripts: from the click on "Play against the computer",
# when the hand is in with its cards and when the first element marked with a legal action
# (``data-act``, src/ginrummy/web/js/input.js) is enabled, in milliseconds after the click.
# Should the computer end the round before the person decides anything (as non-dealer it
# may take the first upcard and knock at once), the person's first decision is "Next
# round" (``data-cmd="next-round"``): its button enabled counts the same.
DEVICE_MARKS = """addEventListener('click', (event) => {
  if (event.target.closest?.('[data-cmd="play-solo"]')) {
    window.ginrummyBenchClick = performance.now();
  }
}, true);
new MutationObserver(() => {
  const click = window.ginrummyBenchClick;
  if (click === undefined) return;
  const now = performance.now() - click;
  if (window.ginrummyBenchHand === undefined
      && document.querySelector('main [data-drop="hand"] [data-drag="card"]')) {
    window.ginrummyBenchHand = now;
  }
  const decisions = 'main [data-act], [data-cmd="next-round"]';
  if (window.ginrummyBenchMove === undefined && [...document.querySelectorAll(decisions)]
      .some((el) => el.getAttribute('aria-disabled') !== 'true' && !el.disabled)) {
    window.ginrummyBenchMove = now;
  }
}).observe(document, {
  subtree: true, childList: true, attributes: true, attributeFilter: ['aria-disabled', 'disabled'],
});"""


def quiet(traffic: Traffic, limit: float = 20.0) -> None:
    """Until nothing passed the proxy for ``QUIET`` seconds (at most ``limit``)."""
    end = time.time() + limit
    while time.time() < end and time.time() - traffic.last < QUIET:
        time.sleep(0.1)


def counted_visits(browser: Any, url: str, traffic: Traffic) -> dict[str, float]:
    """Through the proxy: a cold first visit and a repeat visit in a fresh browser profile."""
    context = browser.new_context()
    try:
        traffic.reset()
        page = context.new_page()
        page.goto(url)
        page.evaluate(SETTLED)  # the worker has kept its files: its downloads are counted
        quiet(traffic)
        figures: dict[str, float] = {
            "first_visit_bytes": traffic.size,
            "first_visit_requests": len(traffic.requests),
        }
        page.close()
        traffic.reset()
        page = context.new_page()
        page.goto(url)
        again = page.evaluate(FCP)
        quiet(traffic)
        before = [line for at, line in traffic.requests if at * 1000 < again["at"]]
        return figures | {
            "repeat_requests_before_paint": len(before),
            "repeat_requests": len(traffic.requests),
        }
    finally:
        context.close()


def timed_visits(browser: Any, url: str) -> dict[str, float]:
    """Straight to the server (the proxy's own delay left out): both first paints."""
    context = browser.new_context()
    context.add_init_script(PAGE_SHOWN)
    try:
        page = context.new_page()
        page.goto(url)
        first = page.evaluate(FCP)["ms"]
        shown = page.wait_for_function("window.ginrummyBenchPageShown").json_value()
        page.evaluate(SETTLED)
        page.close()
        page = context.new_page()
        page.goto(url)
        return {
            "first_visit_fcp_ms": first,
            "first_visit_page_ms": shown,
            "repeat_fcp_ms": page.evaluate(FCP)["ms"],
        }
    finally:
        context.close()


def click_to_hand(page: Any, url: str, pause_ms: float) -> dict[str, float]:
    """On a fresh visit to the home page: ``pause_ms`` after "Play against the computer"
    can be clicked, click it, wait for both marks (``DEVICE_MARKS``) and read them."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout
    from playwright.sync_api import expect

    page.goto(url)
    button = page.get_by_role("button", name="Play against the computer")
    expect(button).to_be_enabled(timeout=30_000)
    page.wait_for_timeout(pause_ms)
    # A press and a release that a re-render of the home page fell between (the button
    # replaced) make no click: the marks count from the click the page got, so click
    # again until it has one (each try ``DEVICE_MARKS`` sees sets ginrummyBenchClick).
    for _ in range(CLICK_TRIES):
        button.click()
        with contextlib.suppress(PlaywrightTimeout):
            page.wait_for_function("window.ginrummyBenchClick !== undefined", timeout=2_000)
            break
    page.wait_for_function("window.ginrummyBenchMove !== undefined", timeout=30_000)
    marks: dict[str, float] = page.evaluate(
        "() => ({ hand_ms: window.ginrummyBenchHand, move_ms: window.ginrummyBenchMove })"
    )
    return marks


def device_visits(browser: Any, url: str) -> dict[str, dict[str, float]]:
    """A first visit until its service worker is active, then games against the computer
    started online and with the network cut: the click ``READING`` after the button can be
    clicked (a person reads the page first) and at once."""
    context = browser.new_context()
    context.add_init_script(DEVICE_MARKS)
    try:
        page = context.new_page()
        page.goto(url)
        page.evaluate(SETTLED)
        marks = {
            "online": click_to_hand(page, url, READING),
            "online_at_once": click_to_hand(page, url, 0),
        }
        context.set_offline(True)
        return marks | {
            "offline": click_to_hand(page, url, READING),
            "offline_at_once": click_to_hand(page, url, 0),
        }
    finally:
        context.close()


def summary(samples: Sequence[dict[str, float]]) -> dict[str, Any]:
    """p50 and max of each mark over the runs, and how often the person acted first."""
    figures: dict[str, Any] = {
        key: {
            "p50": round(statistics.median(s[key] for s in samples), 1),
            "max": round(max(s[key] for s in samples), 1),
        }
        for key in ("hand_ms", "move_ms")
    }
    return figures | {"person_first": sum(s["move_ms"] <= s["hand_ms"] for s in samples)}


def measure(browser: Any, source: Path, runs: int) -> dict[str, Any]:
    """The medians over ``runs`` visits of each kind to the server built from ``source``,
    and the click to a hand's p50 and max (``click_to_hand``)."""
    data_dir = Path(tempfile.mkdtemp(prefix="ginrummy-bench-web-"))
    proc, port = start_server(source, data_dir)
    proxy = CountingProxy(port)
    proxy.start()
    try:
        proxied = f"http://127.0.0.1:{proxy.port}/"
        samples = [
            counted_visits(browser, proxied, proxy.traffic)
            | timed_visits(browser, f"http://127.0.0.1:{port}/")
            for _ in range(runs)
        ]
        direct = f"http://127.0.0.1:{port}/"
        games = [device_visits(browser, direct) for _ in range(runs)]
        medians = {key: statistics.median(s[key] for s in samples) for key in samples[0]}
        return medians | {
            "click_to_hand": {where: summary([g[where] for g in games]) for where in games[0]}
        }
    finally:
        proxy.stop()
        proc.terminate()
        proc.wait(10)
        shutil.rmtree(data_dir, ignore_errors=True)


def main(argv: Sequence[str]) -> int:
    parser = argparse.ArgumentParser(prog="ginrummy bench web", description=__doc__)
    parser.add_argument("--runs", type=int, default=5, help="visits of each kind (default 5)")
    parser.add_argument(
        "--chromium", default="/usr/bin/chromium", help="the browser (default /usr/bin/chromium)"
    )
    parser.add_argument(
        "--baseline", type=Path, help="another checkout (e.g. a worktree at main) to compare"
    )
    args = parser.parse_args(argv)
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        print("ginrummy bench web needs Playwright: pip install -e '.[test]'", file=sys.stderr)
        return 2
    subjects = {"new": SOURCE}
    if args.baseline:
        subjects = {"old": args.baseline.resolve() / "src", **subjects}
    result: dict[str, Any] = {"runs": args.runs}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=args.chromium, args=["--no-sandbox"])
        try:
            for name, source in subjects.items():
                result[name] = measure(browser, source, args.runs)
        finally:
            browser.close()
    print(json.dumps(result, indent=2))
    return 0
