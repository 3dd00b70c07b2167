"""The static files (server/static.py): compressed once, ETags per encoding, the service
worker rendered with the build's version and files."""

from __future__ import annotations

import gzip
import json
import re
from pathlib import Path

import pytest
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route
from starlette.testclient import TestClient

from ginrummy.server.static import StaticBuildError, StaticFiles

WORKER = '// the worker\nconst BUILD = { version: "dev", files: {} };\nself.x = BUILD;\n'


def web_dir(tmp_path: Path) -> Path:
    web = tmp_path / "web"
    (web / "js").mkdir(parents=True)
    (web / "index.html").write_text("<!doctype html><title>x</title>" + "<p>hello</p>" * 50)
    (web / "js" / "main.js").write_text("export const a = 1;\n" * 100)
    (web / "tiny.txt").write_text("a")
    (web / "sw.js").write_text(WORKER)
    return web


def client(files: StaticFiles) -> TestClient:
    async def serve(request: Request) -> Response:
        return files.response(request, request.path_params["name"])

    return TestClient(Starlette(routes=[Route("/{name:path}", serve, methods=["GET", "HEAD"])]))


def test_gzip_only_when_accepted_and_smaller(tmp_path: Path) -> None:
    web = web_dir(tmp_path)
    c = client(StaticFiles.load(web))
    packed = c.get("/js/main.js", headers={"Accept-Encoding": "gzip"})
    assert packed.headers["content-encoding"] == "gzip"
    assert packed.content == (web / "js" / "main.js").read_bytes()  # httpx decompresses
    assert packed.headers["vary"] == "Accept-Encoding"
    assert packed.headers["content-type"] == "text/javascript; charset=utf-8"
    refused = c.get("/js/main.js", headers={"Accept-Encoding": "gzip;q=0, identity"})
    assert "content-encoding" not in refused.headers
    assert refused.headers["etag"] != packed.headers["etag"]
    tiny = c.get("/tiny.txt", headers={"Accept-Encoding": "gzip"})
    assert "content-encoding" not in tiny.headers and "vary" not in tiny.headers
    assert c.get("/nothing.js").status_code == 404


def test_a_matching_etag_gives_304_and_head_gives_the_length(tmp_path: Path) -> None:
    c = client(StaticFiles.load(web_dir(tmp_path)))
    first = c.get("/index.html", headers={"Accept-Encoding": "gzip"})
    etag = first.headers["etag"]
    again = c.get("/index.html", headers={"Accept-Encoding": "gzip", "If-None-Match": etag})
    assert again.status_code == 304 and again.content == b""
    plain = c.get("/index.html", headers={"Accept-Encoding": "identity", "If-None-Match": etag})
    assert plain.status_code == 200  # the gzip ETag names other bytes
    head = c.head("/index.html", headers={"Accept-Encoding": "gzip"})
    assert head.content == b""
    assert int(head.headers["content-length"]) == int(first.headers["content-length"])


def test_the_worker_names_the_version_and_each_file_with_its_etag_hash(tmp_path: Path) -> None:
    web = web_dir(tmp_path)
    files = StaticFiles.load(web)
    worker = client(files).get("/sw.js").text
    line = re.search(r"^const BUILD = (.*);$", worker, re.MULTILINE)
    assert line is not None
    build = json.loads(line[1])
    assert build["version"] == files.version
    main = files.assets["js/main.js"]
    assert build["files"]["/static/js/main.js"] == main.digest
    assert build["files"]["/"] == files.assets["index.html"].digest
    assert "/static/index.html" not in build["files"]  # kept once, as "/"
    assert "/static/tiny.txt" not in build["files"] and "/static/sw.js" not in build["files"]
    assert main.digest in main.etag(True) and main.digest in main.etag(False)

    (web / "js" / "main.js").write_text("export const a = 2;\n")
    assert StaticFiles.load(web).version != files.version


def test_a_worker_without_a_build_line_is_refused(tmp_path: Path) -> None:
    web = web_dir(tmp_path)
    (web / "sw.js").write_text("self.x = 1;\n")
    with pytest.raises(StaticBuildError, match="const BUILD"):
        StaticFiles.load(web)


def test_the_gzip_form_is_the_file(tmp_path: Path) -> None:
    files = StaticFiles.load(web_dir(tmp_path))
    main = files.assets["js/main.js"]
    assert main.gzipped is not None
    assert gzip.decompress(main.gzipped) == main.body
