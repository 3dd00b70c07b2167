"""Tournaments through the HTTP API and the sockets: settings and error codes, joins,
the start with computers filling the places, each match an ordinary room bound to its
players, results recorded from the rooms, the next round paired, no-shows."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from ginrummy.server.room import RoomError
from ginrummy.server.tournaments import records
from ginrummy.tournament import Entrant, commands

from .helpers import Message, account, auth, client, hello, identity, receive, receive_until

FAST = {"tournament_tick": 0.02, "test_clock": True}


def _create(c: TestClient, token: str, **changes: Any) -> dict[str, Any]:
    body = {"name": "Friday Cup", "format": "knockout", "max_players": 4, **changes}
    r = c.post("/api/tournaments", json=body, headers=auth(token))
    assert r.status_code == 201, r.text
    t: dict[str, Any] = r.json()["tournament"]
    return t


def _wait(c: TestClient, tid: str, pred: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        t: dict[str, Any] = c.get(f"/api/tournaments/{tid}").json()["tournament"]
        if pred(t):
            return t
        time.sleep(0.02)
    raise AssertionError(f"the tournament never got there: {t}")


def _error(r: Any) -> tuple[int, str]:
    return r.status_code, r.json()["error"]["code"]


def test_settings_are_checked_and_codes_map_to_statuses() -> None:
    with client(**FAST) as c:
        ann = identity(c)
        post = lambda body: c.post("/api/tournaments", json=body, headers=auth(ann))  # noqa: E731
        base = {"name": "Cup", "format": "knockout", "max_players": 4}
        assert _error(post({**base, "format": "round robin"})) == (400, "unknown_format")
        assert _error(post({**base, "max_players": 3})) == (400, "size_out_of_range")
        assert _error(post({**base, "rounds": 2})) == (400, "bad_settings")
        assert _error(post({**base, "max_players": "4"})) == (400, "bad_request")
        assert _error(post({**base, "rated": 1})) == (400, "bad_request")
        assert _error(post({**base, "colour": "red"})) == (400, "bad_request")
        assert _error(post({**base, "computer_level": "god"})) == (400, "bad_request")
        assert _error(post({**base, "start_at": 10.0})) == (400, "start_in_past")
        r = c.post("/api/tournaments", json=base)
        assert _error(r) == (401, "unauthorized")
        assert _error(c.get("/api/tournaments/nope")) == (404, "unknown_tournament")
        t = _create(c, ann, rules_preset="first-to-knock")
        assert t["settings"]["target_score"] is None and t["phase"] == "open"


def test_joins_leaves_and_refusals() -> None:
    with client(**FAST) as c:
        ann, bob = identity(c), identity(c)
        t = _create(c, ann)
        tid = t["id"]
        join = lambda who: c.post(f"/api/tournaments/{tid}/join", headers=auth(who))  # noqa: E731
        assert join(ann).status_code == 200
        assert _error(join(ann)) == (409, "already_joined")
        r = join(bob)
        names = [c.get("/api/me", headers=auth(who)).json()["player"]["name"] for who in (ann, bob)]
        assert [e["name"] for e in r.json()["tournament"]["entrants"]] == names
        assert _error(c.post(f"/api/tournaments/{tid}/start", headers=auth(bob))) == (
            403, "not_creator",
        )  # fmt: skip
        assert _error(c.post(f"/api/tournaments/{tid}/start", headers=auth(ann))) == (
            409, "too_few_players",
        )  # fmt: skip
        assert _error(c.post(f"/api/tournaments/{tid}/withdraw", headers=auth(bob))) == (
            409, "not_started",
        )  # fmt: skip
        r = c.post(f"/api/tournaments/{tid}/leave", headers=auth(bob))
        assert len(r.json()["tournament"]["entrants"]) == 1
        assert [x["id"] for x in c.get("/api/lobby").json()["tournaments"]] == [tid]
        private = _create(c, ann, public=False)
        assert private["id"] not in [x["id"] for x in c.get("/api/lobby").json()["tournaments"]]


def test_create_and_play_enters_the_creator_in_the_same_write() -> None:
    with client(**FAST) as c:
        ann = identity(c)
        me = c.get("/api/me", headers=auth(ann)).json()["player"]
        t = _create(c, ann, join=True)
        assert [e["id"] for e in t["entrants"]] == [me["id"]] and t["creator"] == me["id"]
        assert t["phase"] == "open" and t["version"] == 2  # created and joined, one write
        read = c.get(f"/api/tournaments/{t['id']}").json()["tournament"]
        assert read["entrants"] == t["entrants"]
        assert [x["players"] for x in c.get("/api/lobby").json()["tournaments"]] == [1]
        tid = t["id"]
        assert _error(c.post(f"/api/tournaments/{tid}/join", headers=auth(ann))) == (
            409, "already_joined",
        )  # fmt: skip
        assert _create(c, ann, name="Watch Cup")["entrants"] == []  # without: not playing
        post = lambda body: c.post("/api/tournaments", json=body, headers=auth(ann))  # noqa: E731
        base = {"name": "Cup", "format": "knockout", "max_players": 4}
        assert _error(post({**base, "join": "yes"})) == (400, "bad_request")
        assert _error(post({**base, "max_players": 3, "join": True})) == (400, "size_out_of_range")
        assert len(c.get("/api/lobby").json()["tournaments"]) == 2  # no half-made one


def _play_to_the_end(c: TestClient, token: str, room: str) -> None:
    """Resign at once: the computer wins the match."""
    with c.websocket_connect("/ws") as ws:
        welcome, _ = hello(ws, room, token)
        assert welcome["seat"] == "one"
        ws.send_json({"type": "resign"})
        receive_until(ws, lambda m: m["type"] == "event" and m.get("kind") == "forfeit")


def test_a_knockout_with_computers_is_played_through_rooms_to_the_end() -> None:
    with client(**FAST) as c:
        ann, bob = identity(c), identity(c)
        t = _create(c, ann, computer_level="baseline", target_score=10)
        tid = t["id"]
        with c.websocket_connect("/ws") as lobby:
            # the tournament's page: its frames and ``matched``, no more lobby listings
            hello_lobby = {"type": "hello_lobby", "token": ann, "tournament": tid, "lobby": False}
            lobby.send_json(hello_lobby)
            first = receive(lobby)
            assert [x["id"] for x in first["lobby"]["tournaments"]] == [tid]
            for who in (ann, bob):
                assert c.post(f"/api/tournaments/{tid}/join", headers=auth(who)).status_code == 200
            news = receive_until(lobby, lambda m: m["type"] == "tournament")
            assert news["tournament"]["id"] == tid
            r = c.post(f"/api/tournaments/{tid}/start", headers=auth(ann))
            assert r.status_code == 200, r.text
            started: Message = r.json()["tournament"]
            assert started["phase"] == "running" and len(started["entrants"]) == 4
            computers = [e for e in started["entrants"] if e["computer"]]
            assert [e["computer"] for e in computers] == ["baseline", "baseline"]
            # the page shows it running, and ann is taken to her table (in either order)
            seen: list[Message] = []

            def both(m: Message) -> bool:
                seen.append(m)
                running = [x for x in seen if x["type"] == "tournament"]
                return any(x["type"] == "matched" for x in seen) and any(
                    x["tournament"]["phase"] == "running" for x in running
                )

            receive_until(lobby, both)
            (matched,) = [m for m in seen if m["type"] == "matched"]
            assert matched["seat"] == "one"
            assert matched["room"] in [p["room"] for p in started["rounds"][0]["pairings"]]
        ids = {e["id"] for e in started["entrants"]}  # names may repeat: random defaults
        me = {tok: c.get("/api/me", headers=auth(tok)).json()["player"]["id"] for tok in (ann, bob)}
        pairings = started["rounds"][0]["pairings"]
        for tok in (ann, bob):
            (mine,) = [p for p in pairings if me[tok] in (p["first"], p["second"])]
            room = c.get(f"/api/rooms/{mine['room']}").json()
            assert room["rules"]["target_score"] == 10 and room["tournament"] == tid, room
            assert (room["tournament_name"], room["tournament_round"]) == ("Friday Cup", 1)
            _play_to_the_end(c, tok, mine["room"])
        done = _wait(c, tid, lambda x: x["phase"] == "finished")
        assert done["finish"] == "completed" and len(done["rounds"]) == 2
        first_round = {p["room"]: p["result"] for p in done["rounds"][0]["pairings"]}
        assert all(r is not None and r["winner"] not in me.values() for r in first_round.values())
        assert done["winner"] in {e["id"] for e in computers}
        assert done["placings"][0]["player"] == done["winner"]
        assert ids == {p["player"] for p in done["placings"]}
        assert tid not in [x["id"] for x in c.get("/api/lobby").json()["tournaments"]]
        # each person's statistics page lists the tournament with their place
        _create(c, ann, name="Open Cup")  # joined by nobody, not started: not listed
        place = {p["player"]: p["place"] for p in done["placings"]}
        # no third-place match: both out in the semi-finals share third place
        assert sorted(place.values()) == [1, 2, 3, 3]
        for tok in (ann, bob):
            listed = c.get(f"/api/players/{me[tok]}").json()["tournaments"]
            assert listed == [
                {
                    "id": tid, "name": "Friday Cup", "format": "knockout",
                    "placing": place[me[tok]], "of": 4, "finished": True,
                    "started": listed[0]["started"],
                }
            ]  # fmt: skip
            assert listed[0]["placing"] == 3 and listed[0]["started"] >= done["created"]


def test_a_page_at_a_table_hears_of_the_next_table_it_missed() -> None:
    """The page at a tournament's table keeps a lobby socket that names the table
    (``hello_lobby``'s ``table``): when it connects, after the next round was paired
    while it was away, it is sent ``matched`` for the person's next table at once."""
    with client(**FAST) as c:
        ann = identity(c)
        me = c.get("/api/me", headers=auth(ann)).json()["player"]["id"]
        t = _create(c, ann, format="swiss", computer_level="random", target_score=5, join=True)
        tid = t["id"]
        assert c.post(f"/api/tournaments/{tid}/start", headers=auth(ann)).status_code == 200

        def table(t: dict[str, Any], number: int) -> str:
            pairings = t["rounds"][number - 1]["pairings"]
            (mine,) = [p for p in pairings if me in (p["first"], p["second"])]
            room: str = mine["room"]
            return room

        running = _wait(c, tid, lambda x: x["phase"] == "running")
        first = table(running, 1)
        _wait_room(c, first)
        _play_to_the_end(c, ann, first)  # her socket at the table is away meanwhile
        second = table(_wait(c, tid, lambda x: len(x["rounds"]) >= 2), 2)
        _wait_room(c, second)

        def told(at: str) -> list[Message]:
            """What a table's socket is sent before its answer to a ping."""
            with c.websocket_connect("/ws") as ws:
                at_table = {"token": ann, "tournament": None, "lobby": False, "table": at}
                ws.send_json({"type": "hello_lobby", **at_table})
                ws.send_json({"type": "ping", "t": 1})
                assert receive(ws)["type"] == "lobby"
                seen = []
                while (m := receive(ws))["type"] != "pong":
                    seen.append(m)
                return seen

        assert told(first) == [{"type": "matched", "room": second, "seat": "one"}]
        assert told(second) == []  # the page is at its table already
        assert told("no-such-room") == []

        async def unreadable(room_id: str, player: str) -> None:
            raise RoomError("unavailable", "the store is unavailable")

        service = c.app.state.tournaments  # type: ignore[attr-defined]
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(service, "table_of", unreadable)
            assert told(first) == []  # the socket still answers: a later connect asks again


def test_a_player_who_does_not_come_loses_by_no_show() -> None:
    with client(**FAST) as c:
        people = [identity(c) for _ in range(4)]
        t = _create(c, people[0], grace_seconds=10)
        tid = t["id"]
        for who in people:
            c.post(f"/api/tournaments/{tid}/join", headers=auth(who))
        running = _wait(c, tid, lambda x: x["phase"] == "running")
        board = running["rounds"][0]["pairings"][0]
        room = board["room"]
        _wait_room(c, room)
        token_of = {c.get("/api/me", headers=auth(p)).json()["player"]["id"]: p for p in people}
        with c.websocket_connect("/ws") as ws:
            hello(ws, room, token_of[board["first"]])  # the first comes, the second does not
            time.sleep(0.1)  # the pairing instance sees who is there
            c.post("/api/test/clock", json={"advance": 11})
            done = _wait(c, tid, lambda x: x["rounds"][0]["pairings"][0]["result"] is not None)
        result = done["rounds"][0]["pairings"][0]["result"]
        assert result == {
            "winner": board["first"], "first_points": 0, "second_points": 0,
            "reason": "no_show", "absent": [board["second"]],
        }  # fmt: skip
        over = c.get(f"/api/rooms/{room}").json()
        assert over["status"] == "over", over


def _wait_room(c: TestClient, room: str) -> None:
    deadline = time.monotonic() + 10
    while c.get(f"/api/rooms/{room}").status_code != 200:
        assert time.monotonic() < deadline, f"room {room} never opened"
        time.sleep(0.02)


def test_one_instance_pairs_and_another_carries_on_after_it_dies(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = f"sqlite:///{tmp_path / 'shared.sqlite3'}"
    lease = {"lease_ttl": 1.0, "lease_renew": 0.3, **FAST}
    with client(db, instance_id="i_a", **lease) as a:
        ann = identity(a)
        start_at = a.post("/api/test/clock", json={"advance": 0}).json()["now"] + 100
        t = _create(a, ann, format="swiss", computer_level="random", target_score=5,
                    start_at=start_at)  # fmt: skip
        tid = t["id"]
        driver_a = a.app.state.tournaments.driver  # type: ignore[attr-defined]
        _until(lambda: tid in driver_a.held)
        with client(db, instance_id="i_b", **lease) as b:
            driver_b = b.app.state.tournaments.driver  # type: ignore[attr-defined]
            driven: list[str] = []
            drive = driver_b.drive

            async def recording(tournament_id: str) -> None:
                driven.append(tournament_id)
                await drive(tournament_id)

            monkeypatch.setattr(driver_b, "drive", recording)
            time.sleep(0.3)  # b sweeps a few times meanwhile
            assert tid not in driver_b.held and not driven  # exactly one instance pairs
            # a dies without a word: its leases run out by themselves
            monkeypatch.setattr(a.app.state.rooms.store, "release_lease", _never)  # type: ignore[attr-defined]
            a.__exit__(None, None, None)
            now_b = b.post("/api/test/clock", json={"advance": 0}).json()["now"]
            b.post("/api/test/clock", json={"advance": max(0.0, start_at - now_b + 1)})
            done = _wait(b, tid, lambda x: x["phase"] == "finished")
            assert tid in driven  # b carried on from the log
    assert done["finish"] == "completed" and len(done["entrants"]) == 4
    assert len(done["rounds"]) == done["planned_rounds"] == 3
    assert all(
        p["result"] is not None for r in done["rounds"] for p in r["pairings"] if p["second"]
    )
    assert [s["rank"] for s in done["standings"]] == [1, 2, 3, 4]


async def _never(*args: object) -> None:
    return None


def _until(pred: Callable[[], bool]) -> None:
    deadline = time.monotonic() + 10
    while not pred():
        assert time.monotonic() < deadline, "never happened"
        time.sleep(0.02)


def test_withdrawing_forfeits_the_match_and_ends_its_room() -> None:
    with client(**FAST) as c:
        people = [identity(c) for _ in range(4)]
        tid = _create(c, people[0])["id"]
        for who in people:
            c.post(f"/api/tournaments/{tid}/join", headers=auth(who))
        running = _wait(c, tid, lambda x: x["phase"] == "running")
        ann = c.get("/api/me", headers=auth(people[0])).json()["player"]["id"]
        (mine,) = [p for p in running["rounds"][0]["pairings"] if ann in (p["first"], p["second"])]
        _wait_room(c, mine["room"])
        r = c.post(f"/api/tournaments/{tid}/withdraw", headers=auth(people[0]))
        assert r.status_code == 200, r.text
        after = r.json()["tournament"]
        (board,) = [p for p in after["rounds"][0]["pairings"] if p["room"] == mine["room"]]
        other = mine["second"] if mine["first"] == ann else mine["first"]
        assert board["result"]["reason"] == "withdrawal" and board["result"]["winner"] == other
        assert [e["withdrawn"] for e in after["entrants"] if e["id"] == ann] == [True]
        assert c.get(f"/api/rooms/{mine['room']}").json()["status"] == "over"
        r = c.post(f"/api/tournaments/{tid}/withdraw", headers=auth(people[0]))
        assert _error(r) == (409, "withdrawn")


def test_news_of_a_private_tournament_reach_only_its_people() -> None:
    with client(**FAST) as c:
        ann, bob, eve = identity(c), identity(c), identity(c)
        private = _create(c, ann, public=False)["id"]
        public = _create(c, ann)["id"]
        with c.websocket_connect("/ws") as ann_ws, c.websocket_connect("/ws") as eve_ws:
            for ws, who, watched in ((ann_ws, ann, private), (eve_ws, eve, private)):
                ws.send_json({"type": "hello_lobby", "token": who, "tournament": watched})
                assert receive(ws)["type"] == "lobby"
            assert c.post(f"/api/tournaments/{private}/join", headers=auth(bob)).status_code == 200
            news = receive_until(ann_ws, lambda m: m["type"] == "tournament")
            assert news["tournament"]["id"] == private
            eve_ws.send_json({"type": "hello_lobby", "token": eve, "tournament": public})
            assert receive_until(eve_ws, lambda m: m["type"] == "lobby")
            assert c.post(f"/api/tournaments/{public}/join", headers=auth(bob)).status_code == 200
            seen = receive_until(eve_ws, lambda m: m["type"] == "tournament")
            assert seen["tournament"]["id"] == public  # the private one never came


def _pong(ws: Any, t: int) -> list[str]:
    """The types of the frames before the ``pong`` of a ``ping`` sent now."""
    ws.send_json({"type": "ping", "t": t})
    types = []
    while (msg := receive(ws))["type"] != "pong":
        types.append(msg["type"])
    return types


def test_a_lobby_socket_gets_the_frames_of_the_one_tournament_it_watches() -> None:
    with client(**FAST) as c:
        ann, bob = identity(c), identity(c)
        one, two = _create(c, ann)["id"], _create(c, ann)["id"]
        with (
            c.websocket_connect("/ws") as page,
            c.websocket_connect("/ws") as lobby,
            c.websocket_connect("/ws") as table,
        ):
            page.send_json({"type": "hello_lobby", "token": ann, "tournament": one, "lobby": False})
            lobby.send_json({"type": "hello_lobby", "token": ann})
            table.send_json({"type": "hello_lobby", "token": bob, "lobby": False})
            for ws in (page, lobby, table):
                assert receive(ws)["type"] == "lobby"  # the answer to the hello, always
            # Then the watched tournament as it is now: a change made between the page's
            # HTTP read and its subscription is not lost.
            now = receive(page)
            assert now["type"] == "tournament" and now["tournament"]["id"] == one
            assert now["tournament"]["players"] == 0
            for tid in (two, one):
                assert c.post(f"/api/tournaments/{tid}/join", headers=auth(bob)).status_code == 200
            news = receive_until(page, lambda m: m["type"] == "tournament")
            assert news["tournament"]["id"] == one  # the other one's change never came
            assert news["tournament"]["players"] == 1

            # the lobby's listing changed: only the socket that lists it hears of it
            def players(m: Message) -> list[int]:
                return [t["players"] for t in m["lobby"]["tournaments"]]

            receive_until(lobby, lambda m: m["type"] == "lobby" and players(m) == [1, 1])
            assert "tournament" not in _pong(lobby, 1)
            assert _pong(page, 2) == []
            assert _pong(table, 3) == []


def test_a_tournament_whose_log_does_not_fold_is_logged_not_sent_to_a_new_socket(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    with client(**FAST) as c:
        ann = identity(c)
        tid = _create(c, ann)["id"]

        async def damaged(*args: object, **kwargs: object) -> None:
            raise records.DamagedLog(f"tournament {tid}: the log does not fold: test")

        monkeypatch.setattr(records, "load", damaged)
        with c.websocket_connect("/ws") as page:
            page.send_json({"type": "hello_lobby", "token": ann, "tournament": tid, "lobby": False})
            assert receive(page)["type"] == "lobby"  # the hello is answered all the same
            assert _pong(page, 1) == []  # no tournament frame: nothing it could not read
        assert any(
            r.levelname == "ERROR" and f"tournament {tid}: not shown to a new socket" in r.message
            for r in caplog.records
        )


def test_a_match_room_deals_first_to_the_pairings_first_and_plays_one_match() -> None:
    with client(tournament_tick=3600.0, test_clock=True) as c:  # sweeps only when kicked
        people = [identity(c) for _ in range(4)]
        tid = _create(c, people[0])["id"]
        for who in people:
            c.post(f"/api/tournaments/{tid}/join", headers=auth(who))
        running = _wait(c, tid, lambda x: x["phase"] == "running")
        rooms = c.app.state.rooms  # type: ignore[attr-defined]
        for pairing in running["rounds"][0]["pairings"]:
            _wait_room(c, pairing["room"])
            room = c.portal.call(rooms.get, pairing["room"])
            assert room is not None and room.current.match is not None
            dealer = room.current.match.first_dealer
            first = c.get(f"/api/players/{pairing['first']}").json()["player"]["name"]
            assert room.seats[dealer].name == first
        board = running["rounds"][0]["pairings"][0]
        token_of = {c.get("/api/me", headers=auth(p)).json()["player"]["id"]: p for p in people}
        with c.websocket_connect("/ws") as one, c.websocket_connect("/ws") as two:
            hello(one, board["room"], token_of[board["first"]])
            hello(two, board["room"], token_of[board["second"]])
            one.send_json({"type": "resign"})
            over = receive_until(one, lambda m: m["type"] == "event" and m["kind"] == "forfeit")
            for ws in (one, two):  # a new match is refused: the tournament has its result
                ws.send_json({"type": "new_match", "version": over["version"]})
                error = receive_until(ws, lambda m: m["type"] == "error")
                assert error["code"] == "tournament_match"
        driver = c.app.state.tournaments.driver  # type: ignore[attr-defined]
        c.portal.call(driver.sweep)  # type: ignore[union-attr]
        t = c.get(f"/api/tournaments/{tid}").json()["tournament"]
        result = t["rounds"][0]["pairings"][0]["result"]
        assert result is not None and result["reason"] == "played"
        assert result["winner"] == board["second"]  # the first resigned


def test_the_clock_starts_a_tournament_or_cancels_it_at_its_start_time() -> None:
    with client(**FAST) as c:
        ann = identity(c)
        now = c.post("/api/test/clock", json={"advance": 0}).json()["now"]
        few = _create(c, ann, start_at=now + 100)["id"]
        filled = _create(c, ann, start_at=now + 100, computer_level="random", target_score=5)["id"]
        for tid in (few, filled):
            assert c.post(f"/api/tournaments/{tid}/join", headers=auth(ann)).status_code == 200
        time.sleep(0.2)  # sweeps before the start time change nothing
        assert c.get(f"/api/tournaments/{few}").json()["tournament"]["phase"] == "open"
        c.post("/api/test/clock", json={"advance": 101})
        assert _wait(c, few, lambda x: x["phase"] == "finished")["finish"] == "cancelled"
        started = _wait(c, filled, lambda x: x["phase"] != "open")
        assert started["phase"] == "running" and len(started["entrants"]) == 4


def test_a_rated_tournaments_matches_are_rated_and_move_the_ratings() -> None:
    with client(tournament_tick=3600.0, test_clock=True) as c:  # sweeps only when kicked
        people = [account(c) for _ in range(4)]  # a rated tournament is accounts' only
        tid = _create(c, people[0], rated=True)["id"]
        for who in people:
            c.post(f"/api/tournaments/{tid}/join", headers=auth(who))
        running = _wait(c, tid, lambda x: x["phase"] == "running")
        board = running["rounds"][0]["pairings"][0]
        _wait_room(c, board["room"])
        assert c.get(f"/api/rooms/{board['room']}").json()["rated"] is True
        player = lambda p: c.get(f"/api/players/{p}").json()["player"]  # noqa: E731
        before = {p: player(board[p]) for p in ("first", "second")}
        assert all(b["rated_matches"] == 0 for b in before.values())
        token_of = {c.get("/api/me", headers=auth(p)).json()["player"]["id"]: p for p in people}
        with c.websocket_connect("/ws") as one:
            hello(one, board["room"], token_of[board["first"]])
            one.send_json({"type": "resign"})
            receive_until(one, lambda m: m["type"] == "event" and m["kind"] == "forfeit")
        after = {p: player(board[p]) for p in ("first", "second")}
        assert after["first"]["rated_matches"] == after["second"]["rated_matches"] == 1
        assert after["first"]["rating"] < before["first"]["rating"]
        assert after["second"]["rating"] > before["second"]["rating"]


def test_a_matchs_end_pairs_the_next_round_at_once_without_waiting_for_a_sweep(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """With sweeps only when kicked, the rooms' match-end listener is what records the
    results and pairs round two (docs/tournaments.md: the pairing wakes at a match's end);
    the rooms of the round it has just paired are opened without asking the store first."""
    with client(tournament_tick=3600.0, test_clock=True) as c:
        store = c.app.state.rooms.store  # type: ignore[attr-defined]
        looked_up: list[str] = []
        load_room = store.load_room

        async def counted(room_id: str, *args: Any, **kwargs: Any) -> Any:
            if not args and kwargs.get("after") is None:  # a whole room read, not news
                looked_up.append(room_id)
            return await load_room(room_id, *args, **kwargs)

        monkeypatch.setattr(store, "load_room", counted)
        people = [identity(c) for _ in range(4)]
        tid = _create(c, people[0])["id"]  # a knockout of four: round two is the final
        for who in people:
            c.post(f"/api/tournaments/{tid}/join", headers=auth(who))
        running = _wait(c, tid, lambda x: x["phase"] == "running")
        token_of = {c.get("/api/me", headers=auth(p)).json()["player"]["id"]: p for p in people}
        for board in running["rounds"][0]["pairings"]:
            _wait_room(c, board["room"])
            with c.websocket_connect("/ws") as ws:
                hello(ws, board["room"], token_of[board["first"]])
                ws.send_json({"type": "resign"})
                receive_until(ws, lambda m: m["type"] == "event" and m["kind"] == "forfeit")
        paired = _wait(c, tid, lambda x: len(x["rounds"]) == 2)
        assert all(p["result"] is not None for p in paired["rounds"][0]["pairings"])
        (final,) = paired["rounds"][1]["pairings"]
        rooms = c.app.state.rooms  # type: ignore[attr-defined]
        deadline = time.monotonic() + 10
        while rooms.resident(final["room"]) is None:  # opened, asked of no one but the driver
            assert time.monotonic() < deadline, "the final's room never opened"
            time.sleep(0.02)
        assert final["room"] not in looked_up
        info = c.get(f"/api/rooms/{final['room']}").json()  # the table names its tournament
        assert (info["tournament"], info["tournament_name"], info["tournament_round"]) == (
            tid, "Friday Cup", 2,
        )  # fmt: skip


def test_commands_of_one_tournament_at_once_on_one_instance_never_race(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """A round's matches often end together: their results, decided at once on the same
    instance, are written one after the other, none decided anew, none lost."""
    with client(tournament_tick=3600.0, test_clock=True) as c:
        tid = _create(c, identity(c), max_players=8)["id"]
        service = c.app.state.tournaments  # type: ignore[attr-defined]

        def slow_join(i: int) -> Any:
            def decide(t: Any) -> Any:
                time.sleep(0.05)  # in a thread, as a Swiss pairing: the window for a race
                return commands.join(t, Entrant(f"p_{i}", f"P{i}", 1500.0), at=0.0)

            return decide

        async def all_at_once() -> None:
            await asyncio.gather(*(service.run(tid, slow_join(i)) for i in range(6)))

        with caplog.at_level("INFO", logger="ginrummy.server.tournaments"):
            c.portal.call(all_at_once)
        assert "written elsewhere" not in caplog.text
        t = c.get(f"/api/tournaments/{tid}").json()["tournament"]
        assert {e["id"] for e in t["entrants"]} >= {f"p_{i}" for i in range(6)}


def test_a_knockouts_first_round_keeps_two_who_block_each_other_apart() -> None:
    """Four people, equal ratings: seeded by joining, seed 1 would meet seed 4; one of
    them blocks the other, so round one is 1-3 and 2-4 (docs/tournaments.md)."""
    with client(**FAST) as c:
        people = [identity(c) for _ in range(4)]
        ids = [c.get("/api/me", headers=auth(t)).json()["player"]["id"] for t in people]
        r = c.put(f"/api/me/blocks/{ids[0]}", headers=auth(people[3]))
        assert r.status_code == 200, r.text
        tid = _create(c, people[0])["id"]
        for who in people:
            assert c.post(f"/api/tournaments/{tid}/join", headers=auth(who)).status_code == 200
        t = _wait(c, tid, lambda t: t["phase"] == "running")
        assert [e["id"] for e in t["entrants"]] == ids  # the seeds, in joining order
        boards = {frozenset((p["first"], p["second"])) for p in t["rounds"][0]["pairings"]}
        assert boards == {frozenset((ids[0], ids[2])), frozenset((ids[1], ids[3]))}
