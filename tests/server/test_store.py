"""Every store (memory, SQLite, PostgreSQL) keeps the same promises: atomic writes,
conflicts on races, ordered logs."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import replace
from pathlib import Path

import pytest

from ginrummy.ratings import Rating, rate_match
from ginrummy.server.store import (
    Account,
    ChatLine,
    Clock,
    Device,
    Event,
    Outcome,
    Passkey,
    Player,
    QuickEntry,
    RatedMatch,
    ResultRow,
    RoomRow,
    SeatRow,
    Store,
    StoreConflict,
    open_store,
)
from ginrummy.server.store.memory import MemoryStore
from ginrummy.server.store.sqlite import SQLiteStore

from .test_postgres import fresh_schema


class FakeClock:
    """Every store's clock in these tests: it moves only when told (no test sleeps)."""

    def __init__(self) -> None:
        self.now = 1_700_000_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture(params=["memory", "sqlite", pytest.param("postgres", marks=pytest.mark.system)])
async def store(
    request: pytest.FixtureRequest, tmp_path: Path, clock: FakeClock
) -> AsyncIterator[Store]:
    if request.param == "postgres":  # a schema of its own on the machine's PostgreSQL
        with fresh_schema() as url:
            s = open_store(url, now=clock)
            await s.open()
            yield s
            await s.close()
        return
    s: Store
    if request.param == "memory":
        s = MemoryStore(now=clock)
    else:
        s = SQLiteStore(tmp_path / "s.sqlite3", now=clock)
    await s.open()
    yield s
    await s.close()


@pytest.fixture
def wait(clock: FakeClock) -> Callable[[float], Awaitable[None]]:
    """Let ``seconds`` pass for the store: its clock moves (every store reads the one
    it is given)."""

    async def move(seconds: float) -> None:
        clock.now += seconds

    return move


async def test_rooms_seats_and_events_round_trip(store: Store) -> None:
    room = RoomRow("r1", "room", {"name": "standard"}, 1.0, {"spectators": True})
    await store.create_room(room, [SeatRow("one", "h1", "Ann")], [Event(1, "match", {"a": 1})])
    await store.claim_seat("r1", SeatRow("two", "h2", "Bob"), [Event(2, "deal", {"deck": "x"})])
    await store.append_events("r1", [Event(3, "action", {"seat": "one", "action": "pass"})])
    loaded = await store.load_room("r1")
    assert loaded is not None
    assert loaded.room == room
    assert [s.name for s in loaded.seats] == ["Ann", "Bob"]
    assert [e.seq for e in loaded.events] == [1, 2, 3]
    assert loaded.events[2].payload == {"seat": "one", "action": "pass"}
    assert await store.load_room("nope") is None
    assert [g.room for g in await store.games_of("h2")] == ["r1"]


async def test_load_room_after_a_version_reads_only_the_newer_events(store: Store) -> None:
    await store.create_room(RoomRow("r1", "room", {}, 1.0), [SeatRow("one", "h1", "A")], [])
    await store.append_events("r1", [Event(n, "action", {"n": n}) for n in (1, 2, 3)])
    await store.claim_seat("r1", SeatRow("two", "h2", "B"), [Event(4, "deal", {})])
    newer = await store.load_room("r1", after=2)
    assert newer is not None
    assert [e.seq for e in newer.events] == [3, 4]
    assert [s.seat for s in newer.seats] == ["one", "two"]  # seats always come whole
    caught_up = await store.load_room("r1", after=4)
    assert caught_up is not None and caught_up.events == ()


async def test_races_are_conflicts_and_write_nothing(store: Store) -> None:
    await store.create_room(RoomRow("r1", "room", {}, 1.0), [SeatRow("one", "h1", "A")], [])
    await store.append_events("r1", [Event(1, "match", {})])
    with pytest.raises(StoreConflict):
        await store.append_events("r1", [Event(2, "deal", {}), Event(1, "deal", {})])
    with pytest.raises(StoreConflict):
        await store.claim_seat("r1", SeatRow("one", "h3", "C"), [Event(2, "deal", {})])
    loaded = await store.load_room("r1")
    assert loaded is not None
    assert [e.seq for e in loaded.events] == [1]
    assert [s.identity_hash for s in loaded.seats] == ["h1"]


