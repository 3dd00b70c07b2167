"""PostgreSQL goes away mid-game: no move is acknowledged, the client is told the game
is temporarily unavailable, and play goes on when the database is back.

With ``CI=true`` a missing PostgreSQL fails the run (``need_postgres``).
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any
from urllib.parse import urlsplit

import pytest

from .helpers import auth, client, create, hello, receive, simple_choice
from .test_postgres import _Proxy, _query, fresh_schema
from .test_restart import _play_until_my_turn

# A server, a service or a bench: the system layer (tests/conftest.py).
pytestmark = pytest.mark.system


@contextmanager
def relay(url: str) -> Iterator[tuple[str, Any, Any]]:
    """A cuttable TCP relay to the database, on its own event loop in a thread."""
    parts = urlsplit(url)
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()
    proxy = _Proxy(parts.hostname or "127.0.0.1", parts.port or 5432)

    def run(coro: Any) -> None:
        asyncio.run_coroutine_threadsafe(coro, loop).result(timeout=10)

    run(proxy.start())
    via = url.replace(parts.netloc, f"{parts.username}@127.0.0.1:{proxy.port}")
    try:
        yield via, (lambda: run(proxy.stop())), (lambda: run(proxy.start()))
    finally:
        if proxy._server is not None and proxy._server.is_serving():
            run(proxy.stop())
        loop.call_soon_threadsafe(loop.stop)
        thread.join(timeout=5)
        loop.close()


def test_a_database_outage_acknowledges_nothing_and_play_resumes() -> None:
    with fresh_schema() as db, relay(db) as (via, cut, restore), client(via) as c:
        token = c.post("/api/identity", json={}).json()["token"]
        room = create(c, token, kind="solo", opponent="bot:random")
        with c.websocket_connect("/ws") as ws:
            _, view = hello(ws, room, token)
            latest = _play_until_my_turn(ws, view, moves=2)
            assert latest["view"]["legal_actions"], "the round ended before the test could act"
            version = latest["version"]
            action = simple_choice(latest["view"])

            cut()
            ws.send_json({"type": "act", "version": version, "action": action})
            msg = receive(ws)
            assert msg["type"] == "error", msg
            assert msg["code"] == "unavailable"
            assert "try again" in msg["message"]
            ready = c.get("/api/ready")
            assert ready.status_code == 503
            assert ready.json()["store"].startswith("unavailable")

            restore()
            assert c.get("/api/ready").status_code == 200
            # The same move on the same version: it was never acknowledged, so it
            # applies now, exactly once.
            ws.send_json({"type": "act", "version": version, "action": action})
            msg = receive(ws)
            while msg["type"] != "event":
                assert msg["type"] != "error", msg
                msg = receive(ws)
            assert msg["version"] == version + 1
        info = c.get(f"/api/rooms/{room}", headers=auth(token)).json()
        assert info["version"] >= version + 1


def test_the_log_holds_the_move_once() -> None:
    with fresh_schema() as db, relay(db) as (via, cut, restore):
        with client(via) as c:
            token = c.post("/api/identity", json={}).json()["token"]
            room = create(c, token, kind="solo", opponent="bot:random")
            with c.websocket_connect("/ws") as ws:
                _, view = hello(ws, room, token)
                latest = _play_until_my_turn(ws, view, moves=1)
                version = latest["version"]
                action = simple_choice(latest["view"])
                cut()
                ws.send_json({"type": "act", "version": version, "action": action})
                assert receive(ws)["code"] == "unavailable"
                restore()
                ws.send_json({"type": "act", "version": version, "action": action})
                msg = receive(ws)
                while msg["type"] != "event":
                    msg = receive(ws)
        rows = _query(
            db,
            f"SELECT seq, kind FROM events WHERE room = '{room}' AND seq = {version + 1}",
        )
        assert rows == [(version + 1, "action")]
