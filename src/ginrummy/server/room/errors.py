"""The one error a room answers a refused request with."""

from __future__ import annotations


class RoomError(Exception):
    """A refused request; ``code`` is the wire error code (docs/protocol.md)."""

    def __init__(self, code: str, message: str) -> None:
        self.code = code
        self.message = message
        super().__init__(message)