async def test_identities(store: Store) -> None:
    assert not await store.has_identity("h")
    await store.add_identity("h")
    assert await store.has_identity("h")


async def test_a_known_identity_has_its_player_in_one_call(store: Store) -> None:
    made: list[Player] = []

    def fresh() -> Player:
        made.append(Player(f"p_new{len(made):07d}", "New", created=2.0))
        return made[-1]

    assert await store.known_player("h", fresh) is None  # no such identity: no player
    assert made == [] and await store.player("p_new0000000") is None
    await store.add_identity("h")
    first = await store.known_player("h", fresh)  # its first use makes its player
    assert first == made[0] and await store.ensure_player("h", fresh()) == first
    await store.rename_player(first.id, "Ann")
    again = await store.known_player("h", fresh)
    assert again == replace(first, name="Ann") and len(made) == 2  # nothing made for it
    named = await store.ensure_player("h2", Player("p_h2_0000000", "Bob"))
    assert await store.known_player("h2", fresh) is None  # a player, but no identity
    await store.add_identity("h2")
    assert await store.known_player("h2", fresh) == named


def test_unknown_store_urls_are_refused() -> None:
    with pytest.raises(ValueError, match="unsupported"):
        open_store("mysql://x")
    with pytest.raises(ValueError, match="sqlite:///"):
        open_store("sqlite://")


async def test_players_results_and_clocks(store: Store) -> None:
    ann = await store.ensure_player("h1", Player("p_ann0000000", "Ann", created=1.0))
    again = await store.ensure_player("h1", Player("p_other00000", "Other"))
    assert again == ann
    bob = await store.ensure_player("h2", Player("p_bob0000000", "Bob"))
    await store.rename_player(bob.id, "Bobby")
    assert (await store.player(bob.id)) == Player("p_bob0000000", "Bobby")
    assert await store.player("p_nobody") is None
    assert await store.leaderboard() == []
    room = RoomRow("r1", "room", {"move_timer_seconds": 30}, 1.0, {"visibility": "public"})
    await store.create_room(room, [SeatRow("one", "h1", "Ann")], [Event(1, "match", {})])
    await store.create_room(RoomRow("r2", "solo", {}, 2.0), [], [])
    assert await store.listed_rooms() == ["r1"]
    row = ResultRow(
        room="r1", match_seq=1, player=ann.id, seat="one", opponent=bob.id, bot=None,
        rated=True, won=True, rounds=3, gins=1, undercuts_scored=0, undercuts_suffered=1,
        points=60, margin=25, forfeit=None, rating=None, rd=None, t=5.0,
    )  # fmt: skip
    bob_row = replace(row, player=bob.id, seat="two", opponent=ann.id, won=False, margin=-25)
    outcome = Outcome((row, bob_row), RatedMatch(ann.id, bob.id, 1.0), (bob.id,))
    await store.append_events("r1", [Event(2, "forfeit", {})], outcome)
    won, lost = rate_match(Rating(), Rating(), 1.0)  # both start at 1500, RD 350
    assert await store.results_of(ann.id) == [replace(row, rating=won.rating, rd=won.rd)]
    assert await store.results_of(bob.id) == [replace(bob_row, rating=lost.rating, rd=lost.rd)]
    assert await store.leaderboard() == []  # rated play counts accounts only: guests aren't listed
    for h, name in (("h1", "Ann"), ("h2", "Bob")):
        await store.add_identity(h)
        device = Device("d_" + h, h, h, "Firefox", 1.0, 1.0)
        await store.create_account(
            Account(h, name, name.lower(), 1.0), device, Passkey("c" + h, h, "k", 0, 1.0)
        )
    assert [p.id for p in await store.leaderboard()] == [ann.id, bob.id]
    ann = replace(ann, name="Ann", account=True)  # an account's player now
    rated = replace(ann, rating=won.rating, rd=won.rd, volatility=won.volatility, rated_matches=1)
    assert (await store.player(ann.id)) == rated
    bob_now = await store.player(bob.id)
    assert bob_now is not None and (bob_now.abandons, bob_now.rated_matches) == (1, 1)
    assert bob_now.rating == lost.rating
    await store.save_clock("r1", Clock(2, 12_000))
    await store.save_clock("r1", Clock(2, 11_000))
    loaded = await store.load_room("r1")
    assert loaded is not None and loaded.clock == Clock(2, 11_000)


