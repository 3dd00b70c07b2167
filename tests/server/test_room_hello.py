"""The hello path reads the log once and hashes the token once; a move lost to another
instance is answered with one view of the version that won."""

from __future__ import annotations

import asyncio
import contextlib
import random
from typing import Any

import pytest

from ginrummy.engine import Rules, legal_actions
from ginrummy.server.pubsub.memory import MemoryBus
from ginrummy.server.room import RoomError, RoomManager
from ginrummy.server.sockets import frames as ws_module
from ginrummy.server.store import StoreConflict, StoredRoom, StoreError

from .helpers import (
    Message,
    auth,
    client,
    create,
    hello,
    identity,
    my_turn,
    receive,
)


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

        async def asked(*args: object) -> None:
            raise AssertionError(f"a seat's hello looked its identity up: {args}")

        monkeypatch.setattr(store, "load_room", load_room)
        monkeypatch.setattr(ws_module, "hash_token", hash_token)
        for call in ("known_player", "has_identity", "ensure_player", "recent_chat"):
            monkeypatch.setattr(store, call, asked)  # the room knows its seat's player
        with c.websocket_connect("/ws") as ws:
            welcome, _ = hello(ws, room, token)
            assert welcome["seat"] == "one"
        assert reads == [room]
        assert hashes == [token]


def test_a_hello_at_a_version_already_shown_turns_no_rules_into_data(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The room keeps its rules as data (the welcome's) and the view's shared part of a
    version is encoded once: the next hello encodes neither again."""
    with client() as c:
        token = identity(c)
        room = create(c, token)
        with c.websocket_connect("/ws") as first:
            hello(first, room, token)
            monkeypatch.setattr(Rules, "to_dict", _unasked)
            with c.websocket_connect("/ws") as second:
                welcome, _ = hello(second, room, token)
        assert welcome["room"]["rules"]["name"] == "standard"


def test_a_move_lost_to_another_instance_is_answered_with_one_view(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Another instance writes the same version first and tells every socket while this
    one is still saving: the socket sees that version once (from the notice), then the
    ``stale_version`` error, and no second copy of it."""
    with client() as c:
        token = identity(c)
        room_id = create(c, token)
        rooms = c.app.state.rooms  # type: ignore[attr-defined]
        store = rooms.store
        real_append = store.append_events
        raced: list[int] = []

        async def append_events(room: str, events: Any, outcome: Any = None) -> None:
            # The person's move only: the computer may move first on a random deal.
            if raced or events[0].kind != "action" or events[0].payload.get("seat") != "one":
                await real_append(room, events, outcome)
                return
            raced.append(events[0].seq)
            await real_append(room, events, outcome)  # as if written by the other instance
            notice = {"kind": "action", "version": events[0].seq, "seat": "one"}
            await rooms.bus.publish(f"room:{room}", notice)  # on its way to every socket
            raise StoreConflict(f"event {events[0].seq} exists")

        monkeypatch.setattr(store, "append_events", append_events)
        with c.websocket_connect("/ws") as ws:
            _, view = hello(ws, room_id, token)
            view = my_turn(ws, view)
            version = view["version"]
            action = view["view"]["legal_actions"][0]
            ws.send_json({"type": "act", "version": version, "action": action})
            got = _drain(ws)
        assert raced == [version + 1]
        kinds = [m["type"] for m in got if m["type"] in ("view", "error")]
        views = [m["version"] for m in got if m["type"] == "view"]
        assert "error" in kinds and views.count(version + 1) == 1, got


def test_a_hello_to_a_room_broken_meanwhile_shows_the_log_not_the_broken_copy(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Another instance wrote a move this instance has not heard of; a write of this
    instance's copy of the room times out (a store busy with a burst of reconnections)
    and breaks the room while a seat's hello waits for the room's lock. The hello must
    show the move (the seat may have seen it on the other instance before it reconnected
    here), read from the room rebuilt from the log, never the broken copy's older
    version."""
    with client() as c:
        ann, bob = identity(c), identity(c)
        room_id = create(c, ann, kind="room")
        r = c.post(f"/api/rooms/{room_id}/join", json={"name": "Bob"}, headers=auth(bob))
        assert r.status_code == 200, r.text
        rooms = c.app.state.rooms  # type: ignore[attr-defined]
        store = rooms.store
        here = c.portal.call(rooms.get, room_id)
        before = here.current.version
        match = here.current.match
        turn, action = match.turn, str(legal_actions(match.round)[0])

        async def write_elsewhere() -> None:
            other = RoomManager(store, MemoryBus(), 0.0, rng=random.Random(2))
            try:
                room = await other.get(room_id)
                await room.act(turn, before, action)
            finally:
                await other.close()

        c.portal.call(write_elsewhere)
        real_append = store.append_events
        writing = asyncio.Event()
        timeouts: list[int] = []

        async def append_events(room: str, events: Any, outcome: Any = None) -> None:
            if not timeouts:  # this instance's write of the same move
                timeouts.append(events[0].seq)
                writing.set()
                await asyncio.sleep(0.3)  # the hello waits for the lock meanwhile
                raise StoreError("timed out")
            await real_append(room, events, outcome)

        async def act_here() -> None:
            with contextlib.suppress(RoomError):
                await here.act(turn, before, action)

        monkeypatch.setattr(store, "append_events", append_events)
        c.portal.start_task_soon(act_here)
        c.portal.call(writing.wait)
        with c.websocket_connect("/ws") as ws:
            _, view = hello(ws, room_id, ann)
        assert timeouts == [before + 1] and here.broken
        assert view["version"] == before + 1
        assert c.portal.call(rooms.get, room_id).current.version == before + 1


def _unasked(*args: object) -> None:
    raise AssertionError("the rules were turned into data again")


def _drain(ws: Any, seconds: float = 0.5) -> list[Message]:
    """Every message that comes within ``seconds`` of the last one."""
    out = []
    while True:
        try:
            out.append(receive(ws, timeout=seconds))
        except TimeoutError:
            return out
