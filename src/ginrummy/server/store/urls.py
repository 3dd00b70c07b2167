"""Store URLs: which store a URL names and what its parts say (no driver is imported here).

>>> scheme_of("PostgreSQL://u@h/db")
'postgresql'
>>> sqlite_path("sqlite:///data/ginrummy.sqlite3").as_posix()
'data/ginrummy.sqlite3'
>>> postgres_parts("postgres://u:pw@h:5433/db?search_path=s&sslmode=disable")
('postgresql://u:pw@h:5433/db?sslmode=disable', 's')
>>> redacted("postgresql://u:pw@h:5433/db")
'h:5433/db'
"""

from __future__ import annotations

from pathlib import Path
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

POSTGRES_SCHEMES = ("postgresql", "postgres")


def scheme_of(url: str) -> str:
    """The URL's scheme in lower case: ``memory``, ``sqlite``, ``postgresql``..."""
    return url.split(":", 1)[0].lower()


def sqlite_path(url: str) -> Path:
    """``sqlite:///relative/file.db`` or ``sqlite:////absolute/file.db`` -> a path."""
    prefix = "sqlite:///"
    if not url.startswith(prefix) or len(url) == len(prefix):
        raise ValueError(f"a SQLite URL looks like sqlite:///data/ginrummy.sqlite3, got {url!r}")
    return Path(url[len(prefix) :])


def postgres_parts(url: str) -> tuple[str, str | None]:
    """``postgres[ql]://...?search_path=s`` -> (the URL without it, ``s`` or None)."""
    parts = urlsplit(url)
    if parts.scheme not in POSTGRES_SCHEMES:
        raise ValueError(f"a PostgreSQL URL starts with postgresql://, got {url!r}")
    query = parse_qsl(parts.query, keep_blank_values=True)
    search_path = next((v for k, v in query if k == "search_path"), None)
    rest = urlencode([(k, v) for k, v in query if k != "search_path"])
    return urlunsplit(parts._replace(scheme="postgresql", query=rest)), search_path


def redacted(url: str) -> str:
    """Host, port and database of a server URL, for messages: never its password."""
    parts = urlsplit(url)
    host = parts.hostname or "localhost"
    port = f":{parts.port}" if parts.port else ""
    return f"{host}{port}{parts.path}"