async def test_a_lease_has_one_holder_until_released(store: Store) -> None:
    await store.create_room(RoomRow("r1", "room", {}, 1.0), [], [])
    assert await store.acquire_lease("r1", "a", 30.0)
    assert not await store.acquire_lease("r1", "b", 30.0)
    assert await store.acquire_lease("r1", "a", 30.0)  # a renewal
    await store.release_lease("r1", "b")  # not b's to give up
    assert not await store.acquire_lease("r1", "b", 30.0)
    await store.release_lease("r1", "a")
    assert await store.acquire_lease("r1", "b", 30.0)
    assert not await store.acquire_lease("r1", "a", 30.0)


async def test_instances_asking_at_once_get_one_lease(store: Store) -> None:
    await store.create_room(RoomRow("r1", "room", {}, 1.0), [], [])
    got = await asyncio.gather(*(store.acquire_lease("r1", f"i{n}", 30.0) for n in range(8)))
    assert sorted(got) == [False] * 7 + [True]


async def test_an_expired_lease_goes_to_the_next_asker(
    store: Store, wait: Callable[[float], Awaitable[None]]
) -> None:
    await store.create_room(RoomRow("r1", "room", {}, 1.0), [], [])
    assert await store.acquire_lease("r1", "a", 0.3)
    assert not await store.acquire_lease("r1", "b", 0.3)
    await wait(0.45)
    assert await store.acquire_lease("r1", "b", 30.0)
    assert not await store.acquire_lease("r1", "a", 30.0)


async def test_renewing_a_lease_keeps_it_past_its_first_expiry(
    store: Store, wait: Callable[[float], Awaitable[None]]
) -> None:
    await store.create_room(RoomRow("r1", "room", {}, 1.0), [], [])
    assert await store.acquire_lease("r1", "a", 0.5)
    await wait(0.3)
    assert await store.acquire_lease("r1", "a", 0.5)
    await wait(0.3)  # past the first expiry, within the renewed one
    assert not await store.acquire_lease("r1", "b", 0.5)


def _line(text: str, seat: str | None = "one") -> ChatLine:
    return ChatLine(0, 5.0, seat, "p_ann", "Ann#abcd", text, None)


async def test_chat_lines_are_numbered_per_room_and_the_newest_kept(store: Store) -> None:
    for room in ("r1", "r2"):
        await store.create_room(RoomRow(room, "room", {}, 1.0), [], [])
    assert [await store.add_chat("r1", _line(f"hi {n}"), keep=3) for n in range(5)] == [
        1,
        2,
        3,
        4,
        5,
    ]
    assert await store.add_chat("r2", ChatLine(9, 6.0, None, "p_bob", "Bob#x", None, "gg"), 3) == 1
    kept = await store.recent_chat("r1", 50)
    assert [(line.seq, line.text) for line in kept] == [(3, "hi 2"), (4, "hi 3"), (5, "hi 4")]
    assert kept[0] == ChatLine(3, 5.0, "one", "p_ann", "Ann#abcd", "hi 2", None)
    assert [line.seq for line in await store.recent_chat("r1", 2)] == [4, 5]
    assert await store.recent_chat("r2", 50) == [
        ChatLine(1, 6.0, None, "p_bob", "Bob#x", None, "gg")
    ]
    assert await store.recent_chat("nope", 50) == []
    with pytest.raises(StoreConflict):
        await store.add_chat("nope", _line("lost"), keep=3)


