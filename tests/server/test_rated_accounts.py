"""Rated play counts accounts only (issue 22, part 1; docs/accounts.md): a guest is
refused the quick match, a rated table and a rated tournament with ``account_required``
and nothing changes; a guest's public table is casual; casual tables and unrated
tournaments stay open to guests; the leaderboard lists accounts only."""

from __future__ import annotations

from typing import Any

from .helpers import account, auth, client, create, identity


def _code(r: Any) -> str:
    code: str = r.json()["error"]["code"]
    return code


def test_a_guest_is_refused_the_quick_match_and_nothing_changes() -> None:
    with client() as c:
        guest = identity(c)
        r = c.post("/api/quick", json={}, headers=auth(guest))
        assert (r.status_code, _code(r)) == (403, "account_required")
        assert c.get("/api/quick", headers=auth(guest)).json() == {"status": "idle"}
        assert c.get("/api/lobby").json()["queue"] == 0
        member = account(c)
        assert c.post("/api/quick", json={}, headers=auth(member)).json()["status"] == "waiting"


def test_a_guests_public_table_is_casual_and_a_rated_one_needs_an_account() -> None:
    with client() as c:
        guest, member = identity(c), account(c)
        casual = create(c, guest, kind="room", visibility="public")
        assert c.get(f"/api/rooms/{casual}").json()["rated"] is False
        body = {"kind": "room", "visibility": "public", "rated": True}
        r = c.post("/api/rooms", json=body, headers=auth(guest))
        assert (r.status_code, _code(r)) == (403, "account_required")
        rated = create(c, member, kind="room", visibility="public")
        assert c.get(f"/api/rooms/{rated}").json()["rated"] is True
        r = c.post(f"/api/rooms/{rated}/join", json={}, headers=auth(guest))
        assert (r.status_code, _code(r)) == (403, "account_required")
        assert c.get(f"/api/rooms/{rated}").json()["seats"]["two"] is None  # unchanged
        # the guest still plays casual games, with an account too
        assert c.post(f"/api/rooms/{casual}/join", json={}, headers=auth(member)).status_code == 200
        assert (
            c.post(f"/api/rooms/{rated}/join", json={}, headers=auth(account(c))).status_code == 200
        )


def test_a_rated_tournament_is_for_accounts_an_unrated_one_for_guests_too() -> None:
    with client() as c:
        guest, member = identity(c), account(c)
        cup = {"name": "Friday Cup", "format": "knockout", "max_players": 4}
        r = c.post(
            "/api/tournaments", json={**cup, "rated": True, "join": True}, headers=auth(guest)
        )
        assert (r.status_code, _code(r)) == (403, "account_required")
        rated = c.post("/api/tournaments", json={**cup, "rated": True}, headers=auth(member))
        tid = rated.json()["tournament"]["id"]
        r = c.post(f"/api/tournaments/{tid}/join", headers=auth(guest))
        assert (r.status_code, _code(r)) == (403, "account_required")
        assert c.post(f"/api/tournaments/{tid}/join", headers=auth(member)).status_code == 200
        open_cup = c.post("/api/tournaments", json=cup, headers=auth(member)).json()
        joined = c.post(
            f"/api/tournaments/{open_cup['tournament']['id']}/join", headers=auth(guest)
        )
        assert joined.status_code == 200, joined.text
        r = c.post("/api/tournaments/t_nope/join", headers=auth(guest))
        assert r.status_code == 404
