"""Every store (memory, SQLite, PostgreSQL) keeps the accounts' promises: a name's key
is unique, a device's token resolves to its account until it is signed out, challenges
and codes are used once and expire on the store's clock (docs/accounts.md)."""

from __future__ import annotations

import pytest

from ginrummy.server.store import (
    Account,
    Challenge,
    Device,
    Event,
    Passkey,
    Player,
    RoomRow,
    SeatRow,
    Store,
    StoreConflict,
)

from .test_store import FakeClock, clock, store

__all__ = ["clock", "store"]

T0 = 1_700_000_000.0


def _account(identity: str = "h1", name: str = "Ann", key: str = "ann") -> Account:
    return Account(identity, name, key, T0)


def _device(token: str, identity: str = "h1", device_id: str | None = None) -> Device:
    return Device(device_id or "d_" + token, token, identity, "Firefox on Linux", T0, T0)


def _passkey(credential: str = "cred1", identity: str = "h1") -> Passkey:
    return Passkey(credential, identity, "cose-key", 0, T0)


async def _guest(store: Store, identity: str = "h1") -> Player:
    await store.add_identity(identity)
    return await store.ensure_player(identity, Player("p_" + identity + "00000000"[:8], "Guest"))


async def test_a_guest_token_is_its_identity_until_it_has_an_account(store: Store) -> None:
    await _guest(store)
    assert await store.token_identity("h1") == "h1"
    assert await store.token_identity("nobody") is None
    await store.create_account(_account(), _device("h1"), _passkey())
    assert await store.token_identity("h1") == "h1"  # through its device row now


async def test_an_account_keeps_the_guests_player_games_and_takes_its_name(store: Store) -> None:
    player = await _guest(store)
    await store.create_room(RoomRow("r1", "room", {}, 1.0), [SeatRow("one", "h1", "Guest")], [])
    await store.append_events("r1", [Event(1, "match", {})])
    await store.create_account(_account(), _device("h1"), _passkey())
    assert await store.account_of("h1") == _account()
    assert await store.account_by_key("ann") == _account()
    renamed = await store.player(player.id)
    assert renamed is not None and renamed.name == "Ann" and renamed.id == player.id
    assert [g.room for g in await store.games_of("h1")] == ["r1"]


async def test_a_taken_name_key_or_credential_writes_nothing(store: Store) -> None:
    await _guest(store, "h1")
    await _guest(store, "h2")
    await store.create_account(_account(), _device("h1"), _passkey())
    with pytest.raises(StoreConflict):  # the same key, another identity
        await store.create_account(_account("h2", "ANN"), _device("h2"), _passkey("cred2", "h2"))
    with pytest.raises(StoreConflict):  # the same credential
        await store.create_account(_account("h2", "Bob", "bob"), _device("h2"), _passkey("cred1"))
    assert await store.account_of("h2") is None
    assert await store.passkeys_of("h2") == []
    assert await store.devices_of("h2") == []
    assert await store.token_identity("h2") == "h2"  # still a guest
    bob = await store.player(await _player_id(store, "h2"))
    assert bob is not None and bob.name == "Guest"


async def _player_id(store: Store, identity: str) -> str:
    player = await store.known_player(identity, lambda: Player("p_never0000", "X"))
    assert player is not None
    return player.id


async def test_devices_resolve_to_the_account_until_signed_out(store: Store) -> None:
    await _guest(store)
    await store.create_account(_account(), _device("h1", device_id="d_first"), _passkey())
    await store.add_device(_device("t2", device_id="d_second"))
    assert await store.token_identity("t2") == "h1"
    assert [d.id for d in await store.devices_of("h1")] == ["d_first", "d_second"]
    assert not await store.remove_device("h2", "d_second")  # not that account's
    assert await store.remove_device("h1", "d_second")
    assert await store.token_identity("t2") is None
    assert await store.remove_device("h1", "d_first")  # the first browser's own token
    assert await store.token_identity("h1") is None
    assert not await store.remove_device("h1", "d_first")


