"""The web client's files, read and gzip-compressed once at start-up and served from memory.

Every file gets a strong ETag (a hash of its bytes) and ``Cache-Control: no-cache``: a
browser may keep it but asks again (a 304 when unchanged), so an old file is never mixed
with new ones. The service worker (``/sw.js``, docs/offline.md) is rendered from
``web/sw.js`` with this build's version and the list of files it keeps for offline use.
Nothing is compressed per request.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import logging
import mimetypes
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response

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
}
SERVICE_WORKER = "sw.js"
# The line of web/sw.js that the build replaces (the file stays valid JavaScript).
BUILD_LINE = re.compile(r"^const BUILD = .*;$", re.MULTILINE)
# Files the service worker keeps: the page and what it loads; not the worker itself.
OFFLINE_SUFFIXES = frozenset({".html", ".css", ".js", ".json", ".svg", ".webmanifest"})


class StaticBuildError(ValueError):
    """The web directory cannot be served (the service worker template is malformed)."""


@dataclass(frozen=True, slots=True)
class Asset:
    """One file: its bytes, their gzip form when that is smaller, and its hash."""

    media_type: str
    body: bytes
    gzipped: bytes | None
    digest: str

    @classmethod
    def of(cls, name: str, body: bytes) -> Asset:
        suffix = Path(name).suffix
        media_type = MEDIA_TYPES.get(suffix) or (
            mimetypes.guess_type(name)[0] or "application/octet-stream"
        )
        packed = gzip.compress(body, compresslevel=9, mtime=0) if suffix in COMPRESSIBLE else None
        smaller = packed if packed is not None and len(packed) < len(body) else None
        return cls(media_type, body, smaller, hashlib.sha256(body).hexdigest()[:20])

    def etag(self, gzipped: bool) -> str:
        """Strong ETags differ per encoding: the bytes on the wire differ."""
        return f'"{self.digest}-gz"' if gzipped else f'"{self.digest}"'


@dataclass(frozen=True, slots=True)
class StaticFiles:
    """The files of a web directory by relative path (``js/main.js``), and the build version."""

    assets: Mapping[str, Asset]
    version: str

    @classmethod
    def load(cls, web_dir: Path) -> StaticFiles:
        """Read and compress every file under ``web_dir`` (none: an empty set)."""
        files: dict[str, Asset] = {}
        if web_dir.is_dir():
            for path in sorted(p for p in web_dir.rglob("*") if p.is_file()):
                name = path.relative_to(web_dir).as_posix()
                if name != SERVICE_WORKER and not name.startswith("."):
                    files[name] = Asset.of(name, path.read_bytes())
        version = hashlib.sha256(
            "".join(f"{n}:{a.digest}\n" for n, a in files.items()).encode()
        ).hexdigest()[:16]
        template = web_dir / SERVICE_WORKER
        if template.is_file():
            worker = render_worker(template.read_text(encoding="utf-8"), version, files)
            files[SERVICE_WORKER] = Asset.of(SERVICE_WORKER, worker.encode())
        packed = sum(len(a.gzipped or a.body) for a in files.values())
        log.info("static files: %d, %d bytes compressed, version %s", len(files), packed, version)
        return cls(files, version)

    def response(self, request: Request, name: str) -> Response:
        """The file ``name`` for ``request``: gzip when accepted, 304 when the ETag matches."""
        asset = self.assets.get(name)
        if asset is None:
            return PlainTextResponse("not found", status_code=404)
        gzipped = asset.gzipped is not None and accepts_gzip(request)
        etag = asset.etag(gzipped)
        headers = {"ETag": etag, "Cache-Control": "no-cache"}
        if asset.gzipped is not None:
            headers["Vary"] = "Accept-Encoding"
        if etag in request.headers.get("if-none-match", ""):
            return Response(status_code=304, headers=headers)
        if gzipped:
            headers["Content-Encoding"] = "gzip"
        body = asset.gzipped if gzipped and asset.gzipped is not None else asset.body
        if request.method == "HEAD":
            headers["Content-Length"] = str(len(body))
            return Response(status_code=200, headers=headers, media_type=asset.media_type)
        return Response(body, headers=headers, media_type=asset.media_type)


def accepts_gzip(request: Request) -> bool:
    """Whether Accept-Encoding lists gzip (or ``*``) without ``q=0``."""
    for part in request.headers.get("accept-encoding", "").split(","):
        coding, _, params = part.strip().partition(";")
        if coding.strip().lower() in {"gzip", "*"}:
            quality = params.strip().removeprefix("q=").strip()
            return not (params.strip().startswith("q=") and quality in {"0", "0.0", "0.00"})
    return False


def render_worker(template: str, version: str, files: Mapping[str, Asset]) -> str:
    """``web/sw.js`` with its ``const BUILD = ...;`` line naming this version and its files.

    The page itself is kept under ``/``; every other file under ``/static/<name>`` with the
    ETag the worker checks, so that a file changed during installation fails it.
    """
    offline = {"/": files["index.html"].digest} if "index.html" in files else {}
    for name, asset in files.items():
        if Path(name).suffix in OFFLINE_SUFFIXES and name != "index.html":
            offline[f"/static/{name}"] = asset.digest
    build = json.dumps({"version": version, "files": offline}, separators=(",", ":"))
    rendered, count = BUILD_LINE.subn(lambda _: f"const BUILD = {build};", template, count=1)
    if count != 1:
        raise StaticBuildError("web/sw.js has no line `const BUILD = ...;` to fill in")
    return rendered
