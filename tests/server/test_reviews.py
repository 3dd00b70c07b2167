"""Match reviews over HTTP: who may review what, the job's progress, the cached review,
and the match history on the player page."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from ginrummy.engine import MatchRecord, Seat
from ginrummy.review import Budget
from ginrummy.server import players as players_
from ginrummy.server.reviews import ReviewJobs
from ginrummy.server.settings import Settings
from ginrummy.server.store import ResultRow

from .helpers import Message, auth, client, create, hello, identity, receive, simple_choice

# Two worlds at least: one world gives no standard error (an infinite one).
SMALL = Budget(samples=2, screen=1, keep=1, confirm=0)


def _settings(tmp_path: Path) -> dict[str, Any]:
    return {"data_dir": tmp_path, "review_budget": SMALL}


def _play_then_resign(c: TestClient, room: str, token: str, moves: int = 12) -> list[str]:
    """Seat one makes up to ``moves`` plain choices against the computer (fewer when the
    computer ends the round first: the deal is random), then resigns; returns them."""
    made: list[str] = []
    with c.websocket_connect("/ws") as ws:
        _, latest = hello(ws, room, token)
        while len(made) < moves:
            view = latest["view"]
            if view["legal_actions"]:
                action = simple_choice(view)
                ws.send_json({"type": "act", "version": latest["version"], "action": action})
                made.append(action)
            elif view["table"]["match_phase"] != "round":
                break  # the round is over: resign between rounds
            msg: Message = receive(ws)
            while msg["type"] != "view":
                msg = receive(ws)
            latest = msg
        ws.send_json({"type": "resign"})
        while latest["view"]["table"]["match_phase"] != "over":
            latest = receive(ws)
            while latest["type"] != "view":
                latest = receive(ws)
    return made


def _poll(c: TestClient, path: str, headers: dict[str, str], timeout: float = 120.0) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        r = c.get(path, headers=headers)
        if r.status_code == 200:
            return r.json()
        assert r.status_code == 202, r.text
        body = r.json()
        assert body["state"] in ("queued", "running")
        assert 0 <= body["done"] <= body["total"] or body["total"] == 0
        time.sleep(0.05)
    raise AssertionError(f"the review of {path} did not finish in {timeout} s")


def test_a_player_reviews_their_seat_after_the_match(tmp_path: Path) -> None:
    with client(**_settings(tmp_path)) as c:
        ann = identity(c)
        room = create(c, ann, kind="solo", opponent="bot:casual")
        path = f"/api/rooms/{room}/review"
        r = c.post(path, headers=auth(ann))
        assert r.status_code == 403, r.text
        assert r.json()["error"]["code"] == "match_running"
        made = _play_then_resign(c, room, ann)
        r = c.post(path, headers=auth(ann))
        # The request only starts the job: it answers before the review is made.
        assert r.status_code == 202, r.text
        first = r.json()
        assert first["state"] in ("queued", "running")
        assert first["seat"] == "one"
        done = _poll(c, path, auth(ann))
        assert done["state"] == "done" and done["job"] == first["job"]
        review = done["review"]
        assert review["kind"] == "review" and review["seat"] == "one"
        assert review["samples"] == 2  # the settings' budget
        decisions = [d for rnd in review["rounds"] for d in rnd["decisions"]]
        assert [d["played"] for d in decisions] == made  # every decision of the seat, in order
        assert all("grade" in d for d in decisions)
        # Cached under the data dir: asked again, it is there at once.
        assert list((tmp_path / "reviews").glob("*.json"))
        again = c.get(path, headers=auth(ann))
        assert again.status_code == 200
        assert again.json()["review"] == review


def test_who_may_review_what(tmp_path: Path) -> None:
    with client(**_settings(tmp_path)) as c:
        ann, bob, eve = identity(c), identity(c), identity(c)
        private = create(c, ann, kind="solo", opponent="bot:casual")
        public = create(c, bob, kind="room", opponent="bot:casual", visibility="public")
        unknown = c.get("/api/rooms/nope/review", headers=auth(ann))
        assert unknown.status_code == 404
        assert unknown.json()["error"]["code"] == "unknown_room"
        # Nobody reviews a running match, not even a spectator of a public one.
        running = c.get(f"/api/rooms/{public}/review?seat=one", headers=auth(eve))
        assert running.json()["error"]["code"] == "match_running"
        _play_then_resign(c, private, ann, moves=2)
        _play_then_resign(c, public, bob, moves=2)

        def code(room: str, seat: str, token: str | None) -> tuple[int, str | None]:
            headers = auth(token) if token else {}
            r = c.get(f"/api/rooms/{room}/review?seat={seat}", headers=headers)
            return r.status_code, r.json().get("error", {}).get("code")

        # A player reviews their own seat only.
        assert code(private, "two", ann) == (403, "not_allowed")
        assert code(public, "two", bob) == (403, "not_allowed")
        # Strangers never review a private match; anyone reviews either seat of a public one.
        assert code(private, "one", eve) == (403, "not_allowed")
        assert code(private, "one", None) == (403, "not_allowed")
        assert code(public, "two", eve)[0] in (200, 202)
        assert code(public, "one", None)[0] in (200, 202)
        assert code(public, "three", eve) == (400, "bad_request")
        # Without a seat a spectator must say which; a player gets their own.
        assert code(public, "", eve) == (400, "bad_request")
        own = c.get(f"/api/rooms/{private}/review", headers=auth(ann))
        assert own.json()["seat"] == "one"


def test_one_job_per_review_at_a_time(tmp_path: Path) -> None:
    with client(**_settings(tmp_path)) as c:
        ann = identity(c)
        room = create(c, ann, kind="solo", opponent="bot:casual")
        _play_then_resign(c, room, ann, moves=20)
        jobs: ReviewJobs = c.app.state.reviews  # type: ignore[attr-defined]
        started = [c.post(f"/api/rooms/{room}/review", headers=auth(ann)).json() for _ in range(3)]
        assert len({s["job"] for s in started}) == 1
        _poll(c, f"/api/rooms/{room}/review", auth(ann))
        # The job's thread ends its bookkeeping just after the review is stored.
        deadline = time.monotonic() + 10
        while jobs.running() and time.monotonic() < deadline:
            time.sleep(0.01)
        assert not jobs.running()


def test_a_full_queue_answers_busy(tmp_path: Path) -> None:
    with client(**_settings(tmp_path), review_workers=1) as c:
        ann = identity(c)
        jobs: ReviewJobs = c.app.state.reviews  # type: ignore[attr-defined]
        jobs.limit = 0  # no room for another job
        room = create(c, ann, kind="solo", opponent="bot:casual")
        _play_then_resign(c, room, ann, moves=2)
        r = c.post(f"/api/rooms/{room}/review", headers=auth(ann))
        assert r.status_code == 503
        assert r.json()["error"]["code"] == "busy"


def test_the_player_page_lists_matches_newest_first_with_a_review_link(tmp_path: Path) -> None:
    with client(**_settings(tmp_path)) as c:
        ann = identity(c)
        first = create(c, ann, kind="solo", opponent="bot:casual")
        _play_then_resign(c, first, ann, moves=2)
        second = create(c, ann, kind="solo", opponent="bot:strong")
        _play_then_resign(c, second, ann, moves=2)
        me = c.get("/api/me", headers=auth(ann)).json()["player"]
        page = c.get(f"/api/players/{me['id']}").json()
        matches = page["matches"]
        assert [m["room"] for m in matches] == [second, first]
        assert [m["bot"] for m in matches] == ["strong", "casual"]
        assert all(m["won"] is False and m["forfeit"] == "resigned" for m in matches)
        assert matches[0]["review"] == f"/r/{second}/review/one"
        assert matches[0]["t"] >= matches[1]["t"]


def test_review_settings_from_the_environment() -> None:
    s = Settings.from_env({"GINRUMMY_REVIEW_WORKERS": "2", "GINRUMMY_REVIEW_SAMPLES": "4"})
    assert s.review_workers == 2
    assert s.review_budget == Budget(samples=4, screen=2, keep=2, confirm=8)
    assert Settings.from_env({}).review_budget == Budget()
    for bad in ({"GINRUMMY_REVIEW_SAMPLES": "1"}, {"GINRUMMY_REVIEW_WORKERS": "0"}):
        with pytest.raises(ValueError, match="at least"):
            Settings.from_env(bad)


def test_closing_the_pool_stops_a_running_review(tmp_path: Path) -> None:
    with client(**_settings(tmp_path)) as c:
        ann = identity(c)
        for _ in range(20):  # the deal is random: the computer may end the round early
            room = create(c, ann, kind="solo", opponent="bot:casual")
            if len(_play_then_resign(c, room, ann, moves=30)) >= 20:
                break
        else:
            pytest.fail("no deal of 20 tries lasted 20 moves")
        record = MatchRecord.from_dict(c.get(f"/api/rooms/{room}/record").json())
    # Many decisions, each on four times the default worlds: the review runs for seconds,
    # so it is still running when the pool closes however late the first poll comes.
    jobs = ReviewJobs(tmp_path / "other", Budget(samples=32, screen=8, keep=2, confirm=64))
    job = jobs.start(record, Seat.ONE)
    deadline = time.monotonic() + 30
    while (seen := jobs.start(record, Seat.ONE)).done == 0:
        assert time.monotonic() < deadline, "the review never started"
        time.sleep(0.005)
    assert seen.done < seen.total  # decisions are left to judge when the pool closes
    jobs.close()
    # It stopped at its next decision: a review left to run would have finished its
    # decisions and stored itself. (No bound on the time: a loaded machine may take
    # seconds for one decision on these worlds.)
    assert jobs.running() == 0
    assert jobs.cache.get(job.key) is None


def _row(room: str, seq: int, t: float, opponent: str | None, won: bool) -> ResultRow:
    return ResultRow(
        room=room, match_seq=seq, player="p_me", seat="two", opponent=opponent,
        bot=None if opponent else "casual", rated=False, won=won, rounds=3, gins=0,
        undercuts_scored=0, undercuts_suffered=0, points=30, margin=5 if won else -5,
        forfeit=None, rating=None, rd=None, t=t,
    )  # fmt: skip


def test_history_links_only_a_room_s_latest_match_to_its_review() -> None:
    rows = [
        _row("r_a", 3, 100.0, "p_bob", True),
        _row("r_a", 9, 200.0, "p_bob", False),  # a rematch in the same room
        _row("r_b", 1, 150.0, None, True),
    ]
    out = players_.history(rows, {"p_bob": "Bob#ab12"})
    assert [(m["room"], m["t"]) for m in out] == [("r_a", 200.0), ("r_b", 150.0), ("r_a", 100.0)]
    assert [m["review"] for m in out] == ["/r/r_a/review/two", "/r/r_b/review/two", None]
    assert out[0]["opponent"] == {"id": "p_bob", "name": "Bob#ab12"}
    assert out[1]["opponent"] is None and out[1]["bot"] == "casual"
    many = [_row(f"r_{i}", 1, float(i), None, False) for i in range(80)]
    assert len(players_.history(many, {})) == players_.HISTORY_LENGTH
