"""Who may challenge whom: the one place it is decided.

A block (issue 22, part 3) is checked here too: of two people where either blocks the
other, neither may challenge the other, whatever way the challenge is made.
"""

from __future__ import annotations

from ginrummy.server.friends.errors import FriendError
from ginrummy.server.store import Store


async def are_friends(store: Store, a: str, b: str) -> bool:
    """Each of the two players follows the other."""
    pairs = {(f.follower, f.followee) for f in await store.follows_of(a)}
    return (a, b) in pairs and (b, a) in pairs


async def may_challenge(store: Store, sender: str, receiver: str) -> None:
    """Refuse (``FriendError``) unless player ``sender`` may challenge ``receiver``:
    not oneself (``not_yourself``), nobody of whom either blocks the other, and not
    someone who takes challenges from friends only unless they are friends (both
    ``challenges_closed``: a refusal does not say who blocks whom)."""
    if sender == receiver:
        raise FriendError("not_yourself", "you cannot challenge yourself")
    if await store.blocked_either(sender, receiver):
        raise FriendError("challenges_closed", "this player takes no challenges from you")
    social = await store.social(receiver)
    if social.friends_only and not await are_friends(store, sender, receiver):
        raise FriendError("challenges_closed", "this player takes challenges from friends only")