async def test_chat_channels_keep_their_own_lines_numbered_across_the_room(store: Store) -> None:
    await store.create_room(RoomRow("r1", "room", {}, 1.0), [], [])
    said = [
        await store.add_chat("r1", _line(f"{channel or 'room'} {n}"), 2, channel)
        for n in range(3)
        for channel in ("", "team:1", "team:2")
    ]
    assert said == list(range(1, 10))  # one numbering for the room's channels
    room = [(line.seq, line.text) for line in await store.recent_chat("r1", 50)]
    assert room == [(4, "room 1"), (7, "room 2")]  # the newest 2 of its channel
    team = [(line.seq, line.text) for line in await store.recent_chat("r1", 50, "team:1")]
    assert team == [(5, "team:1 1"), (8, "team:1 2")]
    assert [line.seq for line in await store.recent_chat("r1", 1, "team:2")] == [9]
    assert await store.recent_chat("r1", 50, "team:3") == []


async def test_chat_lines_said_at_once_get_distinct_numbers(store: Store) -> None:
    await store.create_room(RoomRow("r1", "room", {}, 1.0), [], [])
    seqs = await asyncio.gather(*(store.add_chat("r1", _line(f"{n}"), 50) for n in range(12)))
    assert sorted(seqs) == list(range(1, 13))
    lines = await store.recent_chat("r1", 50)
    assert sorted(line.text or "" for line in lines) == sorted(str(n) for n in range(12))


LIVE = 60.0  # seconds an unconfirmed waiting entry lives (the quick_* calls' stale_after)


def _entry(who: str, since: float, target: int = 100) -> QuickEntry:
    return QuickEntry(f"h_{who}", f"p_{who}", {"name": "standard", "target": target}, since)


async def test_quick_queue_pairs_the_oldest_compatible_entry(store: Store) -> None:
    assert await store.quick_enter(_entry("ann", 1.0), LIVE) is None
    assert await store.quick_enter(_entry("bob", 2.0), LIVE) == _entry("ann", 1.0)
    assert await store.quick_waiting(LIVE) == 0
    assert await store.quick_enter(_entry("cid", 3.0, target=50), LIVE) is None
    assert await store.quick_enter(_entry("dan", 4.0), LIVE) is None
    assert await store.quick_enter(_entry("eve", 5.0), LIVE) == _entry("dan", 4.0)
    assert await store.quick_entry("h_ann", LIVE) is None
    assert await store.quick_entry("h_cid", LIVE) == _entry("cid", 3.0, 50)
    assert await store.quick_waiting(LIVE) == 1  # Eve took Dan; Cid's settings differ
    assert await store.quick_enter(_entry("fay", 6.0), LIVE) is None
    assert await store.quick_enter(_entry("fay", 7.0), LIVE) is None  # replaces; never pairs itself
    assert await store.quick_entry("h_fay", LIVE) == _entry("fay", 7.0)
    assert await store.quick_enter(_entry("gus", 8.0, target=50), LIVE) == _entry("cid", 3.0, 50)
    assert await store.quick_waiting(LIVE) == 1
    assert await store.quick_leave("h_fay")
    assert not await store.quick_leave("h_fay")
    assert await store.quick_waiting(LIVE) == 0


