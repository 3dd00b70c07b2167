"""The SQL store's statements that both dialects spell alike, and rows <-> values.

Statements are written with ``?`` placeholders (SQLite's); ``numbered`` spells them
with asyncpg's ``$1, $2, ...``. The few that must differ are in ``dialect.py``. The
time is always a parameter (the instance's clock, passed in): no statement reads the
database's clock. Row mappers take any sequence of columns (a ``sqlite3`` tuple or an
``asyncpg.Record``) in the order of the ``*_COLUMNS`` lists.

>>> numbered("UPDATE players SET name = ? WHERE id = ?")
'UPDATE players SET name = $1 WHERE id = $2'
"""

from __future__ import annotations

import functools
import itertools
import json
import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from ginrummy.server.store.base import (
    ChatLine,
    Clock,
    Event,
    Player,
    QuickEntry,
    ResultRow,
    RoomRow,
    SeatRow,
    StoredRoom,
    StoredTournament,
    TournamentRow,
)

PLAYER_COLUMNS = "id, name, rating, rd, volatility, rated_matches, abandons, created"
RESULT_COLUMNS = (
    "room, match_seq, player, seat, opponent, bot, rated, won, rounds, gins,"
    " undercuts_scored, undercuts_suffered, points, margin, forfeit, rating, rd, t"
)
CHAT_COLUMNS = "seq, t, seat, player, tag, text, phrase"
QUICK_COLUMNS = "identity_hash, player, rules, since, room, seat"

INSERT_IDENTITY = "INSERT INTO identities (token_hash, created) VALUES (?, ?)"
HAS_IDENTITY = "SELECT 1 FROM identities WHERE token_hash = ?"

INSERT_ROOM = "INSERT INTO rooms (id, kind, rules, created, options) VALUES (?, ?, ?, ?, ?)"
INSERT_SEAT = "INSERT INTO seats (room, seat, identity_hash, name, bot) VALUES (?, ?, ?, ?, ?)"
INSERT_EVENT = "INSERT INTO events (room, seq, kind, payload, created) VALUES (?, ?, ?, ?, ?)"
SELECT_ROOM = "SELECT id, kind, rules, created, options FROM rooms WHERE id = ?"
SELECT_EVENTS = "SELECT seq, kind, payload FROM events WHERE room = ? AND seq > ? ORDER BY seq"
SELECT_CLOCK = "SELECT version, remaining_ms FROM clocks WHERE room = ?"
GAMES_OF = (
    "SELECT r.id, s.seat, r.kind, r.created FROM seats s JOIN rooms r ON r.id = s.room"
    " WHERE s.identity_hash = ? ORDER BY r.created DESC LIMIT ?"
)
SAVE_CLOCK = (
    "INSERT INTO clocks (room, version, remaining_ms) VALUES (?, ?, ?)"
    " ON CONFLICT (room) DO UPDATE SET version = excluded.version,"
    " remaining_ms = excluded.remaining_ms"
)

INSERT_PLAYER = (
    f"INSERT INTO players (identity_hash, {PLAYER_COLUMNS})"
    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (identity_hash) DO NOTHING"
)
# A player as read: its columns and whether its identity has an account (Player.account).
HAS_ACCOUNT = "EXISTS (SELECT 1 FROM accounts a WHERE a.identity_hash = players.identity_hash)"
PLAYER_READ = f"{PLAYER_COLUMNS}, {HAS_ACCOUNT}"
PLAYER_OF_IDENTITY = f"SELECT {PLAYER_READ} FROM players WHERE identity_hash = ?"
PLAYER = f"SELECT {PLAYER_READ} FROM players WHERE id = ?"
PLAYER_FOR_SETTLING = f"SELECT {PLAYER_COLUMNS} FROM players WHERE id = ?"  # FOR UPDATE
# One row per known identity: its player's columns, all NULL while it has none.
KNOWN_PLAYER = (
    "SELECT "
    + ", ".join(f"p.{c}" for c in PLAYER_COLUMNS.split(", "))
    + ", EXISTS (SELECT 1 FROM accounts a WHERE a.identity_hash = i.token_hash)"
    + " FROM identities i LEFT JOIN players p ON p.identity_hash = i.token_hash"
    " WHERE i.token_hash = ?"
)
RENAME_PLAYER = "UPDATE players SET name = ? WHERE id = ?"
# A match's end writes a player's settled counters whole: its row is locked meanwhile.
SETTLE_PLAYER = (
    "UPDATE players SET rating = ?, rd = ?, volatility = ?, rated_matches = ?, abandons = ?"
    " WHERE id = ?"
)
INSERT_RESULT = (
    f"INSERT INTO results ({RESULT_COLUMNS})"
    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
)

