"""How the server's log lines are written to stderr: as text (the default) or one JSON
object a line, the same for ginrummy's loggers and uvicorn's (docs/operations.md, "Logs").
"""

from __future__ import annotations

import json
import logging
import sys
from datetime import UTC, datetime
from typing import Any, Literal, TextIO

from ginrummy.server.logcontext import NAMES, ContextFilter

LogFormat = Literal["text", "json"]
LOG_FORMATS: tuple[LogFormat, ...] = ("text", "json")

TEXT_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"

ACCESS_FIELDS = ("method", "path", "status", "duration_ms")
"""What an access log line (``server/access.py``) says besides its message."""


class JsonFormatter(logging.Formatter):
    """One JSON object a line: ``time`` (ISO 8601, UTC), ``level``, ``logger``,
    ``message``; ``request_id``, ``room`` and ``seat`` where there is one (from
    ``ContextFilter``); an access line's fields; ``exc``: an exception's traceback.

    >>> record = logging.makeLogRecord({"name": "x", "levelname": "INFO", "msg": "hi",
    ...                                 "created": 0.0, "room": "ab12"})
    >>> json.loads(JsonFormatter().format(record))  # doctest: +NORMALIZE_WHITESPACE
    {'time': '1970-01-01T00:00:00.000Z', 'level': 'INFO', 'logger': 'x', 'message': 'hi',
     'room': 'ab12'}
    """

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "time": _iso_utc(record.created),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        for name in (*NAMES, *ACCESS_FIELDS):
            value = getattr(record, name, None)
            if value is not None:
                line[name] = value
        if record.exc_info:
            line["exc"] = self.formatException(record.exc_info)
        elif record.exc_text:
            line["exc"] = record.exc_text
        if record.stack_info:
            line["stack"] = self.formatStack(record.stack_info)
        return json.dumps(line, ensure_ascii=False, default=str)


def _iso_utc(created: float) -> str:
    moment = datetime.fromtimestamp(created, tz=UTC)
    return moment.isoformat(timespec="milliseconds").replace("+00:00", "Z")


def log_handler(log_format: LogFormat, stream: TextIO | None = None) -> logging.Handler:
    """A handler writing lines of ``log_format``, context fields included, to ``stream``
    (None: stderr)."""
    handler = logging.StreamHandler(sys.stderr if stream is None else stream)
    handler.setFormatter(
        JsonFormatter() if log_format == "json" else logging.Formatter(TEXT_FORMAT)
    )
    handler.addFilter(ContextFilter())
    return handler


def configure_logging(log_format: LogFormat, level: str, stream: TextIO | None = None) -> None:
    """Every logger, uvicorn's included, writes through one handler on the root logger
    (uvicorn is then started with ``log_config=None``: it configures nothing itself)."""
    handler = log_handler(log_format, stream)
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(level.upper())
    for name in ("uvicorn", "uvicorn.error", "uvicorn.access"):
        uvicorn_logger = logging.getLogger(name)
        for old in list(uvicorn_logger.handlers):
            uvicorn_logger.removeHandler(old)
        uvicorn_logger.propagate = True
