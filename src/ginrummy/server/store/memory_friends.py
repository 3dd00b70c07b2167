"""The memory store's friends (``friends.Friends``), with the promises of the SQL one."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace

from ginrummy.server.store.base import StoreConflict
from ginrummy.server.store.friends import (
    Follow,
    MatchChallenge,
    Social,
    Whereabouts,
    best_place,
)


class MemoryFriends:
    """``friends.Friends`` in memory; ``MemoryStore`` is one."""

    _now: Callable[[], float]

    def _init_friends(self) -> None:
        self._follows: dict[tuple[str, str], Follow] = {}
        self._social: dict[str, Social] = {}
        self._match_challenges: dict[str, MatchChallenge] = {}
        # (player, instance) -> where, seen
        self._whereabouts: dict[tuple[str, str], tuple[Whereabouts, float]] = {}

    async def follow(self, follow: Follow) -> bool:
        key = (follow.follower, follow.followee)
        if key in self._follows:
            return False
        self._follows[key] = follow
        return True

    async def unfollow(self, follower: str, followee: str) -> bool:
        return self._follows.pop((follower, followee), None) is not None

    async def follows_of(self, player: str) -> list[Follow]:
        own = [f for f in self._follows.values() if player in (f.follower, f.followee)]
        return sorted(own, key=lambda f: (f.created, f.follower, f.followee))

    async def social(self, player: str) -> Social:
        return self._social.get(player, Social())

    async def put_social(self, player: str, social: Social) -> None:
        self._social[player] = social

    async def put_match_challenge(self, challenge: MatchChallenge) -> None:
        if challenge.id in self._match_challenges:
            raise StoreConflict("the challenge exists")
        self._match_challenges[challenge.id] = challenge

    async def match_challenge(self, challenge_id: str) -> MatchChallenge | None:
        return self._match_challenges.get(challenge_id)

    async def match_challenges_of(self, player: str) -> list[MatchChallenge]:
        now = self._now()
        own = [
            c
            for c in self._match_challenges.values()
            if player in (c.sender, c.receiver) and c.state == "open" and c.expires > now
        ]
        return sorted(own, key=lambda c: (c.created, c.id))

    async def close_match_challenge(
        self, challenge_id: str, player: str, state: str
    ) -> MatchChallenge | None:
        found = self._match_challenges.get(challenge_id)
        if found is None or found.state != "open" or found.expires <= self._now():
            return None
        closer = found.sender if state == "withdrawn" else found.receiver
        if closer != player or state not in ("accepted", "declined", "withdrawn"):
            return None
        closed = replace(found, state=state)
        self._match_challenges[challenge_id] = closed
        return closed

    async def set_match_challenge_room(self, challenge_id: str, room: str) -> None:
        found = self._match_challenges.get(challenge_id)
        if found is not None:
            self._match_challenges[challenge_id] = replace(found, room=room)

    async def reopen_match_challenge(self, challenge_id: str) -> bool:
        found = self._match_challenges.get(challenge_id)
        if found is None or found.state != "accepted" or found.room is not None:
            return False
        self._match_challenges[challenge_id] = replace(found, state="open")
        return True

    async def put_whereabouts(self, instance: str, player: str, where: Whereabouts | None) -> None:
        if where is None:
            self._whereabouts.pop((player, instance), None)
        else:
            self._whereabouts[(player, instance)] = (where, self._now())

    async def renew_whereabouts(self, instance: str, players: Sequence[str]) -> None:
        now = self._now()
        for player in players:
            found = self._whereabouts.get((player, instance))
            if found is not None:
                self._whereabouts[(player, instance)] = (found[0], now)

    async def whereabouts(self, players: Sequence[str], fresh_s: float) -> dict[str, Whereabouts]:
        after = self._now() - fresh_s
        seen: dict[str, list[Whereabouts]] = {}
        for (player, _), (where, at) in self._whereabouts.items():
            if player in players and at > after:
                seen.setdefault(player, []).append(where)
        return {p: w for p, places in seen.items() if (w := best_place(places)) is not None}
