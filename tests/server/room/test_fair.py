"""The fair deal in the master (docs/fairness.md §1): commit, then the seats' seeds,
then the deal the construction gives; refusals change nothing; the default seed of a
silent seat; replay of the events rebuilds the same snapshot."""

from __future__ import annotations

import asyncio
import hashlib
import random
from collections.abc import Callable

import pytest

from ginrummy.engine import ForfeitReason, Rules, Seat, cards_text
from ginrummy.fairness import DealContext, deal_deck, default_seat_seed
from ginrummy.server.clock import ManualClock
from ginrummy.server.room import RoomError, SeatInfo, replay
from ginrummy.server.room import master as m
from ginrummy.server.room.log import Snapshot, fold_all
from ginrummy.server.room.master import Change, Table
from ginrummy.server.store import Event
from ginrummy.server.store.memory import MemoryStore

from .helpers import manager

ANN = hashlib.sha256(b"ann-token").hexdigest()
BOB = hashlib.sha256(b"bob-token").hexdigest()
PEOPLE = {Seat.ONE: SeatInfo("Ann", ANN, None), Seat.TWO: SeatInfo("Bob", BOB, None)}
SOLO = {Seat.ONE: SeatInfo("Ann", ANN, None), Seat.TWO: SeatInfo("Computer", None, "easy")}
A_SEED, B_SEED = "a1" * 32, "b2" * 32


def _table(snap: Snapshot, seats: dict[Seat, SeatInfo] = PEOPLE, wait: bool = True) -> Table:
    return Table(snap, seats, Rules(), "room-1", wait)


def _open(seats: dict[Seat, SeatInfo] = PEOPLE, wait: bool = True) -> tuple[Change, Table]:
    change = m.opening(_table(Snapshot(0, None), seats, wait), random.Random(5))
    return change, _table(change.snaps[-1], seats, wait)


def _after(table: Table, change: Change) -> Table:
    return _table(change.snaps[-1], dict(table.seats), table.seed_wait)


def test_the_server_commits_first_and_deals_once_both_seeds_are_in() -> None:
    opened, table = _open()
    assert [e.kind for e in opened.events] == ["match", "commit"]
    commit = opened.events[1].payload
    server_seed = bytes.fromhex(commit["server_seed"])
    assert commit["commitment"] == hashlib.sha256(server_seed).hexdigest()
    assert (commit["room"], commit["match"], commit["round"]) == ("room-1", 1, 1)
    assert table.snapshot.match is not None and table.snapshot.match.round is None  # not dealt

    first = m.seed(table, Seat.TWO, B_SEED, commit["commitment"])
    assert [e.kind for e in first.events] == ["seed"]
    assert first.events[0].payload == {"seat": "two", "seed": B_SEED, "source": "sent"}
    table = _after(table, first)
    second = m.seed(table, Seat.ONE, A_SEED)
    assert [e.kind for e in second.events] == ["seed", "deal"]

    ctx = DealContext(bytes.fromhex(A_SEED), bytes.fromhex(B_SEED), "room-1", 1, 1)
    deal = second.events[1].payload
    assert deal["deck"] == cards_text(deal_deck(server_seed, ctx))
    assert deal["fair"]["server_seed"] == server_seed.hex()
    assert deal["fair"]["seeds"] == {"one": A_SEED, "two": B_SEED}
    assert deal["sources"] == {"one": "sent", "two": "sent"}
    after = second.snaps[-1]
    assert after.pending is None and after.match is not None and after.match.round is not None


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("ab" * 31, "bad_seed"),  # 31 bytes
        ("ab" * 33, "bad_seed"),  # 33 bytes
        ("AB" * 32, "bad_seed"),  # upper case
        ("zz" * 32, "bad_seed"),  # not hex
        ("", "bad_seed"),
    ],
)
def test_a_malformed_seed_is_refused(text: str, code: str) -> None:
    _, table = _open()
    with pytest.raises(RoomError) as err:
        m.seed(table, Seat.ONE, text)
    assert err.value.code == code
    assert table.snapshot.pending is not None and table.snapshot.pending.seeds.one is None


def test_a_seed_cannot_be_sent_twice_nor_after_the_deal_nor_for_another_deal() -> None:
    _, table = _open()
    committed = table.snapshot.pending.commitment if table.snapshot.pending else ""
    with pytest.raises(RoomError) as err:
        m.seed(table, Seat.ONE, A_SEED, "00" * 32)  # the commitment of another deal
    assert err.value.code == "no_seed_due"
    table = _after(table, m.seed(table, Seat.ONE, A_SEED, committed))
    with pytest.raises(RoomError) as err:
        m.seed(table, Seat.ONE, "cc" * 32)  # seeing nothing new, it may not change its seed
    assert err.value.code == "seed_already_sent"
    table = _after(table, m.seed(table, Seat.TWO, B_SEED))
    with pytest.raises(RoomError) as err:
        m.seed(table, Seat.TWO, "dd" * 32)
    assert err.value.code == "no_seed_due"


