"""Every store (memory, SQLite, PostgreSQL) keeps the friends' promises on a fake clock:
follows are one per pair, privacy switches default off, a challenge is closed once and
only by the person it is for (or withdrawn by its sender), whereabouts expire unrenewed
(docs/accounts.md, "Friends")."""

from __future__ import annotations

import pytest

from ginrummy.server.store import (
    Follow,
    MatchChallenge,
    Social,
    Store,
    StoreConflict,
    Whereabouts,
)

from .test_store import FakeClock, clock, store

__all__ = ["clock", "store"]

T0 = 1_700_000_000.0


def _challenge(cid: str = "c_1", expires: float = T0 + 120) -> MatchChallenge:
    return MatchChallenge(cid, "p_ann", "p_bob", "standard", 100, T0, expires)


async def test_a_follow_is_kept_once_and_both_sides_see_it(store: Store) -> None:
    assert await store.follow(Follow("p_ann", "p_bob", T0))
    assert not await store.follow(Follow("p_ann", "p_bob", T0 + 1))
    assert await store.follow(Follow("p_bob", "p_ann", T0 + 2))
    await store.follow(Follow("p_cy", "p_dee", T0))
    assert await store.follows_of("p_ann") == [
        Follow("p_ann", "p_bob", T0),
        Follow("p_bob", "p_ann", T0 + 2),
    ]
    assert await store.unfollow("p_ann", "p_bob")
    assert not await store.unfollow("p_ann", "p_bob")
    assert await store.follows_of("p_bob") == [Follow("p_bob", "p_ann", T0 + 2)]


async def test_privacy_switches_are_off_until_set(store: Store) -> None:
    assert await store.social("p_ann") == Social()
    await store.put_social("p_ann", Social(hide_whereabouts=True))
    await store.put_social("p_ann", Social(hide_whereabouts=True, friends_only=True))
    assert await store.social("p_ann") == Social(True, True)
    assert await store.social("p_bob") == Social(False, False)


async def test_a_challenge_is_answered_once_by_its_receiver_only(store: Store) -> None:
    await store.put_match_challenge(_challenge())
    with pytest.raises(StoreConflict):
        await store.put_match_challenge(_challenge())
    assert [c.id for c in await store.match_challenges_of("p_bob")] == ["c_1"]
    assert [c.id for c in await store.match_challenges_of("p_ann")] == ["c_1"]
    # the sender cannot accept it, the receiver cannot withdraw it, nobody else anything
    assert await store.close_match_challenge("c_1", "p_ann", "accepted") is None
    assert await store.close_match_challenge("c_1", "p_bob", "withdrawn") is None
    assert await store.close_match_challenge("c_1", "p_cy", "declined") is None
    assert await store.close_match_challenge("c_1", "p_bob", "bogus") is None
    accepted = await store.close_match_challenge("c_1", "p_bob", "accepted")
    assert accepted == MatchChallenge(
        "c_1", "p_ann", "p_bob", "standard", 100, T0, T0 + 120, "accepted"
    )
    assert await store.close_match_challenge("c_1", "p_bob", "accepted") is None  # once
    assert await store.close_match_challenge("c_1", "p_bob", "declined") is None
    # a room that could not be opened: open again, once
    assert await store.reopen_match_challenge("c_1")
    assert not await store.reopen_match_challenge("c_1")
    assert await store.close_match_challenge("c_1", "p_bob", "accepted") is not None
    await store.set_match_challenge_room("c_1", "r_x")
    assert not await store.reopen_match_challenge("c_1")  # it has its room
    found = await store.match_challenge("c_1")
    assert found is not None and found.room == "r_x" and found.state == "accepted"
    assert await store.match_challenges_of("p_bob") == []  # no longer open


async def test_a_challenge_expires_on_the_stores_clock(store: Store, clock: FakeClock) -> None:
    clock.now = T0
    await store.put_match_challenge(_challenge("c_2", T0 + 10))
    await store.put_match_challenge(
        MatchChallenge("c_3", "p_ann", "p_bob", "hollywood", None, T0, T0 + 10)
    )
    assert await store.close_match_challenge("c_3", "p_ann", "withdrawn") is not None
    clock.now = T0 + 10
    assert await store.match_challenges_of("p_bob") == []
    assert await store.close_match_challenge("c_2", "p_bob", "accepted") is None
    found = await store.match_challenge("c_3")
    assert found is not None and found.state == "withdrawn" and found.target_score is None


async def test_whereabouts_are_the_best_of_every_instance_and_expire(
    store: Store, clock: FakeClock
) -> None:
    clock.now = T0
    await store.put_whereabouts("i1", "p_ann", Whereabouts("lobby"))
    await store.put_whereabouts("i2", "p_ann", Whereabouts("playing", "r1"))
    await store.put_whereabouts("i1", "p_bob", Whereabouts("watching", "r2"))
    await store.put_whereabouts("i1", "p_bob", Whereabouts("online"))  # replaced
    assert await store.whereabouts(["p_ann", "p_bob", "p_cy"], 30) == {
        "p_ann": Whereabouts("playing", "r1"),
        "p_bob": Whereabouts("online"),
    }
    clock.now = T0 + 20
    await store.renew_whereabouts("i1", ["p_ann", "p_cy"])
    clock.now = T0 + 31  # i2's and p_bob's not renewed: gone
    assert await store.whereabouts(["p_ann", "p_bob"], 30) == {"p_ann": Whereabouts("lobby")}
    await store.put_whereabouts("i1", "p_ann", None)
    assert await store.whereabouts(["p_ann"], 30) == {}
