"""Browser identities: unguessable tokens, stored only as their SHA-256 hash."""

from __future__ import annotations

import hashlib
import secrets


def new_token() -> str:
    """32 random bytes, URL-safe base64 (43 characters)."""
    return secrets.token_urlsafe(32)


def hash_token(token: str) -> str:
    """The hex SHA-256 of a token: what the store keeps and looks up."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def new_room_id() -> str:
    """A short random room id for invite links (about 48 bits)."""
    return secrets.token_urlsafe(6)
