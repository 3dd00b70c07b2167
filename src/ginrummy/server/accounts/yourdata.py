"""Your data (docs/accounts.md, "Your data"): the export of everything the store keeps
about a person, and the erasure of their identity.

Both work on the caller's own identity only (no request names another person). The
clock and the randomness of the anonymous label are passed in.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any

from ginrummy.server.store import MatchChallenge, Store
from ginrummy.server.store.yourdata import Erasure

FORMAT = "ginrummy-export/1"
"""The export's format and version (``format`` of the document): a change that renames
or drops a field gets a new number."""

EVERYTHING = 100_000  # as many rows as a read may give: an export lists them all


class DataError(Exception):
    """A refused export or erasure: ``code`` is the wire error code."""

    def __init__(self, code: str, message: str) -> None:
        self.code = code
        self.message = message
        super().__init__(message)


def anonymous_label(suffix: str) -> str:
    """The name an erased person's player and seats take, e.g. "Deleted player 7f3a"."""
    return f"Deleted player {suffix}"


@dataclass
class YourData:
    store: Store
    now: Callable[[], float]
    suffix: Callable[[], str] = field(default=lambda: secrets.token_hex(2))

    async def export(self, identity: str, player_id: str) -> dict[str, Any]:
        """The export document of ``identity`` (docs/accounts.md lists its parts)."""
        store = self.store
        account = await store.account_of(identity)
        player = await store.player(player_id)
        games = await store.games_of(identity, EVERYTHING)
        return {
            "format": FORMAT,
            "exported": self.now(),
            "account": None
            if account is None
            else {"name": account.name, "created": account.created},
            "player": None if player is None else asdict(player),
            "devices": [
                {"id": d.id, "label": d.label, "created": d.created, "last_seen": d.last_seen}
                for d in await store.devices_of(identity)
            ],
            "passkeys": [
                {"id": p.credential_id, "created": p.created, "sign_count": p.sign_count}
                for p in await store.passkeys_of(identity)
            ],
            "games": [
                {"room": g.room, "seat": g.seat, "kind": g.kind, "created": g.created}
                for g in games
            ],
            "results": [asdict(r) for r in await store.results_of(player_id)],
            "tournaments": [
                {"id": t.id, "name": t.name, "phase": t.phase, "created": t.created}
                for t in await store.player_tournaments(player_id, EVERYTHING)
            ],
            "chat": [
                {"room": s.room, "channel": s.channel, **asdict(s.line)}
                for s in await store.chat_by(player_id)
            ],
            "reports_made": [
                {
                    "id": r.id,
                    "t": r.t,
                    "reported": r.reported,
                    "reason": r.reason,
                    "place": r.place,
                    "room": r.room,
                    "note": r.note,
                    "status": r.status,
                    "outcome": r.outcome,
                }
                for r in await store.reports_by(player_id)
            ],
            "blocks": await store.blocks_of(player_id),
            "sanctions": [
                {"kind": s.kind, "reason": s.reason, "t": s.t, "until": s.until}
                for s in await store.sanctions_of(player_id)
            ],
            "friends": await self._friends(player_id),
        }

    async def _friends(self, me: str) -> dict[str, Any]:
        """Friends, friend requests made and received, the privacy switches, and the
        challenges to a match sent and received (any state); each other person by their
        public player id and name."""
        store = self.store
        names: dict[str, str] = {}

        async def person(pid: str) -> dict[str, str]:
            if pid not in names:
                found = await store.player(pid)
                names[pid] = "?" if found is None else found.name
            return {"id": pid, "name": names[pid]}

        follows = await store.follows_of(me)
        made = {f.followee: f.created for f in follows if f.follower == me}
        received = {f.follower: f.created for f in follows if f.followee == me}
        social = await store.social(me)

        async def requests(ids: dict[str, float], since: dict[str, float]) -> list[Any]:
            return [{**await person(p), "t": t} for p, t in ids.items() if p not in since]

        challenges = await store.match_challenges_by(me)

        async def challenge(c: MatchChallenge, other: str) -> dict[str, Any]:
            return {
                "id": c.id,
                "player": await person(other),
                "preset": c.preset,
                "target_score": c.target_score,
                "state": c.state,
                "created": c.created,
                "expires": c.expires,
            }

        return {
            "friends": [
                {**await person(p), "since": max(t, received[p])}
                for p, t in made.items()
                if p in received
            ],
            "requests_made": await requests(made, received),
            "requests_received": await requests(received, made),
            "settings": {
                "hide_whereabouts": social.hide_whereabouts,
                "friends_only": social.friends_only,
            },
            "challenges_sent": [
                await challenge(c, c.receiver) for c in challenges if c.sender == me
            ],
            "challenges_received": [
                await challenge(c, c.sender) for c in challenges if c.receiver == me
            ],
        }

    async def erase(self, identity: str, player_id: str) -> str:
        """Erase ``identity`` (docs/accounts.md); the anonymous label its player now has.
        ``already_deleted`` if another request erased it meanwhile."""
        label = anonymous_label(self.suffix())
        erasure = Erasure(identity, label, "deleted:" + player_id)
        if not await self.store.erase_identity(erasure):
            raise DataError("already_deleted", "this identity is deleted already")
        return label
