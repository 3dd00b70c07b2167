"""The SQL store's friends (``friends.Friends``): statements and calls, one dialect for
both. Closing a challenge is one ``UPDATE ... RETURNING`` whose ``WHERE`` holds every
condition: of two instances answering at once, one changes the row."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from ginrummy.server.store.friends import (
    Follow,
    MatchChallenge,
    Social,
    Whereabouts,
    best_place,
)
from ginrummy.server.store.work import Many, Work, count, row, rows

if TYPE_CHECKING:
    from ginrummy.server.store.sql_store import Driver

CHALLENGE_COLUMNS = "id, sender, receiver, preset, target_score, created, expires, state, room"

INSERT_FOLLOW = (
    "INSERT INTO follows (follower, followee, created) VALUES (?, ?, ?)"
    " ON CONFLICT (follower, followee) DO NOTHING"
)
DELETE_FOLLOW = "DELETE FROM follows WHERE follower = ? AND followee = ?"
FOLLOWS_OF = (
    "SELECT follower, followee, created FROM follows WHERE follower = ? OR followee = ?"
    " ORDER BY created, follower, followee"
)
SOCIAL = "SELECT hide_whereabouts, friends_only FROM social_settings WHERE player = ?"
PUT_SOCIAL = (
    "INSERT INTO social_settings (player, hide_whereabouts, friends_only) VALUES (?, ?, ?)"
    " ON CONFLICT (player) DO UPDATE SET hide_whereabouts = excluded.hide_whereabouts,"
    " friends_only = excluded.friends_only"
)
INSERT_CHALLENGE = (
    f"INSERT INTO match_challenges ({CHALLENGE_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"
)
CHALLENGE = f"SELECT {CHALLENGE_COLUMNS} FROM match_challenges WHERE id = ?"
CHALLENGES_OF = (
    f"SELECT {CHALLENGE_COLUMNS} FROM match_challenges WHERE (sender = ? OR receiver = ?)"
    " AND state = 'open' AND expires > ? ORDER BY created, id"
)
CLOSE_BY_RECEIVER = (
    "UPDATE match_challenges SET state = ? WHERE id = ? AND receiver = ? AND state = 'open'"
    f" AND expires > ? RETURNING {CHALLENGE_COLUMNS}"
)
CLOSE_BY_SENDER = (
    "UPDATE match_challenges SET state = ? WHERE id = ? AND sender = ? AND state = 'open'"
    f" AND expires > ? RETURNING {CHALLENGE_COLUMNS}"
)
CHALLENGE_ROOM = "UPDATE match_challenges SET room = ? WHERE id = ?"
REOPEN_CHALLENGE = (
    "UPDATE match_challenges SET state = 'open' WHERE id = ? AND state = 'accepted'"
    " AND room IS NULL"
)
PUT_WHEREABOUTS = (
    "INSERT INTO whereabouts (player, instance, place, room, seen) VALUES (?, ?, ?, ?, ?)"
    " ON CONFLICT (player, instance) DO UPDATE SET place = excluded.place,"
    " room = excluded.room, seen = excluded.seen"
)
DELETE_WHEREABOUTS = "DELETE FROM whereabouts WHERE player = ? AND instance = ?"
RENEW_WHEREABOUTS = "UPDATE whereabouts SET seen = ? WHERE player = ? AND instance = ?"
WHEREABOUTS_OF = "SELECT place, room, seen FROM whereabouts WHERE player = ?"


def challenge_of(r: Any) -> MatchChallenge:
    target = None if r[4] is None else int(r[4])
    return MatchChallenge(r[0], r[1], r[2], r[3], target, float(r[5]), float(r[6]), r[7], r[8])


class SqlFriends:
    """``friends.Friends`` over the SQL store's driver (``SqlStore`` is one)."""

    driver: Driver
    _now: Callable[[], float]

    async def follow(self, follow: Follow) -> bool:
        f = follow
        added = count(INSERT_FOLLOW, f.follower, f.followee, f.created)
        return await self.driver.write(added, one=True) == 1

    async def unfollow(self, follower: str, followee: str) -> bool:
        return await self.driver.write(count(DELETE_FOLLOW, follower, followee), one=True) == 1

    async def follows_of(self, player: str) -> list[Follow]:
        found = await self.driver.read(rows(FOLLOWS_OF, player, player))
        return [Follow(r[0], r[1], float(r[2])) for r in found]

    async def social(self, player: str) -> Social:
        found = await self.driver.read(row(SOCIAL, player), one=True)
        return Social() if found is None else Social(bool(found[0]), bool(found[1]))

    async def put_social(self, player: str, social: Social) -> None:
        put = count(PUT_SOCIAL, player, social.hide_whereabouts, social.friends_only)
        await self.driver.write(put, one=True)

    async def put_match_challenge(self, challenge: MatchChallenge) -> None:
        c = challenge
        values = (c.id, c.sender, c.receiver, c.preset, c.target_score, c.created, c.expires)
        await self.driver.write(count(INSERT_CHALLENGE, *values, c.state, c.room), one=True)

    async def match_challenge(self, challenge_id: str) -> MatchChallenge | None:
        found = await self.driver.read(row(CHALLENGE, challenge_id), one=True)
        return None if found is None else challenge_of(found)

    async def match_challenges_of(self, player: str) -> list[MatchChallenge]:
        found = await self.driver.read(rows(CHALLENGES_OF, player, player, self._now()))
        return [challenge_of(r) for r in found]

    async def close_match_challenge(
        self, challenge_id: str, player: str, state: str
    ) -> MatchChallenge | None:
        if state not in ("accepted", "declined", "withdrawn"):
            return None
        sql = CLOSE_BY_SENDER if state == "withdrawn" else CLOSE_BY_RECEIVER
        closed = row(sql, state, challenge_id, player, self._now())
        found = await self.driver.write(closed, one=True)
        return None if found is None else challenge_of(found)

    async def set_match_challenge_room(self, challenge_id: str, room: str) -> None:
        await self.driver.write(count(CHALLENGE_ROOM, room, challenge_id), one=True)

    async def reopen_match_challenge(self, challenge_id: str) -> bool:
        return await self.driver.write(count(REOPEN_CHALLENGE, challenge_id), one=True) == 1

    async def put_whereabouts(self, instance: str, player: str, where: Whereabouts | None) -> None:
        if where is None:
            await self.driver.write(count(DELETE_WHEREABOUTS, player, instance), one=True)
            return
        put = count(PUT_WHEREABOUTS, player, instance, where.place, where.room, self._now())
        await self.driver.write(put, one=True)

    async def renew_whereabouts(self, instance: str, players: Sequence[str]) -> None:
        now = self._now()

        def work() -> Work[None]:
            yield Many(RENEW_WHEREABOUTS, [(now, p, instance) for p in players])

        await self.driver.write(work())

    async def whereabouts(self, players: Sequence[str], fresh_s: float) -> dict[str, Whereabouts]:
        after = self._now() - fresh_s

        def work() -> Work[dict[str, Whereabouts]]:
            seen: dict[str, Whereabouts] = {}
            for player in players:
                found = yield from rows(WHEREABOUTS_OF, player)
                places = [Whereabouts(r[0], r[1]) for r in found if float(r[2]) > after]
                if (best := best_place(places)) is not None:
                    seen[player] = best
            return seen

        return await self.driver.read(work())
