"""No frame ever carries a hidden card (docs/rules.md §5): a whole random match between two
people, watched by a spectator, every frame checked against the engine's state."""

from __future__ import annotations

import random
import re
from typing import Any

from starlette.testclient import TestClient, WebSocketTestSession

from ginrummy.engine import Seat
from ginrummy.server.room import Snapshot, fold
from ginrummy.server.store import Event

from .helpers import Message, auth, client, create, hello, identity, receive, simple_choice


def _strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in _strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in _strings(v)]
    return []


def _current_round_part(frame: Message) -> Message:
    """The frame without finished rounds, whose open hands reuse this round's cards."""
    out = dict(frame)
    if "view" in out:
        view = dict(out["view"])
        view["table"] = {k: v for k, v in view["table"].items() if k != "rounds"}
        out["view"] = view
    return out


def hidden_cards(snap: Snapshot, viewer: Seat | None) -> set[str]:
    """Cards ``viewer`` (None: a spectator) must not see in this snapshot."""
    match = snap.match
    if match is None or match.round is None:
        return set()
    rnd = match.round
    hidden = {str(c) for c in rnd.stock}
    if rnd.result is None:
        for seat in Seat:
            if seat is not viewer:
                hidden |= {str(c) for c in rnd.hand(seat) if not c.bit & rnd.known[seat]}
    elif rnd.knock_discard is not None and rnd.result.knocker is not viewer:
        # Face down, unless it was seen before: discarded earlier, or the first upcard,
        # and then taken back (its disappearance from the shown hands then tells).
        seen = {a.card for _, a in rnd.history[:-1] if a.card is not None}
        if rnd.knock_discard not in seen and rnd.knock_discard != rnd.first_upcard:
            hidden.add(str(rnd.knock_discard))
    return hidden


def _events(c: TestClient, room: str) -> list[Event]:
    stored = c.portal.call(c.app.state.rooms.store.load_room, room)  # type: ignore[union-attr]
    assert stored is not None
    return list(stored.events)


def test_no_frame_carries_a_hidden_card() -> None:
    rng = random.Random(20240611)
    with client() as c:
        ann, bob = identity(c), identity(c)
        room_id = create(c, ann, kind="room", name="Ann", preset="standard", target_score=50)
        c.post(f"/api/rooms/{room_id}/join", json={"name": "Bob"}, headers=auth(bob))
        room = c.app.state.rooms._rooms[room_id]  # type: ignore[attr-defined]
        frames: dict[Seat | None, list[Message]] = {Seat.ONE: [], Seat.TWO: [], None: []}
        with (
            c.websocket_connect("/ws") as ws1,
            c.websocket_connect("/ws") as ws2,
            c.websocket_connect("/ws") as wss,
        ):
            sockets: dict[Seat | None, WebSocketTestSession] = {
                Seat.ONE: ws1,
                Seat.TWO: ws2,
                None: wss,
            }
            last: dict[Seat | None, Message] = {}
            for seat, token in ((Seat.ONE, ann), (Seat.TWO, bob), (None, None)):
                welcome, view = hello(sockets[seat], room_id, token)
                frames[seat] += [welcome, view]
                last[seat] = view

            def drain_to(version: int) -> None:
                for seat, ws in sockets.items():
                    while last[seat]["version"] < version:
                        msg = receive(ws)
                        frames[seat].append(msg)
                        if msg["type"] == "view":
                            last[seat] = msg

            moves = 0
            while moves < 150 or not room.current.match.is_over:
                match = room.current.match
                version = room.current.version
                if match.is_over:  # a rematch: two wishes, a new match, a deal
                    for seat in Seat:
                        sockets[seat].send_json({"type": "new_match"})
                    drain_to(version + 4)
                    continue
                if match.turn is None:
                    for seat in Seat:
                        sockets[seat].send_json({"type": "next_round", "version": version})
                        version += 1  # a ready, and after the second one a deal
                    drain_to(version + 1)
                    continue
                seat = match.turn
                view = last[seat]["view"]
                assert last[seat]["version"] == room.current.version
                legal = view["legal_actions"]
                action = simple_choice(view) if rng.random() < 0.7 else rng.choice(legal)
                sockets[seat].send_json({"type": "act", "version": version, "action": action})
                drain_to(version + 1)
                moves += 1
                assert moves < 5000
            drain_to(room.current.version)

        events = _events(c, room_id)
        snaps = [Snapshot(0, None)]
        for event in events:
            snaps.append(fold(snaps[-1], event))
        checked = 0
        for seat, seen in frames.items():
            version = 0
            for frame in seen:
                version = frame.get("version") or version
                if frame["type"] == "welcome":
                    version = frame["room"]["version"]
                hidden = hidden_cards(snaps[version], seat)
                tokens = {t for s in _strings(_current_round_part(frame)) for t in s.split()}
                leaked = hidden & tokens
                assert not leaked, (seat, frame["type"], version, leaked)
                checked += 1
        assert checked > 600
        assert room.current.match.result is not None


