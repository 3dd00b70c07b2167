"""The token bucket every rate limit of the server uses: a socket's frames and chat,
and the per-address limits of ``ratelimit``."""

from __future__ import annotations

import time


class Bucket:
    """A token bucket: ``rate`` per second, at most ``burst`` at once.

    >>> bucket = Bucket(rate=1.0, burst=2)
    >>> bucket.take(), bucket.take(), bucket.take()
    (True, True, False)
    """

    def __init__(self, rate: float, burst: float) -> None:
        self.rate, self.burst, self.allowance = rate, burst, burst
        self.last = time.monotonic()

    def refill(self) -> float:
        """The allowance now (tokens, whole or not), with what has come in since last time."""
        now = time.monotonic()
        self.allowance = min(self.burst, self.allowance + (now - self.last) * self.rate)
        self.last = now
        return self.allowance

    def take(self) -> bool:
        if self.refill() < 1:
            return False
        self.allowance -= 1
        return True
