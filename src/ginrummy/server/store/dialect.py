"""Where SQLite and PostgreSQL must be spelled apart: the few statements that differ.

Everything else is in ``sql.py``, written once. The differences: PostgreSQL orders
text by its locale unless told ``COLLATE "C"`` (SQLite and the memory store order it
byte by byte); JSON is looked into with ``json_extract`` or ``->>``; PostgreSQL reads
a room in one statement (arrays of rows), takes a waiting quick-match entry with
``DELETE ... RETURNING``, matches a list with ``= ANY(array)`` and takes row and table
locks, where SQLite's write transaction (``BEGIN IMMEDIATE``) already holds the
file's lock.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ginrummy.server.store import sql
from ginrummy.server.store.schema import Dialect as Name
from ginrummy.server.store.work import Many, Op, Statement


@dataclass(frozen=True, slots=True)
class Dialect:
    name: Name
    SELECT_SEATS: str
    LOAD_ROOM: str | None  # a room whole in one statement (after, room): PostgreSQL
    LISTED_ROOMS: str
    LEADERBOARD: str
    RESULTS_OF: str
    LIVE_TOURNAMENTS: str
    PLAYER_TOURNAMENTS: str
    # The oldest live waiting entry of these rules (rules, player, live after); with
    # ``TAKES_QUICK`` the statement also deletes it.
    TAKE_QUICK: str
    TAKES_QUICK: bool
    LOCK_CHAT: str | None  # (room): before numbering a chat line
    LOCK_QUICK: str | None  # before pairing
    FOR_UPDATE: str  # after a player's SELECT in a match's settlement
    # (room, holder, expires, now), both times in seconds since the epoch
    ACQUIRE_LEASE: str
    arrays: bool  # confirm a list of entries with one ``= ANY(?)``

    def confirm_quick(self, now: float, identity_hashes: Sequence[str]) -> Op:
        """Confirm these identities' waiting entries at ``now``."""
        if self.arrays:
            return Statement(sql.CONFIRM_QUICK_ANY, (now, list(identity_hashes)))
        return Many(sql.CONFIRM_QUICK, [(now, h) for h in identity_hashes])


def _seats(collate: str) -> str:
    return f"SELECT seat, identity_hash, name, bot FROM seats WHERE room = ? ORDER BY seat{collate}"


def _listed_rooms(json_field: str) -> str:
    """``json_field`` is a format with ``{column}`` and ``{key}``."""
    visibility = json_field.format(column="options", key="visibility")
    timer = json_field.format(column="rules", key="move_timer_seconds")
    return (
        f"SELECT id FROM rooms WHERE {visibility} = 'public' OR {timer} IS NOT NULL"
        " ORDER BY created DESC LIMIT ?"
    )


def _leaderboard(collate: str) -> str:
    return (
        # accounts only (issue 22, part 1): a guest's rating is kept but not listed
        f"SELECT {sql.PLAYER_READ} FROM players WHERE rated_matches > 0"
        " AND identity_hash IN (SELECT identity_hash FROM accounts)"
        f" ORDER BY rating DESC, id{collate} LIMIT ?"
    )


def _results_of(collate: str) -> str:
    return f"SELECT {sql.RESULT_COLUMNS} FROM results WHERE player = ? ORDER BY t, room{collate}"


def _live_tournaments(collate: str) -> str:
    return (
        f"SELECT {sql.TOURNAMENT_COLUMNS} FROM tournaments WHERE phase <> 'finished'"
        f" ORDER BY created DESC, id{collate} DESC LIMIT ?"
    )


def _player_tournaments(collate: str) -> str:
    return (
        f"SELECT {sql.TOURNAMENT_COLUMNS} FROM tournaments WHERE id IN"
        " (SELECT tournament FROM tournament_identities WHERE player = ?)"
        f" ORDER BY created DESC, id{collate} DESC LIMIT ?"
    )


