"""A chouette deal's fairness (docs/fairness.md, "In chouette rooms"): each finished
round of the current match is served as a round record with its revealed fair block;
it verifies, the box's seed is the default seed its owner can recompute from their
token, and each view's ``fair`` entry reveals a round's server seed only once the round
is over."""

from __future__ import annotations

import json
from typing import Any

from ginrummy.engine import Seat
from ginrummy.fairness import default_seat_seed
from ginrummy.fairness.verify import verify_record
from ginrummy.server.tokens import hash_token

from .chouette_table import creator_table, fix_draw, next_match, open_table, play_match, step
from .helpers import Message, client


def _record(c: Any, room: str, number: object) -> Any:
    return c.get(f"/api/chouette/{room}/record", params={"round": number})


def _check_frames(frames: list[Message], records: list[Any], own_seat: str | None) -> None:
    """Each view's ``fair`` entry: while a round runs its commitment and the socket's
    own seed only (no frame holds that round's server seed); revealed once it is over,
    as the round record has it."""
    seen = {"dealt": 0, "revealed": 0}
    for frame in frames:
        shown = frame.get("fair")
        if frame["type"] != "view" or shown is None:
            continue
        block = records[shown["round"] - 1]["fair"]
        assert shown["commitment"] == block["commitment"]
        assert shown["your_seed"] == (None if own_seat is None else block["seeds"][own_seat])
        running = frame["view"]["view"]["table"]["match_phase"] == "round"
        assert shown["state"] == ("dealt" if running else "revealed"), frame
        seen[shown["state"]] += 1
        if running:
            assert "server_seed" not in shown and "seeds" not in shown
            assert block["server_seed"] not in json.dumps(frame)
        else:
            assert (shown["server_seed"], shown["seeds"]) == (block["server_seed"], block["seeds"])
    assert seen["dealt"] > 0 and seen["revealed"] > 0, seen


def test_finished_rounds_verify_and_the_box_can_recompute_its_seed(monkeypatch: Any) -> None:
    fix_draw(monkeypatch, "Ks 2c 3d")  # the creator is box against two computers
    with client() as c:
        room, token = open_table(c, ["me", "bot:casual", "bot:casual"], target_score=50)
        with creator_table(c, room, token) as table:
            first = step(table, 0, {0}, 0)
            assert first["view"]["view"]["table"]["match_phase"] == "round"
            running = _record(c, room, 1)  # round 1 is under way
            assert (running.status_code, running.json()["error"]["code"]) == (
                403,
                "round_running",
            )
            for bad in ("x", "-1", "1.5", "1234567"):
                assert _record(c, room, bad).json()["error"]["code"] == "bad_request"
            settled = play_match(table, 0, {0}, first["version"])
            rounds = len(settled["view"]["view"]["table"]["rounds"])
            assert rounds >= 1
            records = [_record(c, room, n).json() for n in range(1, rounds + 1)]
            assert _record(c, room, rounds + 1).json()["error"]["code"] == "round_running"
            for n, record in enumerate(records, 1):
                assert record["kind"] == "round"
                report = verify_record(record)
                assert report.ok and len(report.rounds) == 1, report
                fair = record["fair"]
                assert (fair["room"], fair["match"], fair["round"]) == (room, 1, n)
                own = default_seat_seed(bytes.fromhex(hash_token(token)), room, 1, n, Seat.ONE)
                assert fair["seeds"]["one"] == own.hex()  # the box is seat one
            _check_frames(table.frames[0], records, own_seat="one")
            fresh = next_match(table, 0, {0}, settled)
            assert fresh["view"]["chouette"]["number"] == 2
            # Match 2's round 1 is under way (or, computers at both seats, over): never
            # match 1's block.
            got = _record(c, room, 1).json()
            assert got.get("error", {}).get("code") == "round_running" or (
                got["fair"]["match"] == 2 and verify_record(got).ok
            )
