"""The store's schema, equivalent to SQLite schema version 2.

Revision ID: 0001
Revises:
Create Date: 2026-11-29

Types follow the SQLite store: REAL -> double precision, INTEGER -> bigint (booleans
of results -> boolean). JSON columns are text holding the exact JSON the server wrote
(compact, sorted keys), so a replay reads back byte for byte what SQLite would;
``listed_rooms`` casts rules/options to jsonb to look inside.
"""

from __future__ import annotations

from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None

UPGRADE = (
    """CREATE TABLE identities (
        token_hash text PRIMARY KEY,
        created double precision NOT NULL
    )""",
    """CREATE TABLE rooms (
        id text PRIMARY KEY,
        kind text NOT NULL,
        rules text NOT NULL,
        created double precision NOT NULL,
        options text NOT NULL
    )""",
    """CREATE TABLE seats (
        room text NOT NULL REFERENCES rooms(id),
        seat text NOT NULL,
        identity_hash text,
        name text NOT NULL,
        bot text,
        PRIMARY KEY (room, seat)
    )""",
    "CREATE INDEX seats_by_identity ON seats (identity_hash)",
    """CREATE TABLE events (
        room text NOT NULL REFERENCES rooms(id),
        seq bigint NOT NULL,
        kind text NOT NULL,
        payload text NOT NULL,
        created double precision NOT NULL,
        PRIMARY KEY (room, seq)
    )""",
    """CREATE TABLE players (
        id text PRIMARY KEY,
        identity_hash text NOT NULL UNIQUE,
        name text NOT NULL,
        rating double precision NOT NULL,
        rd double precision NOT NULL,
        volatility double precision NOT NULL,
        rated_matches bigint NOT NULL DEFAULT 0,
        abandons bigint NOT NULL DEFAULT 0,
        created double precision NOT NULL
    )""",
    "CREATE INDEX players_by_rating ON players (rating) WHERE rated_matches > 0",
    """CREATE TABLE results (
        room text NOT NULL REFERENCES rooms(id),
        match_seq bigint NOT NULL,
        player text NOT NULL REFERENCES players(id),
        seat text NOT NULL,
        opponent text,
        bot text,
        rated boolean NOT NULL,
        won boolean NOT NULL,
        rounds bigint NOT NULL,
        gins bigint NOT NULL,
        undercuts_scored bigint NOT NULL,
        undercuts_suffered bigint NOT NULL,
        points bigint NOT NULL,
        margin bigint NOT NULL,
        forfeit text,
        rating double precision,
        rd double precision,
        t double precision NOT NULL,
        PRIMARY KEY (room, match_seq, seat)
    )""",
    "CREATE INDEX results_by_player ON results (player, t)",
    """CREATE TABLE clocks (
        room text PRIMARY KEY REFERENCES rooms(id),
        version bigint NOT NULL,
        remaining_ms bigint NOT NULL
    )""",
)


def upgrade() -> None:
    for statement in UPGRADE:
        op.execute(statement)


def downgrade() -> None:
    for table in ("clocks", "results", "players", "events", "seats", "rooms", "identities"):
        op.execute(f"DROP TABLE {table}")
