"""Logs a machine can read: JSON lines with the request, room and seat at hand, an access
log without query strings that can be switched off, request ids, and no token or hidden
card in any line."""

from __future__ import annotations

import io
import json
import logging
import os
import re
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import connect

from ginrummy.server.logformat import LogFormat, configure_logging, log_handler
from ginrummy.server.main import parse_settings
from ginrummy.server.settings import Settings

from .helpers import auth, client, create, hello, identity, receive, simple_choice
from .live import live

CARD = re.compile(r"\b[A2-9TJQK][cdhs]\b")


@contextmanager
def captured(log_format: LogFormat = "json", level: int = logging.DEBUG) -> Iterator[io.StringIO]:
    """What the server logs meanwhile, as ``ginrummy serve`` would write it."""
    out = io.StringIO()
    handler = log_handler(log_format, out)
    # The server's loggers; not the test's HTTP client (httpx logs its URLs).
    handler.addFilter(lambda record: record.name.startswith(("ginrummy", "uvicorn")))
    root = logging.getLogger()
    before = root.level
    root.addHandler(handler)
    root.setLevel(level)
    try:
        yield out
    finally:
        root.removeHandler(handler)
        root.setLevel(before)


def lines(out: io.StringIO) -> list[dict[str, Any]]:
    return [json.loads(line) for line in out.getvalue().splitlines()]


def access_lines(out: io.StringIO) -> list[dict[str, Any]]:
    return [line for line in lines(out) if line["logger"] == "ginrummy.access"]


def test_json_lines_carry_time_level_logger_message_and_the_request() -> None:
    with client() as c, captured() as out:
        token = identity(c)
        room = create(c, token, opponent="bot:casual")
        r = c.get(f"/api/rooms/{room}", headers={"X-Request-ID": "trace-17"})
        assert r.status_code == 200
    parsed = lines(out)
    assert parsed, "nothing was logged"
    for line in parsed:
        assert {"time", "level", "logger", "message"} <= line.keys()
        assert line["time"].endswith("Z") and "T" in line["time"]
    (access,) = [a for a in access_lines(out) if a.get("request_id") == "trace-17"]
    assert access["method"] == "GET"
    assert access["path"] == f"/api/rooms/{room}"
    assert access["status"] == 200
    assert access["duration_ms"] >= 0
    assert access["room"] == room  # the request's room, noted where the API looks it up
    assert access["level"] == "INFO"


def test_an_exception_goes_in_the_exc_field() -> None:
    log = logging.getLogger("ginrummy.server.test")
    with captured() as out:
        try:
            raise ValueError("boom")
        except ValueError:
            log.exception("it failed")
    (line,) = lines(out)
    assert line["message"] == "it failed"
    assert "Traceback" in line["exc"] and "ValueError: boom" in line["exc"]


def test_a_line_logged_while_a_room_socket_is_handled_names_the_room_and_seat() -> None:
    with client() as c:
        token = identity(c)
        room = create(c, token, opponent="bot:casual")
        with captured() as out, c.websocket_connect("/ws") as ws:
            _, frame = hello(ws, room, token)
            _play(ws, frame, moves=2)
    joined = [line for line in lines(out) if "joined the socket" in line["message"]]
    assert joined, out.getvalue()
    assert joined[0]["room"] == room
    assert joined[0]["seat"] == "one"
    assert joined[0]["logger"] == "ginrummy.server.sockets"
    # The socket's lines carry the request id of its handshake, too.
    assert joined[0]["request_id"]
    # Seat one's moves, and everything the room logged meanwhile, name the room.
    room_lines = [line for line in lines(out) if line["logger"] == "ginrummy.server.room"]
    assert room_lines and all(line.get("room") == room for line in room_lines), room_lines
    moves = [line for line in room_lines if line["message"].startswith(f"room {room}: seat one")]
    assert any(" plays " in line["message"] for line in moves), room_lines
    assert all(line["seat"] == "one" for line in moves)


