"""GET /metrics: off by default, for the operators' token and addresses only, rate
limited; what a game moves in it; no label names a room, a player or a token."""

from __future__ import annotations

import doctest
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from prometheus_client.parser import text_string_to_metric_families
from starlette.testclient import TestClient, WebSocketTestSession

from ginrummy.server import metrics as metrics_module
from ginrummy.server import scrape as scrape_module
from ginrummy.server import settings as settings_module
from ginrummy.server.app import create_app
from ginrummy.server.metrics import Metrics
from ginrummy.server.settings import parse_networks

from .helpers import (
    Message,
    auth,
    client,
    create,
    hello,
    identity,
    my_turn,
    receive,
    receive_until,
)
from .helpers import settings as make_settings

TOKEN = "operator-token-0123456789"
Samples = dict[tuple[str, tuple[tuple[str, str], ...]], float]


def scrape(c: TestClient, token: str = TOKEN) -> Samples:
    """Every sample of a scrape, parsed back from the text: (name, labels) -> value."""
    r = c.get("/metrics", headers=auth(token))
    assert r.status_code == 200, r.text
    assert r.headers["content-type"].startswith("text/plain; version=")
    samples: Samples = {}
    for family in text_string_to_metric_families(r.text):
        for s in family.samples:
            samples[(s.name, tuple(sorted(s.labels.items())))] = s.value
    return samples


def value(samples: Samples, name: str, **labels: str) -> float:
    return samples.get((name, tuple(sorted(labels.items()))), 0.0)


def total(samples: Samples, name: str) -> float:
    return sum(v for (n, _), v in samples.items() if n == name)


def _play_one_move(ws: WebSocketTestSession, view: Message) -> Message:
    """This seat's next move, played: the view of its result."""
    view = my_turn(ws, view)
    version = view["version"]
    ws.send_json({"type": "act", "version": version, "action": view["view"]["legal_actions"][0]})
    return receive_until(ws, lambda m: m["type"] == "view" and m["version"] > version)


def test_metrics_are_off_by_default() -> None:
    with client() as c:
        assert c.get("/metrics").status_code == 404
        assert c.get("/metrics", headers=auth(TOKEN)).status_code == 404
        assert not c.app.state.metrics.on  # type: ignore[attr-defined]


def test_a_scrape_needs_the_operator_token() -> None:
    with client(metrics_token=TOKEN) as c:
        for headers in ({}, auth("operator-token-0123456780"), {"Authorization": TOKEN}):
            r = c.get("/metrics", headers=headers)
            assert r.status_code == 401, headers
            assert r.json()["error"]["code"] == "unauthorized"
            assert r.headers["www-authenticate"].startswith("Bearer")
        samples = scrape(c)
        assert ("ginrummy_move_seconds_count", ()) in samples
        assert value(samples, "ginrummy_errors_total", code="unauthorized", transport="http") == 3


def test_a_scrape_needs_an_operator_address() -> None:
    app = create_app(make_settings(metrics_allow=parse_networks("allow", "10.0.0.0/8")))
    with TestClient(app, client=("192.0.2.7", 4000)) as outsider:
        r = outsider.get("/metrics")
        assert r.status_code == 403 and r.json()["error"]["code"] == "forbidden"
    with TestClient(app, client=("10.1.2.3", 4000)) as operator:
        r = operator.get("/metrics")  # no token is set: the address is enough
        assert r.status_code == 200
        families = {f.name for f in text_string_to_metric_families(r.text)}
        assert {"ginrummy_games_in_play", "ginrummy_sockets_open"} <= families


def test_address_and_token_are_both_asked_when_both_are_set() -> None:
    allow = parse_networks("allow", "10.0.0.0/8")
    app = create_app(make_settings(metrics_allow=allow, metrics_token=TOKEN))
    with TestClient(app, client=("10.1.2.3", 4000)) as operator:
        assert operator.get("/metrics").status_code == 401
        assert operator.get("/metrics", headers=auth(TOKEN)).status_code == 200
    with TestClient(app, client=("192.0.2.7", 4000)) as outsider:
        assert outsider.get("/metrics", headers=auth(TOKEN)).status_code == 403


@contextmanager
def _solo_game() -> Iterator[tuple[TestClient, WebSocketTestSession, str, str]]:
    """A solo game against the computer, its seat's socket open, with metrics on."""
    with client(metrics_token=TOKEN) as c:
        token = identity(c)
        room = create(c, token, kind="solo", name="Ann")
        with c.websocket_connect("/ws") as ws:
            yield c, ws, token, room


