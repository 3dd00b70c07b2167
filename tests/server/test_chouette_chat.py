"""A chouette team's chat is kept in the store (docs/protocol.md, "Chouette rooms"): a
team member who reloads, a server restart and a socket on another instance all show the
team its history; the box and spectators never receive it; the room's chat stays apart."""

from __future__ import annotations

from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from ginrummy.server.app import create_app

from .chouette_table import Table, chouette_hello, fix_draw, join, join_all, open_table
from .helpers import Message, client, settings

BOX, CAPTAIN, PARTNER = 1, 2, 0  # the draw below: 2c (position 0), Ks (1), 3d (2)
DRAW = "2c Ks 3d"


def _histories(c: TestClient, room: str, key: Any, token: str | None) -> dict[str, list[str]]:
    """The history frames a fresh socket of ``key`` gets after its hello: each kind's
    texts (a reload)."""
    with c.websocket_connect("/ws") as ws:
        first = chouette_hello(ws, room, token)
    assert first[1]["view"]["position"] == (None if key == "spectator" else key)
    return {
        m["type"]: [line["text"] for line in m["messages"]]
        for m in first
        if m["type"] in ("chat_history", "team_chat_history")
    }


def _say(table: Table, key: Any, kind: str, text: str, readers: list[Any]) -> None:
    """``key`` says ``text`` (a ``chat`` or ``team_chat``); each of ``readers`` gets it."""
    table.sockets[key].send_json({"type": kind, "text": text})
    for reader in readers:
        got = table.read_until_frame(reader, lambda m: m["type"] == kind)
        assert got["message"]["text"] == text


def _never_sent(table: Table, key: Any, text: str) -> None:
    leaked: list[Message] = [f for f in table.frames[key] if text in str(f)]
    assert not leaked, f"{key} got {leaked}"


def test_the_team_chat_survives_a_reload_and_a_restart(tmp_path: Path, monkeypatch: Any) -> None:
    fix_draw(monkeypatch, DRAW)
    db = f"sqlite:///{tmp_path / 'game.sqlite3'}"
    with client(db) as c:
        room, token = open_table(c, ["me", "friend", "friend"], target_score=50)
        tokens = join_all(c, room, token, 2)
        table = Table(room)
        with ExitStack() as stack:
            for key, tok in [*sorted(tokens.items()), ("spectator", None)]:
                table.sit(key, stack.enter_context(c.websocket_connect("/ws")), tok)
            chouette = table.latest[0]["view"]["chouette"]
            assert (chouette["box"], chouette["captain"]) == (BOX, CAPTAIN)
            _say(table, PARTNER, "team_chat", "knock early", [PARTNER, CAPTAIN])
            _say(table, CAPTAIN, "team_chat", "agreed", [PARTNER, CAPTAIN])
            _say(table, BOX, "chat", "good luck", [PARTNER, CAPTAIN, BOX, "spectator"])
            # A reload on this instance: the team's history for the team only.
            assert _histories(c, room, PARTNER, tokens[PARTNER]) == {
                "chat_history": ["good luck"],
                "team_chat_history": ["knock early", "agreed"],
            }
            assert _histories(c, room, BOX, tokens[BOX]) == {"chat_history": ["good luck"]}
            for key in (BOX, "spectator"):  # their frames up to "good luck", said after
                for text in ("knock early", "agreed"):
                    _never_sent(table, key, text)
    with client(db) as c:  # a restart: the history comes from the SQLite file
        for key in (PARTNER, CAPTAIN):
            assert _histories(c, room, key, tokens[key])["team_chat_history"] == [
                "knock early",
                "agreed",
            ]
        assert _histories(c, room, BOX, tokens[BOX]) == {"chat_history": ["good luck"]}
        assert _histories(c, room, "spectator", None) == {"chat_history": ["good luck"]}


@pytest.mark.system  # Redis
def test_two_instances_share_the_team_chat(tmp_path: Path, monkeypatch: Any) -> None:
    """The partner talks through instance A; the captain, on instance B, gets the message
    at once and in the history of a new socket there; the box on B never does."""
    from .test_instances import REDIS_URL, _need_redis

    _need_redis()
    fix_draw(monkeypatch, DRAW)
    db = f"sqlite:///{tmp_path / 'shared.sqlite3'}"
    with (
        TestClient(create_app(settings(db, bus_url=REDIS_URL))) as a,
        TestClient(create_app(settings(db, bus_url=REDIS_URL))) as b,
    ):
        room, token = open_table(a, ["me", "friend", "friend"], target_score=50)
        tokens = {PARTNER: token}
        for _ in range(2):
            joined, position = join(b, room)
            tokens[position] = joined
        table = Table(room)
        sockets = (a.websocket_connect("/ws"), b.websocket_connect("/ws"))
        with sockets[0] as wa, sockets[1] as wb1, b.websocket_connect("/ws") as wb2:
            table.sit(PARTNER, wa, tokens[PARTNER])
            table.sit(CAPTAIN, wb1, tokens[CAPTAIN])
            table.sit(BOX, wb2, tokens[BOX])
            _say(table, PARTNER, "team_chat", "their pile is low", [CAPTAIN])
            assert _histories(b, room, CAPTAIN, tokens[CAPTAIN]) == {
                "chat_history": [],
                "team_chat_history": ["their pile is low"],
            }
            assert _histories(b, room, BOX, tokens[BOX]) == {"chat_history": []}
            _say(table, BOX, "chat", "hm?", [BOX])  # said after: the box's frames up to it
            _never_sent(table, BOX, "their pile is low")
