"""A signed-out device, a closed account or a deleted identity loses its open sockets at
once (close code 4401), on every instance; another device's sockets stay open
(docs/accounts.md, "Devices"; server/sockets/revoke.py)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest
from starlette.testclient import TestClient, WebSocketTestSession

from ginrummy import cli
from ginrummy.server.app import create_app
from ginrummy.server.sockets import SIGNED_OUT

from .helpers import account, auth, client, create, hello, receive, settings
from .test_civility import _operator, _player
from .test_instances import REDIS_URL, _need_redis


def _device(c: TestClient, token: str) -> tuple[str, str]:
    """A second device of ``token``'s account, signed in by a one-time code: its token
    and its device id."""
    code = c.post("/api/account/codes", json={}, headers=auth(token)).json()["code"]
    r = c.post("/api/account/sign-in/code", json={"code": code})
    assert r.status_code == 201, r.text
    answer: dict[str, Any] = r.json()
    return answer["token"], answer["device"]


def _lobby(ws: WebSocketTestSession, token: str) -> None:
    ws.send_json({"type": "hello_lobby", "token": token})
    assert receive(ws)["type"] == "lobby"


def _closed_with(ws: WebSocketTestSession, timeout: float = 10.0) -> tuple[int, str]:
    """The code and reason the server closed ``ws`` with (messages before are dropped)."""

    async def get() -> Any:
        with anyio.fail_after(timeout):
            return await ws._send_rx.receive()

    while True:
        message = ws.portal.call(get)
        if message["type"] == "websocket.close":
            return int(message["code"]), str(message.get("reason") or "")


def _alive(ws: WebSocketTestSession) -> None:
    ws.send_json({"type": "ping", "t": 1})
    while (msg := receive(ws))["type"] != "pong":
        assert msg["type"] not in ("error",), msg


def test_a_signed_out_devices_sockets_close_and_the_other_devices_stay() -> None:
    with client() as c:
        first = account(c, "Anna")
        second, device = _device(c, first)
        room = create(c, first, kind="room")
        with (
            c.websocket_connect("/ws") as kept,
            c.websocket_connect("/ws") as lobby,
            c.websocket_connect("/ws") as watching,
        ):
            _lobby(kept, first)
            _lobby(lobby, second)
            hello(watching, room, second)  # a spectator's socket of the second device
            r = c.request("DELETE", f"/api/account/devices/{device}", json={}, headers=auth(second))
            assert r.status_code == 200, r.text
            assert _closed_with(lobby) == (SIGNED_OUT, "signed out")
            assert _closed_with(watching) == (SIGNED_OUT, "signed out")
            _alive(kept)  # the first device's socket is open still


def test_a_seat_socket_closes_when_its_identity_is_deleted() -> None:
    with client() as c:
        guest = c.post("/api/identity", json={}).json()["token"]
        room = create(c, guest, kind="room")
        with c.websocket_connect("/ws") as seat, c.websocket_connect("/ws") as other:
            welcome, _ = hello(seat, room, guest)
            assert welcome["seat"] == "one"
            _lobby(other, account(c, "Bodo"))
            r = c.post("/api/me/delete", json={"confirm": True}, headers=auth(guest))
            assert r.status_code == 200, r.text
            assert _closed_with(seat)[0] == SIGNED_OUT
            _alive(other)


def test_an_operator_closing_an_account_closes_every_device_socket() -> None:
    with client() as c:
        operator = _operator(c)
        bert = account(c, "Bert")
        second, _ = _device(c, bert)
        with c.websocket_connect("/ws") as one, c.websocket_connect("/ws") as two:
            _lobby(one, bert)
            _lobby(two, second)
            close = {"action": "close", "target": _player(c, bert), "reason": "spam"}
            r = c.post("/api/admin/actions", json=close, headers=auth(operator))
            assert r.status_code == 200, r.text
            assert _closed_with(one)[0] == SIGNED_OUT
            assert _closed_with(two)[0] == SIGNED_OUT


@pytest.fixture
def shared_sqlite(tmp_path: Path) -> Iterator[str]:
    _need_redis()
    yield f"sqlite:///{tmp_path / 'shared.sqlite3'}"


@pytest.mark.system
def test_a_device_signed_out_on_one_instance_loses_its_socket_on_another(
    shared_sqlite: str,
) -> None:
    def instance() -> TestClient:
        return TestClient(create_app(settings(shared_sqlite, bus_url=REDIS_URL)))

    with instance() as a, instance() as b:
        first = account(a, "Anna")
        second, device = _device(a, first)
        with b.websocket_connect("/ws") as kept, b.websocket_connect("/ws") as lobby:
            _lobby(kept, first)
            _lobby(lobby, second)
            r = a.request("DELETE", f"/api/account/devices/{device}", json={}, headers=auth(second))
            assert r.status_code == 200, r.text
            assert _closed_with(lobby) == (SIGNED_OUT, "signed out")
            _alive(kept)


@pytest.mark.system
def test_the_command_lines_close_closes_the_accounts_sockets_on_a_running_instance(
    shared_sqlite: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    with TestClient(create_app(settings(shared_sqlite, bus_url=REDIS_URL))) as c:
        operator = _player(c, account(c, "Opal"))
        bert = account(c, "Bert")
        second, _ = _device(c, bert)
        with (
            c.websocket_connect("/ws") as one,
            c.websocket_connect("/ws") as two,
            c.websocket_connect("/ws") as other,
        ):
            _lobby(one, bert)
            _lobby(two, second)
            _lobby(other, account(c, "Cora"))
            monkeypatch.setenv("GINRUMMY_OPERATORS", operator)
            monkeypatch.setenv("GINRUMMY_BUS", REDIS_URL)
            close = ["close", _player(c, bert), "--reason", "spam"]
            assert cli.main(["admin", "--store", shared_sqlite, "--as", operator, *close]) == 0
            assert _closed_with(one)[0] == SIGNED_OUT
            assert _closed_with(two)[0] == SIGNED_OUT
            _alive(other)
    capsys.readouterr()
