"""``ginrummy serve``: parse flags over the environment, then run uvicorn."""

from __future__ import annotations

import argparse
import gc
import logging
import socket
import sys
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ginrummy.server import flags
from ginrummy.server.access import HANDSHAKES
from ginrummy.server.logformat import LOG_FORMATS, configure_logging
from ginrummy.server.settings import (
    WS_MAX_BYTES,
    Settings,
    metrics_token,
    parse_networks,
    parse_origins,
)

if TYPE_CHECKING:
    import uvicorn
    from starlette.applications import Starlette


def parse_settings(argv: list[str], base: Settings) -> Settings:
    parser = argparse.ArgumentParser(
        prog="ginrummy serve",
        description="Run the Gin Rummy web server (docs/operations.md). Every option has an "
        "environment variable; a flag wins over its variable, which wins over the default.",
        epilog=EPILOG,
    )
    parser.add_argument(
        "--host", default=base.host, help=f"interface (default {base.host}; env GINRUMMY_HOST)"
    )
    parser.add_argument(
        "--port", type=int, default=base.port, help=f"port (default {base.port}; env GINRUMMY_PORT)"
    )
    parser.add_argument(
        "--data-dir",
        type=Path,
        default=base.data_dir,
        help=f"directory of the SQLite file (default {base.data_dir}; env GINRUMMY_DATA_DIR)",
    )
    parser.add_argument(
        "--db",
        default=base.database_url,
        help="store URL: sqlite:///path/file.sqlite3, postgresql://... or memory:// (default "
        "none: the SQLite file under --data-dir; env GINRUMMY_DB or DATABASE_URL)",
    )
    parser.add_argument(
        "--redis",
        default=base.bus_url,
        help="room event bus: memory:// (one process) or redis://host:6379/0 to run several "
        f"instances (default {base.bus_url}; env REDIS_URL or GINRUMMY_BUS)",
    )
    parser.add_argument(
        "--bot-delay",
        type=float,
        default=base.bot_delay,
        help=f"seconds before a computer move (default {base.bot_delay}; env GINRUMMY_BOT_DELAY)",
    )
    parser.add_argument(
        "--allowed-origins",
        default=",".join(base.allowed_origins),
        help="extra WebSocket origins, comma-separated (default none; env "
        "GINRUMMY_ALLOWED_ORIGINS)",
    )
    parser.add_argument(
        "--log-level",
        default=base.log_level,
        choices=["debug", "info", "warning", "error"],
        help=f"log level (default {base.log_level}; env GINRUMMY_LOG_LEVEL)",
    )
    _add_log_flags(parser, base)
    _add_metrics_flags(parser, base)
    flags.add_tuning(parser, base)
    args = parser.parse_args(argv)
    if not 0 <= args.bot_delay <= 60:
        parser.error("--bot-delay must be between 0 and 60 seconds")
    settings = replace(
        base,
        host=args.host,
        port=args.port,
        # Stable across restarts: a server killed and started again on the same host
        # and port takes its rooms' leases back at once instead of waiting them out.
        instance_id=base.instance_id or f"{socket.gethostname()}:{args.port}",
        data_dir=args.data_dir,
        database_url=args.db or None,
        bus_url=args.redis or "memory://",
        bot_delay=args.bot_delay,
        allowed_origins=parse_origins(args.allowed_origins),
        log_level=args.log_level,
        log_format=args.log_format,
        access_log=args.access_log,
        **_metrics_access(parser, args, base),
    )
    return flags.tuned(parser, args, settings)


EPILOG = (
    "environment only: GINRUMMY_TEST_CLOCK=1 gives a hand-moved clock and POST "
    "/api/test/clock, for browser tests; never in production (default off)."
)


