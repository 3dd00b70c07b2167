"""The store's part for friends (docs/accounts.md, "Friends"): who follows whom, each
person's privacy switches, challenges between two people, and where people are.

Everything is keyed by player id (public: it names the bus topic of a person's sockets,
``quick.player_topic``). Two people are *friends* when each follows the other.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

CHALLENGE_STATES = ("open", "accepted", "declined", "withdrawn")


@dataclass(frozen=True, slots=True)
class Follow:
    """``follower`` asked to be friends with ``followee`` (or follows back: friends)."""

    follower: str  # player id
    followee: str  # player id
    created: float


@dataclass(frozen=True, slots=True)
class Social:
    """A person's privacy switches; both off unless they were set."""

    hide_whereabouts: bool = False  # friends see "online", never where
    friends_only: bool = False  # challenges only from friends


@dataclass(frozen=True, slots=True)
class MatchChallenge:
    """A challenge to a match from ``sender`` to ``receiver``: open until answered,
    withdrawn or ``expires``; ``room`` once accepted and opened."""

    id: str  # "c_" + random
    sender: str  # player id
    receiver: str  # player id
    preset: str
    target_score: int | None
    created: float
    expires: float
    state: str = "open"  # one of CHALLENGE_STATES
    room: str | None = None


@dataclass(frozen=True, slots=True)
class Whereabouts:
    """Where a person is, as one instance last saw their sockets."""

    place: str  # "lobby", "playing", "watching" or "online" (another page)
    room: str | None = None


PLACE_ORDER = ("playing", "watching", "lobby", "online")
"""Of several places (sockets, instances), the one shown: the first in this order."""


def best_place(places: Sequence[Whereabouts]) -> Whereabouts | None:
    """The place shown of a person's several (None: none)."""
    ranked = sorted(places, key=lambda w: (PLACE_ORDER.index(w.place), w.room or ""))
    return ranked[0] if ranked else None


class Friends(Protocol):
    """Follows, privacy switches, challenges and whereabouts, shared by every instance."""

    async def follow(self, follow: Follow) -> bool:
        """Record a follow; False (nothing changed) if it exists."""

    async def unfollow(self, follower: str, followee: str) -> bool:
        """Delete a follow; False if there was none."""

    async def follows_of(self, player: str) -> list[Follow]:
        """Every follow from or to ``player``, oldest first."""

    async def social(self, player: str) -> Social: ...

    async def put_social(self, player: str, social: Social) -> None: ...

    async def put_match_challenge(self, challenge: MatchChallenge) -> None:
        """Keep a new challenge; ``StoreConflict`` if its id exists."""

    async def match_challenge(self, challenge_id: str) -> MatchChallenge | None: ...

    async def match_challenges_of(self, player: str) -> list[MatchChallenge]:
        """The open, unexpired challenges from or to ``player``, oldest first."""

    async def close_match_challenge(
        self, challenge_id: str, player: str, state: str
    ) -> MatchChallenge | None:
        """Move an open, unexpired challenge to ``state`` in one step: "accepted" or
        "declined" by its receiver, "withdrawn" by its sender. The challenge as it is
        now, or None (nothing changed) if it is not open, expired or not ``player``'s
        to close that way: of two instances answering at once, one wins."""

    async def set_match_challenge_room(self, challenge_id: str, room: str) -> None:
        """The room an accepted challenge opened."""

    async def reopen_match_challenge(self, challenge_id: str) -> bool:
        """An accepted challenge whose room could not be opened is open again (it may
        be accepted again until it expires); False if it is not accepted without a room."""

    async def put_whereabouts(self, instance: str, player: str, where: Whereabouts | None) -> None:
        """Where ``player`` is as seen by ``instance`` now (None: no longer there)."""

    async def renew_whereabouts(self, instance: str, players: Sequence[str]) -> None:
        """``instance`` still sees these players where it said (seen: now)."""

    async def whereabouts(self, players: Sequence[str], fresh_s: float) -> dict[str, Whereabouts]:
        """Where each of ``players`` is, of the places any instance saw within
        ``fresh_s`` seconds (``best_place``); the others are not online."""
