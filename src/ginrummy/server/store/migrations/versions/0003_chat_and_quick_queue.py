"""Chat lines and the quick-match queue, shared by every server instance.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-29

Equivalent to SQLite schema version 4. ``quick_queue.rules`` is the exact JSON the
server wrote (compact, sorted keys): equal rules are equal text, the pairing key.
"""

from __future__ import annotations

from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None

UPGRADE = (
    """CREATE TABLE chat (
        room text NOT NULL REFERENCES rooms(id),
        seq bigint NOT NULL,
        t double precision NOT NULL,
        seat text,
        player text NOT NULL,
        tag text NOT NULL,
        text text,
        phrase text,
        PRIMARY KEY (room, seq)
    )""",
    """CREATE TABLE quick_queue (
        identity_hash text PRIMARY KEY,
        player text NOT NULL,
        rules text NOT NULL,
        since double precision NOT NULL,
        room text,
        seat text
    )""",
    "CREATE INDEX quick_queue_waiting ON quick_queue (rules, since) WHERE room IS NULL",
)


def upgrade() -> None:
    for statement in UPGRADE:
        op.execute(statement)


def downgrade() -> None:
    for table in ("quick_queue", "chat"):
        op.execute(f"DROP TABLE {table}")
