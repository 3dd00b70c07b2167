"""Fair deals over the sockets (docs/fairness.md, docs/protocol.md "seed"): the
commitment comes first, each seat sends one seed, the deal follows; no frame carries
the server seed (nor a seat another's seed) before the round is over; a silent seat
gets its default seed after the timeout; the records served verify."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from starlette.testclient import TestClient, WebSocketTestSession

from ginrummy.engine import Seat
from ginrummy.fairness import default_seat_seed
from ginrummy.server.tokens import hash_token

from .helpers import Message, auth, client, create, hello, identity, receive, simple_choice

A_SEED, B_SEED = "a1" * 32, "b2" * 32


def _two_people(c: TestClient) -> tuple[str, str, str]:
    ann, bob = identity(c), identity(c)
    room_id = create(c, ann, kind="room", name="Ann")
    r = c.post(f"/api/rooms/{room_id}/join", json={"name": "Bob"}, headers=auth(bob))
    assert r.status_code == 200, r.text
    return room_id, ann, bob


def _error(ws: WebSocketTestSession) -> Message:
    msg = receive(ws)
    while msg["type"] != "error":
        msg = receive(ws)
    return msg


def _view(ws: WebSocketTestSession, seen: list[str], state: str) -> Message:
    """The next view whose fair entry is in ``state``; every frame read goes to ``seen``."""
    for _ in range(200):
        msg = receive(ws)
        seen.append(json.dumps(msg))
        if msg["type"] == "view" and (msg.get("fair") or {}).get("state") == state:
            return msg
    raise AssertionError(f"no view with a {state} deal came")


def _events(c: TestClient, room_id: str) -> list[Any]:
    stored = c.portal.call(c.app.state.rooms.store.load_room, room_id)  # type: ignore[union-attr]
    assert stored is not None
    return list(stored.events)


def test_commit_then_seeds_then_deal_and_the_seed_stays_hidden_until_the_round_ends() -> None:
    with client(seed_timeout=30.0) as c:
        room_id, ann, bob = _two_people(c)
        room = c.app.state.rooms._rooms[room_id]  # type: ignore[attr-defined]
        seen: dict[Seat | None, list[str]] = {Seat.ONE: [], Seat.TWO: [], None: []}
        with (
            c.websocket_connect("/ws") as ws1,
            c.websocket_connect("/ws") as ws2,
            c.websocket_connect("/ws") as wss,
        ):
            ws: dict[Seat | None, WebSocketTestSession] = {Seat.ONE: ws1, Seat.TWO: ws2, None: wss}
            first: dict[Seat | None, Message] = {}
            for seat, token in ((Seat.ONE, ann), (Seat.TWO, bob), (None, None)):
                _, first[seat] = hello(ws[seat], room_id, token)
                seen[seat].append(json.dumps(first[seat]))
            fair = first[None]["fair"]
            assert fair["state"] == "seeding" and fair["round"] == 1
            assert fair["seeds_in"] == {"one": False, "two": False}
            assert first[Seat.ONE]["view"]["hand"] == []  # nothing dealt before the seeds
            committed = fair["commitment"]

            # Refusals: a spectator, a malformed seed; the room does not change.
            version = room.current.version
            wss.send_json({"type": "seed", "seed": A_SEED})
            assert _error(wss)["code"] == "not_a_player"
            ws1.send_json({"type": "seed", "seed": "A1" * 32})
            assert _error(ws1)["code"] == "bad_seed"
            ws1.send_json({"type": "seed", "seed": "a1" * 31})
            assert _error(ws1)["code"] == "bad_seed"
            assert room.current.version == version and room.current.pending.seeds.one is None

            ws1.send_json({"type": "seed", "seed": A_SEED, "commitment": committed})
            got = _view(ws1, seen[Seat.ONE], "seeding")
            assert got["fair"]["your_seed"] == A_SEED
            assert got["fair"]["seeds_in"] == {"one": True, "two": False}
            ws1.send_json({"type": "seed", "seed": "cc" * 32})
            assert _error(ws1)["code"] == "seed_already_sent"
            ws2.send_json({"type": "seed", "seed": B_SEED, "commitment": committed})
            dealt = {seat: _view(ws[seat], seen[seat], "dealt") for seat in ws}
            assert dealt[Seat.TWO]["fair"]["your_seed"] == B_SEED
            assert dealt[None]["fair"]["your_seed"] is None
            assert len(dealt[Seat.ONE]["view"]["hand"]) == 10
            ws2.send_json({"type": "seed", "seed": "dd" * 32})
            assert _error(ws2)["code"] == "no_seed_due"

            # Play the round out with plain moves.
            last = dealt
            while room.current.match.turn is not None:
                seat = room.current.match.turn
                action = simple_choice(last[seat]["view"])
                ws[seat].send_json(
                    {"type": "act", "version": room.current.version, "action": action}
                )
                for s, socket in ws.items():
                    while last[s]["version"] < room.current.version:
                        msg = receive(socket)
                        if msg["type"] == "view":
                            last[s] = msg
                            if msg["fair"]["state"] == "revealed":
                                break
                        seen[s].append(json.dumps(msg))
            revealed = {seat: last[seat]["fair"] for seat in ws}

        server_seed = revealed[None]["server_seed"]
        assert revealed[None]["state"] == "revealed"
        assert hashlib.sha256(bytes.fromhex(server_seed)).hexdigest() == committed
        assert revealed[Seat.ONE]["seeds"] == {"one": A_SEED, "two": B_SEED}
        # The frame sniffer: nothing before the reveal carries the server seed, nor a
        # seat's seed to the other seat or a spectator.
        kinds = [e.kind for e in _events(c, room_id)]
        assert kinds[:5] == ["match", "commit", "seed", "seed", "deal"]
        for seat, frames in seen.items():
            assert len(frames) > 10
            for frame in frames:
                assert server_seed not in frame, (seat, frame)
                if seat is not Seat.ONE:
                    assert A_SEED not in frame, (seat, frame)
                if seat is not Seat.TWO:
                    assert B_SEED not in frame, (seat, frame)


def test_a_silent_seat_gets_its_default_seed_after_the_timeout() -> None:
    with client(seed_timeout=0.3) as c:
        room_id, ann, bob = _two_people(c)
        with c.websocket_connect("/ws") as ws1:
            hello(ws1, room_id, ann)
            ws1.send_json({"type": "seed", "seed": A_SEED})
            dealt = _view(ws1, [], "dealt")  # Bob never sends one
            assert len(dealt["view"]["hand"]) == 10
        seeds = [e.payload for e in _events(c, room_id) if e.kind == "seed"]
        default = default_seat_seed(bytes.fromhex(hash_token(bob)), room_id, 1, 1, Seat.TWO)
        assert seeds == [
            {"seat": "one", "seed": A_SEED, "source": "sent"},
            {"seat": "two", "seed": default.hex(), "source": "default"},
        ]


def _verify(path: Path) -> int:
    run = subprocess.run(
        [sys.executable, "-m", "ginrummy", "verify", str(path)], capture_output=True, check=False
    )
    return run.returncode


def test_the_records_served_verify_and_a_tampered_one_fails(tmp_path: Path) -> None:
    with client(seed_timeout=0.05) as c:
        room_id, ann, _ = _two_people(c)
        with c.websocket_connect("/ws") as ws1:
            hello(ws1, room_id, ann)
            _view(ws1, [], "dealt")  # both seats silent: default seeds
            r = c.get(f"/api/rooms/{room_id}/record?round=1")
            assert (r.status_code, r.json()["error"]["code"]) == (403, "round_running")
            ws1.send_json({"type": "resign"})
            _view(ws1, [], "revealed")
        match = c.get(f"/api/rooms/{room_id}/record")
        single = c.get(f"/api/rooms/{room_id}/record?round=1")
        assert match.status_code == 200 and single.status_code == 200
        assert c.get(f"/api/rooms/{room_id}/record?round=2").status_code == 403
        assert c.get(f"/api/rooms/{room_id}/record?round=x").status_code == 400
    record = match.json()
    assert record["rounds"][0]["fair"]["server_seed"] is not None
    for name, data in (("match.json", record), ("round.json", single.json())):
        (tmp_path / name).write_text(json.dumps(data))
        assert _verify(tmp_path / name) == 0, name
    record["rounds"][0]["fair"]["seeds"]["one"] = "00" * 32
    (tmp_path / "tampered.json").write_text(json.dumps(record))
    assert _verify(tmp_path / "tampered.json") == 1
