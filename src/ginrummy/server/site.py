"""The site's routes and languages, from their one source: ``web/js/site.json``.

The server reads it at start-up: it serves the page at every route (server/app.py), tells
the service worker which paths are the page (``web/sw.js``'s ``BUILD``) and the page's
early script which languages there are (``index.html``), both filled in by
server/static.py; the page itself imports the file (web/js/routes.js, web/js/i18n.js).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

SITE_FILE = "js/site.json"
# The package's own client: the routes when a server runs without one (tests, or a web
# directory of another build without the file).
PACKAGE_WEB = Path(__file__).resolve().parent.parent / "web"


class SiteError(ValueError):
    """``web/js/site.json`` is missing a part or has one of the wrong shape."""


@dataclass(frozen=True, slots=True)
class PageRoute:
    """One route of the page: its page's name and its path, ``{name}`` a path segment."""

    page: str
    path: str
    values: tuple[tuple[str, tuple[str, ...]], ...] = ()  # the values a parameter may take


@dataclass(frozen=True, slots=True)
class Site:
    """The site's languages (codes, in the switch's order), the one spoken when the browser
    speaks none of them, and the page's routes."""

    languages: tuple[str, ...]
    fallback_language: str
    routes: tuple[PageRoute, ...]

    @classmethod
    def load(cls, web_dir: Path | None = None) -> Site:
        """The site of ``web_dir`` (its ``js/site.json``), else the package's own."""
        path = web_dir / SITE_FILE if web_dir is not None else None
        if path is None or not path.is_file():
            path = PACKAGE_WEB / SITE_FILE
        try:
            return cls.parse(json.loads(path.read_text(encoding="utf-8")))
        except (OSError, ValueError) as exc:
            raise SiteError(f"{path} cannot be read: {exc}") from exc

    @classmethod
    def parse(cls, data: Any) -> Site:
        """The site of the decoded JSON ``data``."""
        try:
            languages = tuple(str(lang["code"]) for lang in data["languages"])
            fallback = str(data["fallback_language"])
            routes = tuple(
                PageRoute(
                    str(r["page"]),
                    str(r["path"]),
                    tuple((k, tuple(map(str, v))) for k, v in r.get("values", {}).items()),
                )
                for r in data["routes"]
            )
        except (KeyError, TypeError, AttributeError) as exc:
            raise SiteError(f"site.json: {exc!r}") from exc
        if fallback not in languages:
            raise SiteError(f"site.json: the fallback language {fallback} is not in {languages}")
        if not all(r.path.startswith("/") for r in routes):
            raise SiteError("site.json: every route's path starts with /")
        return cls(languages, fallback, routes)

    def worker_routes(self) -> list[dict[str, Any]]:
        """The routes as the service worker reads them (``BUILD.routes``, web/sw.js)."""
        return [
            {"path": r.path, **({"values": dict(r.values)} if r.values else {})}
            for r in self.routes
        ]