def test_a_computer_seat_gets_its_seed_from_the_server_at_once_and_it_is_stored() -> None:
    opened, table = _open(SOLO)
    assert [e.kind for e in opened.events] == ["match", "commit", "seed"]
    computer = opened.events[2].payload
    assert computer["seat"] == "two" and computer["source"] == "computer"
    assert len(bytes.fromhex(computer["seed"])) == 32
    dealt = m.seed(table, Seat.ONE, A_SEED)
    assert dealt.events[-1].payload["fair"]["seeds"]["two"] == computer["seed"]


def test_a_silent_seat_gets_its_default_seed_when_the_timeout_runs_out() -> None:
    opened, table = _open()
    committed = opened.events[1].payload["commitment"]
    table = _after(table, m.seed(table, Seat.ONE, A_SEED))
    late = m.default_seeds(table, committed)
    assert [e.kind for e in late.events] == ["seed", "deal"]
    default = default_seat_seed(bytes.fromhex(BOB), "room-1", 1, 1, Seat.TWO)
    assert late.events[0].payload == {"seat": "two", "seed": default.hex(), "source": "default"}
    assert late.events[1].payload["sources"] == {"one": "sent", "two": "default"}
    # A timeout of a deal no longer due does nothing.
    assert m.default_seeds(_after(table, late), committed) == Change()


def test_without_waiting_the_round_is_dealt_at_once_with_default_seeds() -> None:
    opened, _ = _open(wait=False)
    assert [e.kind for e in opened.events] == ["match", "deal"]
    fair = opened.events[1].payload["fair"]
    assert (
        fair["seeds"]["one"]
        == default_seat_seed(bytes.fromhex(ANN), "room-1", 1, 1, Seat.ONE).hex()
    )
    assert opened.events[1].payload["sources"] == {"one": "default", "two": "default"}


def test_the_events_replay_to_the_same_snapshot_and_old_deals_still_replay() -> None:
    opened, table = _open()
    one = m.seed(table, Seat.ONE, A_SEED)
    two = m.seed(_after(table, one), Seat.TWO, B_SEED)
    events = [*opened.events, *one.events, *two.events]
    assert replay(events) == two.snaps[-1]
    assert replay(events).fair[0] is not None and replay(events).fair[0].round == 1
    # A log from before fair deals: a deal event with only a deck.
    old = [opened.events[0], Event(2, "deal", {"deck": two.events[-1].payload["deck"]})]
    snap = fold_all(Snapshot(0, None), old)[-1]
    assert snap.fair == (None,) and snap.match is not None and snap.match.round is not None


def test_a_seed_event_without_a_commitment_does_not_replay() -> None:
    opened, _ = _open(wait=False)
    with pytest.raises(ValueError, match="without a commitment"):
        fold_all(
            opened.snaps[-1], [Event(3, "seed", {"seat": "one", "seed": A_SEED, "source": "sent"})]
        )


async def _until(condition: Callable[[], bool], seconds: float = 3.0) -> None:
    async with asyncio.timeout(seconds):
        while not condition():
            await asyncio.sleep(0.01)


async def test_a_due_deal_survives_a_restart_and_the_timeout_gives_the_default_seed() -> None:
    store = MemoryStore()
    async with manager(store, seed_timeout=5.0) as rooms:
        room = await rooms.create(
            kind="room", rules=Rules(), creator_hash=ANN, name="Ann", opponent_bot=None,
            spectators=True, opponent_name="Bob", opponent_hash=BOB, options={},
        )  # fmt: skip
        committed = room.current.pending.commitment if room.current.pending else ""
        assert room.work_due()  # the seed timeout runs
        await room.seed(Seat.ONE, A_SEED, committed)
        with pytest.raises(RoomError) as err:
            await room.seed(Seat.ONE, A_SEED)
        assert err.value.code == "seed_already_sent"
    async with manager(store, seed_timeout=5.0) as again:
        back = await again.get(room.id)
        assert back is not None and back.current.pending is not None
        assert back.current.pending.commitment == committed
        assert back.current.pending.seeds.one == bytes.fromhex(A_SEED)
        assert isinstance(again.clock, ManualClock)
        again.clock.advance(4.9)
        await asyncio.sleep(0.05)
        assert back.current.pending is not None  # not yet
        again.clock.advance(0.2)
        await _until(lambda: back.current.pending is None)
        assert back.current.fair[0] is not None
        default = default_seat_seed(bytes.fromhex(BOB), room.id, 1, 1, Seat.TWO)
        assert back.current.fair[0].seeds.two == default.hex()
        assert back.current.match is not None and back.current.match.round is not None


def test_a_forfeit_while_seeds_are_awaited_ends_the_wait() -> None:
    opened, table = _open()
    lost = m.end_by_forfeit(table, Seat.ONE, ForfeitReason.RESIGNED)
    after = _after(table, lost)
    assert after.snapshot.over and after.snapshot.pending is None
    assert m.default_seeds(after, opened.events[1].payload["commitment"]) == Change()
    with pytest.raises(RoomError) as err:
        m.seed(after, Seat.TWO, B_SEED)
    assert err.value.code == "no_seed_due"
