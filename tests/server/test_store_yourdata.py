"""Every store (memory, SQLite, PostgreSQL) keeps the promises of "your data": the
export's reads (reports made, chat lines written) and the erasure of an identity, which
deletes its secrets, anonymises its name everywhere the store keeps it, and leaves the
rooms' event logs and the other people's records as they were (docs/accounts.md)."""

from __future__ import annotations

from ginrummy.server.store import (
    ROOM_CHAT,
    Account,
    ChatLine,
    Device,
    Event,
    Follow,
    MatchChallenge,
    Passkey,
    Player,
    QuickEntry,
    Report,
    RoomRow,
    SeatRow,
    Social,
    Store,
    TournamentRow,
    Whereabouts,
)
from ginrummy.server.store.yourdata import PLACEHOLDER, Erasure

from .test_store import FakeClock, clock, store

__all__ = ["clock", "store"]

T0 = 1_700_000_000.0
ANN, BOB = "p_ann0000000", "p_bob0000000"
LABEL = "Deleted player 7f3a"
ERASE_ANN = Erasure("h1", LABEL, "deleted:" + ANN)
EVENTS = (Event(1, "match", {"seed": 7}), Event(2, "deal", {"n": 1}))


async def _world(store: Store) -> None:
    """Ann (an account, "h1") and Bob (a guest, "h2") played, chatted, blocked and
    reported each other, and Ann joined a tournament and waits for a quick match."""
    for h, pid, name in (("h1", ANN, "Ann"), ("h2", BOB, "Bob")):
        await store.add_identity(h)
        await store.ensure_player(h, Player(pid, name, created=T0))
    account = Account("h1", "Ann", "ann", T0)
    device = Device("d_1", "h1", "h1", "Firefox on Linux", T0, T0)
    await store.create_account(account, device, Passkey("cred1", "h1", "cose", 0, T0))
    await store.add_device(Device("d_2", "tok2", "h1", "Chrome on Android", T0, T0))
    await store.put_code("code1", "h1", T0 + 300)
    room = RoomRow("r1", "room", {"target": 100}, T0, {"visibility": "public"})
    seats = [SeatRow("one", "h1", "Annie"), SeatRow("two", "h2", "Bob")]
    await store.create_room(room, seats, EVENTS)
    for pid, tag, text in ((ANN, "Ann#ann0", "hello"), (BOB, "Bob#bob0", "hi")):
        await store.add_chat("r1", ChatLine(0, T0, None, pid, tag, text, None), 50)
    await store.add_block(ANN, BOB, T0)
    await store.add_block(BOB, ANN, T0)
    evidence = {
        "name": "Ann",
        "room": {"seats": [{"seat": "one", "name": "Annie"}, {"seat": "two", "name": "Bob"}]},
        "chat": [{"id": 1, "player": ANN, "tag": "Ann#ann0", "text": "hello", "phrase": None}],
    }
    await store.add_report(Report("r_1", T0, BOB, ANN, "chat", "chat", "r1", evidence, "rude"))
    await store.add_report(Report("r_2", T0 + 1, ANN, BOB, "name", "player", None, {}, "mine"))
    joined = Event(1, "joined", {"entrant": {"id": ANN, "name": "Ann", "rating": 1500.0}})
    await store.create_tournament(
        TournamentRow("t1", "Cup", "open", True, T0), [joined], {ANN: "h1"}
    )
    await store.quick_enter(QuickEntry("h1", ANN, {"target": 100}, T0), 60.0)


async def test_the_export_reads_the_reports_made_and_the_lines_written(
    store: Store, clock: FakeClock
) -> None:
    clock.now = T0
    await _world(store)
    assert [r.id for r in await store.reports_by(ANN)] == ["r_2"]
    said = await store.chat_by(ANN)
    assert [(s.room, s.channel, s.line.text, s.line.tag) for s in said] == [
        ("r1", ROOM_CHAT, "hello", "Ann#ann0")
    ]
    assert await store.chat_by("p_nobody") == []


