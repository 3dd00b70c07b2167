"""The web client's files, read, slimmed and compressed once at start-up, served from memory.

Each file is shipped in its slim form (server/slim.py: scripts and styles without their
comments, JSON written compactly), precompressed with brotli and with gzip; a request gets
brotli when its Accept-Encoding takes it, else gzip, else the plain bytes. Every file gets
a strong ETag (a hash of its shipped bytes) and ``Cache-Control: no-cache``: a browser may
keep it but asks again (a 304 when unchanged), so an old file is never mixed
with new ones. The service worker (``/sw.js``, docs/offline.md) is rendered from
``web/sw.js`` with this build's version and the list of files it keeps for offline use.
Nothing is compressed per request.
"""

from __future__ import annotations

import functools
import gzip
import hashlib
import json
import logging
import mimetypes
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

import brotli
from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response

from ginrummy.server.site import SITE_FILE, Site
from ginrummy.server.slim import inline_styles, slim

log = logging.getLogger("ginrummy.server.static")

# Text formats worth compressing; images such as PNG are compressed already.
COMPRESSIBLE = frozenset(
    {".html", ".css", ".js", ".mjs", ".json", ".svg", ".webmanifest", ".txt", ".map"}
)
MEDIA_TYPES = {
    ".js": "text/javascript; charset=utf-8",
    ".mjs": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".html": "text/html; charset=utf-8",
    ".json": "application/json",
    ".svg": "image/svg+xml",
    ".webmanifest": "application/manifest+json",
    ".txt": "text/plain; charset=utf-8",
}
SERVICE_WORKER = "sw.js"
# Served at /llms.txt: how the table works, for AI agents (no page loads it; not kept offline).
LLMS_TXT = "llms.txt"
# The line of web/sw.js that the build replaces (the file stays valid JavaScript).
BUILD_LINE = re.compile(r"^const BUILD = .*;$", re.MULTILINE)
# The line of index.html's early script that names the site's languages (js/site.json).
SITE_LINE = re.compile(r"^(\s*)const site = .*;$", re.MULTILINE)
# index.html's meta element that names its build (web/js/offline.js keepOwnBuild).
BUILD_META = re.compile(rb'<meta name="ginrummy-build" content="[^"]*">')
# Files the service worker keeps: the page and what it loads; not the worker itself, and
# not the type definitions that only the type checker reads (no page loads them).
OFFLINE_SUFFIXES = frozenset({".html", ".css", ".js", ".json", ".svg", ".webmanifest"})
NOT_KEPT = frozenset({"js/types.js"})
# A file's ETag and its entry in the worker's list: 64 bits of its SHA-256 tell the
# versions of one file apart as surely as more would, and each hex digit is on a first
# visit's wire about 150 times (every response's ETag, the worker's list).
DIGEST_HEX = 16
# What the worker keeps at install (docs/offline.md): the page, every file it names (its
# modules, all preloaded: tests/js/offline.test.mjs), and the game on the device with the
# computer players, which the page loads after its first paint or on "Play". Every other
# file is kept only once used (the worker's `later`): the languages' messages (the
# browser's is kept at install), the verify page, pages that need the server anyway.
PAGE = "index.html"
SOLO_PLAY = ("js/device/", "js/engine/", "js/bots/")
NAMED = re.compile(r'(?:href|src)="/static/([^"?#]+)"')
# What pages and the worker send with their requests: no Referer and no user-agent client
# hints (nothing here reads them, and they were ~140 bytes on each of a first visit's ~65
# requests: docs/offline.md).
DOCUMENT_HEADERS = {
    "Referrer-Policy": "no-referrer",
    "Permissions-Policy": "ch-ua=(), ch-ua-mobile=(), ch-ua-platform=()",
}


class StaticBuildError(ValueError):
    """The web directory cannot be served (the service worker template is malformed, or a
    script, style or JSON file cannot be read as one)."""


# The content codings the files are precompressed in, the preferred first, and the
# suffix each gives the ETag (other bytes on the wire, so another strong ETag).
CODINGS = {"br": "-br", "gzip": "-gz"}


