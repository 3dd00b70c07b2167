"""Tournaments and their event logs; leases of any key.

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-01

Equivalent to SQLite schema version 6. A tournament is stored like a room: a row for
lists and an append-only log keyed by (tournament, seq), so two writers of one
version conflict. Its pairing instance holds the lease ``"t:<id>"``: the leases table
no longer refers to rooms.
"""

from __future__ import annotations

from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None

UPGRADE = (
    """CREATE TABLE tournaments (
        id text PRIMARY KEY,
        name text NOT NULL,
        phase text NOT NULL,
        public boolean NOT NULL,
        created double precision NOT NULL
    )""",
    "CREATE INDEX tournaments_live ON tournaments (created) WHERE phase <> 'finished'",
    """CREATE TABLE tournament_events (
        tournament text NOT NULL REFERENCES tournaments(id),
        seq bigint NOT NULL,
        kind text NOT NULL,
        payload text NOT NULL,
        created double precision NOT NULL,
        PRIMARY KEY (tournament, seq)
    )""",
    """CREATE TABLE tournament_identities (
        tournament text NOT NULL REFERENCES tournaments(id),
        player text NOT NULL,
        identity_hash text NOT NULL,
        PRIMARY KEY (tournament, player)
    )""",
    "ALTER TABLE leases DROP CONSTRAINT IF EXISTS leases_room_fkey",
)


def upgrade() -> None:
    for statement in UPGRADE:
        op.execute(statement)


def downgrade() -> None:
    for table in ("tournament_identities", "tournament_events", "tournaments"):
        op.execute(f"DROP TABLE {table}")