def test_a_move_moves_the_counters_and_histograms() -> None:
    with _solo_game() as (c, ws, token, room):
        before = scrape(c)
        _, view = hello(ws, room, token)
        view = _play_one_move(ws, view)
        after = scrape(c)
        assert value(before, "ginrummy_move_seconds_count") == 0
        assert value(after, "ginrummy_move_seconds_count") == 1
        # the person's move and the computer's before or after it
        assert total(after, "ginrummy_actions_total") >= 1 + total(before, "ginrummy_actions_total")
        ops = {
            dict(labels)["op"]
            for (n, labels), v in after.items()
            if n.endswith("store_seconds_count") and v
        }
        assert {"add_identity", "create_room", "append_events"} <= ops
        appended = value(after, "ginrummy_store_seconds_count", op="append_events")
        assert appended > value(before, "ginrummy_store_seconds_count", op="append_events")
        assert value(after, "ginrummy_bus_publish_seconds_count") > 0
        assert value(after, "ginrummy_sockets_open", kind="room_seat") == 1
        assert value(after, "ginrummy_games_in_play", kind="solo") == 1
        assert value(after, "ginrummy_games_in_play", kind="room") == 0
        # the computer's decisions, by its level, once it has had a turn
        deadline = time.monotonic() + 10
        while not value(scrape(c), "ginrummy_computer_decision_seconds_count", level="casual"):
            assert time.monotonic() < deadline, "the computer never decided"
            if view["view"]["legal_actions"]:  # it is still this seat's turn (a draw)
                view = _play_one_move(ws, view)
            time.sleep(0.02)
    with client(metrics_token=TOKEN) as c:
        assert value(scrape(c), "ginrummy_sockets_open", kind="room_seat") == 0


def test_sockets_are_counted_by_what_they_are_bound_to() -> None:
    with client(metrics_token=TOKEN) as c, c.websocket_connect("/ws") as ws:
        token = identity(c)
        room = create(c, token, kind="room", opponent="bot:casual")  # spectators welcome
        assert value(scrape(c), "ginrummy_sockets_open", kind="unbound") == 1
        hello(ws, room)  # no token: a spectator
        samples = scrape(c)
        assert value(samples, "ginrummy_sockets_open", kind="unbound") == 0
        assert value(samples, "ginrummy_sockets_open", kind="room_spectator") == 1
        assert value(samples, "ginrummy_hello_seconds_count") == 1  # the hello, timed
        with c.websocket_connect("/ws") as lobby:
            lobby.send_json({"type": "hello_lobby", "token": token})
            receive(lobby)
            samples = scrape(c)
            assert value(samples, "ginrummy_sockets_open", kind="lobby") == 1
            assert value(samples, "ginrummy_hello_seconds_count") == 2
        app = c.app
    assert value(_registry_samples(app), "ginrummy_sockets_open", kind="room_spectator") == 0


def _registry_samples(app: Any) -> Samples:
    metrics: Metrics = app.state.metrics
    return {
        (s.name, tuple(sorted(s.labels.items()))): s.value
        for family in metrics.registry.collect()
        for s in family.samples
    }


def test_no_label_names_a_room_a_player_or_a_token() -> None:
    with _solo_game() as (c, ws, token, room):
        _, view = hello(ws, room, token)
        for _ in range(3):
            view = _play_one_move(ws, view)
        ws.send_json({"type": "act", "version": 0, "action": "discard 2c"})  # an error
        receive_until(ws, lambda m: m["type"] == "error")
        ws.send_json({"type": "chat", "text": "hello Bob"})
        c.get("/api/rooms/no-such-room-at-all")  # an error over HTTP
        c.get("/metrics", headers=auth("a-wrong-token-0123456789"))
        player = c.get("/api/me", headers=auth(token)).json()["player"]
        r = c.get("/metrics", headers=auth(TOKEN))
    secrets = {room, token, player["id"], player["name"], "Ann", "Bob", "no-such-room-at-all"}
    values = {
        v for family in text_string_to_metric_families(r.text) for s in family.samples
        for v in s.labels.values()
    }  # fmt: skip
    assert values  # the labels were read
    assert not [v for v in values for s in secrets if s.lower() in v.lower()]
    assert "stale_version" in values and "unknown_room" in values  # the errors' codes


