"""Configuration: defaults, environment, flags."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from ginrummy.server.main import parse_settings
from ginrummy.server.settings import Settings


def test_defaults_use_sqlite_under_the_data_dir() -> None:
    s = Settings()
    assert s.port == 8000
    assert s.store_url == "sqlite:///data/ginrummy.sqlite3"
    assert s.bot_delay == pytest.approx(0.8)


def test_environment_then_flags() -> None:
    env = {
        "GINRUMMY_DATA_DIR": "/var/lib/gin",
        "GINRUMMY_BOT_DELAY": "0",
        "GINRUMMY_PORT": "9000",
        "GINRUMMY_ALLOWED_ORIGINS": "https://a.example/, https://b.example",
    }
    s = Settings.from_env(env)
    assert s.store_url == "sqlite:////var/lib/gin/ginrummy.sqlite3"
    assert s.bot_delay == 0
    assert s.port == 9000
    assert s.allowed_origins == ("https://a.example", "https://b.example")
    s = parse_settings(["--port", "8123", "--data-dir", "x", "--db", "memory://"], s)
    assert (s.port, s.data_dir, s.store_url) == (8123, Path("x"), "memory://")
    assert Settings.from_env({"DATABASE_URL": "memory://"}).store_url == "memory://"


def test_bad_values_are_refused() -> None:
    with pytest.raises(ValueError, match="GINRUMMY_BOT_DELAY"):
        Settings.from_env({"GINRUMMY_BOT_DELAY": "soon"})
    with pytest.raises(ValueError, match="GINRUMMY_PORT"):
        Settings.from_env({"GINRUMMY_PORT": "eighty"})
    with pytest.raises(SystemExit):
        parse_settings(["--bot-delay", "-1"], Settings())


def test_bus_and_rate_limit_from_the_environment() -> None:
    from ginrummy.server.settings import Settings

    s = Settings.from_env({"REDIS_URL": "redis://127.0.0.1:6379/1", "GINRUMMY_WS_RATE": "50"})
    assert s.bus_url == "redis://127.0.0.1:6379/1"
    assert s.ws_rate == 50.0
    assert Settings.from_env({}).bus_url == "memory://"


def test_quick_confirm_period_from_the_environment() -> None:
    assert Settings().quick_confirm == 5.0
    assert Settings.from_env({"GINRUMMY_QUICK_CONFIRM": "2.5"}).quick_confirm == 2.5
    with pytest.raises(ValueError, match="GINRUMMY_QUICK_CONFIRM"):
        Settings.from_env({"GINRUMMY_QUICK_CONFIRM": "0"})


def test_health_and_readiness(tmp_path: Any) -> None:
    from .helpers import client

    with client(f"sqlite:///{tmp_path / 'r.sqlite3'}") as c:
        assert c.get("/api/health").json() == {"ok": True}
        r = c.get("/api/ready")
        assert r.status_code == 200
        assert r.json() == {"ready": True, "store": "ok", "bus": "ok"}


def test_not_ready_while_the_store_is_down() -> None:
    from ginrummy.server.store import StoreError

    from .helpers import client

    with client() as c:
        store = c.app.state.rooms.store  # type: ignore[attr-defined]

        async def down(token_hash: str) -> bool:
            raise StoreError("connection refused")

        store.has_identity = down
        r = c.get("/api/ready")
        assert r.status_code == 503
        assert r.json()["ready"] is False
        assert r.json()["store"].startswith("unavailable")


def test_an_instance_is_named_by_host_and_port_unless_named() -> None:
    """A restarted server gets the same name, so it takes its own leases back at once."""
    import socket

    s = parse_settings(["--port", "8123"], Settings())
    assert s.instance_id == f"{socket.gethostname()}:8123"
    named = Settings.from_env({"GINRUMMY_INSTANCE_ID": "web-1"})
    assert parse_settings(["--port", "8123"], named).instance_id == "web-1"