async def test_a_device_is_touched_at_most_once_per_interval(
    store: Store, clock: FakeClock
) -> None:
    await _guest(store)
    await store.create_account(_account(), _device("h1"), _passkey())
    clock.now = T0 + 100
    await store.touch_device("h1", after=clock.now - 60)  # seen at T0, long enough ago
    clock.now = T0 + 130
    await store.touch_device("h1", after=clock.now - 60)  # seen 30 s ago: left
    (device,) = await store.devices_of("h1")
    assert device.last_seen == T0 + 100


async def test_passkeys_and_their_sign_counts(store: Store) -> None:
    await _guest(store)
    await store.create_account(_account(), _device("h1"), _passkey())
    await store.add_passkey(_passkey("cred2"))
    with pytest.raises(StoreConflict):
        await store.add_passkey(_passkey("cred2"))
    assert [p.credential_id for p in await store.passkeys_of("h1")] == ["cred1", "cred2"]
    assert await store.use_passkey("cred1", 0, 5)
    assert not await store.use_passkey("cred1", 0, 6)  # another sign-in moved it first
    found = await store.passkey("cred1")
    assert found is not None and found.sign_count == 5
    assert await store.passkey("unknown") is None


async def test_a_challenge_is_taken_once_and_expires(store: Store, clock: FakeClock) -> None:
    challenge = Challenge("c1", "register", "h1", "Ann", clock.now + 300)
    await store.put_challenge(challenge)
    await store.put_challenge(Challenge("c2", "sign_in", None, None, clock.now + 300))
    assert await store.take_challenge("c1") == challenge
    assert await store.take_challenge("c1") is None  # used
    clock.now += 301
    assert await store.take_challenge("c2") is None  # expired
    assert await store.take_challenge("never") is None


async def test_a_code_is_taken_once_and_expires(store: Store, clock: FakeClock) -> None:
    await _guest(store)
    await store.create_account(_account(), _device("h1"), _passkey())
    await store.put_code("k1", "h1", clock.now + 300)
    assert await store.take_code("k1") == "h1"
    assert await store.take_code("k1") is None
    await store.put_code("k2", "h1", clock.now + 300)
    clock.now += 300
    assert await store.take_code("k2") is None


async def test_an_account_has_one_live_code_a_new_one_replaces_the_old(store: Store) -> None:
    await _guest(store)
    await store.create_account(_account(), _device("h1"), _passkey())
    await _guest(store, "h2")
    await store.create_account(
        _account("h2", "Bob", "bob"), _device("h2", "h2"), _passkey("c2", "h2")
    )
    await store.put_code("k1", "h1", T0 + 300)
    await store.put_code("other", "h2", T0 + 300)
    await store.put_code("k2", "h1", T0 + 300)
    assert await store.take_code("k1") is None  # replaced
    assert await store.take_code("other") == "h2"  # another account's stays
    assert await store.take_code("k2") == "h1"


async def test_code_failures_are_counted_per_minute_and_old_minutes_swept(store: Store) -> None:
    assert await store.code_failures(100) == 0
    assert await store.count_code_failure(100) == 1
    assert await store.count_code_failure(100) == 2
    assert await store.code_failures(100) == 2
    assert await store.count_code_failure(101) == 1
    assert await store.code_failures(100) == 0  # swept: a minute before the one counted
    assert await store.code_failures(101) == 1


async def test_a_player_read_says_whether_it_is_an_accounts(store: Store) -> None:
    player = await _guest(store)
    assert not player.account
    assert not (await store.player(player.id) or player).account
    await store.create_account(_account(), _device("h1"), _passkey())
    found = await store.player(player.id)
    assert found is not None and found.account
    known = await store.known_player("h1", lambda: Player("p_never000", "X"))
    assert known is not None and known.account
    assert (await store.ensure_player("h1", Player("p_never000", "X"))).account
