"""Client frames are read into typed structs (protocol/messages.py), one per ``type``."""

from __future__ import annotations

from pathlib import Path

import msgspec
import pytest

from ginrummy.protocol import ProtocolError
from ginrummy.protocol.messages import FRAMES, Act, Hello, Ping, Tips, decode_frame

ROOT = Path(__file__).resolve().parents[2]


def test_a_frame_is_read_into_the_struct_its_type_names() -> None:
    assert decode_frame('{"type": "act", "version": 4, "action": "discard Qs"}') == Act(
        version=4, action="discard Qs"
    )
    assert decode_frame(b'{"type": "tips", "on": false}') == Tips(on=False)
    hello = decode_frame('{"type": "hello", "room": "r1", "token": null}')
    assert hello == Hello(room="r1", token=None)
    assert hello.version is msgspec.UNSET  # not sent, which a null is not


def test_a_ping_keeps_the_json_type_of_its_t() -> None:
    for raw, t in (("7", 7), ("7.5", 7.5), ('"7"', "7")):
        frame = decode_frame('{"type": "ping", "t": ' + raw + "}")
        assert isinstance(frame, Ping)
        assert frame.t == t and type(frame.t) is type(t)


def test_the_refused_frame_is_named_with_its_type_and_the_field() -> None:
    with pytest.raises(ProtocolError) as refused:
        decode_frame('{"type": "act", "version": "4", "action": "pass"}')
    assert refused.value.code == "bad_message"
    assert str(refused.value).startswith("act: ")
    assert "version" in str(refused.value)


def test_every_frame_type_is_documented() -> None:
    protocol = (ROOT / "docs/protocol.md").read_text(encoding="utf-8")
    # Each client message is a row of a table of docs/protocol.md: | `type` | fields |
    assert [kind for kind in FRAMES if f"| `{kind}` |" not in protocol] == []
