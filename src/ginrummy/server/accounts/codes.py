"""One-time sign-in codes: shown on a signed-in device, typed into another browser.

A code is 8 characters from an alphabet without lookalikes (no 0/O, 1/I/L, U/V),
shown as ``ABCD-EFGH``: 29^8, about 5 * 10^11 codes. It lives 5 minutes, is used
once, and the store keeps only its SHA-256. Typing is forgiving: case, spaces and
dashes do not matter. Guessing is bounded by the sign-in rate limit per address
(``GINRUMMY_LIMIT_SIGN_INS``): at 30 a minute, with a thousand codes alive at once, an
address would need about 30 years to hit one.

>>> shown("abcdefgh")
'ABCD-EFGH'
>>> typed(" abcd-efgh ") == typed("ABCDEFGH")
True
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable

ALPHABET = "ABCDEFGHJKMNPQRSTWXYZ23456789"  # 29: no 0, O, 1, I, L, U, V
LENGTH = 8
LIFETIME_S = 300.0


def new_code(choice: Callable[[str], str]) -> str:
    """A fresh code, each character drawn by ``choice`` (``secrets.choice``)."""
    return "".join(choice(ALPHABET) for _ in range(LENGTH))


def shown(code: str) -> str:
    """The code as a person reads it: two groups of four."""
    code = code.upper()
    return f"{code[:4]}-{code[4:]}"


def typed(text: str) -> str:
    """What a person typed, as the code it means (upper case, no spaces or dashes)."""
    return "".join(ch for ch in text.upper() if ch not in " -\t")


def code_hash(code: str) -> str:
    """What the store keeps of a code."""
    return hashlib.sha256(("sign-in code:" + typed(code)).encode()).hexdigest()
