"""Every bad client frame gets its exact error code (docs/protocol.md, "Error codes"),
whatever decodes it; the codes are the ones the hand-written decoder gave."""

from __future__ import annotations

import pytest

from ginrummy.protocol import ProtocolError, decode_client_message

REFUSED = [
    ("x" * 4097, "frame_too_large"),
    ("", "bad_json"),
    ("{nope", "bad_json"),
    ('{"type": "ping"} {}', "bad_json"),
    ("[" * 17 + "]" * 17, "bad_json"),
    ('{"type": "ping", "t": ' + "[" * 20 + "]" * 20 + "}", "bad_json"),
    (b'{"type": "ping", "t": "\xff"}', "bad_json"),
    ('{"type": "ping", "t": NaN}', "bad_number"),
    ('{"type": "ping", "t": -Infinity}', "bad_number"),
    ('{"type": "ping", "t": 1e400}', "bad_number"),
    ('{"type": "ping", "t": 9007199254740992}', "bad_number"),
    ('{"type": "hello", "room": "r", "version": -9007199254740992}', "bad_number"),
    ('{"type": "act", "version": 1e999, "action": "pass"}', "bad_number"),
    ('{"type": "ping", "t": "\\udc00"}', "bad_text"),
    ('{"type": "ping", "\\udc00x": 1}', "bad_text"),
    ("[]", "bad_message"),
    ('"hello"', "bad_message"),
    ("7", "bad_message"),
    ("null", "bad_message"),
    ("{}", "unknown_type"),
    ('{"type": null}', "unknown_type"),
    ('{"type": 3}', "unknown_type"),
    ('{"type": "HELLO", "room": "r"}', "unknown_type"),
    ('{"type": "dance"}', "unknown_type"),
    ('{"type": "hello"}', "bad_message"),
    ('{"type": "hello", "room": 5}', "bad_message"),
    ('{"type": "hello", "room": "r", "version": null}', "bad_message"),
    ('{"type": "hello", "room": "r", "version": 1.0}', "bad_message"),
    ('{"type": "hello", "room": "r", "token": 7}', "bad_message"),
    ('{"type": "hello", "room": "r", "colour": "red"}', "bad_message"),
    ('{"type": "act", "version": 1}', "bad_message"),
    ('{"type": "act", "version": true, "action": "pass"}', "bad_message"),
    ('{"type": "act", "version": "1", "action": "pass"}', "bad_message"),
    ('{"type": "act", "version": 1, "action": ["pass"]}', "bad_message"),
    ('{"type": "next_round", "version": "2"}', "bad_message"),
    ('{"type": "new_match", "version": false}', "bad_message"),
    ('{"type": "resync", "version": 1}', "bad_message"),
    ('{"type": "tip", "x": 1}', "bad_message"),
    ('{"type": "tips", "on": 1}', "bad_message"),
    ('{"type": "tips", "on": null}', "bad_message"),
    ('{"type": "ping", "t": true}', "bad_message"),
    ('{"type": "ping", "t": null}', "bad_message"),
    ('{"type": "ping", "t": {}}', "bad_message"),
    ('{"type": "hello_lobby", "lobby": "yes"}', "bad_message"),
    ('{"type": "hello_lobby", "tournament": 1}', "bad_message"),
    ('{"type": "chat", "text": 5}', "bad_message"),
    ('{"type": "chat", "phrase": null}', "bad_message"),
    ('{"type": "claim", "now": true}', "bad_message"),
    ('{"type": "resign", "seat": "one"}', "bad_message"),
    ('{"type": "seed"}', "bad_message"),
    ('{"type": "seed", "seed": "ab", "commitment": 5}', "bad_message"),
    ('{"type": "advice", "action": "pass"}', "bad_message"),
    ('{"type": "advice", "version": 1, "card": 7}', "bad_message"),
    ('{"type": "ask_advice"}', "bad_message"),
    ('{"type": "team_chat", "text": []}', "bad_message"),
    ('{"type": "next_match", "version": null}', "bad_message"),
]

TAKEN = [
    ('{"type": "hello", "room": "r"}', {"room": "r"}),
    ('{"type": "hello", "room": "r", "token": null, "version": 3}', {"room": "r", "token": None, "version": 3}),  # noqa: E501
    ('{"type": "act", "version": 9007199254740991, "action": "pass"}', {"version": 2**53 - 1, "action": "pass"}),  # noqa: E501
    ('{"type": "ping", "t": 1.5}', {"t": 1.5}),
    ('{"type": "ping", "t": "m1"}', {"t": "m1"}),
    ('{"type": "ping"}', {}),
    ('{"type": "hello_lobby", "token": null, "tournament": null, "lobby": false}', {"token": None, "tournament": None, "lobby": False}),  # noqa: E501
    ('{"type": "chat", "phrase": "gg"}', {"phrase": "gg"}),
    ('{"type": "seed", "seed": "ab"}', {"seed": "ab"}),
    ('{"type": "advice", "version": 2, "card": "7h"}', {"version": 2, "card": "7h"}),
    (b'\xef\xbb\xbf{"type": "resync"}', {}),
    ('  {"type": "claim"}\n', {}),
]  # fmt: skip


@pytest.mark.parametrize(
    ("frame", "code"), REFUSED, ids=[c + ":" + repr(f)[:40] for f, c in REFUSED]
)
def test_a_bad_frame_gets_its_exact_code(frame: str | bytes, code: str) -> None:
    with pytest.raises(ProtocolError) as refused:
        decode_client_message(frame)
    assert refused.value.code == code


@pytest.mark.parametrize(("frame", "fields"), TAKEN)
def test_a_good_frame_is_read_with_the_fields_it_was_sent_with(
    frame: str | bytes, fields: dict[str, object]
) -> None:
    message = decode_client_message(frame)
    assert message.fields == fields
