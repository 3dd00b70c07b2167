"""Strict JSON text in and out: what every frame and HTTP body the server sends is made
of, and how client frames are read.

Strict means what every JSON parser accepts the same way (RFC 8259, I-JSON):
numbers are finite (no ``NaN``/``Infinity``) and integers lie within JavaScript's exact
range; text is Unicode (no lone surrogate, which UTF-8 cannot carry); nesting is
shallow.

>>> to_json({"t": 1.5, "name": "Jörg"})
'{"t":1.5,"name":"Jörg"}'
>>> parse_json('[1, 2.5, "\\u00e9"]')
[1, 2.5, 'é']
"""

from __future__ import annotations

import json
import logging
import math
import re
from typing import Any, NoReturn

log = logging.getLogger("ginrummy.protocol.wire")

MAX_SAFE_INTEGER = 2**53 - 1
"""The largest integer every JSON reader (JavaScript's included) reads exactly."""

MAX_DEPTH = 16
"""Deepest nesting of arrays and objects read from a client (messages are flat)."""

_SURROGATE = re.compile("[\ud800-\udfff]")
_ENCODER = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False, allow_nan=False)


class WireError(ValueError):
    """JSON text that is not strict JSON; ``code`` is the wire error code.

    ``bad_json`` (not JSON at all, or nested too deeply), ``bad_number`` (``NaN``,
    ``Infinity``, a number beyond the exact range), ``bad_text`` (a lone surrogate)."""

    def __init__(self, code: str, message: str) -> None:
        self.code = code
        super().__init__(message)


def to_json(value: Any) -> str:
    """Compact strict JSON text: refuses ``NaN``/``Infinity`` (``ValueError``).

    A lone surrogate cannot travel as UTF-8 and is written as U+FFFD: inputs refuse
    such text (``parse_json``), so only a message quoting a refused input has one.

    >>> to_json(["\\ud800"])
    '["\ufffd"]'
    """
    text = _ENCODER.encode(value)
    if _SURROGATE.search(text) is not None:
        log.debug("a lone surrogate in an outgoing message was replaced")
        text = _SURROGATE.sub("\ufffd", text)
    return text


def parse_json(raw: str | bytes) -> Any:
    """The value of strict JSON text (bytes are UTF-8); ``WireError`` otherwise."""
    try:
        value = json.loads(
            raw,
            parse_constant=_refuse_constant,
            parse_float=_finite_float,
            parse_int=_safe_int,
        )
    except WireError:
        raise
    except RecursionError:
        # The parser recurses once per level: a frame of a thousand '[' exhausts it.
        raise WireError("bad_json", "the message is nested too deeply") from None
    except (ValueError, UnicodeDecodeError):
        raise WireError("bad_json", "the message is not valid JSON") from None
    _check_tree(value)
    return value


def _refuse_constant(name: str) -> NoReturn:
    raise WireError("bad_number", f"{name} is not a JSON number")


def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise WireError("bad_number", "numbers must be finite")
    return value


def _safe_int(text: str) -> int:
    if len(text) > 17:  # 2**53 has 16 digits: longer texts are out of range (or huge)
        raise WireError("bad_number", "integers must lie within ±(2**53 - 1)")
    value = int(text)
    if abs(value) > MAX_SAFE_INTEGER:
        raise WireError("bad_number", "integers must lie within ±(2**53 - 1)")
    return value


def _check_tree(value: Any) -> None:
    """Refuse nesting deeper than ``MAX_DEPTH`` and text with lone surrogates."""
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, str):
            _check_text(item)
        elif isinstance(item, list | dict):
            if depth > MAX_DEPTH:
                raise WireError("bad_json", f"messages nest at most {MAX_DEPTH} levels deep")
            if isinstance(item, dict):
                for key in item:
                    _check_text(key)
                item = item.values()
            stack.extend((child, depth + 1) for child in item)


def _check_text(text: str) -> None:
    if _SURROGATE.search(text) is not None:
        raise WireError("bad_text", "text must be Unicode: a lone surrogate is not")