CARD = re.compile(r"^[A2-9TJQK][cdhs]$")


def test_spectator_chat_timer_and_lobby_frames_carry_no_hidden_card() -> None:
    """A public, timed match with chat: what a spectator and a lobby socket receive."""
    with client() as c:
        ann, bob, eve = identity(c), identity(c), identity(c)
        r = c.post(
            "/api/rooms",
            json={"kind": "room", "visibility": "public", "spectator_chat": True},
            headers=auth(ann),
        )
        room_id = r.json()["room"]
        room = c.app.state.rooms._rooms[room_id]  # type: ignore[attr-defined]
        with c.websocket_connect("/ws") as lobby:
            lobby.send_json({"type": "hello_lobby", "token": eve})
            lobby_frames = [receive(lobby)]
            c.post(f"/api/rooms/{room_id}/join", json={}, headers=auth(bob))
            with (
                c.websocket_connect("/ws") as ws1,
                c.websocket_connect("/ws") as ws2,
                c.websocket_connect("/ws") as wss,
            ):
                sockets = {Seat.ONE: ws1, Seat.TWO: ws2}
                last = {
                    Seat.ONE: hello(ws1, room_id, ann)[1],
                    Seat.TWO: hello(ws2, room_id, bob)[1],
                }
                welcome, view = hello(wss, room_id, eve)
                seen: list[Message] = [welcome, view]
                wss.send_json({"type": "chat", "phrase": "gl"})
                ws1.send_json({"type": "chat", "text": "good luck"})
                for _ in range(12):
                    match = room.current.match
                    if match.turn is None:
                        break
                    seat, version = match.turn, room.current.version
                    while last[seat]["version"] < version:
                        msg = receive(sockets[seat])
                        if msg["type"] == "view":
                            last[seat] = msg
                    action = simple_choice(last[seat]["view"])
                    sockets[seat].send_json({"type": "act", "version": version, "action": action})
                    msg = receive(wss)
                    while not (msg["type"] == "view" and msg["version"] == version + 1):
                        seen.append(msg)
                        msg = receive(wss)
                    seen.append(msg)
                assert any(m["type"] == "chat" for m in seen)
                assert any(m["type"] == "view" and m["timer"] for m in seen)
            lobby_frames.append(receive(lobby))
        snaps = [Snapshot(0, None)]
        for event in _events(c, room_id):
            snaps.append(fold(snaps[-1], event))
        version = 0
        for frame in seen:
            version = frame.get("version") or version
            if frame["type"] == "welcome":
                version = frame["room"]["version"]
            tokens = {t for s in _strings(_current_round_part(frame)) for t in s.split()}
            assert not hidden_cards(snaps[version], None) & tokens, frame["type"]
        for frame in lobby_frames:
            assert frame["type"] == "lobby"
            assert not [s for s in _strings(frame) if CARD.match(s)], frame
