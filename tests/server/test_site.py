"""The site's routes and languages come from one source, web/js/site.json (issue 19, item 6):
a route or a language added there is served by the server, kept by the service worker as
the page, and known to the page's early script, with no other copy to keep equal."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from ginrummy.server.app import create_app
from ginrummy.server.site import Site, SiteError

from .helpers import settings

WEB = Path(__file__).resolve().parents[2] / "src" / "ginrummy" / "web"
# The service worker rendered, run in Node with a stub `self`: which paths it serves as the page.
WORKER_ROUTES = """
const source = require("fs").readFileSync(0, "utf8");
const handlers = {};
const self = { addEventListener: (type, fn) => { handlers[type] = fn; } };
const cache = { match: async () => new Response("kept") };
const caches = { open: async () => cache, keys: async () => [] };
new Function("self", "location", "caches", source)(self, { origin: "http://x" }, caches);
const served = [];
for (const path of JSON.parse(process.argv[1])) {
  let answered = false;
  const url = "http://x" + path;
  const request = { method: "GET", url, mode: "navigate" };
  const respondWith = (p) => { answered = true; p.catch(() => {}); };
  handlers.fetch({ request, respondWith });
  if (answered) served.push(path);
}
console.log(JSON.stringify(served));
"""


def example(path: str) -> str:
    """A path of a route, each parameter given a value (a seat where it is one)."""
    return re.sub(r"\{(\w+)\}", lambda m: "one" if m.group(1) == "seat" else "abc_1", path)


def worker_serves(worker: str, paths: list[str]) -> list[str]:
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed")
    done = subprocess.run(
        [node, "-e", WORKER_ROUTES, json.dumps(paths)],
        input=worker,
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    served: list[str] = json.loads(done.stdout)
    return served


def early_site(page: str) -> Any:
    found = re.search(r"const site = (.*);", page)
    assert found, "index.html names the site's languages"
    return json.loads(found.group(1))


def served_site(web: Path) -> tuple[Site, dict[str, Any]]:
    """What a server of ``web`` serves: each route's page, the worker, the early script."""
    site = Site.load(web)
    paths = [example(r.path) for r in site.routes]
    with TestClient(create_app(settings(web_dir=web))) as c:
        home = c.get("/").text
        pages = {p: c.get(p) for p in [*paths, "/nowhere/at/all"]}
        worker = c.get("/sw.js").text
        catalogs = {lang: c.get(f"/static/js/i18n/{lang}.json") for lang in site.languages}
    return site, {
        "home": home,
        "pages": pages,
        "worker": worker,
        "served": worker_serves(worker, [*paths, "/nowhere/at/all", "/api/config"]),
        "catalogs": catalogs,
        "paths": paths,
    }


def test_every_route_of_the_site_is_the_page_on_the_server_and_in_the_worker() -> None:
    site, got = served_site(WEB)
    assert {r.page for r in site.routes} >= {"home", "room", "device", "chouette", "lobby"}
    for path in got["paths"]:
        r = got["pages"][path]
        assert r.status_code == 200 and r.text == got["home"], path
    assert got["pages"]["/nowhere/at/all"].status_code == 404
    assert got["served"] == got["paths"]  # the worker: every route, nothing else
    assert early_site(got["home"]) == {"languages": ["de", "en"], "fallback": "en"}
    for lang, r in got["catalogs"].items():
        assert r.status_code == 200 and r.json()["app.title"], lang


def test_a_route_and_a_language_added_to_site_json_are_served_everywhere(tmp_path: Path) -> None:
    web = tmp_path / "web"
    shutil.copytree(WEB, web)
    source = json.loads((web / "js/site.json").read_text(encoding="utf-8"))
    source["languages"].append({"code": "fr", "name": "Français"})
    source["routes"].append({"page": "lobby", "path": "/salon/{hall}"})
    (web / "js/site.json").write_text(json.dumps(source), encoding="utf-8")
    shutil.copy(web / "js/i18n/en.json", web / "js/i18n/fr.json")

    _, got = served_site(web)
    assert "/salon/abc_1" in got["paths"]
    assert got["pages"]["/salon/abc_1"].status_code == 200
    assert "/salon/abc_1" in got["served"]
    assert early_site(got["home"])["languages"] == ["de", "en", "fr"]
    assert got["catalogs"]["fr"].status_code == 200
    # The page reads the same file (web/js/routes.js, i18n.js import it).
    with TestClient(create_app(settings(web_dir=web))) as c:
        assert c.get("/static/js/site.json").json() == source


def test_a_site_file_without_its_parts_fails_the_start() -> None:
    with pytest.raises(SiteError):
        Site.parse({"languages": [{"code": "de"}], "fallback_language": "en", "routes": []})
    with pytest.raises(SiteError):
        Site.parse({"languages": [{"code": "en"}], "fallback_language": "en"})
    with pytest.raises(SiteError):
        Site.parse(
            {
                "languages": [{"code": "en"}],
                "fallback_language": "en",
                "routes": [{"page": "x", "path": "x"}],
            }
        )


def test_the_servers_own_texts_speak_every_language_of_the_site() -> None:
    """The coach's and the review's sentences are written in Python (hints/texts.py,
    review/texts.py): a language added to site.json has them all, or this fails."""
    from ginrummy.hints.texts import TEXTS
    from ginrummy.review import texts as review

    languages = set(Site.load().languages)
    assert set(review.LANGUAGES) == languages
    catalogs = {"hints": TEXTS}
    catalogs |= {
        f"review.{name}": value
        for name, value in vars(review).items()
        if name.isupper() and isinstance(value, dict) and value
    }
    for where, catalog in catalogs.items():
        for key, by_language in catalog.items():
            assert isinstance(by_language, dict), (where, key)
            assert set(by_language) == languages, (where, key, sorted(by_language))
