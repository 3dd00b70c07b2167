"""The static files (server/static.py): slimmed and compressed once (brotli, gzip), the
encoding chosen by Accept-Encoding, ETags per encoding, the headers of pages and the
worker, the service worker rendered with the build's version and files."""

from __future__ import annotations

import gzip
import json
import posixpath
import re
from pathlib import Path
from typing import Any

import brotli
import pytest
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route
from starlette.testclient import TestClient

from ginrummy.server.static import StaticBuildError, StaticFiles, accepted_codings

WEB_DIR = Path(__file__).resolve().parents[2] / "src" / "ginrummy" / "web"
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


def test_brotli_when_accepted_else_gzip_else_the_plain_bytes(tmp_path: Path) -> None:
    web = web_dir(tmp_path)
    c = client(StaticFiles.load(web))
    source = (web / "js" / "main.js").read_bytes()
    answers = {}
    for accept, coding in [
        ("gzip, deflate, br, zstd", "br"),  # Chromium's
        ("br", "br"),
        ("gzip", "gzip"),
        ("br;q=0, gzip", "gzip"),
        ("BR;Q=0.5", "br"),
        ("*", "br"),
        ("br;q=0, *", "gzip"),
        ("gzip;q=0, identity", None),
        ("br;q=0, gzip;q=0.0", None),
        ("identity", None),
        ("", None),
        ("br;q=nonsense", None),
    ]:
        answer = c.get("/js/main.js", headers={"Accept-Encoding": accept})
        assert answer.headers.get("content-encoding") == coding, accept
        assert answer.content == source  # httpx decodes br and gzip
        assert answer.headers["vary"] == "Accept-Encoding"
        assert answer.headers["content-type"] == "text/javascript; charset=utf-8"
        answers[coding] = answer
    etags = {coding: a.headers["etag"] for coding, a in answers.items()}
    assert etags["br"].endswith('-br"') and etags["gzip"].endswith('-gz"')
    assert len(set(etags.values())) == 3  # other bytes on the wire, another strong ETag
    tiny = c.get("/tiny.txt", headers={"Accept-Encoding": "gzip, br"})
    assert "content-encoding" not in tiny.headers and "vary" not in tiny.headers
    assert c.get("/nothing.js").status_code == 404


def test_accept_encoding_is_read_with_its_qualities() -> None:
    assert accepted_codings("gzip, br;q=0.8, *;q=0") == {"gzip": 1.0, "br": 0.8, "*": 0.0}
    assert accepted_codings(" , GZip ; q=0.000") == {"gzip": 0.0}
    assert accepted_codings("br;q=x") == {"br": 0.0}


def test_each_compressed_form_is_the_shipped_file(tmp_path: Path) -> None:
    files = StaticFiles.load(web_dir(tmp_path))
    main = files.assets["js/main.js"]
    assert set(main.encoded) == {"br", "gzip"}
    assert brotli.decompress(main.encoded["br"]) == main.body
    assert gzip.decompress(main.encoded["gzip"]) == main.body
    assert len(main.encoded["br"]) < len(main.body)


def test_scripts_styles_and_json_are_shipped_slim(tmp_path: Path) -> None:
    web = web_dir(tmp_path)
    (web / "js" / "util.js").write_text(
        "/**\n * Doubles.\n * @param {number} x\n */\nexport const twice = (x) => 2 * x; // ok\n"
    )
    (web / "app.css").write_text("/* the page */\nbody { color: red; } /* red */\n")
    (web / "data.json").write_text('{\n  "b": [1, 2],\n  "a": "ä"\n}\n')
    c = client(StaticFiles.load(web))
    script = c.get("/js/util.js", headers={"Accept-Encoding": "identity"}).text
    assert script == "\n\n\n\nexport const twice = (x) => 2 * x;\n"  # same lines, no comments
    style = c.get("/app.css", headers={"Accept-Encoding": "br"}).text
    assert style == "\nbody { color: red; } \n"
    assert c.get("/data.json").content == '{"b":[1,2],"a":"ä"}'.encode()
    assert c.get("/tiny.txt").text == "a"  # other files as they are


