"""Request bodies decoded into typed values (msgspec), refused with the API's error codes.

A body is a JSON object of at most ``MAX_BODY_BYTES`` (an empty body counts as ``{}``);
each route names its ``Body`` struct. Refusals, in this order (docs/protocol.md, "HTTP"):
not JSON or not an object (``bad_json``), a field the body does not have (``bad_request``,
naming every one), a field of the wrong type (the code the struct's ``CODES`` gives the
field, else ``bad_request``). What a field's value means (a preset that exists, a name
the name rule allows) is the route's to check.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, ClassVar, TypeVar

import msgspec
from starlette.requests import Request

from ginrummy.server.api.errors import ApiError

MAX_BODY_BYTES = 4096


class Body(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    """A request body; ``CODES``: the error code of a field of the wrong type."""

    CODES: ClassVar[Mapping[str, str]] = {}


B = TypeVar("B", bound=Body)

_FIELD = re.compile(r"at `\$\.([A-Za-z_]+)")
_OBJECT = msgspec.json.Decoder(dict[str, Any])


async def read_object(request: Request) -> dict[str, Any]:
    """The body as a JSON object, not looked into (``bad_json`` unless it is one)."""
    raw = await request.body()
    if len(raw) > MAX_BODY_BYTES:
        raise ApiError("bad_request", f"the body is limited to {MAX_BODY_BYTES} bytes", 413)
    if not raw.strip():
        return {}
    try:
        return _OBJECT.decode(raw)
    except msgspec.ValidationError as exc:  # not an object, or a number out of range
        raise ApiError("bad_json", f"the body must be a JSON object: {exc}") from None
    except msgspec.DecodeError:
        raise ApiError("bad_json", "the body is not valid JSON") from None


def decode(data: Mapping[str, Any], body: type[B]) -> B:
    """``data`` as a ``body``: unknown fields, then wrong types refused (see above)."""
    if body.__struct_config__.forbid_unknown_fields:
        unknown = sorted(set(data) - set(body.__struct_fields__))
        if unknown:
            raise ApiError("bad_request", f"unknown field(s): {', '.join(unknown)}")
    try:
        return msgspec.convert(data, body)
    except msgspec.ValidationError as exc:
        found = _FIELD.search(str(exc))
        field = found.group(1) if found is not None else ""
        raise ApiError(body.CODES.get(field, "bad_request"), str(exc)) from None


async def read(request: Request, body: type[B]) -> B:
    """The request's body decoded as a ``body``."""
    return decode(await read_object(request), body)


def given(body: Body) -> dict[str, Any]:
    """The fields a body was sent with (those left ``UNSET`` are not)."""
    return {
        name: value
        for name in body.__struct_fields__
        if (value := getattr(body, name)) is not msgspec.UNSET
    }