def _oldest_waiting(collate: str) -> str:
    return (
        f"SELECT {sql.QUICK_COLUMNS} FROM quick_queue WHERE room IS NULL AND rules = ?"
        " AND player <> ? AND confirmed > ?"
        # civility: never pair two people of whom one blocks the other (step 9's table)
        " AND player NOT IN (SELECT blocked FROM blocks WHERE blocker = ?)"
        " AND player NOT IN (SELECT blocker FROM blocks WHERE blocked = ?)"
        f" ORDER BY since, identity_hash{collate} LIMIT 1"
    )


_C = ' COLLATE "C"'
SQLITE = Dialect(
    name="sqlite",
    SELECT_SEATS=_seats(""),
    LISTED_ROOMS=_listed_rooms("json_extract({column}, '$.{key}')"),
    LEADERBOARD=_leaderboard(""),
    RESULTS_OF=_results_of(""),
    LIVE_TOURNAMENTS=_live_tournaments(""),
    PLAYER_TOURNAMENTS=_player_tournaments(""),
    LOAD_ROOM=None,
    TAKE_QUICK=_oldest_waiting(""),
    TAKES_QUICK=False,
    LOCK_CHAT=None,
    LOCK_QUICK=None,
    FOR_UPDATE="",
    ACQUIRE_LEASE=sql.ACQUIRE_LEASE,
    arrays=False,
)

POSTGRESQL = Dialect(
    name="postgresql",
    SELECT_SEATS=_seats(_C),
    # ->> gives SQL NULL for a missing key and for JSON null, like json_extract.
    LISTED_ROOMS=_listed_rooms("({column}::jsonb ->> '{key}')"),
    LEADERBOARD=_leaderboard(_C),
    RESULTS_OF=_results_of(_C),
    LIVE_TOURNAMENTS=_live_tournaments(_C),
    PLAYER_TOURNAMENTS=_player_tournaments(_C),
    # Seats, events after the first ? and the clock as arrays of anonymous records,
    # which asyncpg reads as tuples: every hello and catch-up is one round trip.
    LOAD_ROOM=(
        "SELECT r.id, r.kind, r.rules, r.created, r.options,"
        " ARRAY(SELECT ROW(s.seat, s.identity_hash, s.name, s.bot) FROM seats s"
        f" WHERE s.room = r.id ORDER BY s.seat{_C}),"
        " ARRAY(SELECT ROW(e.seq, e.kind, e.payload) FROM events e"
        " WHERE e.room = r.id AND e.seq > ? ORDER BY e.seq),"
        " (SELECT ROW(k.version, k.remaining_ms) FROM clocks k WHERE k.room = r.id)"
        " FROM rooms r WHERE r.id = ?"
    ),
    TAKE_QUICK=(
        "DELETE FROM quick_queue WHERE identity_hash = ("
        + _oldest_waiting(_C).replace(sql.QUICK_COLUMNS, "identity_hash", 1)
        + f") RETURNING {sql.QUICK_COLUMNS}"
    ),
    TAKES_QUICK=True,
    # The room's row against other chat writers only (a move's insert into events
    # takes FOR KEY SHARE, which this lock lets through).
    LOCK_CHAT="SELECT 1 FROM rooms WHERE id = ? FOR NO KEY UPDATE",
    # One pairing at a time (plain reads go on).
    LOCK_QUICK="LOCK TABLE quick_queue IN EXCLUSIVE MODE",
    # Each player's row stays locked until the commit (see ``SqlStore._settle``).
    FOR_UPDATE=" FOR UPDATE",
    # PostgreSQL keeps a lease's expiry as a timestamp (as the servers before the clock
    # was passed in wrote it, so old and new servers share leases in a rolling restart).
    ACQUIRE_LEASE=(
        "INSERT INTO leases (room, holder, expires) VALUES (?, ?, to_timestamp(?))"
        " ON CONFLICT (room) DO UPDATE SET holder = excluded.holder, expires = excluded.expires"
        " WHERE leases.expires < to_timestamp(?) OR leases.holder = excluded.holder"
    ),
    arrays=True,
)
