"""Alembic's environment for the PostgreSQL store.

``PostgresStore.open`` runs ``alembic.command.upgrade`` with a ``Config`` built in
code that hands over a SQLAlchemy connection in ``config.attributes["connection"]``
(sync driver psycopg; the server itself talks to PostgreSQL through asyncpg). All
pending revisions run in one transaction that first takes a transaction-scoped
advisory lock, so server instances starting together upgrade one after the other:
the later ones find the schema at head and do nothing.
"""

from __future__ import annotations

from alembic import context
from sqlalchemy import text
from sqlalchemy.engine import Connection

from ginrummy.server.store.migrations import MIGRATION_LOCK


def run_migrations(connection: Connection) -> None:
    context.configure(connection=connection, target_metadata=None)
    with context.begin_transaction():
        # Wait for another instance's upgrade, but not forever (SET LOCAL: this
        # transaction only).
        connection.execute(text("SET LOCAL lock_timeout = '120s'"))
        connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK})
        connection.execute(text("SET LOCAL lock_timeout TO DEFAULT"))
        context.run_migrations()


if context.is_offline_mode():
    raise RuntimeError("the ginrummy migrations run online only (PostgresStore.open)")
connection = context.config.attributes.get("connection")
if not isinstance(connection, Connection):
    raise RuntimeError(
        "the ginrummy migrations run from PostgresStore.open, which passes a connection"
    )
run_migrations(connection)