@dataclass(frozen=True, slots=True)
class Asset:
    """One file: the bytes shipped, their compressed forms that are smaller, and their hash."""

    media_type: str
    body: bytes
    encoded: Mapping[str, bytes]  # by content coding, in the order of CODINGS
    digest: str

    @classmethod
    def of(cls, name: str, source: bytes) -> Asset:
        """The file ``name`` (a path under ``web/``) whose source bytes are ``source``."""
        suffix = Path(name).suffix
        media_type = MEDIA_TYPES.get(suffix) or (
            mimetypes.guess_type(name)[0] or "application/octet-stream"
        )
        try:
            body = slim(name, source)
        except ValueError as exc:  # SlimError, or not UTF-8, or not JSON
            raise StaticBuildError(f"web/{name} cannot be shipped: {exc}") from exc
        encoded = _compressed(body) if suffix in COMPRESSIBLE else {}
        return cls(media_type, body, encoded, hashlib.sha256(body).hexdigest()[:DIGEST_HEX])

    def coding_for(self, accept_encoding: str) -> str | None:
        """The content coding to send for this Accept-Encoding (None: the plain bytes)."""
        quality = accepted_codings(accept_encoding)
        for coding in self.encoded:
            if quality.get(coding, quality.get("*", 0.0)) > 0:
                return coding
        return None

    def etag(self, coding: str | None) -> str:
        """Strong ETags differ per encoding: the bytes on the wire differ."""
        return f'"{self.digest}{CODINGS[coding]}"' if coding else f'"{self.digest}"'


@functools.lru_cache(maxsize=1024)
def _compressed(body: bytes) -> dict[str, bytes]:
    """The forms of ``body`` smaller than itself; kept per process (tests load many apps)."""
    forms = {
        "br": brotli.compress(body, quality=11),
        "gzip": gzip.compress(body, compresslevel=9, mtime=0),
    }
    return {coding: packed for coding, packed in forms.items() if len(packed) < len(body)}


@dataclass(frozen=True, slots=True)
class StaticFiles:
    """The files of a web directory by relative path (``js/main.js``), and the build version."""

    assets: Mapping[str, Asset]
    version: str
    site: Site

    @classmethod
    def load(cls, web_dir: Path) -> StaticFiles:
        """Read and compress every file under ``web_dir`` (none: an empty set)."""
        sources: dict[str, bytes] = {}
        if web_dir.is_dir():
            for path in sorted(p for p in web_dir.rglob("*") if p.is_file()):
                name = path.relative_to(web_dir).as_posix()
                if name != SERVICE_WORKER and not name.startswith("."):
                    sources[name] = path.read_bytes()
        site = Site.load(web_dir if SITE_FILE in sources else None)
        if PAGE in sources:
            sources[PAGE] = with_site(sources[PAGE], site)
        # Pages carry their style sheets inline (server/slim.py): drawn without waiting
        # for another request. A sheet inlined is still served, but no page needs it kept.
        inlined: set[str] = set()
        for name in [n for n in sources if n.endswith(".html")]:
            sources[name], sheets = inline_styles(sources[name], sources)
            inlined |= sheets
        files = {name: Asset.of(name, source) for name, source in sources.items()}
        version = hashlib.sha256(
            "".join(f"{n}:{a.digest}\n" for n, a in files.items()).encode()
        ).hexdigest()[:16]
        if PAGE in files:
            # The page names its build, the version of the worker that keeps it: a page
            # that a worker of another build comes to serve reloads (docs/offline.md).
            files[PAGE] = Asset.of(PAGE, with_build(sources[PAGE], version))
        template = web_dir / SERVICE_WORKER
        if template.is_file():
            kept = {n: a for n, a in files.items() if n not in inlined}
            worker = render_worker(template.read_text(encoding="utf-8"), version, kept, site)
            files[SERVICE_WORKER] = Asset.of(SERVICE_WORKER, worker.encode())
        packed = sum(len(next(iter(a.encoded.values()), a.body)) for a in files.values())
        log.info("static files: %d, %d bytes compressed, version %s", len(files), packed, version)
        return cls(files, version, site)

    def response(self, request: Request, name: str, status_code: int = 200) -> Response:
        """The file ``name`` for ``request``: brotli or gzip when accepted, 304 when the ETag
        matches. With another ``status_code`` (the page as the answer to a path of no
        page: 404) it is always sent whole, never 304."""
        asset = self.assets.get(name)
        if asset is None:
            return PlainTextResponse("not found", status_code=404)
        coding = asset.coding_for(request.headers.get("accept-encoding", ""))
        etag = asset.etag(coding)
        headers = {"ETag": etag, "Cache-Control": "no-cache"}
        if name == SERVICE_WORKER or asset.media_type.startswith("text/html"):
            headers.update(DOCUMENT_HEADERS)
        if asset.encoded:
            headers["Vary"] = "Accept-Encoding"
        if status_code == 200 and etag in request.headers.get("if-none-match", ""):
            return Response(status_code=304, headers=headers)
        body = asset.body
        if coding:
            headers["Content-Encoding"] = coding
            body = asset.encoded[coding]
        if request.method == "HEAD":
            headers["Content-Length"] = str(len(body))
            return Response(status_code=status_code, headers=headers, media_type=asset.media_type)
        return Response(body, status_code=status_code, headers=headers, media_type=asset.media_type)