TOURNAMENT_COLUMNS = "id, name, phase, public, created"
INSERT_TOURNAMENT = f"INSERT INTO tournaments ({TOURNAMENT_COLUMNS}) VALUES (?, ?, ?, ?, ?)"
SELECT_TOURNAMENT = f"SELECT {TOURNAMENT_COLUMNS} FROM tournaments WHERE id = ?"
SET_TOURNAMENT_PHASE = "UPDATE tournaments SET phase = ? WHERE id = ?"
INSERT_TOURNAMENT_EVENT = (
    "INSERT INTO tournament_events (tournament, seq, kind, payload, created) VALUES (?, ?, ?, ?, ?)"
)
SELECT_TOURNAMENT_EVENTS = (
    "SELECT seq, kind, payload FROM tournament_events WHERE tournament = ? AND seq > ? ORDER BY seq"
)
# A player's identity is written once, with the join: a second write of it is a no-op.
INSERT_TOURNAMENT_IDENTITY = (
    "INSERT INTO tournament_identities (tournament, player, identity_hash) VALUES (?, ?, ?)"
    " ON CONFLICT (tournament, player) DO NOTHING"
)
SELECT_TOURNAMENT_IDENTITIES = (
    "SELECT player, identity_hash FROM tournament_identities WHERE tournament = ?"
)

# One statement: the upsert's WHERE lets only a free, expired or own lease change hands
# (room, holder, expires, now); a concurrent upsert waits for the row and sees the winner.
ACQUIRE_LEASE = (
    "INSERT INTO leases (room, holder, expires) VALUES (?, ?, ?)"
    " ON CONFLICT (room) DO UPDATE SET holder = excluded.holder, expires = excluded.expires"
    " WHERE leases.expires < ? OR leases.holder = excluded.holder"
)
RELEASE_LEASE = "DELETE FROM leases WHERE room = ? AND holder = ?"

NEXT_CHAT_SEQ = "SELECT COALESCE(MAX(seq), 0) + 1 FROM chat WHERE room = ?"
INSERT_CHAT = f"INSERT INTO chat (room, channel, {CHAT_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"
# The channel's lines older than its newest ``keep`` (room, channel, room, channel, keep).
TRIM_CHAT = (
    "DELETE FROM chat WHERE room = ? AND channel = ? AND seq <= (SELECT seq FROM chat"
    " WHERE room = ? AND channel = ? ORDER BY seq DESC LIMIT 1 OFFSET ?)"
)
RECENT_CHAT = (
    f"SELECT {CHAT_COLUMNS} FROM chat WHERE room = ? AND channel = ? ORDER BY seq DESC LIMIT ?"
)

DROP_QUICK = "DELETE FROM quick_queue WHERE identity_hash = ?"
FORGET_PAIRINGS = "DELETE FROM quick_queue WHERE room IS NOT NULL AND since < ?"
# The waiting entries last confirmed before ? (deleted: stale for twice the staleness).
SWEEP_QUICK = "DELETE FROM quick_queue WHERE room IS NULL AND confirmed < ?"
COUNT_WAITING = "SELECT COUNT(*) FROM quick_queue WHERE room IS NULL AND confirmed > ?"
CONFIRM_QUICK = "UPDATE quick_queue SET confirmed = ? WHERE identity_hash = ? AND room IS NULL"
CONFIRM_QUICK_ANY = (
    "UPDATE quick_queue SET confirmed = ? WHERE identity_hash = ANY(?::text[]) AND room IS NULL"
)
# Stale at once (now - stale_after, identity, the same again): if it was live.
RELEASE_QUICK = (
    "UPDATE quick_queue SET confirmed = ? WHERE identity_hash = ? AND room IS NULL"
    " AND confirmed > ?"
)
LEAVE_QUICK = "DELETE FROM quick_queue WHERE identity_hash = ? AND room IS NULL"
QUICK_ENTRY = (
    f"SELECT {QUICK_COLUMNS} FROM quick_queue WHERE identity_hash = ?"
    " AND (room IS NOT NULL OR confirmed > ?)"
)
# An upsert of a whole entry, its last value ``confirmed``.
PUT_QUICK = (
    f"INSERT INTO quick_queue ({QUICK_COLUMNS}, confirmed) VALUES (?, ?, ?, ?, ?, ?, ?)"
    " ON CONFLICT (identity_hash) DO UPDATE SET player = excluded.player,"
    " rules = excluded.rules, since = excluded.since, room = excluded.room,"
    " seat = excluded.seat, confirmed = excluded.confirmed"
)


@functools.cache
def numbered(sql: str) -> str:
    """``sql`` with its ``?`` placeholders numbered ``$1, $2, ...`` (PostgreSQL's)."""
    counter = itertools.count(1)
    return re.sub(r"\?", lambda _: f"${next(counter)}", sql)


def json_text(value: Any) -> str:
    """The one JSON spelling of stored mappings (rules, options, payloads)."""
    return json.dumps(value, separators=(",", ":"), sort_keys=True)


