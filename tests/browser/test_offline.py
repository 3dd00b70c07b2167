"""Offline and installable (docs/offline.md): after one visit the service worker serves the
client with no network; pages that need the server say so; a new build is taken up on the
next visit and never mixed with the old; the static files travel brotli- or gzip-compressed."""

from __future__ import annotations

import gzip
import json
import shutil
import subprocess
import sys
import time
import urllib.request
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import brotli
import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import expect

from ginrummy.benchmarks.web import SETTLED, CountingProxy, quiet
from ginrummy.server.site import Site
from ginrummy.server.slim import inline_styles, slim
from ginrummy.server.static import StaticFiles, with_build, with_site

from .conftest import ROOT, free_port

pytestmark = pytest.mark.browser

WEB_DIR = ROOT / "src" / "ginrummy" / "web"
STYLE = WEB_DIR / "css" / "app.css"
# A server for one web directory (the update test changes its files between starts).
SERVE = (
    "import sys, uvicorn\n"
    "from pathlib import Path\n"
    "from ginrummy.server.app import create_app\n"
    "from ginrummy.server.settings import Settings\n"
    "settings = Settings(data_dir=Path(sys.argv[1]), web_dir=Path(sys.argv[2]))\n"
    "uvicorn.run(create_app(settings), host='127.0.0.1', port=int(sys.argv[3]),"
    " log_level='warning')\n"
)


# Resolves once the registration's worker in `slot` is in `state` (fails after 15 s).
WAIT_WORKER = """async ([slot, state]) => {
  for (const end = Date.now() + 15000; Date.now() < end;) {
    const registration = await navigator.serviceWorker.getRegistration();
    if (registration?.[slot]?.state === state) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`no ${slot} service worker ${state} within 15 s`);
}"""


def wait_for_worker(page: Any, slot: str = "active", state: str = "activated") -> None:
    """Until this page's service worker is active (its files are kept) or a new one waits."""
    page.evaluate(WAIT_WORKER, [slot, state])


def close_last_old_page(page: Any) -> None:
    """Close the last page of the old build and wait (10 s) until the browser has handed
    over to the waiting worker. It lets the page's worker go a moment after the page
    closed; a visit begun before that is still the old build's, whole (the old worker
    keeps it as its client, and the new one waits for its end), as the product means."""
    context = page.context
    page.close()
    deadline = time.monotonic() + 10
    while True:
        states = []
        for worker in context.service_workers:
            try:
                states.append(worker.evaluate("self.serviceWorker?.state ?? null"))
            except PlaywrightError:  # a worker stopped meanwhile
                continue
        if states and "installed" not in states:
            return
        assert time.monotonic() < deadline, f"no worker took over: {states}"
        time.sleep(0.05)


class WebServer:
    """The app serving ``web_dir`` on a fixed port (a service worker belongs to an origin)."""

    def __init__(self, data_dir: Path, web_dir: Path) -> None:
        self.data_dir, self.web_dir, self.port = data_dir, web_dir, free_port()
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        args = [str(self.data_dir), str(self.web_dir), str(self.port)]
        self.proc = subprocess.Popen([sys.executable, "-c", SERVE, *args], cwd=ROOT)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(f"{self.url}/api/health", timeout=1):
                    return
            except OSError:
                time.sleep(0.1)
        raise RuntimeError("the server did not start")

    def stop(self) -> None:
        assert self.proc is not None
        self.proc.terminate()
        self.proc.wait(timeout=10)


@pytest.fixture
def web_server(tmp_path: Path) -> Iterator[WebServer]:
    web = tmp_path / "web"
    shutil.copytree(WEB_DIR, web)
    srv = WebServer(tmp_path, web)
    srv.start()
    yield srv
    if srv.proc and srv.proc.poll() is None:
        srv.stop()