def _play(ws: Any, frame: dict[str, Any], moves: int) -> list[str]:
    """Up to ``moves`` moves of seat one against the computer, waiting for the computer's
    turns (it may move first); its hand at the end."""
    hand: list[str] = []
    played = 0
    while played < moves:
        view = frame["view"]
        hand = list(view["hand"]) or hand
        if view["legal_actions"]:
            action = simple_choice(view)
            ws.send_json({"type": "act", "version": frame["version"], "action": action})
            played += 1
        elif view["table"]["round_phase"] == "over" or view["table"]["match_phase"] != "round":
            break  # nothing more to play in this round
        while (frame := receive(ws))["type"] != "view":
            pass
    return hand


def _play_a_while(c: Any, token: str, room: str) -> list[str]:
    with c.websocket_connect("/ws") as ws:
        _, frame = hello(ws, room, token)
        return _play(ws, frame, moves=6)


@pytest.mark.parametrize("log_format", ["json", "text"])
def test_no_token_and_no_hand_in_any_line(log_format: LogFormat) -> None:
    with client() as c, captured(log_format) as out:
        token = identity(c)
        room = create(c, token, opponent="bot:casual")
        hand = _play_a_while(c, token, room)
        c.get(f"/api/rooms/{room}", headers=auth(token))
        c.get("/api/me", headers=auth(token))
        # A client that puts its token where it should not: in a query string, as the
        # request id.
        c.get(f"/api/health?token={token}", headers={"X-Request-ID": token})
    text = out.getvalue()
    assert "GET /api/health" in text  # the access log was on
    assert token not in text
    # No line names a hand: the moves' lines name one card at most (a discard), a knock's
    # or gin's none.
    assert len(hand) >= 10
    for line in text.splitlines():
        assert len(CARD.findall(line)) < 3, line


def test_the_access_log_has_no_query_string() -> None:
    with client() as c, captured() as out:
        c.get("/api/health?secret=s3cr3t")
    (line,) = access_lines(out)
    assert line["path"] == "/api/health"
    assert "s3cr3t" not in out.getvalue()


def test_the_access_log_can_be_switched_off() -> None:
    with client(access_log=False) as c, captured() as out:
        assert c.get("/api/health").status_code == 200
    assert access_lines(out) == []
    assert Settings().access_log is True
    assert Settings.from_env({"GINRUMMY_ACCESS_LOG": "0"}).access_log is False
    assert parse_settings(["--no-access-log"], Settings()).access_log is False
    with pytest.raises(ValueError, match="GINRUMMY_ACCESS_LOG"):
        Settings.from_env({"GINRUMMY_ACCESS_LOG": "off"})


def test_a_request_id_is_echoed_and_a_bad_one_replaced() -> None:
    with client() as c, captured() as out:
        good = c.get("/api/health", headers={"X-Request-ID": "lb-1a2b.3c:4"})
        assert good.headers["x-request-id"] == "lb-1a2b.3c:4"
        for bad in (b"two words", b"x" * 41, b"<script>", "é".encode(), b""):
            answer = c.get("/api/health", headers={"X-Request-ID": bad})
            made = answer.headers["x-request-id"]
            assert made.encode() != bad and len(made) == 16
        # Unasked, only an error answer carries one (the id a person reports).
        assert "x-request-id" not in c.get("/api/health").headers
        missing = c.get("/api/rooms/no-such-room")
        assert missing.status_code == 404 and len(missing.headers["x-request-id"]) == 16
        # Not on the client's files, which the browser keeps (docs/offline.md's budget).
        for path in ("/", "/static/app.js", "/sw.js"):
            assert "x-request-id" not in c.get(path, headers={"X-Request-ID": "f-1"}).headers
    ids = [line["request_id"] for line in access_lines(out)]
    made, files = ids[:-3], ids[-3:]
    assert made[0] == "lb-1a2b.3c:4" and len(set(made)) == len(made)
    assert files == ["f-1"] * 3  # in the log all the same


