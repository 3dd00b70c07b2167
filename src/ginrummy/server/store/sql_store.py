"""The SQL store: every store call written once, over a driver (SQLite or PostgreSQL).

A call is a unit of work (``work.py``) that the driver runs in one transaction:
``write`` durably (SQLite's group commit, a PostgreSQL transaction), ``read`` in one
snapshot. ``one=True`` says the work is a single statement, which PostgreSQL sends
without BEGIN and COMMIT (a statement is a transaction of its own): one round trip,
which is what a move's append, a hello's ``load_room`` and the lease calls cost.

The time is the clock passed in (the server's), never the database's nor
``time.time()`` read here: leases and the quick match compare times that different
instances wrote, so instances sharing a database must keep their clocks synchronised
(NTP; a lease of 30 s tolerates a skew of well under a second).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol, TypeVar

from ginrummy.server.store import sql
from ginrummy.server.store.base import (
    ROOM_CHAT,
    ChatLine,
    Clock,
    Event,
    GameRef,
    Outcome,
    Player,
    QuickEntry,
    ResultRow,
    RoomRow,
    SeatRow,
    StoreConflict,
    StoredRoom,
    StoredTournament,
    TournamentRow,
)
from ginrummy.server.store.dialect import Dialect
from ginrummy.server.store.outcomes import settle
from ginrummy.server.store.sql_accounts import SqlAccounts
from ginrummy.server.store.sql_civility import SqlCivility
from ginrummy.server.store.sql_friends import SqlFriends
from ginrummy.server.store.sql_yourdata import SqlYourData
from ginrummy.server.store.work import Many, Statement, Work, count, row, rows

T = TypeVar("T")


class Driver(Protocol):
    """How statements reach one database: its connection(s), transactions and errors
    (``StoreConflict`` for a broken constraint, ``StoreError`` for the rest)."""

    dialect: Dialect

    async def open(self, now: float) -> None:
        """Connect and bring the schema to ``schema.HEAD`` (``now``: the clock's time)."""

    async def close(self) -> None: ...

    async def read(self, work: Work[T], one: bool = False) -> T:
        """``work`` in one snapshot."""

    async def write(self, work: Work[T], one: bool = False) -> T:
        """``work`` in one transaction, answered once it is durable."""


class SqlStore(SqlAccounts, SqlCivility, SqlYourData, SqlFriends):  # your data: sql_yourdata.py
    """The ``Store`` of a SQL database (``SQLiteStore``, ``PostgresStore`` make one);
    its accounts' calls are ``SqlAccounts``'s, its friends' ``SqlFriends``'s."""

    def __init__(self, driver: Driver, now: Callable[[], float] = time.time) -> None:
        self.driver = driver
        self._d = driver.dialect
        self._now = now
        self.now = now  # the store's clock, public for its parts (sql_accounts)

    async def open(self) -> None:
        await self.driver.open(self._now())

    async def close(self) -> None:
        await self.driver.close()

    async def add_identity(self, token_hash: str) -> None:
        await self.driver.write(count(sql.INSERT_IDENTITY, token_hash, self._now()), one=True)

    async def has_identity(self, token_hash: str) -> bool:
        return await self.driver.read(row(sql.HAS_IDENTITY, token_hash), one=True) is not None

    async def known_player(self, token_hash: str, fresh: Callable[[], Player]) -> Player | None:
        found = await self.driver.read(row(sql.KNOWN_PLAYER, token_hash), one=True)
        if found is None or found[0] is not None:
            return None if found is None else sql.player_of(found)
        return await self.ensure_player(token_hash, fresh())  # its first use

    async def create_room(
        self, room: RoomRow, seats: Sequence[SeatRow], events: Sequence[Event]
    ) -> None:
        def work() -> Work[None]:
            yield Statement(sql.INSERT_ROOM, sql.room_values(room))
            yield Many(sql.INSERT_SEAT, [sql.seat_values(room.id, s) for s in seats])
            yield self._insert_events(room.id, events)

        await self.driver.write(work())

    async def claim_seat(self, room_id: str, seat: SeatRow, events: Sequence[Event]) -> None:
        def work() -> Work[None]:
            yield Statement(sql.INSERT_SEAT, sql.seat_values(room_id, seat))
            yield self._insert_events(room_id, events)

        await self.driver.write(work())

    async def append_events(
        self, room_id: str, events: Sequence[Event], outcome: Outcome | None = None
    ) -> None:
        def work() -> Work[None]:
            yield self._insert_events(room_id, events)
            if outcome is not None:
                yield from self._settle(outcome)

        # A move: one INSERT, one round trip.
        await self.driver.write(work(), one=len(events) == 1 and outcome is None)

    async def load_room(self, room_id: str, after: int = 0) -> StoredRoom | None:
        if self._d.LOAD_ROOM is not None:  # every hello and catch-up: one statement
            found = await self.driver.read(row(self._d.LOAD_ROOM, after, room_id), one=True)
            return None if found is None else sql.stored_room(*_room_parts(found))

        def work() -> Work[StoredRoom | None]:
            found = yield Statement(sql.SELECT_ROOM, (room_id,), "row")
            if found is None:
                return None
            return sql.stored_room(
                found,
                (yield Statement(self._d.SELECT_SEATS, (room_id,), "rows")),
                (yield Statement(sql.SELECT_EVENTS, (room_id, after), "rows")),
                (yield Statement(sql.SELECT_CLOCK, (room_id,), "row")),
            )

        return await self.driver.read(work())

    async def games_of(self, identity_hash: str, limit: int = 20) -> list[GameRef]:
        found = await self.driver.read(rows(sql.GAMES_OF, identity_hash, limit), one=True)
        return [GameRef(*r) for r in found]

    async def listed_rooms(self, limit: int = 500) -> list[str]:
        return [r[0] for r in await self.driver.read(rows(self._d.LISTED_ROOMS, limit), one=True)]

    async def save_clock(self, room_id: str, clock: Clock) -> None:
        statement = count(sql.SAVE_CLOCK, room_id, clock.version, clock.remaining_ms)
        await self.driver.write(statement, one=True)

    async def ensure_player(self, identity_hash: str, fresh: Player) -> Player:
        def work() -> Work[Player]:
            yield Statement(sql.INSERT_PLAYER, (identity_hash, *sql.player_values(fresh)))
            return sql.player_of((yield Statement(sql.PLAYER_OF_IDENTITY, (identity_hash,), "row")))

        return await self.driver.write(work())

    async def player(self, player_id: str) -> Player | None:
        found = await self.driver.read(row(sql.PLAYER, player_id), one=True)
        return None if found is None else sql.player_of(found)

    async def rename_player(self, player_id: str, name: str) -> None:
        await self.driver.write(count(sql.RENAME_PLAYER, name, player_id), one=True)

    async def leaderboard(self, limit: int = 50) -> list[Player]:
        found = await self.driver.read(rows(self._d.LEADERBOARD, limit), one=True)
        return [sql.player_of(r) for r in found]

    async def results_of(self, player_id: str) -> list[ResultRow]:
        found = await self.driver.read(rows(self._d.RESULTS_OF, player_id), one=True)
        return [sql.result_of(r) for r in found]

    async def acquire_lease(self, room_id: str, holder: str, ttl_s: float) -> bool:
        now = self._now()
        upsert = count(self._d.ACQUIRE_LEASE, room_id, holder, now + ttl_s, now)
        return await self.driver.write(upsert, one=True) == 1  # renewals share a commit

    async def release_lease(self, room_id: str, holder: str) -> None:
        await self.driver.write(count(sql.RELEASE_LEASE, room_id, holder), one=True)

    async def add_chat(
        self, room_id: str, line: ChatLine, keep: int, channel: str = ROOM_CHAT
    ) -> int:
        # SQLite's write transaction holds the file's lock: no other process numbers a
        # line of this room meanwhile; PostgreSQL locks the room's row for that.
        def work() -> Work[int]:
            if self._d.LOCK_CHAT is not None:
                yield Statement(self._d.LOCK_CHAT, (room_id,), "row")
            seq: int = (yield Statement(sql.NEXT_CHAT_SEQ, (room_id,), "row"))[0]
            yield Statement(sql.INSERT_CHAT, sql.chat_values(room_id, channel, seq, line))
            yield Statement(sql.TRIM_CHAT, sql.trim_chat_values(room_id, channel, keep))
            return seq

        return await self.driver.write(work())

    async def recent_chat(
        self, room_id: str, limit: int, channel: str = ROOM_CHAT
    ) -> list[ChatLine]:
        found = await self.driver.read(rows(sql.RECENT_CHAT, room_id, channel, limit), one=True)
        return [sql.chat_of(r) for r in reversed(found)]

    async def quick_enter(self, entry: QuickEntry, stale_after: float) -> QuickEntry | None:
        # One write transaction, one enter at a time: two instances never take the same
        # waiting entry, and two people entering at once see each other.
        now = self._now()

        def work() -> Work[QuickEntry | None]:
            if self._d.LOCK_QUICK is not None:
                yield Statement(self._d.LOCK_QUICK)
            yield Statement(sql.DROP_QUICK, (entry.identity_hash,))
            yield Statement(sql.SWEEP_QUICK, (now - 2 * stale_after,))
            taken = yield Statement(
                self._d.TAKE_QUICK,
                (
                    sql.json_text(entry.rules),
                    entry.player,
                    now - stale_after,
                    entry.player,
                    entry.player,
                ),
                "row",
            )
            if taken is None:
                yield _put_quick(entry, now)
                return None
            if not self._d.TAKES_QUICK:
                yield Statement(sql.DROP_QUICK, (taken[0],))
            return sql.quick_of(taken)

        return await self.driver.write(work())

    async def quick_save(self, entries: Sequence[QuickEntry], forget_before: float) -> None:
        now = self._now()

        def work() -> Work[None]:
            yield Statement(sql.FORGET_PAIRINGS, (forget_before,))
            for entry in entries:
                yield _put_quick(entry, now)

        await self.driver.write(work())

    async def quick_confirm(self, identity_hashes: Sequence[str], stale_after: float) -> int:
        now = self._now()

        def work() -> Work[int]:
            yield Statement(sql.SWEEP_QUICK, (now - 2 * stale_after,))  # first: deleted stays so
            yield self._d.confirm_quick(now, identity_hashes)
            return int((yield Statement(sql.COUNT_WAITING, (now - stale_after,), "row"))[0])

        return await self.driver.write(work())

    async def quick_release(self, identity_hash: str, stale_after: float) -> bool:
        stale = self._now() - stale_after
        release = count(sql.RELEASE_QUICK, stale, identity_hash, stale)
        return await self.driver.write(release, one=True) == 1

    async def quick_leave(self, identity_hash: str) -> bool:
        return await self.driver.write(count(sql.LEAVE_QUICK, identity_hash), one=True) == 1

    async def quick_entry(self, identity_hash: str, stale_after: float) -> QuickEntry | None:
        live_after = self._now() - stale_after
        found = await self.driver.read(row(sql.QUICK_ENTRY, identity_hash, live_after), one=True)
        return None if found is None else sql.quick_of(found)

    async def quick_waiting(self, stale_after: float) -> int:
        found = await self.driver.read(row(sql.COUNT_WAITING, self._now() - stale_after), one=True)
        return int(found[0])

    async def create_tournament(
        self, row: TournamentRow, events: Sequence[Event], identities: Mapping[str, str]
    ) -> None:
        def work() -> Work[None]:
            yield Statement(sql.INSERT_TOURNAMENT, sql.tournament_values(row))
            yield from self._insert_tournament(row.id, events, identities)

        await self.driver.write(work())

    async def append_tournament(
        self,
        tournament_id: str,
        events: Sequence[Event],
        phase: str,
        identities: Mapping[str, str] | None = None,
    ) -> None:
        def work() -> Work[None]:
            if (yield Statement(sql.SET_TOURNAMENT_PHASE, (phase, tournament_id))) != 1:
                raise StoreConflict(f"tournament {tournament_id} does not exist")
            yield from self._insert_tournament(tournament_id, events, identities or {})

        await self.driver.write(work())

    async def load_tournament(self, tournament_id: str, after: int = 0) -> StoredTournament | None:
        def work() -> Work[StoredTournament | None]:
            found = yield Statement(sql.SELECT_TOURNAMENT, (tournament_id,), "row")
            if found is None:
                return None
            return sql.stored_tournament(
                found,
                (yield Statement(sql.SELECT_TOURNAMENT_EVENTS, (tournament_id, after), "rows")),
                (yield Statement(sql.SELECT_TOURNAMENT_IDENTITIES, (tournament_id,), "rows")),
            )

        return await self.driver.read(work())

    async def live_tournaments(self, limit: int = 500) -> list[TournamentRow]:
        found = await self.driver.read(rows(self._d.LIVE_TOURNAMENTS, limit), one=True)
        return [sql.tournament_of(r) for r in found]

    async def player_tournaments(self, player: str, limit: int = 50) -> list[TournamentRow]:
        found = await self.driver.read(rows(self._d.PLAYER_TOURNAMENTS, player, limit), one=True)
        return [sql.tournament_of(r) for r in found]

    # -- parts of calls ----------------------------------------------------------------

    def _insert_events(self, room_id: str, events: Sequence[Event]) -> Statement | Many:
        values = sql.event_values(room_id, events, self._now())
        return (
            Statement(sql.INSERT_EVENT, values[0])
            if len(values) == 1
            else Many(sql.INSERT_EVENT, values)
        )

    def _insert_tournament(
        self, tournament_id: str, events: Sequence[Event], identities: Mapping[str, str]
    ) -> Work[None]:
        yield Many(
            sql.INSERT_TOURNAMENT_EVENT, sql.event_values(tournament_id, events, self._now())
        )
        yield Many(sql.INSERT_TOURNAMENT_IDENTITY, sql.identity_values(tournament_id, identities))

    def _settle(self, outcome: Outcome) -> Work[None]:
        """Write a match's outcome, rated from the players' rows as committed: SQLite's
        write transaction holds the file's lock from the read to the commit; PostgreSQL
        locks each row (FOR UPDATE, in ``Outcome.player_ids`` order, so two
        transactions never wait for each other in a circle) until the commit. Either
        way a match ending at once on another instance rates from what this one wrote."""
        current = {}
        for pid in outcome.player_ids:
            found = yield Statement(sql.PLAYER_FOR_SETTLING + self._d.FOR_UPDATE, (pid,), "row")
            if found is not None:
                current[pid] = sql.player_of(found)
        settled = settle(outcome, current)
        yield Many(sql.SETTLE_PLAYER, [sql.settled_values(p) for p in settled.players])
        yield Many(sql.INSERT_RESULT, [sql.result_values(r) for r in settled.results])


def _put_quick(e: QuickEntry, confirmed: float) -> Statement:
    return Statement(sql.PUT_QUICK, (*sql.quick_values(e), confirmed))


def _room_parts(found: Any) -> tuple[Any, Any, Any, Any]:
    """PostgreSQL's one-statement room: its row, seats, events and clock."""
    return found[:5], found[5], found[6], found[7]