async def test_an_erasure_deletes_the_secrets_and_anonymises_the_name(
    store: Store, clock: FakeClock
) -> None:
    clock.now = T0
    await _world(store)
    assert await store.erase_identity(ERASE_ANN)
    # no token of it resolves; devices, passkeys, codes, the account and its name are gone
    assert await store.token_identity("h1") is None
    assert await store.token_identity("tok2") is None
    assert await store.devices_of("h1") == []
    assert await store.passkeys_of("h1") == [] and await store.passkey("cred1") is None
    assert await store.take_code("code1") is None
    assert await store.account_of("h1") is None and await store.account_by_key("ann") is None
    assert await store.quick_entry("h1", 60.0) is None
    # the player keeps its id (others' results name it) under the anonymous label
    player = await store.player(ANN)
    assert player is not None and player.name == LABEL
    # the room: the log as it was, the seat anonymous, Bob's seat and games his own
    stored = await store.load_room("r1")
    assert stored is not None and stored.events == EVENTS
    assert [(s.name, s.identity_hash) for s in stored.seats] == [
        (LABEL, "deleted:" + ANN),
        ("Bob", "h2"),
    ]
    assert [g.room for g in await store.games_of("h2")] == ["r1"]
    assert await store.games_of("h1") == []
    # chat: Ann's line says the placeholder under the label's tag; Bob's is his
    lines = await store.recent_chat("r1", 10)
    assert [(c.tag, c.text) for c in lines] == [(LABEL + "#ann0", PLACEHOLDER), ("Bob#bob0", "hi")]
    # blocks she made are gone, Bob's block of her stays; reports keep only the facts
    assert await store.blocks_of(ANN) == [] and await store.blocks_of(BOB) == [ANN]
    made = await store.report("r_2")
    assert made is not None and made.note == "" and made.reporter == ANN
    about = await store.report("r_1")
    assert about is not None and about.note == "rude"
    assert about.evidence == {
        "name": LABEL,
        "room": {"seats": [{"seat": "one", "name": LABEL}, {"seat": "two", "name": "Bob"}]},
        "chat": [
            {"id": 1, "player": ANN, "tag": LABEL + "#ann0", "text": PLACEHOLDER, "phrase": None}
        ],
    }
    # the tournament's log names the label, its identity the tombstone
    tournament = await store.load_tournament("t1")
    assert tournament is not None
    assert tournament.events[0].payload["entrant"]["name"] == LABEL
    assert tournament.identities == {ANN: "deleted:" + ANN}
    # Bob is untouched
    bob = await store.player(BOB)
    assert bob is not None and bob.name == "Bob"
    assert await store.token_identity("h2") == "h2"


async def test_an_erasure_happens_once(store: Store, clock: FakeClock) -> None:
    clock.now = T0
    await _world(store)
    assert await store.erase_identity(ERASE_ANN)
    assert not await store.erase_identity(ERASE_ANN)
    assert not await store.erase_identity(Erasure("nobody", LABEL, "deleted:x"))
    player = await store.player(ANN)
    assert player is not None and player.name == LABEL


async def test_a_guest_without_a_player_is_erased_too(store: Store, clock: FakeClock) -> None:
    clock.now = T0
    await store.add_identity("h9")
    assert await store.erase_identity(Erasure("h9", LABEL, "deleted:p_x"))
    assert await store.token_identity("h9") is None


CID = "p_cid0000000"


async def _friends(store: Store) -> None:
    """Ann and Bob are friends; Ann asked Cid, who asked nobody; Ann hides where she is,
    is seen in the lobby, challenged Bob (open) and Cid challenged her (declined)."""
    for follower, followee in ((ANN, BOB), (BOB, ANN), (ANN, CID), (CID, BOB)):
        await store.follow(Follow(follower, followee, T0))
    await store.put_social(ANN, Social(hide_whereabouts=True))
    await store.put_social(BOB, Social(friends_only=True))
    await store.put_whereabouts("i1", ANN, Whereabouts("lobby"))
    await store.put_whereabouts("i1", BOB, Whereabouts("lobby"))
    await store.put_match_challenge(MatchChallenge("c_1", ANN, BOB, "standard", None, T0, T0 + 600))
    declined = MatchChallenge("c_2", CID, ANN, "standard", 50, T0 + 1, T0 + 600, "declined")
    await store.put_match_challenge(declined)
    await store.put_match_challenge(MatchChallenge("c_3", BOB, CID, "standard", None, T0, T0 + 600))


async def test_the_export_reads_every_challenge_sent_or_received(
    store: Store, clock: FakeClock
) -> None:
    clock.now = T0 + 10
    await _world(store)
    await _friends(store)
    assert [(c.id, c.state) for c in await store.match_challenges_by(ANN)] == [
        ("c_1", "open"),
        ("c_2", "declined"),
    ]
    clock.now = T0 + 1000  # expired ones too
    assert [c.id for c in await store.match_challenges_by(ANN)] == ["c_1", "c_2"]
    assert await store.match_challenges_by("p_nobody") == []


async def test_an_erasure_deletes_the_friends_part(store: Store, clock: FakeClock) -> None:
    clock.now = T0 + 10
    await _world(store)
    await _friends(store)
    assert await store.erase_identity(ERASE_ANN)
    # her follows both ways, switches, whereabouts and challenges are gone
    assert await store.follows_of(ANN) == []
    assert [(f.follower, f.followee) for f in await store.follows_of(BOB)] == [(CID, BOB)]
    assert await store.social(ANN) == Social()
    assert await store.whereabouts([ANN, BOB], 60.0) == {BOB: Whereabouts("lobby")}
    assert await store.match_challenges_by(ANN) == []
    assert await store.match_challenge("c_1") is None and await store.match_challenge("c_2") is None
    assert [c.id for c in await store.match_challenges_of(BOB)] == ["c_3"]
    # the others' own settings stay
    assert await store.social(BOB) == Social(friends_only=True)