def _add_metrics_flags(parser: argparse.ArgumentParser, base: Settings) -> None:
    parser.add_argument(
        "--metrics-token-file",
        type=Path,
        default=None,
        help="file holding the operator token that GET /metrics asks for as 'Authorization: "
        "Bearer <token>' (kept out of the process list; default none, env "
        "GINRUMMY_METRICS_TOKEN holds the token itself); metrics are off unless this or "
        "--metrics-allow is set",
    )
    parser.add_argument(
        "--metrics-allow",
        default=",".join(str(n) for n in base.metrics_allow),
        help="addresses or networks that may scrape GET /metrics, comma-separated, e.g. "
        "10.0.0.0/8,127.0.0.1 (default none; env GINRUMMY_METRICS_ALLOW)",
    )


def _metrics_access(
    parser: argparse.ArgumentParser, args: argparse.Namespace, base: Settings
) -> dict[str, Any]:
    """Who may scrape GET /metrics: the token (from its file) and the networks."""
    token = base.metrics_token
    if args.metrics_token_file is not None:
        try:
            text = args.metrics_token_file.read_text(encoding="utf-8")
        except OSError as exc:
            parser.error(f"--metrics-token-file: {exc}")
        token = metrics_token("--metrics-token-file", text)
    allow = parse_networks("--metrics-allow", args.metrics_allow)
    return {"metrics_token": token, "metrics_allow": allow}


def _add_log_flags(parser: argparse.ArgumentParser, base: Settings) -> None:
    parser.add_argument(
        "--log-format",
        default=base.log_format,
        choices=LOG_FORMATS,
        help="text, or json: one JSON object a line (default "
        f"{base.log_format}; env GINRUMMY_LOG_FORMAT)",
    )
    parser.add_argument(
        "--access-log",
        action=argparse.BooleanOptionalAction,
        default=base.access_log,
        help="a line per HTTP request and WebSocket handshake, or none (default "
        f"{'on' if base.access_log else 'off'}; env GINRUMMY_ACCESS_LOG=1 or 0)",
    )


def main(argv: list[str]) -> int:
    try:
        settings = parse_settings(argv, Settings.from_env())
    except ValueError as exc:
        print(f"ginrummy serve: {exc}", file=sys.stderr)
        return 2
    from ginrummy.server.app import create_app
    from ginrummy.server.drain import DrainingServer, drain_of

    configure_logging(settings.log_format, settings.log_level)
    app = create_app(settings)
    config = uvicorn_config(app, settings.host, settings.port, settings.log_level)
    tune_gc()
    DrainingServer(config, drain_of(app)).run()  # SIGTERM drains first (server/drain.py)
    return 0


def uvicorn_config(app: Starlette, host: str, port: int, log_level: str) -> uvicorn.Config:
    """How uvicorn runs the app (the tests' live server runs it so too)."""
    import uvicorn

    from ginrummy.server.protocols import WebSocketProtocol, http_protocol
    from ginrummy.server.ratelimit import of_app

    logging.getLogger("uvicorn.error").addFilter(HANDSHAKES)
    return uvicorn.Config(
        app,
        host=host,
        port=port,
        log_level=log_level,
        ws_max_size=WS_MAX_BYTES,
        # Compressing every ~2 KB view cost a tenth of the server's CPU under load
        # (bench/RESULTS.md); views are small, so they go uncompressed.
        ws_per_message_deflate=False,
        # "server: uvicorn" tells a browser nothing and an attacker what runs here; on a
        # first visit's responses it was ~1 KB of the 150 KB budget (docs/offline.md).
        # The Date header stays: HTTP requires it of a server with a clock.
        server_header=False,
        lifespan="on",
        # The logging tree is the server's (logformat.configure_logging), uvicorn's
        # loggers included; its access lines, with their query strings, are replaced by
        # the app's own access log (server/access.py).
        log_config=None,
        access_log=False,
        # uvicorn's own, without the reference cycles that outlive a WebSocket; the HTTP
        # one refuses a socket over the app's per-address cap before the upgrade.
        http=http_protocol(of_app(app).sockets),
        ws=WebSocketProtocol,
    )


GC_THRESHOLDS = (50_000, 20, 10)


def tune_gc() -> None:
    """Fewer, larger garbage collections. With the default thresholds a loaded server
    ran a collection every few hundred frames and paused whole seconds in full ones
    that freed nothing (bench/RESULTS.md); what exists at start-up is never garbage."""
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)