async def test_quick_queue_remembers_pairings_for_a_while(store: Store) -> None:
    assert await store.quick_enter(_entry("ann", 1.0), LIVE) is None
    other = await store.quick_enter(_entry("bob", 2.0), LIVE)
    assert other == _entry("ann", 1.0)
    paired = (
        replace(other, since=10.0, room="r1", seat="one"),
        replace(_entry("bob", 10.0), room="r1", seat="two"),
    )
    await store.quick_save(paired, forget_before=0.0)
    assert await store.quick_entry("h_bob", LIVE) == paired[1]
    assert await store.quick_waiting(LIVE) == 0
    assert not await store.quick_leave("h_ann")  # paired, not waiting: stays remembered
    assert await store.quick_entry("h_ann", LIVE) == paired[0]
    # A put-back entry waits again; old pairings are forgotten.
    await store.quick_save((_entry("cid", 20.0),), forget_before=11.0)
    assert (
        await store.quick_entry("h_ann", LIVE) is None
        and await store.quick_entry("h_bob", LIVE) is None
    )
    assert await store.quick_waiting(LIVE) == 1
    # Entering again replaces a remembered pairing.
    await store.quick_save(paired, forget_before=0.0)
    assert await store.quick_enter(_entry("ann", 30.0), LIVE) == _entry("cid", 20.0)
    assert await store.quick_entry("h_ann", LIVE) is None


async def test_people_entering_at_once_are_paired_exactly_once(store: Store) -> None:
    entries = [_entry(f"x{n}", float(n)) for n in range(10)]
    taken = await asyncio.gather(*(store.quick_enter(e, LIVE) for e in entries))
    pairs = [(e.player, t.player) for e, t in zip(entries, taken, strict=True) if t is not None]
    assert len(pairs) == 5  # nobody left waiting while a compatible person waits too
    assert sorted(p for pair in pairs for p in pair) == sorted(e.player for e in entries)
    assert await store.quick_waiting(LIVE) == 0


async def test_a_stale_waiting_entry_is_never_paired_and_is_removed(
    store: Store, wait: Callable[[float], Awaitable[None]]
) -> None:
    short = 0.5  # stale after half a second unconfirmed, deleted after one
    assert await store.quick_enter(_entry("ann", 1.0), short) is None
    assert await store.quick_waiting(short) == 1
    await wait(0.6)  # Ann's instance died: nobody confirms her entry
    assert await store.quick_waiting(short) == 0
    assert await store.quick_entry("h_ann", short) is None
    assert await store.quick_enter(_entry("bob", 2.0), short) is None  # not paired with Ann
    await wait(0.5)  # Ann unconfirmed for over twice the staleness: deleted
    assert await store.quick_confirm(["h_ann", "h_bob"], short) == 1  # not brought back
    assert await store.quick_entry("h_bob", short) == _entry("bob", 2.0)
    assert not await store.quick_leave("h_ann")
    assert await store.quick_leave("h_bob")


async def test_confirmed_entries_live_and_released_ones_wait_for_a_confirmation(
    store: Store, wait: Callable[[float], Awaitable[None]]
) -> None:
    live = 1.0
    assert await store.quick_enter(_entry("ann", 1.0), live) is None
    await wait(0.6)
    assert await store.quick_confirm(["h_ann", "h_nobody"], live) == 1
    await wait(0.6)  # over the staleness since she entered, not since confirmed
    assert await store.quick_enter(_entry("bob", 2.0), live) == _entry("ann", 1.0)
    # Cid's last lobby socket on one instance closed: stale at once...
    assert await store.quick_enter(_entry("cid", 3.0), live) is None
    assert await store.quick_release("h_cid", live)
    assert not await store.quick_release("h_cid", live)
    assert await store.quick_waiting(live) == 0
    assert await store.quick_entry("h_cid", live) is None
    assert await store.quick_enter(_entry("dan", 4.0), live) is None  # not paired with Cid
    # ...until another instance, where Cid has a lobby socket too, confirms it.
    assert await store.quick_confirm(["h_cid"], live) == 2
    assert await store.quick_enter(_entry("eve", 5.0), live) == _entry("cid", 3.0)
    assert await store.quick_entry("h_dan", live) == _entry("dan", 4.0)