def test_installable_home_and_rules_open_offline_and_server_pages_need_a_connection(
    server: Any, new_page: Callable[..., Any]
) -> None:
    page = new_page()
    page.goto(server.url)
    expect(page.get_by_role("heading", name="How Gin Rummy works")).to_be_visible()
    wait_for_worker(page)
    cdp = page.context.new_cdp_session(page)
    found = cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]
    cdp.detach()  # while attached, set_offline does not reach the page
    # Installable: Chromium objects only that Playwright's profiles are incognito-like.
    assert {error["errorId"] for error in found} <= {"in-incognito"}, found
    page.context.set_offline(True)

    page.reload()
    expect(page.get_by_role("heading", name="Gin Rummy", exact=True)).to_be_visible()
    expect(page.get_by_role("heading", name="How Gin Rummy works")).to_be_visible()
    solo = page.get_by_role("region", name="Play alone")
    # The computer plays on the device (docs/device.md); the verified game needs the server.
    expect(solo.get_by_text("No connection: you play on this device")).to_be_visible()
    expect(solo.get_by_role("button", name="Play against the computer")).to_be_enabled()
    expect(solo.get_by_role("button", name="Play a verified game on the server")).to_be_disabled()

    page.get_by_role("navigation").get_by_role("link", name="Lobby").click()
    expect(page.get_by_role("heading", name="No connection")).to_be_visible()
    expect(page.get_by_role("alert")).to_contain_text("needs a connection to the server")
    for path in ("/leaderboard", "/r/some-room", "/p/someone"):
        page.goto(server.url + path)
        expect(page.get_by_role("heading", name="No connection")).to_be_visible()

    page.goto(server.url + "/lobby")
    expect(page.get_by_role("heading", name="No connection")).to_be_visible()
    page.context.set_offline(False)  # the page comes back by itself
    expect(page.get_by_role("heading", name="No connection")).to_have_count(0)
    expect(page.get_by_role("button", name="Quick match")).to_be_visible()
    assert page.errors == []


def test_the_first_visit_fetches_each_file_once(server: Any, browser: Any) -> None:
    """The worker's installation finds the page's own downloads in the HTTP cache, the
    computer players' modules too: the start page loads them before it registers the
    worker (web/js/main.js boot). So no file crosses the network twice on a first visit
    (the 150 KB budget counts every byte, `ginrummy bench web`)."""
    proxy = CountingProxy(server.port)
    proxy.start()
    context = browser.new_context()
    try:
        page = context.new_page()
        page.goto(f"http://127.0.0.1:{proxy.port}/")
        page.evaluate(SETTLED)  # the worker is active: it has kept its files
        quiet(proxy.traffic)
        requests = Counter(line for _, line in proxy.traffic.requests)
    finally:
        context.close()
        proxy.stop()
    assert "GET /static/js/bots/index.js HTTP/1.1" in requests
    assert [line for line, n in requests.items() if n > 1] == []


def test_a_new_build_is_taken_up_on_the_next_visit_and_never_mixed(
    web_server: WebServer, new_page: Callable[..., Any]
) -> None:
    first = json.loads((web_server.web_dir / "js/i18n/en.json").read_text())["app.tagline"]
    page = new_page()
    page.goto(web_server.url)
    expect(page.get_by_text(first)).to_be_visible()
    wait_for_worker(page)

    new_build(web_server, first, "The second build.", "two")
    # This visit still runs the old build whole, while the new one installs beside it.
    page.reload()
    expect(page.get_by_text(first)).to_be_visible()
    wait_for_worker(page, "waiting", "installed")
    assert page.evaluate(BUILD_MARKS) == {"tagline": first, "css": ""}

    context = page.context
    close_last_old_page(page)  # the last page of the old build: the new one takes over
    again = context.new_page()
    again.goto(web_server.url)
    runs_whole(again, "The second build.", '"two"')

    # Should a browser hand an open page of the old build to the new worker (here DevTools
    # forces it), the page is reloaded and runs the new build whole.
    new_build(web_server, "The second build.", "The third build.", "three")
    again.reload()
    wait_for_worker(again, "waiting", "installed")
    assert again.evaluate(BUILD_MARKS) == {"tagline": "The second build.", "css": '"two"'}
    devtools = again.context.new_cdp_session(again)
    devtools.send("ServiceWorker.enable")
    devtools.send("ServiceWorker.skipWaiting", {"scopeURL": f"{web_server.url}/"})
    runs_whole(again, "The third build.", '"three"')

    # The same while the page is still loading, before any of its scripts ran: Chromium
    # does it when a visit begins just as the last page of the old build closes (the old
    # worker gave the page, the new one serves the rest). Here the page's first script
    # stops in the debugger while DevTools hands it over. (A page stopped there is among
    # the worker's clients already, so the worker's reload may be what reloads it; one
    # that is not yet reloads itself: tests/js/offline.test.mjs, keepOwnBuild.)
    new_build(web_server, "The third build.", "The fourth build.", "four")
    again.reload()
    wait_for_worker(again, "waiting", "installed")
    handed_over_while_loading(again, devtools, f"{web_server.url}/")
    runs_whole(again, "The fourth build.", '"four"')


