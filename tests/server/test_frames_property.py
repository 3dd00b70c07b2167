"""Any malformed frame, on a room socket or the lobby socket of a real server: exactly
one ``error`` frame with a documented code, every frame strict JSON, the socket open.

A fuzzer once dropped ~875 of 20,000 sockets per run (deep nesting, lone surrogates,
NaN echoed in a pong); this keeps every such kind of frame in the suite.
"""

from __future__ import annotations

import itertools
import json
import math
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from websockets.sync.client import ClientConnection, connect

from .live import Live, live
from .test_sockets import seat_socket, strict

# A server, a service or a bench: the system layer (tests/conftest.py).
pytestmark = pytest.mark.system

# docs/protocol.md, "Error codes": what a malformed frame may be answered with.
MALFORMED = {"bad_json", "bad_message", "bad_number", "bad_text", "unknown_type", "frame_too_large"}
# Frames a socket may be sent at any time besides answers (room and lobby traffic).
UNASKED = {"view", "event", "presence", "chat", "lobby", "tips"}

# docs/protocol.md, "Client -> server": each field's JSON types (number: int or float).
FIELDS: dict[str, dict[str, tuple[type, ...]]] = {
    "hello": {"room": (str,), "token": (str, type(None)), "version": (int,)},
    "act": {"version": (int,), "action": (str,)},
    "next_round": {"version": (int,)},
    "new_match": {"version": (int,)},
    "ping": {"t": (int, float, str)},
    "hello_lobby": {"token": (str, type(None)), "tournament": (str, type(None)), "lobby": (bool,)},
    "chat": {"text": (str,), "phrase": (str,)},
    "tips": {"on": (bool,)},
}
KNOWN = {*FIELDS, "resync", "tip", "claim", "resign"}
SAMPLES: list[Any] = [None, True, False, 0, 7, -1, 2.5, "", "x", [], [1], {}, {"a": 1}]

lone_surrogates = st.characters(min_codepoint=0xD800, max_codepoint=0xDFFF)
bad_text = st.builds(
    lambda a, s, b: a + s + b, st.text(max_size=5), lone_surrogates, st.text(max_size=5)
)
bad_numbers = st.sampled_from([math.nan, math.inf, -math.inf, 2**53, -(2**53), 10**40, -(10**300)])
json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)


def _wrong_type(types: tuple[type, ...]) -> st.SearchStrategy[Any]:
    def wrong(value: Any) -> bool:
        if isinstance(value, bool):
            return bool not in types
        return not isinstance(value, types)

    return st.sampled_from([v for v in SAMPLES if wrong(v)])


def _nested(depth: int) -> Any:
    value: Any = 1
    for _ in range(depth):
        value = [value]
    return value


@st.composite
def bad_messages(draw: st.DrawFn) -> str:
    """A message of a known type with one thing wrong: a required field missing, an
    unknown field, or a field's type or value (NaN, Infinity, beyond 2**53, a lone
    surrogate, deep nesting); written as JSON text with NaN/Infinity literals."""
    kind = draw(st.sampled_from(sorted(KNOWN)))
    fields = FIELDS.get(kind, {})
    message: dict[str, Any] = {"type": kind}
    if kind in ("act", "hello", "tips") and draw(st.booleans()):
        return json.dumps(message)  # a required field is missing
    flaws = ["type", "number", "text", "nesting", "extra"] if fields else ["extra"]
    flaw = draw(st.sampled_from(flaws))
    if flaw == "extra":
        name = draw(st.text(min_size=1, max_size=8).filter(lambda n: n not in {*fields, "type"}))
        message[name] = draw(json_values | bad_text)
        return json.dumps(message, allow_nan=True)
    name = draw(st.sampled_from(sorted(fields)))
    if flaw == "type":
        message[name] = draw(_wrong_type(fields[name]))
    elif flaw == "number":
        message[name] = draw(bad_numbers)
    elif flaw == "text":
        message[name] = draw(bad_text)
    else:
        message[name] = _nested(draw(st.integers(17, 900)))
    return json.dumps(message, allow_nan=True)


def _not_a_message(text: str) -> bool:
    """True unless ``text`` happens to be an object of a known type (then it may be
    a valid message, which is not what this test sends)."""
    try:
        value = json.loads(text)
    except (ValueError, RecursionError):
        return True
    kind = value.get("type") if isinstance(value, dict) else None
    return not (isinstance(kind, str) and kind in KNOWN)  # a list or an object is no type


frames = st.one_of(
    st.text(max_size=200).filter(_not_a_message),
    st.binary(max_size=200),
    json_values.map(json.dumps).filter(_not_a_message),
    st.integers(17, 2000).map(lambda n: "[" * n + "]" * n),
    st.integers(17, 1300).map(lambda n: '{"a":' * n + "1" + "}" * n),
    st.builds(
        lambda s: json.dumps({"type": s}), st.text(max_size=12).filter(lambda t: t not in KNOWN)
    ),
    bad_text.map(lambda s: json.dumps({s: 1, "type": "ping"})),
    bad_messages(),
    st.integers(4097, 6000).map(lambda n: '{"type": "ping", "t": "' + "x" * n + '"}'),
)

_markers = itertools.count()


def _answer(ws: ClientConnection, frame: str | bytes) -> list[dict[str, Any]]:
    """Send ``frame``, then a ping; every frame received before its pong."""
    ws.send(frame)
    marker = f"m{next(_markers)}"
    ws.send(json.dumps({"type": "ping", "t": marker}))
    received = []
    while True:
        message = strict(ws.recv(timeout=10))  # ConnectionClosed fails the test
        assert isinstance(message, dict), message
        if message == {"type": "pong", "t": marker}:
            return received
        received.append(message)


def _check(ws: ClientConnection, frame: str | bytes) -> None:
    received = _answer(ws, frame)
    errors = [m for m in received if m["type"] == "error"]
    assert len(errors) == 1, (frame, received)
    assert errors[0]["code"] in MALFORMED, (frame, errors[0])
    assert {m["type"] for m in received} - {"error"} <= UNASKED, received


@pytest.fixture(scope="module")
def server() -> Iterator[Live]:
    with live() as running:
        yield running


@pytest.fixture(scope="module")
def room_socket(server: Live) -> Iterator[ClientConnection]:
    with seat_socket(server) as ws:
        yield ws


@pytest.fixture(scope="module")
def lobby_socket(server: Live) -> Iterator[ClientConnection]:
    with connect(server.ws_url, open_timeout=5) as ws:
        ws.send(json.dumps({"type": "hello_lobby", "token": None}))
        assert strict(ws.recv(timeout=10))["type"] == "lobby"
        yield ws


FUZZ = settings(
    max_examples=400,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


@FUZZ
@given(frame=frames)
def test_a_room_socket_answers_every_malformed_frame(
    room_socket: ClientConnection, frame: str | bytes
) -> None:
    _check(room_socket, frame)


@FUZZ
@given(frame=frames)
def test_the_lobby_socket_answers_every_malformed_frame(
    lobby_socket: ClientConnection, frame: str | bytes
) -> None:
    _check(lobby_socket, frame)
