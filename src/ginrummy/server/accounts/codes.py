"""One-time sign-in codes: shown on a signed-in device, typed into another browser.

A code is 12 characters from an alphabet without lookalikes (no 0/O, 1/I/L, U/V),
shown as ``ABCD-EFGH-JKMN``: 29^12, about 3.5 * 10^17 codes (58 bits). It lives 5
minutes, is used once, an account has at most one (a new one replaces the old), and the
store keeps only its SHA-256. Typing is forgiving: case, spaces and dashes do not
matter.

Guessing is bounded for the whole site, not per address: the store counts the failed
code sign-ins of each minute, and past ``FAILURES_PER_MINUTE`` of them code sign-ins
pause until the minute ends, whichever instance is asked. At 60 failures a minute an
attacker tries at most 86,400 codes a day; with 10,000 codes alive at once (one per
account, a busy site) each try hits with odds 10^4 / 3.5 * 10^17, about 3 * 10^-14, so
a day of guessing wins with odds about 2.5 * 10^-9 and a century about 10^-4
(docs/accounts.md, "Sign-in codes").

>>> shown("abcdefghjkmn")
'ABCD-EFGH-JKMN'
>>> typed(" abcd-efgh jkmn ") == typed("ABCDEFGHJKMN")
True
>>> well_formed("abcd efgh-jkmn"), well_formed("ABCD-EFGH")
(True, False)
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable

ALPHABET = "ABCDEFGHJKMNPQRSTWXYZ23456789"  # 29: no 0, O, 1, I, L, U, V
LENGTH = 12
GROUP = 4
LIFETIME_S = 300.0
FAILURES_PER_MINUTE = 60
"""Failed code sign-ins a minute, all addresses and instances together, before code
sign-ins pause until the minute ends."""


def new_code(choice: Callable[[str], str]) -> str:
    """A fresh code, each character drawn by ``choice`` (``secrets.choice``)."""
    return "".join(choice(ALPHABET) for _ in range(LENGTH))


def shown(code: str) -> str:
    """The code as a person reads it: groups of four joined by dashes."""
    code = code.upper()
    return "-".join(code[i : i + GROUP] for i in range(0, len(code), GROUP))


def typed(text: str) -> str:
    """What a person typed, as the code it means (upper case, no spaces or dashes)."""
    return "".join(ch for ch in text.upper() if ch not in " -\t")


def well_formed(text: str) -> bool:
    """Whether what a person typed can be a code at all (its length and alphabet); a
    malformed one is refused without asking the store or counting as a guess."""
    code = typed(text)
    return len(code) == LENGTH and all(ch in ALPHABET for ch in code)


def minute(now: float) -> int:
    """The minute ``now`` falls in: the failures' counting window."""
    return int(now // 60)


def code_hash(code: str) -> str:
    """What the store keeps of a code."""
    return hashlib.sha256(("sign-in code:" + typed(code)).encode()).hexdigest()
