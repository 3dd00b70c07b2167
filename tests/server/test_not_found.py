"""A path that no route has: a page's path is answered with the page itself and 404 (its
router shows "not found" under the site's top bar, with the way back to the start page:
web/js/routes.js, pages/notfound.js); a path under /api/ with the API's JSON error; a
client file that is not there with a short text."""

from __future__ import annotations

from pathlib import Path

from starlette.testclient import TestClient

from ginrummy.server.app import create_app

from .helpers import settings

WEB = Path(__file__).resolve().parents[2] / "src" / "ginrummy" / "web"


def test_an_unknown_page_is_the_page_with_404_and_an_unknown_api_path_a_json_error() -> None:
    with TestClient(create_app(settings(web_dir=WEB))) as c:
        home = c.get("/")
        assert home.status_code == 200
        for path in ("/nonsense", "/r/a/b", "/lobby/more", "/t/x/y"):
            r = c.get(path)
            assert r.status_code == 404, path
            assert r.headers["content-type"].startswith("text/html"), path
            assert r.text == home.text, path  # the page, whose router says "not found"
            # never a 304 for a 404: the browser must not show a kept page as found
            etag = home.headers["etag"]
            assert c.get(path, headers={"If-None-Match": etag}).status_code == 404
        assert c.head("/nonsense").status_code == 404
        for path in ("/api/nonsense", "/api/", "/api/rooms/x/nothing"):
            r = c.get(path)
            assert r.status_code == 404, path
            assert r.json() == {
                "error": {"code": "not_found", "message": "There is no such API path."}
            }, path
        r = c.post("/api/nonsense", json={})
        assert r.status_code == 404 and r.json()["error"]["code"] == "not_found"
        # A client file that is not there is not the page.
        r = c.get("/static/js/nothing.js")
        assert r.status_code == 404 and not r.headers["content-type"].startswith("text/html")
        # The known ones are as before.
        assert c.get("/lobby").status_code == 200
        assert c.get("/api/health").json()["ok"] is True
