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


def test_metrics_are_off_unless_a_token_or_operator_networks_are_set(tmp_path: Path) -> None:
    assert not Settings.from_env({}).metrics_on
    env = {
        "GINRUMMY_METRICS_TOKEN": " operator-token-0123456789 ",
        "GINRUMMY_METRICS_ALLOW": "10.0.0.0/8, ::1",
        "GINRUMMY_LIMIT_SCRAPES": "5",
    }
    s = Settings.from_env(env)
    assert s.metrics_on and s.metrics_token == "operator-token-0123456789"
    assert [str(n) for n in s.metrics_allow] == ["10.0.0.0/8", "::1/128"]
    assert s.limit_scrapes == 5
    assert Settings.from_env({"GINRUMMY_METRICS_ALLOW": "127.0.0.1"}).metrics_on
    # flags: the token from a file (out of the process list), the networks as a list
    path = tmp_path / "token"
    path.write_text("file-token-0123456789abcdef\n")
    s = parse_settings(["--metrics-token-file", str(path), "--metrics-allow", "192.0.2.0/24"], s)
    assert s.metrics_token == "file-token-0123456789abcdef"
    assert [str(n) for n in s.metrics_allow] == ["192.0.2.0/24"]
    kept = parse_settings([], Settings.from_env(env))  # no flag: the environment stays
    assert kept.metrics_token == "operator-token-0123456789" and len(kept.metrics_allow) == 2


def test_weak_tokens_and_bad_networks_are_refused(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="GINRUMMY_METRICS_TOKEN"):
        Settings.from_env({"GINRUMMY_METRICS_TOKEN": "short"})
    with pytest.raises(ValueError, match="GINRUMMY_METRICS_ALLOW"):
        Settings.from_env({"GINRUMMY_METRICS_ALLOW": "10.0.0.0/8, intranet"})
    with pytest.raises(ValueError, match="--metrics-allow"):
        parse_settings(["--metrics-allow", "10.0.0.300"], Settings())
    path = tmp_path / "token"
    path.write_text("two words and more than sixteen")
    with pytest.raises(ValueError, match="--metrics-token-file"):
        parse_settings(["--metrics-token-file", str(path)], Settings())
    with pytest.raises(SystemExit):
        parse_settings(["--metrics-token-file", str(tmp_path / "missing")], Settings())
