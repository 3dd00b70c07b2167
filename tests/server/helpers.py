"""Helpers of the server tests: an app on a memory or SQLite store, clients, sockets."""

from __future__ import annotations

import json
import secrets
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import anyio
from starlette.testclient import TestClient, WebSocketTestSession

from ginrummy.server.app import create_app
from ginrummy.server.settings import Settings

Message = dict[str, Any]


def settings(db: str = "memory://", **changes: Any) -> Settings:
    base: dict[str, Any] = {
        "database_url": db,
        "bot_delay": 0.0,
        "web_dir": Path("/nonexistent"),
        "ws_rate": 10_000.0,
        "lobby_interval": 0.0,
        # Deal at once with default seeds; tests of the seed exchange set a timeout.
        "seed_timeout": 0.0,
    }
    return Settings(**{**base, **changes})


@contextmanager
def client(db: str = "memory://", **changes: Any) -> Iterator[TestClient]:
    with TestClient(create_app(settings(db, **changes))) as c:
        yield c


def identity(c: TestClient) -> str:
    r = c.post("/api/identity", json={})
    assert r.status_code == 201
    token = r.json()["token"]
    assert isinstance(token, str)
    return token


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def create(c: TestClient, token: str, **body: Any) -> str:
    r = c.post("/api/rooms", json=body, headers=auth(token))
    assert r.status_code == 201, r.text
    room = r.json()["room"]
    assert isinstance(room, str)
    return room


def receive(ws: WebSocketTestSession, timeout: float = 10.0) -> Message:
    """The next server message, failing the test instead of hanging forever."""

    async def get() -> Any:
        with anyio.fail_after(timeout):
            return await ws._send_rx.receive()

    message = ws.portal.call(get)
    if message["type"] == "websocket.close":
        raise AssertionError(f"socket closed: {message}")
    data = json.loads(message["text"])
    assert isinstance(data, dict)
    return data


def receive_until(
    ws: WebSocketTestSession, pred: Callable[[Message], bool], limit: int = 200
) -> Message:
    for _ in range(limit):
        msg = receive(ws)
        if pred(msg):
            return msg
    raise AssertionError("the expected message never came")


def hello(ws: WebSocketTestSession, room: str, token: str | None = None) -> tuple[Message, Message]:
    """Say hello; returns the ``welcome`` and the first ``view`` (the ``chat_history``
    that follows them, and a seat's ``tips``, are read and dropped)."""
    ws.send_json({"type": "hello", "room": room, "token": token})
    welcome = receive(ws)
    assert welcome["type"] == "welcome", welcome
    view = receive(ws)
    assert view["type"] == "view", view
    history = receive(ws)
    assert history["type"] == "chat_history", history
    if welcome["seat"] is not None:
        tips = receive(ws)
        assert tips["type"] == "tips" and tips["on"] is False, tips
    return welcome, view


def between_rounds(view: Message) -> bool:
    """The round of ``view`` is over and the next waits for the seats' ``next_round``."""
    table = view["view"]["table"]
    return bool(table["match_phase"] == "deal" and table["round_phase"] == "over")


def my_turn(
    ws: WebSocketTestSession, view: Message, next_view: Callable[[], Message] | None = None
) -> Message:
    """Wait for this seat's next decision; returns the view message that asks it
    (``next_view``: how the caller reads the next view, if it keeps other frames).

    The computer may end a round before the seat decides anything (as non-dealer it
    can take the first upcard and knock at once): the seat then says it is ready
    for the next round, as a person would, and waits on."""
    if next_view is None:
        next_view = lambda: receive_until(ws, lambda m: m["type"] == "view")  # noqa: E731
    ready_at = None
    while not view["view"]["legal_actions"]:
        assert view["view"]["table"]["match_phase"] != "over", "the match ended first"
        if between_rounds(view) and view["version"] != ready_at:
            ws.send_json({"type": "next_round", "version": view["version"]})
            ready_at = view["version"]
        view = next_view()
    return view


def simple_choice(view: Message) -> str:
    """A plain legal choice for a test player: gin/knock, pass, stock, loose high card."""
    legal: list[str] = view["legal_actions"]
    for prefix in ("big gin", "gin ", "knock "):
        for action in legal:
            if action.startswith(prefix):
                return action
    for plain in ("pass", "draw stock"):
        if plain in legal:
            return plain
    loose = view["arrangement"]["deadwood_cards"]
    order = "A23456789TJQK"
    for card in sorted(loose, key=lambda c: order.index(c[0]), reverse=True):
        if f"discard {card}" in legal:
            return f"discard {card}"
    return legal[0]


# -- rated play counts accounts only (issue 22, part 1) ------------------------------------


def give_account(c: TestClient, token: str, name: str | None = None) -> str:
    """Make ``token``'s identity an account (a passkey of ``softkey.SoftKey``) and return
    the token: rated tables, the quick match and rated tournaments need one. The player
    takes the account's name (a unique made-up one unless ``name`` is given)."""
    from .softkey import SoftKey

    key = SoftKey()
    name = name or f"Acc {secrets.token_hex(4)}"
    r = c.post("/api/account/passkeys/options", json={"name": name}, headers=auth(token))
    assert r.status_code == 200, r.text
    credential = key.create(r.json()["options"])
    r = c.post("/api/account/passkeys", json={"credential": credential}, headers=auth(token))
    assert r.status_code == 201, r.text
    return token


def account(c: TestClient, name: str | None = None) -> str:
    """A new identity with an account (``give_account``): its token."""
    return give_account(c, identity(c), name)
