"""The refusals of the friends' flows, each with its wire code (docs/protocol.md)."""

from __future__ import annotations


class FriendError(Exception):
    """A refused friends' request; nothing was changed."""

    def __init__(self, code: str, message: str) -> None:
        self.code = code
        self.message = message
        super().__init__(message)