def room_values(room: RoomRow) -> tuple[Any, ...]:
    return (room.id, room.kind, json_text(room.rules), room.created, json_text(room.options))


def room_of(row: Sequence[Any]) -> RoomRow:
    return RoomRow(row[0], row[1], json.loads(row[2]), row[3], json.loads(row[4]))


def seat_values(room_id: str, seat: SeatRow) -> tuple[Any, ...]:
    return (room_id, seat.seat, seat.identity_hash, seat.name, seat.bot)


def seat_of(row: Sequence[Any]) -> SeatRow:
    return SeatRow(row[0], row[1], row[2], row[3])


def event_values(room_id: str, events: Sequence[Event], now: float) -> list[tuple[Any, ...]]:
    return [(room_id, e.seq, e.kind, json_text(e.payload), now) for e in events]


def event_of(row: Sequence[Any]) -> Event:
    return Event(row[0], row[1], json.loads(row[2]))


def clock_of(row: Sequence[Any] | None) -> Clock | None:
    return None if row is None else Clock(row[0], row[1])


def stored_room(
    room: Sequence[Any],
    seats: Iterable[Sequence[Any]],
    events: Iterable[Sequence[Any]],
    clock: Sequence[Any] | None,
) -> StoredRoom:
    """A loaded room from its row, its seats' and events' rows in order, its clock's."""
    return StoredRoom(
        room_of(room), tuple(map(seat_of, seats)), tuple(map(event_of, events)), clock_of(clock)
    )


def player_values(p: Player) -> tuple[Any, ...]:
    return (p.id, p.name, p.rating, p.rd, p.volatility, p.rated_matches, p.abandons, p.created)


def settled_values(p: Player) -> tuple[Any, ...]:
    """The parameters of ``SETTLE_PLAYER`` for ``p``."""
    return (p.rating, p.rd, p.volatility, p.rated_matches, p.abandons, p.id)


def player_of(row: Sequence[Any]) -> Player:
    """A player of ``PLAYER_COLUMNS``, and its ``HAS_ACCOUNT`` if read."""
    pid, name, rating, rd, volatility, rated, abandons, created = row[:8]
    account = len(row) > 8 and bool(row[8])
    return Player(pid, name, rating, rd, volatility, rated, abandons, created, account)


def result_values(r: ResultRow) -> tuple[Any, ...]:
    return (
        r.room, r.match_seq, r.player, r.seat, r.opponent, r.bot, r.rated, r.won, r.rounds,
        r.gins, r.undercuts_scored, r.undercuts_suffered, r.points, r.margin, r.forfeit,
        r.rating, r.rd, r.t,
    )  # fmt: skip


def result_of(r: Sequence[Any]) -> ResultRow:
    return ResultRow(
        room=r[0], match_seq=r[1], player=r[2], seat=r[3], opponent=r[4], bot=r[5],
        rated=bool(r[6]), won=bool(r[7]), rounds=r[8], gins=r[9], undercuts_scored=r[10],
        undercuts_suffered=r[11], points=r[12], margin=r[13], forfeit=r[14], rating=r[15],
        rd=r[16], t=r[17],
    )  # fmt: skip


def chat_values(room_id: str, channel: str, seq: int, line: ChatLine) -> tuple[Any, ...]:
    said = (line.t, line.seat, line.player, line.tag, line.text, line.phrase)
    return (room_id, channel, seq, *said)


def trim_chat_values(room_id: str, channel: str, keep: int) -> tuple[Any, ...]:
    return (room_id, channel, room_id, channel, keep)


def chat_of(row: Sequence[Any]) -> ChatLine:
    return ChatLine(*row)


def quick_values(e: QuickEntry) -> tuple[Any, ...]:
    return (e.identity_hash, e.player, json_text(e.rules), e.since, e.room, e.seat)


def quick_of(row: Sequence[Any]) -> QuickEntry:
    return QuickEntry(row[0], row[1], json.loads(row[2]), row[3], row[4], row[5])


def tournament_values(row: TournamentRow) -> tuple[Any, ...]:
    return (row.id, row.name, row.phase, row.public, row.created)


def tournament_of(row: Sequence[Any]) -> TournamentRow:
    return TournamentRow(row[0], row[1], row[2], bool(row[3]), row[4])


def identity_values(tournament_id: str, identities: Mapping[str, str]) -> list[tuple[Any, ...]]:
    return [(tournament_id, player, h) for player, h in sorted(identities.items())]


def stored_tournament(
    row: Sequence[Any], events: Iterable[Sequence[Any]], identities: Iterable[Sequence[Any]]
) -> StoredTournament:
    return StoredTournament(
        tournament_of(row), tuple(map(event_of, events)), {r[0]: r[1] for r in identities}
    )
