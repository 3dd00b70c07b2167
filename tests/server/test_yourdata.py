"""Your data over HTTP (docs/accounts.md, "Your data"): the export holds what the site
keeps about the caller, guest or account; the deletion erases it at once and for good,
while the other person's records, the room and its replay stay as they were."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from .helpers import auth, client, hello, identity, receive_until
from .test_accounts import _account, _sign_in

CONFIRM = {"confirm": True}


def _code(r: Any) -> str:
    code: str = r.json()["error"]["code"]
    return code


def _player(c: TestClient, token: str) -> dict[str, Any]:
    player: dict[str, Any] = c.get("/api/me", headers=auth(token)).json()["player"]
    return player


def _played(c: TestClient, ann: str, bob: str) -> str:
    """A public match of Ann (seat one) and Bob that Bob resigns, with a line of chat
    from each."""
    r = c.post(
        "/api/rooms",
        json={"kind": "room", "visibility": "public", "rated": False, "name": "Anna"},
        headers=auth(ann),
    )
    assert r.status_code == 201, r.text
    room: str = r.json()["room"]
    assert c.post(f"/api/rooms/{room}/join", json={}, headers=auth(bob)).status_code == 200
    with c.websocket_connect("/ws") as wa, c.websocket_connect("/ws") as wb:
        hello(wa, room, ann)
        hello(wb, room, bob)
        wa.send_json({"type": "chat", "text": "good luck from Anna"})
        receive_until(wb, lambda m: m["type"] == "chat")
        wb.send_json({"type": "chat", "text": "thanks"})
        receive_until(wa, lambda m: m["type"] == "chat" and m["message"]["text"] == "thanks")
        wb.send_json({"type": "resign"})
        receive_until(
            wa,
            lambda m: m["type"] == "view" and m["view"]["table"]["match_result"] is not None,
        )
    return room


def test_a_guest_exports_its_data() -> None:
    with client() as c:
        token = identity(c)
        assert c.get("/api/me/export").status_code == 401
        r = c.get("/api/me/export", headers=auth(token))
        assert r.status_code == 200, r.text
        assert "attachment" in r.headers["content-disposition"]
        data = r.json()
        assert data["format"] == "ginrummy-export/1"
        assert data["account"] is None and data["devices"] == [] and data["passkeys"] == []
        assert data["player"]["id"] == _player(c, token)["id"]
        for part in ("games", "results", "tournaments", "chat", "reports_made", "blocks"):
            assert data[part] == [], part


def test_an_accounts_export_holds_its_account_devices_games_and_lines() -> None:
    with client() as c:
        ann, _ = _account(c, "Anna")
        bob = identity(c)
        room = _played(c, ann, bob)
        bob_id = _player(c, bob)["id"]
        c.put(f"/api/me/blocks/{bob_id}", headers=auth(ann))
        data = c.get("/api/me/export", headers=auth(ann)).json()
        assert data["account"]["name"] == "Anna"
        assert len(data["devices"]) == 1
        assert all("token_hash" not in d for d in data["devices"])
        assert len(data["passkeys"]) == 1 and "public_key" not in data["passkeys"][0]
        assert [g["room"] for g in data["games"]] == [room]
        (result,) = data["results"]
        assert (result["room"], result["won"], result["opponent"]) == (room, True, bob_id)
        assert [(line["room"], line["text"]) for line in data["chat"]] == [
            (room, "good luck from Anna")
        ]
        assert data["blocks"] == [bob_id]
        assert ann not in json.dumps(data)  # no token, nor its hash (it is not the token)


@pytest.mark.parametrize("store", ["memory", "sqlite"])
def test_deleting_an_account_anonymises_it_and_keeps_the_other_persons_game(
    store: str, tmp_path: Path
) -> None:
    db = "memory://" if store == "memory" else f"sqlite:///{tmp_path / 'games.db'}"
    with client(db) as c:
        ann, key = _account(c, "Anna")
        bob = identity(c)
        room = _played(c, ann, bob)
        ann_id, bob_id = _player(c, ann)["id"], _player(c, bob)["id"]
        record_before = c.get(f"/api/rooms/{room}/record").json()
        # a refusal changes nothing: no confirmation, or a field naming someone
        assert _code(c.post("/api/me/delete", json={}, headers=auth(ann))) == "not_confirmed"
        forged = {"confirm": True, "player": bob_id}
        assert _code(c.post("/api/me/delete", json=forged, headers=auth(bob))) == "bad_request"
        assert c.post("/api/me/delete", json=CONFIRM).status_code == 401
        assert _player(c, ann)["name"] == "Anna" and _player(c, bob)["name"] != "Anna"

        r = c.post("/api/me/delete", json=CONFIRM, headers=auth(ann))
        assert r.status_code == 200, r.text
        label = r.json()["name"]
        assert label.startswith("Deleted player ")
        # the deleted account's token, its passkey and a second deletion are refused
        assert _code(c.get("/api/me", headers=auth(ann))) == "bad_token"
        assert _code(c.post("/api/me/delete", json=CONFIRM, headers=auth(ann))) == "bad_token"
        assert _code(_sign_in(c, key)) == "unknown_passkey"
        # Bob's record and the room's record and replay stay, with Ann anonymous
        bob_page = c.get(f"/api/players/{bob_id}").json()
        (match,) = bob_page["matches"]
        assert (match["room"], match["won"]) == (room, False)
        assert match["opponent"]["id"] == ann_id
        assert match["opponent"]["name"].startswith(label + "#")
        record = c.get(f"/api/rooms/{room}/record")
        assert record.status_code == 200
        assert record.json()["rounds"] == record_before["rounds"]
        answers = [
            bob_page,
            record.json(),
            c.get(f"/api/rooms/{room}").json(),
            c.get(f"/api/players/{ann_id}").json(),
            c.get("/api/me/export", headers=auth(bob)).json(),
            c.get("/api/lobby").json(),
        ]
        for answer in answers:
            assert "Anna" not in json.dumps(answer), answer
        assert label in json.dumps(c.get(f"/api/rooms/{room}").json())
        # Bob's chat history in the room: his line, and Ann's as the placeholder
        with c.websocket_connect("/ws") as wb:
            wb.send_json({"type": "hello", "room": room, "token": bob})
            history = receive_until(wb, lambda m: m["type"] == "chat_history")
            assert [m["text"] for m in history["messages"]] == ["[deleted]", "thanks"]
            assert "Anna" not in json.dumps(history)
        # the name is free again
        again, _ = _account(c, "Anna")
        assert _player(c, again)["name"] == "Anna"


def test_a_deleted_accounts_other_devices_are_refused() -> None:
    with client() as c:
        ann, key = _account(c, "Anna")
        second = _sign_in(c, key).json()["token"]
        assert c.get("/api/me", headers=auth(second)).status_code == 200
        assert c.post("/api/me/delete", json=CONFIRM, headers=auth(second)).status_code == 200
        for token in (ann, second):
            assert _code(c.get("/api/me", headers=auth(token))) == "bad_token"
            assert _code(c.get("/api/me/export", headers=auth(token))) == "bad_token"


def test_a_guest_deletes_its_identity() -> None:
    with client() as c:
        guest, bob = identity(c), identity(c)
        room = _played(c, guest, bob)
        assert c.post("/api/me/delete", json=CONFIRM, headers=auth(guest)).status_code == 200
        assert _code(c.get("/api/me", headers=auth(guest))) == "bad_token"
        assert c.get(f"/api/rooms/{room}/record").status_code == 200
        assert _player(c, bob)["name"]  # Bob goes on as before


def test_a_deleted_players_tournament_shows_the_label() -> None:
    with client() as c:
        ann, _ = _account(c, "Anna")
        cup = {"name": "Friday Cup", "format": "knockout", "max_players": 4}
        r = c.post("/api/tournaments", json={**cup, "join": True}, headers=auth(ann))
        assert r.status_code == 201, r.text
        tid = r.json()["tournament"]["id"]
        assert "Anna" in json.dumps(c.get(f"/api/tournaments/{tid}").json())
        label = c.post("/api/me/delete", json=CONFIRM, headers=auth(ann)).json()["name"]
        shown = json.dumps(c.get(f"/api/tournaments/{tid}").json())
        assert "Anna" not in shown and label in shown
        assert "Anna" not in json.dumps(c.get("/api/lobby").json())


def _friends_of(c: TestClient, token: str) -> dict[str, Any]:
    r = c.get("/api/friends", headers=auth(token))
    assert r.status_code == 200, r.text
    listing: dict[str, Any] = r.json()
    return listing


@pytest.mark.parametrize("store", ["memory", "sqlite"])
def test_the_friends_part_is_exported_and_deleted_with_the_account(
    store: str, tmp_path: Path
) -> None:
    db = "memory://" if store == "memory" else f"sqlite:///{tmp_path / 'games.db'}"
    with client(db) as c:
        ann, _ = _account(c, "Anna")
        bob, _ = _account(c, "Bobby")
        cy, _ = _account(c, "Cyril")
        dee, _ = _account(c, "Deedee")
        ids = {t: _player(c, t)["id"] for t in (ann, bob, cy, dee)}
        # Ann and Bob are friends; Ann asked Cy; Dee asked Ann; Ann hides where she is
        for token, other in ((ann, "Bobby"), (bob, "Anna"), (ann, "Cyril"), (dee, "Anna")):
            r = c.post("/api/friends", json={"name": other}, headers=auth(token))
            assert r.status_code == 200, r.text
        r = c.put("/api/friends/settings", json={"hide_whereabouts": True}, headers=auth(ann))
        assert r.status_code == 200, r.text
        # Ann challenged Bob (open); Bob challenged Ann, who declined
        sent = c.post("/api/challenges", json={"name": "Bobby"}, headers=auth(ann))
        assert sent.status_code == 201, sent.text
        got = c.post("/api/challenges", json={"name": "Anna"}, headers=auth(bob))
        assert got.status_code == 201, got.text
        sent_id, got_id = sent.json()["challenge"]["id"], got.json()["challenge"]["id"]
        r = c.post(f"/api/challenges/{got_id}/decline", headers=auth(ann))
        assert r.status_code == 200, r.text

        part = c.get("/api/me/export", headers=auth(ann)).json()["friends"]
        assert [(f["id"], f["name"]) for f in part["friends"]] == [(ids[bob], "Bobby")]
        assert [(f["id"], f["name"]) for f in part["requests_made"]] == [(ids[cy], "Cyril")]
        assert [(f["id"], f["name"]) for f in part["requests_received"]] == [(ids[dee], "Deedee")]
        assert part["settings"] == {"hide_whereabouts": True, "friends_only": False}
        (out,) = part["challenges_sent"]
        assert (out["id"], out["player"], out["state"]) == (
            sent_id,
            {"id": ids[bob], "name": "Bobby"},
            "open",
        )
        assert out["created"] < out["expires"]
        (into,) = part["challenges_received"]
        assert (into["id"], into["player"]["id"], into["state"]) == (got_id, ids[bob], "declined")
        assert ann not in json.dumps(part)

        assert [ch["id"] for ch in _friends_of(c, bob)["challenges"]] == [sent_id]
        assert c.post("/api/me/delete", json=CONFIRM, headers=auth(ann)).status_code == 200
        # the others' lists no longer hold her, nor her challenges
        for token in (bob, cy, dee):
            listing = _friends_of(c, token)
            people = listing["friends"] + listing["incoming"] + listing["outgoing"]
            assert ids[ann] not in [p["id"] for p in people], listing
            assert listing["challenges"] == [], listing
        r = c.post(f"/api/challenges/{sent_id}/accept", headers=auth(bob))
        assert _code(r) == "unknown_challenge"
        assert _friends_of(c, dee)["outgoing"] == []