def test_pages_and_the_worker_send_no_referer_and_no_client_hints(tmp_path: Path) -> None:
    c = client(StaticFiles.load(web_dir(tmp_path)))
    for name in ("index.html", "sw.js"):
        headers = c.get(f"/{name}").headers
        assert headers["referrer-policy"] == "no-referrer"
        assert headers["permissions-policy"] == "ch-ua=(), ch-ua-mobile=(), ch-ua-platform=()"
    script = c.get("/js/main.js").headers
    assert "referrer-policy" not in script and "permissions-policy" not in script


def test_a_matching_etag_gives_304_and_head_gives_the_length(tmp_path: Path) -> None:
    c = client(StaticFiles.load(web_dir(tmp_path)))
    for accept in ("br", "gzip", "identity"):
        first = c.get("/index.html", headers={"Accept-Encoding": accept})
        etag = first.headers["etag"]
        again = c.get("/index.html", headers={"Accept-Encoding": accept, "If-None-Match": etag})
        assert again.status_code == 304 and again.content == b""
        assert again.headers["etag"] == etag
        head = c.head("/index.html", headers={"Accept-Encoding": accept})
        assert head.content == b""
        assert int(head.headers["content-length"]) == int(first.headers["content-length"])
    gzip_etag = c.get("/index.html", headers={"Accept-Encoding": "gzip"}).headers["etag"]
    other = c.get("/index.html", headers={"Accept-Encoding": "br", "If-None-Match": gzip_etag})
    assert other.status_code == 200  # the gzip ETag names other bytes


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
    assert all(main.digest in main.etag(coding) for coding in ("br", "gzip", None))

    (web / "js" / "main.js").write_text("export const a = 2;\n")
    assert StaticFiles.load(web).version != files.version


def test_the_page_names_its_build_the_version_of_the_worker_that_keeps_it(
    tmp_path: Path,
) -> None:
    web = web_dir(tmp_path)
    meta = '<meta name="ginrummy-build" content="dev">'
    (web / "index.html").write_text(f"<!doctype html><head>{meta}</head><title>x</title>")
    files = StaticFiles.load(web)
    page = client(files).get("/index.html").text
    assert f'<meta name="ginrummy-build" content="{files.version}">' in page
    assert meta not in page
    build = json.loads(
        re.findall(r"^const BUILD = (.*);$", files.assets["sw.js"].body.decode(), re.M)[0]
    )
    assert build["version"] == files.version
    assert build["files"]["/"] == files.assets["index.html"].digest  # the page as named
    # The build is the pages' content: another page is another build.
    (web / "index.html").write_text(f"<!doctype html><head>{meta}</head><title>y</title>")
    assert StaticFiles.load(web).version != files.version


@pytest.mark.parametrize(
    ("name", "text"), [("js/bad.js", "const s = 'open;\n"), ("data.json", "{not json")]
)
def test_a_file_that_cannot_be_shipped_is_named(tmp_path: Path, name: str, text: str) -> None:
    web = web_dir(tmp_path)
    (web / name).write_text(text)
    with pytest.raises(StaticBuildError, match=f"web/{name} cannot be shipped"):
        StaticFiles.load(web)


def test_a_worker_without_a_build_line_is_refused(tmp_path: Path) -> None:
    web = web_dir(tmp_path)
    (web / "sw.js").write_text("self.x = 1;\n")
    with pytest.raises(StaticBuildError, match="const BUILD"):
        StaticFiles.load(web)


def worker_build(files: StaticFiles) -> dict[str, Any]:
    line = re.search(r"^const BUILD = (.*);$", files.assets["sw.js"].body.decode(), re.M)
    assert line is not None
    build: dict[str, Any] = json.loads(line[1])
    return build