@pytest.mark.system  # a live uvicorn
def test_under_uvicorn_a_socket_gets_its_id_and_leaves_no_query_string() -> None:
    """uvicorn's own lines of a WebSocket handshake (with the query string) are dropped;
    the access log says the same without it, and says nothing when switched off."""
    uvicorn_error = logging.getLogger("uvicorn.error")
    for access_log in (True, False):
        with live(access_log=access_log) as server, captured() as out, info(uvicorn_error):
            url = f"{server.ws_url}?token=s3cr3t"
            headers = {"X-Request-ID": "sock-9"}
            with connect(url, additional_headers=headers, open_timeout=5) as ws:
                assert ws.response is not None
                assert ws.response.headers["x-request-id"] == "sock-9"
            with server.http() as http:
                http.get("/api/health?token=s3cr3t")
        text = out.getvalue()
        assert "s3cr3t" not in text
        handshakes = [a for a in access_lines(out) if a["path"] == "/ws"]
        if access_log:
            assert [(a["status"], a["request_id"]) for a in handshakes] == [(101, "sock-9")]
        else:
            assert handshakes == [] and "WebSocket" not in text


@contextmanager
def info(logger: logging.Logger) -> Iterator[None]:
    """``logger`` at INFO meanwhile (the tests' uvicorn runs at WARNING)."""
    before = logger.level
    logger.setLevel(logging.INFO)
    try:
        yield
    finally:
        logger.setLevel(before)


def test_text_stays_the_default_format() -> None:
    assert Settings().log_format == "text"
    assert parse_settings([], Settings()).log_format == "text"
    assert Settings.from_env({"GINRUMMY_LOG_FORMAT": "json"}).log_format == "json"
    assert parse_settings(["--log-format", "json"], Settings()).log_format == "json"
    with pytest.raises(ValueError, match="GINRUMMY_LOG_FORMAT"):
        Settings.from_env({"GINRUMMY_LOG_FORMAT": "xml"})
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    out = io.StringIO()
    try:
        configure_logging(parse_settings([], Settings()).log_format, "info", out)
        logging.getLogger("ginrummy.server").info("room %s: created", "ab12")
    finally:
        for handler in list(root.handlers):
            root.removeHandler(handler)
        for handler in handlers:
            root.addHandler(handler)
        root.setLevel(level)
    line = out.getvalue().strip()
    assert line.endswith(" INFO ginrummy.server: room ab12: created")
    assert not line.startswith("{")


@pytest.mark.system  # a server process
def test_serve_writes_json_lines_uvicorns_included(tmp_path: Path) -> None:
    port = _free_port()
    env = {**os.environ, "GINRUMMY_LOG_FORMAT": "json"}
    cmd = [sys.executable, "-m", "ginrummy", "serve", "--port", str(port), "--db", "memory://"]
    cmd += ["--data-dir", str(tmp_path)]
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 20
        attempt = 0
        while True:
            # A fresh id for each try: a try that timed out on a busy machine may still
            # have reached the server and written its own access line.
            attempt += 1
            request_id = f"smoke-{attempt}"
            try:
                r = httpx.get(
                    f"http://127.0.0.1:{port}/api/health?token=s3cr3t",
                    headers={"X-Request-ID": request_id},
                    timeout=1,
                )
                break
            except httpx.TransportError:
                assert proc.poll() is None, "the server stopped"
                assert time.monotonic() < deadline, "the server did not start"
                time.sleep(0.1)
        assert r.headers["x-request-id"] == request_id
    finally:
        proc.terminate()
        _, err = proc.communicate(timeout=15)
    parsed = [json.loads(line) for line in err.decode().splitlines()]
    loggers = {line["logger"] for line in parsed}
    assert {"uvicorn.error", "ginrummy.server", "ginrummy.access"} <= loggers
    tagged = [line for line in parsed if line.get("request_id") == request_id]
    accesses = [line for line in tagged if line["logger"] == "ginrummy.access"]
    assert len(accesses) == 1, tagged
    (access,) = accesses
    assert (access["path"], access["status"]) == ("/api/health", 200)
    assert "s3cr3t" not in err.decode()


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port