def handed_over_while_loading(page: Any, devtools: Any, scope: str) -> None:
    """Reload ``page`` (its old build from the old worker), stop it before its first
    script and activate the waiting worker meanwhile; then let the page run on.
    ``devtools`` reports the workers (``ServiceWorker.enable``)."""
    paused: list[Any] = []
    status: dict[str, str] = {}  # each worker version's last status reported

    def stopped(event: Any) -> None:
        paused.append(event)

    devtools.on("Debugger.paused", stopped)
    devtools.on(
        "ServiceWorker.workerVersionUpdated",
        lambda e: status.update({v["versionId"]: v["status"] for v in e["versions"]}),
    )

    def until(what: str, done: Callable[[], bool]) -> None:
        deadline = time.monotonic() + 10
        while not done():
            assert time.monotonic() < deadline, what
            time.sleep(0.02)
            devtools.send("Page.getFrameTree")  # a call lets Playwright take in events

    devtools.send("Page.enable")
    devtools.send("Debugger.enable")
    stop = devtools.send("Page.addScriptToEvaluateOnNewDocument", {"source": "debugger;"})
    page.evaluate("setTimeout(() => location.reload())")
    until("the reloaded page never stopped", lambda: bool(paused))
    devtools.send("Page.removeScriptToEvaluateOnNewDocument", {"identifier": stop["identifier"]})
    old = {version for version, s in status.items() if s == "activated"}
    devtools.send("ServiceWorker.skipWaiting", {"scopeURL": scope})
    took_over = ("activating", "activated")
    until(
        "the waiting worker never took over",
        lambda: any(s in took_over for v, s in status.items() if v not in old),
    )
    devtools.send("Debugger.resume")
    devtools.send("Debugger.disable")


def new_build(web_server: WebServer, tagline: str, new_tagline: str, mark: str) -> None:
    """Deploy another build: another tagline and a style the one before lacks."""
    web_server.stop()
    catalog = web_server.web_dir / "js/i18n/en.json"
    catalog.write_text(catalog.read_text().replace(tagline, new_tagline))
    css = web_server.web_dir / "css/app.css"
    css.write_text(css.read_text() + f'\nbody {{ --build: "{mark}"; }}\n')
    web_server.start()


def runs_whole(page: Any, tagline: str, css: str) -> None:
    """Until the page shows `tagline` and its files are all of that build (10 s): a page
    that is reloaded on the way may show it a moment before the reload."""
    expect(page.get_by_text(tagline)).to_be_visible()
    until_marks(page, BUILD_MARKS, {"tagline": tagline, "css": css})


def until_marks(page: Any, script: str, expected: dict[str, Any]) -> None:
    """Until ``script`` evaluated in ``page`` gives ``expected`` (10 s): the new worker
    may take a visit over after its page showed, and that page is reloaded meanwhile."""
    deadline = time.monotonic() + 10
    while True:
        try:
            marks = page.evaluate(script)
        except PlaywrightError as err:  # the page was reloaded meanwhile
            marks = {"error": str(err)}
        if marks == expected:
            return
        assert time.monotonic() < deadline, marks
        time.sleep(0.1)


# The tagline a fetch gets now, and the style the page loaded.
BUILD_MARKS = """async () => ({
  tagline: (await (await fetch('/static/js/i18n/en.json')).json())['app.tagline'],
  css: getComputedStyle(document.body).getPropertyValue('--build').trim(),
})"""


def fetch(url: str, accept: str) -> tuple[bytes, Any]:
    request = urllib.request.Request(url, headers={"Accept-Encoding": accept})
    with urllib.request.urlopen(request) as r:
        return r.read(), r.headers


def test_precompressed_files_are_the_files_and_say_so(server: Any) -> None:
    checked = 0
    server_version = StaticFiles.load(WEB_DIR).version  # the build the page names
    for path in sorted(p for p in WEB_DIR.rglob("*") if p.is_file() and p.name != "sw.js"):
        url = f"{server.url}/static/{path.relative_to(WEB_DIR).as_posix()}"
        shipped, plain = fetch(url, "identity")  # the file, slim (server/slim.py)
        assert "Content-Encoding" not in plain
        expected = slim(path.name, path.read_bytes())
        if path.suffix == ".html":  # with the style sheet inline (and index.html the languages)
            source = path.read_bytes()
            if path.name == "index.html":
                source = with_build(with_site(source, Site.load(WEB_DIR)), server_version)
            expected = inline_styles(source, {"css/app.css": STYLE.read_bytes()})[0]
            assert b"<style>" in expected and b'rel="stylesheet"' not in expected
        assert shipped == expected, url
        for accept, coding, decode in [
            ("gzip, deflate, br, zstd", "br", brotli.decompress),
            ("gzip", "gzip", gzip.decompress),
        ]:
            body, headers = fetch(url, accept)
            assert headers["Cache-Control"] == "no-cache"
            etag = headers["ETag"]
            if headers.get("Content-Encoding") == coding:
                assert decode(body) == shipped, url
                assert headers["Vary"] == "Accept-Encoding"
                assert etag.endswith(f'-{coding[:2]}"')
                checked += 1
            else:
                assert "Content-Encoding" not in headers and body == shipped, url
            again = urllib.request.Request(
                url, headers={"Accept-Encoding": accept, "If-None-Match": etag}
            )
            with pytest.raises(urllib.error.HTTPError) as not_modified:
                urllib.request.urlopen(again)
            assert not_modified.value.code == 304
            not_modified.value.close()
    assert checked >= 40  # every script, style and catalog, in both encodings