def test_the_worker_keeps_the_page_and_solo_play_at_once_the_rest_once_used(
    tmp_path: Path,
) -> None:
    web = web_dir(tmp_path)
    (web / "index.html").write_text(
        '<!doctype html><script type="module" src="/static/js/main.js"></script>'
        '<link rel="modulepreload" href="/static/js/dom.js"><p>hi</p>'
    )
    names = [
        "js/dom.js", "js/device/play.js", "js/engine/round.js", "js/bots/index.js",
        "js/chouette/table.js", "js/fair/page.js", "js/i18n/de.json", "js/i18n/en.json",
    ]  # fmt: skip
    for name in names:
        (web / name).parent.mkdir(parents=True, exist_ok=True)
        (web / name).write_text('{"a": 1}' if name.endswith(".json") else "export {};\n")
    (web / "js" / "types.js").write_text("/** @typedef {number} Seat */\nexport {};\n")
    (web / "verify.html").write_text("<!doctype html><title>verify</title>")
    build = worker_build(StaticFiles.load(web))
    later = {
        "/static/js/chouette/table.js", "/static/js/fair/page.js", "/static/js/i18n/de.json",
        "/static/js/i18n/en.json", "/static/verify.html",
    }  # fmt: skip
    assert set(build["later"]) == later
    at_once = {"/", "/static/js/main.js", "/static/js/dom.js", "/static/js/device/play.js"}
    at_once |= {"/static/js/engine/round.js", "/static/js/bots/index.js"}
    assert set(build["files"]) == at_once | later
    assert "/static/js/types.js" not in build["files"]  # only the type checker reads it


# A module's static imports (as tests/js/offline.test.mjs reads them).
IMPORT = re.compile(r'^\s*(?:import|export)\s[^;]*?\sfrom\s+"(\.[^"]+)"', re.M | re.S)


def imported(start: str) -> set[str]:
    """The modules ``start`` (a path under web/) imports, directly or not, with itself."""
    seen: set[str] = set()
    todo = [start]
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        source = (WEB_DIR / name).read_text()
        todo += [
            posixpath.normpath(posixpath.join(posixpath.dirname(name), m))
            for m in IMPORT.findall(source)
        ]
    return seen


def test_the_real_worker_keeps_at_once_every_module_solo_play_loads() -> None:
    """The page's modules, the game on the device (main.js imports device/play.js after the
    first paint) and the computer players (device/play.js imports bots/index.js)."""
    build = worker_build(StaticFiles.load(WEB_DIR))
    at_once = set(build["files"]) - set(build["later"])
    needed = imported("js/main.js") | imported("js/device/play.js") | imported("js/bots/index.js")
    assert len(needed) > 50
    assert {f"/static/{name}" for name in needed} <= at_once
    assert "/" in at_once and "/static/manifest.webmanifest" in at_once
    assert any(url.startswith("/static/js/i18n/") for url in build["later"])


def test_pages_carry_their_style_sheets_inline_and_the_worker_keeps_no_sheet(
    tmp_path: Path,
) -> None:
    web = web_dir(tmp_path)
    (web / "css").mkdir()
    (web / "css" / "app.css").write_text("/* the look */\nbody { margin: 0; }\n")
    (web / "index.html").write_text(
        '<!doctype html><link rel="stylesheet" href="/static/css/app.css">'
        '<link rel="stylesheet" href="/static/css/gone.css"><p>hi</p>'
    )
    files = StaticFiles.load(web)
    c = client(files)
    page = c.get("/index.html").text
    assert page == (
        "<!doctype html><style>body { margin: 0; }</style>"
        '<link rel="stylesheet" href="/static/css/gone.css"><p>hi</p>'
    )  # a sheet the site lacks stays a link
    assert c.get("/css/app.css").text == "\nbody { margin: 0; }\n"  # still served
    build = json.loads(re.findall(r"^const BUILD = (.*);$", c.get("/sw.js").text, re.M)[0])
    assert "/static/css/app.css" not in build["files"]

    (web / "css" / "app.css").write_text("body { margin: 1px; }\n")  # a new look: a new page
    again = StaticFiles.load(web)
    assert again.assets["index.html"].digest != files.assets["index.html"].digest
    assert again.version != files.version
