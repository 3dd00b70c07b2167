"""Strict JSON in and out: the three frames that used to kill a socket, and the rest."""

from __future__ import annotations

import json
import math
from typing import Any

import pytest

from ginrummy.protocol import ProtocolError, WireError, decode_client_message, parse_json, to_json


def _strict(text: str) -> Any:
    """What a strict reader makes of ``text`` (NaN/Infinity and lone surrogates refused)."""

    def refuse(name: str) -> None:
        raise ValueError(f"{name} is not JSON")

    text.encode("utf-8")  # raises on a lone surrogate
    return json.loads(text, parse_constant=refuse)


def _code(raw: str | bytes) -> str:
    with pytest.raises(ProtocolError) as caught:
        decode_client_message(raw)
    return caught.value.code


def test_a_thousand_nested_arrays_are_bad_json_not_a_recursion_error() -> None:
    frame = "[" * 1000 + "]" * 1000
    assert len(frame) < 4096
    assert _code(frame) == "bad_json"
    assert _code('{"type": "ping", "t": ' + "[" * 1500 + "]" * 1500 + "}") == "bad_json"


def test_nesting_deeper_than_sixteen_levels_is_refused() -> None:
    assert _code("[" * 17 + "]" * 17) == "bad_json"
    with pytest.raises(WireError):
        parse_json('{"a":' * 17 + "1" + "}" * 17)
    assert parse_json("[" * 16 + "]" * 16) == [[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]


@pytest.mark.parametrize(
    "frame",
    [
        '{"type": "ping", "\\ud800": 1}',
        '{"type": "ping", "t": "\\ud800"}',
        '{"type": "hello", "room": "abc", "token": "x\\udfff"}',
        '{"type": "hello", "room": "\\ud800"}',
        '{"type": "chat", "text": "hi \\ude00 there"}',
        '{"type": "\\ud83d"}',
    ],
)
def test_lone_surrogates_are_refused_as_bad_text(frame: str) -> None:
    assert _code(frame) == "bad_text"


def test_a_surrogate_pair_is_one_character_and_fine() -> None:
    message = decode_client_message('{"type": "chat", "text": "\\ud83d\\ude00"}')
    assert message.fields["text"] == "\U0001f600"


@pytest.mark.parametrize(
    "frame",
    [
        '{"type": "ping", "t": NaN}',
        '{"type": "ping", "t": Infinity}',
        '{"type": "ping", "t": -Infinity}',
        '{"type": "ping", "t": 1e999}',
        '{"type": "act", "version": 9007199254740992, "action": "pass"}',
        '{"type": "ping", "t": -' + "9" * 400 + "}",
    ],
)
def test_numbers_must_be_finite_and_exact(frame: str) -> None:
    assert _code(frame) == "bad_number"


def test_the_largest_exact_integers_are_read() -> None:
    assert parse_json("[9007199254740991, -9007199254740991, 1e308]") == [
        2**53 - 1,
        -(2**53 - 1),
        1e308,
    ]


def test_to_json_refuses_nan_and_replaces_lone_surrogates() -> None:
    with pytest.raises(ValueError):
        to_json({"t": math.nan})
    with pytest.raises(ValueError):
        to_json([math.inf])
    text = to_json({"\udc00": "a\ud800b", "ok": "Jörg \U0001f600"})
    assert _strict(text) == {"\ufffd": "a\ufffdb", "ok": "Jörg \U0001f600"}


def test_tips_takes_a_boolean_and_nothing_else() -> None:
    assert decode_client_message('{"type": "tips", "on": true}').fields == {"on": True}
    assert _code('{"type": "tips", "on": 1}') == "bad_message"
    assert _code('{"type": "tips"}') == "bad_message"
    # Booleans are no numbers where numbers are wanted.
    assert _code('{"type": "act", "version": true, "action": "pass"}') == "bad_message"
