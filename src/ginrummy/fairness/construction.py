"""The construction ``gin-fair-v1``: from a server seed, two seat seeds and the deal's
context to a deck order (docs/fairness.md, where every byte is specified).

The server commits to its seed by publishing ``commitment(seed)`` before the seats send
theirs; the deck is the engine's Fisher-Yates shuffle driven by an HMAC-SHA256 counter
stream keyed by the server seed, with rejection sampling so that no index is favoured.

>>> server = bytes(range(32))
>>> deck = deal_deck(server, DealContext(bytes(32), bytes([255]) * 32, "room", 1, 1))
>>> len(set(deck)), commitment(server)[:16]
(52, '630dcd2966c43366')
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Iterator
from dataclasses import dataclass
from itertools import count

from ginrummy.engine import Card, FairBlock, Pair, Seat, shuffled_deck

VERSION = "gin-fair-v1"
SEED_BYTES = 32
_HEX_DIGITS = frozenset("0123456789abcdef")
_DEFAULT_SEED_LABEL = VERSION + "/default-seat-seed"
_PHRASE_SEED_LABEL = VERSION + "/phrase-seat-seed"
_U64 = 1 << 64


class FairnessError(ValueError):
    """Base class of the errors of the fairness package."""


class SeedError(FairnessError):
    """A seed or commitment of the wrong length or encoding."""


@dataclass(frozen=True, slots=True)
class DealContext:
    """Everything besides the server seed that a deck depends on."""

    seat_one: bytes  # the seat seeds, SEED_BYTES each
    seat_two: bytes
    room: str
    match: int  # the match's number in the room
    round: int  # the round's number in the match, from 1

    def seed(self, seat: Seat) -> bytes:
        return self.seat_two if seat is Seat.TWO else self.seat_one


def parse_seed(text: str, name: str = "seed") -> bytes:
    """Read a 32-byte seed written as 64 lowercase hex digits; ``SeedError`` names ``name``.

    >>> parse_seed("ab" * 32)[:2]
    b'\\xab\\xab'
    """
    if len(text) != 2 * SEED_BYTES or not _HEX_DIGITS.issuperset(text):
        shown = f"{len(text)} characters" if len(text) != 2 * SEED_BYTES else repr(text)
        raise SeedError(
            f"{name}: expected {2 * SEED_BYTES} lowercase hex digits ({SEED_BYTES} bytes), "
            f"got {shown}"
        )
    return bytes.fromhex(text)


def check_seed(seed: bytes, name: str = "seed") -> bytes:
    if len(seed) != SEED_BYTES:
        raise SeedError(f"{name}: expected {SEED_BYTES} bytes, got {len(seed)}")
    return seed


def new_seed() -> bytes:
    """A fresh seed from the operating system's secure source (for the server's own)."""
    return secrets.token_bytes(SEED_BYTES)


def commitment(server_seed: bytes) -> str:
    """SHA-256 of the server seed as 64 lowercase hex digits: shown before the deal."""
    return hashlib.sha256(check_seed(server_seed, "server seed")).hexdigest()


def field(data: bytes) -> bytes:
    """One field of a message: its length as 4 bytes big-endian, then its bytes."""
    return len(data).to_bytes(4, "big") + data


def number(value: int) -> bytes:
    """A whole number as 8 bytes big-endian (0 <= value < 2**64)."""
    if not 0 <= value < _U64:
        raise FairnessError(f"numbers are 0 to 2**64 - 1, got {value}")
    return value.to_bytes(8, "big")


def deal_message(context: DealContext) -> bytes:
    """The HMAC message of a deal (before the block counter)."""
    return b"".join(
        field(part)
        for part in (
            VERSION.encode("ascii"),
            check_seed(context.seat_one, "seat seed one"),
            check_seed(context.seat_two, "seat seed two"),
            context.room.encode("utf-8"),
            number(context.match),
            number(context.round),
        )
    )


def stream(server_seed: bytes, message: bytes) -> Iterator[int]:
    """The bytes of block 0, 1, 2, ...: HMAC-SHA256(server seed, message || counter)."""
    key = check_seed(server_seed, "server seed")
    for counter in count():
        yield from hmac.digest(key, message + number(counter), "sha256")


def below(n: int, source: Iterator[int]) -> int:
    """An integer in [0, n) for 2 <= n <= 256, unbiased: mask each byte of ``source`` to
    the bit length of n - 1 and skip the values >= n (rejection sampling).

    >>> below(52, iter([255, 63, 200, 17]))  # 63 & 63 = 63, skipped; 200 & 63 = 8
    8
    """
    if not 2 <= n <= 256:
        raise FairnessError(f"below(n) needs 2 <= n <= 256, got {n}")
    mask = (1 << (n - 1).bit_length()) - 1
    for byte in source:
        value = byte & mask
        if value < n:
            return value
    raise FairnessError("the byte source ended")  # the HMAC stream never does


class StreamDraws:
    """The engine's ``RandomSource`` over a byte stream: ``randrange`` is ``below``."""

    __slots__ = ("_source",)

    def __init__(self, source: Iterator[int]) -> None:
        self._source = source

    def randrange(self, stop: int, /) -> int:
        return below(stop, self._source)


def deal_deck(server_seed: bytes, context: DealContext) -> tuple[Card, ...]:
    """The deck of a deal: the engine's Fisher-Yates (i = 51 down to 1, swap i with
    ``below(i + 1)``) over the canonical order, driven by the deal's stream."""
    return shuffled_deck(StreamDraws(stream(server_seed, deal_message(context))))


def _seat_message(label: str, room: str, match: int, round: int, seat: Seat) -> bytes:
    """The fields a seat's derived seed is computed over (docs/fairness.md §5)."""
    parts = (label.encode("ascii"), room.encode("utf-8"), number(match), number(round))
    return b"".join(field(part) for part in (*parts, seat.label.encode("ascii")))


def default_seat_seed(identity_hash: bytes, room: str, match: int, round: int, seat: Seat) -> bytes:
    """The seed of a seat that sent none in time: HMAC-SHA256 keyed by the SHA-256 of
    the seat's browser identity token (what the server stores) over the deal's context.
    The seat's owner can recompute it from its token; the other seat cannot."""
    message = _seat_message(_DEFAULT_SEED_LABEL, room, match, round, seat)
    return hmac.digest(check_seed(identity_hash, "identity hash"), message, "sha256")


def phrase_seat_seed(phrase: str, room: str, match: int, round: int, seat: Seat) -> bytes:
    """The seed a browser sends for a person who set a seed phrase (docs/fairness.md
    §5a): HMAC-SHA256 keyed by the phrase's UTF-8 bytes (as typed, not normalised) over
    the deal's context, so the person can recompute every round's seed from the phrase.

    >>> phrase_seat_seed("correct horse", "k3Xa_9", 1, 1, Seat.ONE).hex()[:16]
    'ca9ba0c41e855f28'
    """
    if not phrase:
        raise FairnessError("a seed phrase must not be empty")
    message = _seat_message(_PHRASE_SEED_LABEL, room, match, round, seat)
    return hmac.digest(phrase.encode("utf-8"), message, "sha256")


def fair_block(server_seed: bytes, context: DealContext, *, revealed: bool = True) -> FairBlock:
    """The record's fair block of a deal; ``revealed=False`` while the round runs."""
    return FairBlock(
        version=VERSION,
        commitment=commitment(server_seed),
        server_seed=server_seed.hex() if revealed else None,
        seeds=Pair(context.seat_one.hex(), context.seat_two.hex()),
        room=context.room,
        match=context.match,
        round=context.round,
    )
