"""The hello path reads the log once and hashes the token once."""

from __future__ import annotations

import pytest

from ginrummy.server import ws as ws_module
from ginrummy.server.store import StoredRoom

from .helpers import client, create, hello, identity


def test_a_hello_reads_the_log_once_and_hashes_the_token_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    with client() as c:
        token = identity(c)
        room = create(c, token)
        store = c.app.state.rooms.store  # type: ignore[attr-defined]
        reads: list[str] = []
        real_load = store.load_room

        async def load_room(room_id: str, after: int = 0) -> StoredRoom | None:
            reads.append(room_id)
            return await real_load(room_id, after)

        hashes: list[str] = []
        real_hash = ws_module.hash_token

        def hash_token(text: str) -> str:
            hashes.append(text)
            return real_hash(text)

        monkeypatch.setattr(store, "load_room", load_room)
        monkeypatch.setattr(ws_module, "hash_token", hash_token)
        with c.websocket_connect("/ws") as ws:
            welcome, _ = hello(ws, room, token)
            assert welcome["seat"] == "one"
        assert reads == [room]
        assert hashes == [token]
