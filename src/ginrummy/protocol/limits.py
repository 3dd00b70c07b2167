"""The one source of the protocol's validation limits: names, chat, quick phrases.

The server checks every name and chat message with these functions, and
``GET /api/config`` serves the same numbers, pattern and phrases to the browser
(docs/protocol.md, "Configuration"), so the page never refuses what the server
accepts, nor the other way round.

One rule for every name a person types (a seat name in ``POST /api/rooms`` and
``join``, a nickname in ``PUT /api/me``): after NFC normalisation and collapsing
whitespace runs to one space, 2 to 20 characters, each a letter, a digit, a space,
``-``, ``_`` or ``.``. Letters and digits are the Unicode categories L* and N*,
exactly what ``\\p{L}`` and ``\\p{N}`` mean in the served JavaScript pattern.
Lengths count code points, as Python's ``len`` does.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from typing import Any

NAME_MIN = 2
NAME_MAX = 20
NAME_PUNCTUATION = " -_."
CHAT_MAX = 200

# Bidirectional overrides and isolates: they would turn the text around them.
_BIDI = frozenset(chr(c) for c in (*range(0x202A, 0x202F), *range(0x2066, 0x206A)))


@dataclass(frozen=True, slots=True)
class Phrase:
    """A quick chat phrase: its key on the wire and its text in each language."""

    key: str
    de: str
    en: str


PHRASES = (
    Phrase("gg", "Gutes Spiel!", "Good game!"),
    Phrase("gl", "Viel Glück!", "Good luck!"),
    Phrase("thanks", "Danke!", "Thanks!"),
    Phrase("nice", "Schöner Zug!", "Nice move!"),
)
PHRASE_KEYS = tuple(p.key for p in PHRASES)


class BadName(ValueError):
    """A name that the rule refuses; the message says why."""


class BadChat(ValueError):
    """A chat text that the rule refuses; the message says why."""


def _collapse(text: str) -> str:
    return " ".join(text.split())


def _name_char(ch: str) -> bool:
    return unicodedata.category(ch)[0] in "LN" or ch in NAME_PUNCTUATION


def clean_name(raw: object) -> str:
    """The name as stored and shown, or ``BadName`` with the reason.

    >>> clean_name("  Ann   Lee ")
    'Ann Lee'
    >>> clean_name("Jo\u0308rg")
    'Jörg'
    """
    if not isinstance(raw, str):
        raise BadName("a name must be a text")
    name = _collapse(unicodedata.normalize("NFC", raw))
    if not NAME_MIN <= len(name) <= NAME_MAX:
        raise BadName(f"a name has {NAME_MIN} to {NAME_MAX} characters")
    bad = sorted({ch for ch in name if not _name_char(ch)})
    if bad:
        raise BadName(
            "a name may use letters, digits, spaces, '-', '_' and '.' only, not "
            + " ".join(repr(ch) for ch in bad)
        )
    return name


def clean_chat(raw: str) -> str:
    """Chat text as stored and sent: whitespace runs collapsed; plain text, never markup.

    >>> clean_chat("  <b>hi</b>  ")
    '<b>hi</b>'
    """
    text = _collapse(raw)
    if not 1 <= len(text) <= CHAT_MAX:
        raise BadChat(f"a chat message has 1 to {CHAT_MAX} characters")
    if any(ch in _BIDI or unicodedata.category(ch) in ("Cc", "Cs", "Co", "Cn") for ch in text):
        raise BadChat("a chat message may not contain control characters")
    return text


def name_pattern() -> str:
    """The JavaScript (flag ``u``) pattern a whole name matches, from the same constants.

    >>> name_pattern()
    '^[\\\\p{L}\\\\p{N} \\\\-_.]+$'
    """
    escaped = "".join("\\" + ch if ch in "\\]^-" else ch for ch in NAME_PUNCTUATION)
    return f"^[\\p{{L}}\\p{{N}}{escaped}]+$"


def config() -> dict[str, Any]:
    """The body of ``GET /api/config``."""
    return {
        "limits": {
            "name": {
                "min": NAME_MIN,
                "max": NAME_MAX,
                "pattern": name_pattern(),
                "punctuation": NAME_PUNCTUATION,
            },
            "chat": {"max": CHAT_MAX},
        },
        "phrases": [{"key": p.key, "text": {"de": p.de, "en": p.en}} for p in PHRASES],
    }