def accepted_codings(header: str) -> dict[str, float]:
    """Each coding an Accept-Encoding header names, with its quality (1 when not given;
    0, refused, when malformed). ``*`` stands for every coding not named."""
    quality: dict[str, float] = {}
    for part in header.split(","):
        coding, *params = (p.strip() for p in part.split(";"))
        if not coding:
            continue
        given = [p.partition("=")[2].strip() for p in params if p.lower().startswith("q=")]
        try:
            quality[coding.lower()] = float(given[0]) if given else 1.0
        except ValueError:
            quality[coding.lower()] = 0.0
    return quality


def with_site(page: bytes, site: Site) -> bytes:
    """``index.html`` with its early script's ``const site = ...;`` line naming the site's
    languages (the page's first request is its language's messages, before any module);
    a page without that line as it is."""
    known = json.dumps({"languages": list(site.languages), "fallback": site.fallback_language})
    text, count = SITE_LINE.subn(
        lambda m: f"{m.group(1)}const site = {known};", page.decode("utf-8"), count=1
    )
    return text.encode("utf-8") if count else page


def with_build(page: bytes, version: str) -> bytes:
    """``index.html`` with its ``ginrummy-build`` meta element naming ``version`` (the
    build is a hash of every file, this one as it is before: the page can name it); a
    page without that element as it is."""
    meta = f'<meta name="ginrummy-build" content="{version}">'.encode()
    return BUILD_META.sub(lambda _: meta, page, count=1)


def render_worker(
    template: str, version: str, files: Mapping[str, Asset], site: Site | None = None
) -> str:
    """``web/sw.js`` with its ``const BUILD = ...;`` line naming this version, its files and
    the page's routes (js/site.json: each is the one page, kept under ``/``).

    The page itself is kept under ``/``; every other file under ``/static/<name>`` with the
    ETag the worker checks, so that a file changed during installation fails it. ``later``
    lists the files kept only once used (all but the page, what it names, ``SOLO_PLAY`` and
    the site's routes and languages, ``js/site.json``, which the page's modules import).
    """
    offline = {"/": files[PAGE].digest} if PAGE in files else {}
    named = set(NAMED.findall(files[PAGE].body.decode("utf-8"))) if PAGE in files else set()
    later: list[str] = []
    for name, asset in files.items():
        if Path(name).suffix in OFFLINE_SUFFIXES and name not in {PAGE, *NOT_KEPT}:
            offline[f"/static/{name}"] = asset.digest
            if name not in named and name != SITE_FILE and not name.startswith(SOLO_PLAY):
                later.append(f"/static/{name}")
    routes = (site or Site.load()).worker_routes()
    build = json.dumps(
        {
            "version": version,
            "files": offline,
            "later": later,
            "routes": routes,
            "fallback": (site or Site.load()).fallback_language,
        },
        separators=(",", ":"),
    )
    rendered, count = BUILD_LINE.subn(lambda _: f"const BUILD = {build};", template, count=1)
    if count != 1:
        raise StaticBuildError("web/sw.js has no line `const BUILD = ...;` to fill in")
    return rendered
