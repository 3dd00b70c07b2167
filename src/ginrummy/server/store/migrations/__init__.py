"""Alembic migrations of the PostgreSQL store; ``PostgresStore.open`` runs them to head."""

# The advisory lock that serialises upgrades across server instances: any fixed
# 64-bit number, the same for every instance ("ginrummy" in ASCII).
MIGRATION_LOCK = 0x67696E72756D6D79
