"""Chouette rooms through real sockets (docs/protocol.md, "Chouette rooms"; docs/rules.md
§8): creation, joining in order, the match under way once every seat is taken, the
rotation of box and captain, and the next match with the right box and dealer."""

from __future__ import annotations

from typing import Any

from .chouette_table import (
    RotationCheck,
    Table,
    creator_table,
    fix_draw,
    join,
    next_match,
    open_table,
    play_match,
)
from .helpers import auth, client


def test_a_table_with_two_computers_plays_a_match_and_the_next_starts() -> None:
    with client() as c:
        room, token = open_table(c, ["me", "bot:casual", "bot:casual"], target_score=50)
        info = c.get(f"/api/chouette/{room}", headers=auth(token)).json()
        assert info["kind"] == "chouette" and info["players"] == 3
        assert info["status"] == "playing" and info["your_position"] == 0
        with creator_table(c, room, token) as table:
            settled = play_match(table, 0, {0})
            chouette = settled["view"]["chouette"]
            assert sum(chouette["ledger"]) == 0
            assert len(chouette["settlements"]) == 1
            fresh = next_match(table, 0, {0}, settled)
            assert fresh["view"]["chouette"]["number"] == 2


def test_my_games_list_chouette_seats_with_their_page() -> None:
    """``GET /api/me`` lists a chouette seat beside a two-player room, each with the
    path of its page (docs/protocol.md, "Chouette rooms")."""
    with client() as c:
        room, token = open_table(c, ["me", "friend", "bot:casual"], name="Ann")
        two_player = c.post("/api/rooms", json={"kind": "room"}, headers=auth(token)).json()

        def games(tok: str) -> list[dict[str, Any]]:
            answer: list[dict[str, Any]] = c.get("/api/me", headers=auth(tok)).json()["games"]
            return answer

        mine = games(token)
        assert [(g["room"], g["kind"], g["path"]) for g in mine] == [
            (two_player["room"], "room", f"/r/{two_player['room']}"),
            (room, "chouette", f"/c/{room}"),
        ]
        assert mine[1] == {
            "room": room,
            "seat": "0",
            "kind": "chouette",
            "status": "waiting",
            "opponent": None,
            "opponent_bot": None,
            "rules": "standard",
            "path": f"/c/{room}",
            "position": 0,
            "players": 3,
            "others": [None, "Casual"],
            "others_bots": [None, "casual"],
        }
        bob, position = join(c, room)
        assert position == 1
        [theirs] = games(bob)
        assert (theirs["room"], theirs["position"], theirs["status"]) == (room, 1, "playing")
        assert theirs["others"] == ["Ann", "Casual"] and theirs["seat"] == "1"
        assert theirs["others_bots"] == [None, "casual"]
        bob_name = c.get("/api/me", headers=auth(bob)).json()["player"]["name"]
        assert games(token)[1]["others"] == [bob_name, "Casual"]


def _rotation(c: Any, seats: list[str], matches: int) -> RotationCheck:
    room, token = open_table(c, seats, target_score=50)
    tokens = {0: token}
    for p in range(1, len(seats)):
        if seats[p] == "friend":
            tokens[p] = join(c, room)[0]
    people = set(tokens)
    assert c.get(f"/api/chouette/{room}").json()["status"] == "playing"
    check = RotationCheck()
    table = Table(room)
    sockets = [c.websocket_connect("/ws") for _ in people]
    with sockets[0] as w0, sockets[1] as w1, sockets[2] as w2:
        for key, ws in zip(sorted(people), (w0, w1, w2), strict=True):
            table.sit(key, ws, tokens[key])
        after = 0
        for match in range(matches):
            settled = play_match(table, 0, people, after)
            ledger = settled["view"]["chouette"]["ledger"]
            assert sum(ledger) == 0
            if match + 1 < matches:
                after = next_match(table, 0, people, settled)["version"] - 1
        for frame in table.frames[0]:
            if frame["type"] == "view":
                check.see(frame)
    return check


def test_rotation_of_three_people_through_their_sockets(monkeypatch: Any) -> None:
    # docs/rules.md §8.2, example 1: A draws 9c, B Kd, C Js: B is box, the team C then A.
    fix_draw(monkeypatch, "9c Kd Js")
    with client() as c:
        room, token = open_table(c, ["me", "friend", "friend"])
        assert join(c, room)[1] == 1
        first = c.get(f"/api/chouette/{room}", headers=auth(token)).json()
        assert first["status"] == "waiting" and first["seats"][2] is None
        check = _rotation(c, ["me", "friend", "friend"], matches=3)
    assert len(check.played) == 3 and check.passed + check.kept >= 3
    assert check.box_stayed + check.box_changed == 2


def test_rotation_of_four_with_a_computer(monkeypatch: Any) -> None:
    # docs/rules.md §8.2, example 3: D (position 3) draws Ks, A Kh, B Kd, C Kc.
    fix_draw(monkeypatch, "Kh Kd Kc Ks")
    with client() as c:
        check = _rotation(c, ["me", "friend", "friend", "bot:casual"], matches=3)
    assert check.box_stayed + check.box_changed == 2


def test_five_at_a_table_one_person_and_four_computers() -> None:
    with client() as c:
        seats = ["me", "bot:casual", "bot:beginner", "bot:casual", "bot:beginner"]
        room, token = open_table(c, seats, target_score=50)
        info = c.get(f"/api/chouette/{room}").json()
        assert info["players"] == 5 and [s["bot"] for s in info["seats"][1:]] == [
            "casual",
            "beginner",
            "casual",
            "beginner",
        ]
        with creator_table(c, room, token) as table:
            settled = play_match(table, 0, {0})
            chouette = settled["view"]["chouette"]
            assert len(chouette["order"]) == 4 and sum(chouette["ledger"]) == 0
            box = chouette["box"]
            value = chouette["settlements"][-1]["value"]
            assert abs(chouette["ledger"][box]) == 4 * value  # the box pays or wins 4 times


def test_room_info_and_players_carry_public_player_ids_and_no_identity() -> None:
    """Each person's seat names their public player (for the report-and-block button,
    docs/accounts.md); a computer's has none; no identity hash or token travels."""
    with client() as c:
        room, ann = open_table(c, ["me", "friend", "bot:casual"], name="Ann")
        bob, _ = join(c, room)
        ids = [c.get("/api/me", headers=auth(t)).json()["player"]["id"] for t in (ann, bob)]
        assert c.portal is not None
        loaded = c.portal.call(c.app.state.rooms.get_any, room)  # type: ignore[attr-defined]
        hashes = {i.identity_hash for i in loaded.seats.values() if i.identity_hash}
        assert len(hashes) == 2
        info = c.get(f"/api/chouette/{room}", headers=auth(bob)).json()
        assert [s["player"] and s["player"]["id"] for s in info["seats"]] == [*ids, None]
        with creator_table(c, room, ann) as table:
            welcome, view = table.frames[0][:2]
            assert [s["player"] and s["player"]["id"] for s in welcome["room"]["seats"]] == [
                *ids,
                None,
            ]
            assert [p["player"] and p["player"]["id"] for p in view["players"]] == [*ids, None]
            for text in (str(info), str(welcome), str(view)):
                assert ann not in text and bob not in text
                assert not any(h in text for h in hashes)
