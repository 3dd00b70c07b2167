"""Chat channels: a chouette team's chat is kept beside its room's.

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-01

Equivalent to SQLite schema version 7. ``chat.channel`` is who reads a line: ``''``
every socket of the room (the lines written before this revision), ``team:<match>``
the team of a chouette room's match (docs/protocol.md, "Chouette rooms").
"""

from __future__ import annotations

from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.execute("ALTER TABLE chat ADD COLUMN channel text NOT NULL DEFAULT ''")


def downgrade() -> None:
    op.execute("DELETE FROM chat WHERE channel <> ''")
    op.execute("ALTER TABLE chat DROP COLUMN channel")
