"""Client frames decoded into typed values: one msgspec struct per ``type``.

``decode_client_message`` reads a frame with msgspec straight into its struct (the
``type`` field picks it): a valid frame is read once, in C. msgspec refuses everything
the protocol refuses (text that is not JSON, ``NaN``/``Infinity``, a lone surrogate, an
unknown type or field, a wrong type, an integer beyond ±(2**53 − 1)) but with its own
words; a refused frame is read again by the strict reader (``wire.parse_json``) only to
name the protocol's error code, in the order docs/protocol.md lists them: ``bad_json``,
``bad_number``, ``bad_text``, then ``bad_message`` (not an object), ``unknown_type``,
``bad_message`` (a field). No frame nests: a struct's fields are flat, so a frame
deeper than the limit is refused as well.
"""

from __future__ import annotations

import typing
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Annotated, Any, TypeAlias

import msgspec
from msgspec import UNSET, UnsetType

from ginrummy.protocol.codec import MAX_FRAME_BYTES, ProtocolError
from ginrummy.protocol.wire import MAX_SAFE_INTEGER, WireError, parse_json

Int = Annotated[int, msgspec.Meta(ge=-MAX_SAFE_INTEGER, le=MAX_SAFE_INTEGER)]
"""An integer every JSON reader reads exactly (a larger one is ``bad_number``)."""


class Frame(msgspec.Struct, tag_field="type", forbid_unknown_fields=True, frozen=True):
    """A client frame; a field left ``UNSET`` was not sent (null is a value)."""


class Hello(Frame, tag="hello", frozen=True):
    room: str
    token: str | UnsetType | None = UNSET
    version: Int | UnsetType = UNSET


class Act(Frame, tag="act", frozen=True):
    version: Int
    action: str


class NextRound(Frame, tag="next_round", frozen=True):
    version: Int | UnsetType = UNSET


class NewMatch(Frame, tag="new_match", frozen=True):
    version: Int | UnsetType = UNSET


class Resync(Frame, tag="resync", frozen=True):
    pass


class Tip(Frame, tag="tip", frozen=True):
    pass


class Tips(Frame, tag="tips", frozen=True):
    on: bool


class Ping(Frame, tag="ping", frozen=True):
    t: Int | float | str | UnsetType = UNSET


class HelloLobby(Frame, tag="hello_lobby", frozen=True):
    token: str | UnsetType | None = UNSET
    tournament: str | UnsetType | None = UNSET
    lobby: bool | UnsetType = UNSET
    table: str | UnsetType | None = UNSET  # the tournament table the page is at
    # friends (docs/accounts.md): a page's feed of friends' news and challenges only
    feed: bool | UnsetType = UNSET


class Chat(Frame, tag="chat", frozen=True):
    text: str | UnsetType = UNSET
    phrase: str | UnsetType = UNSET


class Claim(Frame, tag="claim", frozen=True):
    pass


class Resign(Frame, tag="resign", frozen=True):
    pass


class Seed(Frame, tag="seed", frozen=True):
    seed: str
    commitment: str | UnsetType = UNSET


# chouette rooms (docs/protocol.md, "Chouette rooms")
class Advice(Frame, tag="advice", frozen=True):
    version: Int
    action: str | UnsetType = UNSET
    card: str | UnsetType = UNSET


class AskAdvice(Frame, tag="ask_advice", frozen=True):
    version: Int


class TeamChat(Frame, tag="team_chat", frozen=True):
    text: str | UnsetType = UNSET
    phrase: str | UnsetType = UNSET


class NextMatch(Frame, tag="next_match", frozen=True):
    version: Int | UnsetType = UNSET


AnyFrame: TypeAlias = (
    Hello | Act | NextRound | NewMatch | Resync | Tip | Tips | Ping | HelloLobby | Chat | Claim
    | Resign | Seed | Advice | AskAdvice | TeamChat | NextMatch
)  # fmt: skip
FRAMES: Mapping[str, type[Frame]] = {
    str(kind.__struct_config__.tag): kind for kind in typing.get_args(AnyFrame)
}
"""Every frame type by its ``type``."""

_DECODER = msgspec.json.Decoder(AnyFrame)

T = typing.TypeVar("T")


def sent(value: T | UnsetType) -> T | None:
    """A field's value as sent, None if it was not.

    >>> sent(Chat(text="hi").phrase) is None
    True
    """
    return None if isinstance(value, UnsetType) else value


@dataclass(frozen=True, slots=True)
class ClientMessage:
    """A decoded client frame: the typed ``frame``, its ``type`` and (``fields``) the
    fields it was sent with by wire name (those not ``UNSET``)."""

    frame: Frame

    @property
    def type(self) -> str:
        return str(self.frame.__struct_config__.tag)

    @property
    def fields(self) -> Mapping[str, Any]:
        frame = self.frame
        return {
            name: value
            for name in frame.__struct_fields__
            if (value := getattr(frame, name)) is not UNSET
        }


def decode_client_message(raw: str | bytes) -> ClientMessage:
    """Parse and validate one client frame; raises ``ProtocolError`` with a wire code."""
    return ClientMessage(decode_frame(raw))


def decode_frame(raw: str | bytes) -> Frame:
    """One client frame as its struct; raises ``ProtocolError`` with a wire code."""
    if len(raw) > MAX_FRAME_BYTES:
        raise ProtocolError("frame_too_large", f"frames are limited to {MAX_FRAME_BYTES} bytes")
    try:
        frame: Frame = _DECODER.decode(raw)
    except msgspec.MsgspecError:
        return _refused(raw)
    return frame


def _refused(raw: str | bytes) -> Frame:
    """A frame msgspec refused, read again to name the error (``ProtocolError``); the
    frame itself if the strict reader takes it (text msgspec does not read: a BOM)."""
    try:
        data = parse_json(raw)
    except WireError as exc:
        raise ProtocolError(exc.code, str(exc)) from None
    if not isinstance(data, dict):
        raise ProtocolError("bad_message", "a message is a JSON object with a 'type'")
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in FRAMES:
        known = ", ".join(sorted(FRAMES))
        raise ProtocolError("unknown_type", f"unknown message type {kind!r}; known: {known}")
    try:
        frame: Frame = msgspec.convert(data, FRAMES[kind])
    except msgspec.ValidationError as exc:
        raise ProtocolError("bad_message", f"{kind}: {exc}") from None
    return frame
