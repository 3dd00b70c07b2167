"""Quick-match waiting entries live while an instance confirms them.

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-29

Equivalent to SQLite schema version 5. ``quick_queue.confirmed`` is the database's
time (seconds since the epoch) an instance last confirmed the entry; the entries
waiting at the upgrade count as confirmed then.
"""

from __future__ import annotations

from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.execute(
        "ALTER TABLE quick_queue ADD COLUMN confirmed double precision NOT NULL"
        " DEFAULT extract(epoch FROM now())::double precision"
    )
    op.execute("ALTER TABLE quick_queue ALTER COLUMN confirmed DROP DEFAULT")


def downgrade() -> None:
    op.execute("ALTER TABLE quick_queue DROP COLUMN confirmed")