# Whether this origin's build cache (docs/offline.md) holds `path`.
KEPT = """async (path) => {
  for (const name of await caches.keys()) {
    if (name.startsWith('ginrummy-') && await (await caches.open(name)).match(path)) return true;
  }
  return false;
}"""
GERMAN = "/static/js/i18n/de.json"


def wait_kept(page: Any, path: str, timeout_s: float = 15) -> None:
    """Until this origin's build cache holds ``path``. (Not ``wait_for_function``: it takes
    the promise an async function returns for a truthy answer at once.)"""
    deadline = time.monotonic() + timeout_s
    while not page.evaluate(KEPT, path):
        assert time.monotonic() < deadline, f"{path} was not kept within {timeout_s} s"
        time.sleep(0.1)


def test_the_other_language_is_kept_once_used_and_offline_it_says_it_cannot(
    server: Any, new_page: Callable[..., Any]
) -> None:
    page = new_page()  # an English browser: the worker keeps only the English messages
    page.goto(server.url)
    expect(page.get_by_role("heading", name="How Gin Rummy works")).to_be_visible()
    wait_for_worker(page)
    assert page.evaluate(KEPT, "/static/js/i18n/en.json")
    assert not page.evaluate(KEPT, GERMAN)
    languages = page.get_by_role("group", name="Language")

    page.context.set_offline(True)
    languages.get_by_role("button", name="Deutsch").click()
    expect(page.get_by_role("log")).to_contain_text("The server cannot be reached.")
    expect(page.get_by_role("heading", name="How Gin Rummy works")).to_be_visible()
    expect(languages.get_by_role("button", name="English")).to_have_attribute(
        "aria-pressed", "true"
    )

    page.context.set_offline(False)
    languages.get_by_role("button", name="Deutsch").click()
    expect(page.get_by_role("heading", name="So funktioniert Gin Rummy")).to_be_visible()
    wait_kept(page, GERMAN)  # the page named it to the worker

    page.context.set_offline(True)
    page.reload()
    expect(page.get_by_role("heading", name="So funktioniert Gin Rummy")).to_be_visible()
    assert page.errors == []


# For each of this origin's build caches: whether it holds `path`.
KEPT_BY_EACH = """async (path) => {
  const names = (await caches.keys()).filter((name) => name.startsWith('ginrummy-'));
  return Promise.all(names.map(async (name) => !!(await (await caches.open(name)).match(path))));
}"""


def test_a_language_used_before_is_kept_by_the_next_build_too(
    web_server: WebServer, new_page: Callable[..., Any]
) -> None:
    page = new_page()
    page.goto(web_server.url)
    wait_for_worker(page)
    page.get_by_role("group", name="Language").get_by_role("button", name="Deutsch").click()
    expect(page.get_by_role("heading", name="So funktioniert Gin Rummy")).to_be_visible()
    wait_kept(page, GERMAN)

    web_server.stop()  # a new build: another German tagline
    catalog = web_server.web_dir / "js/i18n/de.json"
    old = json.loads(catalog.read_text())["app.tagline"]
    catalog.write_text(catalog.read_text().replace(old, "Der zweite Stand."))
    web_server.start()
    page.reload()
    wait_for_worker(page, "waiting", "installed")
    # The new build's cache, filled while this old page was open, holds German already.
    assert page.evaluate(KEPT_BY_EACH, GERMAN) == [True, True]

    context = page.context
    close_last_old_page(page)
    again = context.new_page()
    again.context.set_offline(True)
    again.goto(web_server.url)
    expect(again.get_by_text("Der zweite Stand.")).to_be_visible()