def test_errors_sent_are_counted_by_code_and_transport() -> None:
    with _solo_game() as (c, ws, token, room):
        _, view = hello(ws, room, token)
        view = my_turn(ws, view)
        stale = {"type": "act", "version": view["version"] - 1, "action": "pass"}
        for _ in range(2):
            ws.send_json(stale)
            assert receive(ws)["code"] == "stale_version"
            receive(ws)  # the view again
        assert c.get("/api/rooms/nope").status_code == 404
        samples = scrape(c)
    assert value(samples, "ginrummy_errors_total", code="stale_version", transport="socket") == 2
    assert value(samples, "ginrummy_errors_total", code="unknown_room", transport="http") == 1


def test_refusals_are_counted_by_limit() -> None:
    with client(metrics_token=TOKEN, ws_rate=1.0, limit_lookups=1) as c:
        with c.websocket_connect("/ws") as ws:
            codes = []
            for _ in range(6):
                ws.send_json({"type": "ping"})
                codes.append(receive(ws).get("code"))
            assert "rate_limited" in codes
        assert c.get("/api/rooms/nope").status_code == 404
        assert c.get("/api/rooms/nope").status_code == 429  # refused in front of the routing
        samples = scrape(c)
    assert value(samples, "ginrummy_rate_limit_refusals_total", limit="frames") == codes.count(
        "rate_limited"
    )
    assert value(samples, "ginrummy_rate_limit_refusals_total", limit="lookups") == 1
    assert value(samples, "ginrummy_errors_total", code="rate_limited", transport="http") == 1


def test_scrapes_are_rate_limited_per_address() -> None:
    with client(metrics_token=TOKEN, limit_scrapes=2) as c:
        assert c.get("/metrics", headers=auth(TOKEN)).status_code == 200
        assert c.get("/metrics").status_code == 401  # a wrong scrape counts too
        refused = c.get("/metrics", headers=auth(TOKEN))
        assert refused.status_code == 429 and int(refused.headers["retry-after"]) >= 1
        assert refused.json()["error"]["code"] == "rate_limited"
        samples = _registry_samples(c.app)
    assert value(samples, "ginrummy_rate_limit_refusals_total", limit="scrapes") == 1


def test_a_tournament_rounds_turnover_is_timed() -> None:
    with client(metrics_token=TOKEN, tournament_tick=0.02, test_clock=True) as c:
        people = [identity(c) for _ in range(4)]
        body = {"name": "Cup", "format": "knockout", "max_players": 4}
        tid = c.post("/api/tournaments", json=body, headers=auth(people[0])).json()["tournament"][
            "id"
        ]
        for who in people:
            c.post(f"/api/tournaments/{tid}/join", headers=auth(who))
        running = _wait(c, tid, lambda t: t["phase"] == "running")
        token_of = {c.get("/api/me", headers=auth(p)).json()["player"]["id"]: p for p in people}
        assert value(scrape(c), "ginrummy_tournament_turnover_seconds_count") == 0
        for board in running["rounds"][0]["pairings"]:
            deadline = time.monotonic() + 10
            while c.get(f"/api/rooms/{board['room']}").status_code != 200:
                assert time.monotonic() < deadline, "a first round's room never opened"
                time.sleep(0.02)
            with c.websocket_connect("/ws") as ws:
                hello(ws, board["room"], token_of[board["first"]])
                ws.send_json({"type": "resign"})
                receive_until(ws, lambda m: m["type"] == "event" and m["kind"] == "forfeit")
        _wait(c, tid, lambda t: len(t["rounds"]) == 2)
        deadline = time.monotonic() + 10
        while value(scrape(c), "ginrummy_tournament_turnover_seconds_count") < 1:
            assert time.monotonic() < deadline, "the final's rooms never opened"
            time.sleep(0.02)
        assert value(scrape(c), "ginrummy_tournament_turnover_seconds_count") == 1


def _wait(c: TestClient, tid: str, pred: Any) -> dict[str, Any]:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        t: dict[str, Any] = c.get(f"/api/tournaments/{tid}").json()["tournament"]
        if pred(t):
            return t
        time.sleep(0.02)
    raise AssertionError("the tournament never got there")


@pytest.mark.parametrize("module", [metrics_module, scrape_module, settings_module])
def test_the_examples_in_the_docstrings_run(module: Any) -> None:
    result = doctest.testmod(module)
    assert result.attempted and not result.failed
