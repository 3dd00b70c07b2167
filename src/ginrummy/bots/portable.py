"""The bots' random source: one seeded generator that Python and the browser share.

``PortableRandom`` is a :class:`random.Random` whose bits come from xoshiro128**
(Blackman and Vigna, 2018: 128 bits of state, 32-bit outputs), seeded by splitmix64
from a 64-bit seed. Only the bit source is replaced: ``choice``, ``randrange`` and
friends stay Python's, and go through ``_randbelow_with_getrandbits`` (rejection
sampling: unbiased). ``web/js/bots/random.js`` mirrors the class bit for bit, so a
bot decides the same in the browser for the same seed (docs/browser-engine.md).

What the JavaScript side mirrors, and nothing more:

- ``seed(n)``: ``n`` modulo 2**64; splitmix64 gives two 64-bit words, split low word
  first into the four 32-bit state words (an all-zero state, which xoshiro cannot
  leave, becomes ``(1, 0, 0, 0)``). A ``str`` or ``bytes`` seed is first the first 8
  bytes of its SHA-256, big-endian; ``None`` takes 64 bits from the OS.
- ``getrandbits(k)``: 32-bit words, the first word the lowest; the last word keeps its
  top ``k mod 32`` bits (``k <= 32``: one word shifted right by ``32 - k``).
- ``random()``: 53 bits from two words, ``(a >> 5) * 2**26 + (b >> 6)`` over 2**53
  (CPython's ``genrand_res53``).

The server's deals do not use it: they stay on the OS's CSPRNG.

>>> rng = PortableRandom(1)
>>> [rng.getrandbits(32) for _ in range(3)]
[1695105466, 1423115009, 634581793]
>>> PortableRandom(1).choice("abcdef")
'd'
"""

from __future__ import annotations

import hashlib
import random
import secrets

_M32 = 0xFFFFFFFF
_M64 = 0xFFFFFFFFFFFFFFFF
_VERSION = 0x786F7331  # "xos1": xoshiro128**, first version of this class


def _splitmix64(x: int) -> tuple[int, int]:
    """The next state and output of splitmix64 (Steele, Lea and Flood, 2014)."""
    x = (x + 0x9E3779B97F4A7C15) & _M64
    z = x
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _M64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _M64
    return x, z ^ (z >> 31)


def seed_words(seed: int) -> tuple[int, int, int, int]:
    """The four 32-bit state words for a seed (taken modulo 2**64)."""
    x, a = _splitmix64(seed & _M64)
    _, b = _splitmix64(x)
    words = (a & _M32, a >> 32, b & _M32, b >> 32)
    return words if any(words) else (1, 0, 0, 0)


def _rotl(x: int, k: int) -> int:
    return ((x << k) | (x >> (32 - k))) & _M32


class PortableRandom(random.Random):
    """A seeded ``random.Random`` with a portable xoshiro128** bit source."""

    _s: tuple[int, int, int, int]

    def seed(self, a: object = None, version: int = 2) -> None:
        """Seed from an int (mod 2**64), a str or bytes (SHA-256), or None (the OS)."""
        if a is None:
            n = secrets.randbits(64)
        elif isinstance(a, int):
            n = a
        elif isinstance(a, str | bytes | bytearray):
            data = a.encode() if isinstance(a, str) else bytes(a)
            n = int.from_bytes(hashlib.sha256(data).digest()[:8], "big")
        else:
            raise TypeError(f"PortableRandom seeds are int, str or bytes, not {type(a).__name__}")
        self._s = seed_words(n)
        self.gauss_next = None

    def next32(self) -> int:
        """The next 32-bit output of xoshiro128**."""
        s0, s1, s2, s3 = self._s
        result = (_rotl((s1 * 5) & _M32, 7) * 9) & _M32
        t = (s1 << 9) & _M32
        s2 ^= s0
        s3 ^= s1
        s1 ^= s2
        s0 ^= s3
        s2 ^= t
        self._s = (s0, s1, s2, _rotl(s3, 11))
        return result

    def getrandbits(self, k: int) -> int:
        if k < 0:
            raise ValueError("number of bits must be non-negative")
        out, shift = 0, 0
        while k > 0:
            word = self.next32()
            if k < 32:
                word >>= 32 - k
            out |= word << shift
            shift += 32
            k -= 32
        return out

    def random(self) -> float:
        a, b = self.next32() >> 5, self.next32() >> 6
        return (a * 67108864 + b) * (1.0 / 9007199254740992.0)

    def getstate(self) -> tuple[int, ...]:
        """The version tag and the four state words (``gauss`` is not portable)."""
        return (_VERSION, *self._s)

    def setstate(self, state: tuple[int, ...]) -> None:
        if len(state) != 5 or state[0] != _VERSION:
            raise ValueError(f"not a PortableRandom state: {state!r}")
        s0, s1, s2, s3 = (w & _M32 for w in state[1:])
        self._s = (s0, s1, s2, s3)
        self.gauss_next = None


__all__ = ["PortableRandom", "seed_words"]
