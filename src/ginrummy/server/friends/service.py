"""The friends' flows: ask to be friends, answer, list, switch privacy, challenge and
answer a challenge. Every flow acts for the player it is given (the route's caller, the
token's identity: never a person named in a body) and tells the people concerned on
their bus topic (``quick.player_topic``), which reaches their sockets on any instance.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import Any

from ginrummy.server.accounts.names import name_key
from ginrummy.server.clock import Clock
from ginrummy.server.friends.errors import FriendError
from ginrummy.server.friends.policy import may_challenge
from ginrummy.server.friends.presence import PresenceBoard
from ginrummy.server.pubsub import Bus
from ginrummy.server.quick import player_topic
from ginrummy.server.store import Follow, MatchChallenge, Player, Social, Store

log = logging.getLogger("ginrummy.server.friends")

CHALLENGE_S = 120.0  # seconds a challenge stays open unanswered


def new_challenge_id() -> str:
    return "c_" + secrets.token_urlsafe(9)


class FriendService:
    """The friends of one instance; ``presence`` is where its sockets' people are."""

    def __init__(
        self,
        store: Store,
        bus: Bus,
        clock: Clock,
        player_of: Callable[[str], Awaitable[Player]],
        instance_id: str,
        presence_s: float,
        challenge_s: float = CHALLENGE_S,
        new_id: Callable[[], str] = new_challenge_id,
    ) -> None:
        """``player_of``: an identity's player (``RoomManager.player``)."""
        self.store = store
        self.bus = bus
        self.clock = clock
        self._player_of = player_of
        self.challenge_s = challenge_s
        self._new_id = new_id
        self.presence = PresenceBoard(store, instance_id, presence_s, self.tell_friends)

    # -- who ----------------------------------------------------------------------------

    async def me(self, identity: str) -> Player:
        """The caller's player, if the caller is an account (``no_account`` otherwise)."""
        if await self.store.account_of(identity) is None:
            raise FriendError("no_account", "friends are for accounts: create one first")
        return await self._player_of(identity)

    async def account_identity(self, player: Player) -> str | None:
        """The identity of a player who is an account (an account's player has its name,
        unique by key), else None."""
        found = await self.store.account_by_key(name_key(player.name))
        if found is None or (await self._player_of(found.identity_hash)).id != player.id:
            return None
        return found.identity_hash

    async def find(self, name: str | None, player_id: str | None) -> Player:
        """The player of an account by its name or its player id; ``unknown_player``."""
        player: Player | None = None
        if player_id is not None:
            player = await self.store.player(player_id)
        elif name is not None:
            found = await self.store.account_by_key(name_key(name))
            if found is not None:
                player = await self._player_of(found.identity_hash)
        if player is None or await self.account_identity(player) is None:
            raise FriendError("unknown_player", "there is no account of that name")
        return player

    # -- friends ------------------------------------------------------------------------

    async def request(self, me: Player, other: Player) -> str:
        """Ask ``other`` to be friends (or say yes to their asking): "friends" if they
        follow ``me`` already, else "requested"."""
        if me.id == other.id:
            raise FriendError("not_yourself", "you cannot befriend yourself")
        await self.store.follow(Follow(me.id, other.id, self.clock.now()))
        await self._tell(other.id, me.id, kind="friends")
        follows = await self.store.follows_of(me.id)
        mutual = any(f.follower == other.id and f.followee == me.id for f in follows)
        return "friends" if mutual else "requested"

    async def remove(self, me: Player, other_id: str) -> None:
        """No longer friends, a request declined or taken back: both follows go."""
        await self.store.unfollow(me.id, other_id)
        await self.store.unfollow(other_id, me.id)
        await self._tell(other_id, me.id, kind="friends")

    async def friend_ids(self, player: str) -> list[str]:
        follows = await self.store.follows_of(player)
        pairs = {(f.follower, f.followee) for f in follows}
        others = [f.followee for f in follows if f.follower == player]
        return [o for o in others if (o, player) in pairs]

    async def tell_friends(self, player: str) -> None:
        """``player``'s friends: their list changed (where ``player`` is)."""
        for friend in await self.friend_ids(player):
            await self.bus.publish(player_topic(friend), {"kind": "friends"})

    async def _tell(self, *players: str, **notice: Any) -> None:
        for player in players:
            await self.bus.publish(player_topic(player), notice)

    async def listing(self, me: Player) -> dict[str, Any]:
        """Friends (with where they are), requests in and out, open challenges, the
        privacy switches."""
        follows = await self.store.follows_of(me.id)
        mine = {f.followee for f in follows if f.follower == me.id}
        theirs = {f.follower for f in follows if f.followee == me.id}
        friends = sorted(mine & theirs)
        seen = await self.store.whereabouts(friends, self.presence.fresh_s)
        names: dict[str, str] = {}
        for pid in mine | theirs:
            found = await self.store.player(pid)
            names[pid] = found.name if found is not None else "?"
        listed = []
        for pid in friends:
            where = seen.get(pid)
            hidden = where is not None and (await self.store.social(pid)).hide_whereabouts
            entry: dict[str, Any] = {"id": pid, "name": names[pid], "online": where is not None}
            entry["where"] = None if where is None or hidden else where.place
            entry["room"] = None if where is None or hidden else where.room
            listed.append(entry)
        listed.sort(key=lambda e: (not e["online"], e["name"].casefold()))
        social = await self.store.social(me.id)
        challenges = [await self.shown(c) for c in await self.store.match_challenges_of(me.id)]

        def people(ids: set[str]) -> list[dict[str, str]]:
            return sorted(
                ({"id": p, "name": names[p]} for p in ids), key=lambda e: e["name"].casefold()
            )

        return {
            "me": {"id": me.id, "name": me.name},
            "friends": listed,
            "incoming": people(theirs - mine),
            "outgoing": people(mine - theirs),
            "challenges": challenges,
            "settings": {
                "hide_whereabouts": social.hide_whereabouts,
                "friends_only": social.friends_only,
            },
        }

    async def set_social(self, me: Player, social: Social) -> None:
        await self.store.put_social(me.id, social)
        await self.tell_friends(me.id)

    # -- challenges -----------------------------------------------------------------------

    async def challenge(
        self, me: Player, other: Player, preset: str, target_score: int | None
    ) -> dict[str, Any]:
        """Challenge ``other`` (``may_challenge`` decides); both are told."""
        await may_challenge(self.store, me.id, other.id)
        now = self.clock.now()
        made = MatchChallenge(
            self._new_id(), me.id, other.id, preset, target_score, now, now + self.challenge_s
        )
        await self.store.put_match_challenge(made)
        shown = await self.shown(made)
        await self._tell(other.id, me.id, kind="challenge", challenge=shown)
        log.info("challenge %s: a player challenged another", made.id)
        return shown

    async def close(self, me: Player, challenge_id: str, state: str) -> MatchChallenge:
        """Accept, decline (its receiver) or withdraw (its sender) an open challenge.
        ``unknown_challenge`` for one that is not ``me``'s to close (whoever else it
        concerns), ``challenge_closed`` for one answered, withdrawn or expired."""
        closed = await self.store.close_match_challenge(challenge_id, me.id, state)
        if closed is not None:
            if state != "accepted":  # an accepted one is told with its room
                await self.told(closed)
            return closed
        found = await self.store.match_challenge(challenge_id)
        closer = None if found is None else found.sender if state == "withdrawn" else found.receiver
        if found is None or closer != me.id:
            raise FriendError("unknown_challenge", "there is no such challenge for you")
        raise FriendError("challenge_closed", "this challenge was answered or has expired")

    async def opened(self, accepted: MatchChallenge, room: str) -> dict[str, Any]:
        """The room an accepted challenge opened: kept, and told to both."""
        await self.store.set_match_challenge_room(accepted.id, room)
        done = replace(accepted, room=room)
        return await self.told(done)

    async def told(self, challenge: MatchChallenge) -> dict[str, Any]:
        shown = await self.shown(challenge)
        await self._tell(challenge.receiver, challenge.sender, kind="challenge", challenge=shown)
        return shown

    async def shown(self, c: MatchChallenge) -> dict[str, Any]:
        """A challenge as the routes and the sockets show it."""

        async def person(pid: str) -> dict[str, str]:
            found = await self.store.player(pid)
            return {"id": pid, "name": found.name if found is not None else "?"}

        return {
            "id": c.id,
            "from": await person(c.sender),
            "to": await person(c.receiver),
            "preset": c.preset,
            "target_score": c.target_score,
            "state": c.state,
            "room": c.room,
            "expires": c.expires,
        }
