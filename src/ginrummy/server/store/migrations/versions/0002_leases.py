"""Room leases: which server instance runs a room's computer moves and timers.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-29

Equivalent to SQLite schema version 3. ``expires`` is the database's time (the lease
calls compare it with ``now()``), so the instances' own clocks do not matter.
"""

from __future__ import annotations

from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.execute(
        """CREATE TABLE leases (
            room text PRIMARY KEY REFERENCES rooms(id),
            holder text NOT NULL,
            expires timestamptz NOT NULL
        )"""
    )


def downgrade() -> None:
    op.execute("DROP TABLE leases")
