"""Schemas as the store wrote them before its one schema history (fixture data, copied
from ``sqlite_schema.py`` and the Alembic revisions ``0001`` to ``0006`` of the commit
before): the migration tests build old databases from these."""

from __future__ import annotations

# SQLite, version 7: the script every open ran (CREATE TABLE IF NOT EXISTS), then
# PRAGMA user_version=7. A file of an older version lacks what later versions added.
SQLITE_BASE = """
CREATE TABLE IF NOT EXISTS identities (
    token_hash TEXT PRIMARY KEY,
    created REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS rooms (
    id TEXT PRIMARY KEY,
    kind TEXT NOT NULL,
    rules TEXT NOT NULL,
    created REAL NOT NULL,
    options TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS seats (
    room TEXT NOT NULL REFERENCES rooms(id),
    seat TEXT NOT NULL,
    identity_hash TEXT,
    name TEXT NOT NULL,
    bot TEXT,
    PRIMARY KEY (room, seat)
);
CREATE INDEX IF NOT EXISTS seats_by_identity ON seats(identity_hash);
CREATE TABLE IF NOT EXISTS events (
    room TEXT NOT NULL REFERENCES rooms(id),
    seq INTEGER NOT NULL,
    kind TEXT NOT NULL,
    payload TEXT NOT NULL,
    created REAL NOT NULL,
    PRIMARY KEY (room, seq)
);
CREATE TABLE IF NOT EXISTS players (
    id TEXT PRIMARY KEY,
    identity_hash TEXT NOT NULL UNIQUE,
    name TEXT NOT NULL,
    rating REAL NOT NULL,
    rd REAL NOT NULL,
    volatility REAL NOT NULL,
    rated_matches INTEGER NOT NULL DEFAULT 0,
    abandons INTEGER NOT NULL DEFAULT 0,
    created REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS players_by_rating ON players(rating) WHERE rated_matches > 0;
CREATE TABLE IF NOT EXISTS results (
    room TEXT NOT NULL REFERENCES rooms(id),
    match_seq INTEGER NOT NULL,
    player TEXT NOT NULL REFERENCES players(id),
    seat TEXT NOT NULL,
    opponent TEXT,
    bot TEXT,
    rated INTEGER NOT NULL,
    won INTEGER NOT NULL,
    rounds INTEGER NOT NULL,
    gins INTEGER NOT NULL,
    undercuts_scored INTEGER NOT NULL,
    undercuts_suffered INTEGER NOT NULL,
    points INTEGER NOT NULL,
    margin INTEGER NOT NULL,
    forfeit TEXT,
    rating REAL,
    rd REAL,
    t REAL NOT NULL,
    PRIMARY KEY (room, match_seq, seat)
);
CREATE INDEX IF NOT EXISTS results_by_player ON results(player, t);
CREATE TABLE IF NOT EXISTS clocks (
    room TEXT PRIMARY KEY REFERENCES rooms(id),
    version INTEGER NOT NULL,
    remaining_ms INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS leases (
    room TEXT PRIMARY KEY REFERENCES rooms(id),
    holder TEXT NOT NULL,
    expires REAL NOT NULL
);
"""
SQLITE_CHAT_AND_QUEUE = """
CREATE TABLE IF NOT EXISTS chat (
    room TEXT NOT NULL REFERENCES rooms(id),
    seq INTEGER NOT NULL,
    t REAL NOT NULL,
    seat TEXT,
    player TEXT NOT NULL,
    tag TEXT NOT NULL,
    text TEXT,
    phrase TEXT,
    channel TEXT NOT NULL DEFAULT '',
    PRIMARY KEY (room, seq)
);
CREATE TABLE IF NOT EXISTS quick_queue (
    identity_hash TEXT PRIMARY KEY,
    player TEXT NOT NULL,
    rules TEXT NOT NULL,
    since REAL NOT NULL,
    room TEXT,
    seat TEXT,
    confirmed REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS quick_queue_waiting ON quick_queue(rules, since) WHERE room IS NULL;
"""
SQLITE_TOURNAMENTS = """
CREATE TABLE IF NOT EXISTS tournaments (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    phase TEXT NOT NULL,
    public INTEGER NOT NULL,
    created REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS tournaments_live ON tournaments(created) WHERE phase <> 'finished';
CREATE TABLE IF NOT EXISTS tournament_events (
    tournament TEXT NOT NULL REFERENCES tournaments(id),
    seq INTEGER NOT NULL,
    kind TEXT NOT NULL,
    payload TEXT NOT NULL,
    created REAL NOT NULL,
    PRIMARY KEY (tournament, seq)
);
CREATE TABLE IF NOT EXISTS tournament_identities (
    tournament TEXT NOT NULL REFERENCES tournaments(id),
    player TEXT NOT NULL,
    identity_hash TEXT NOT NULL,
    PRIMARY KEY (tournament, player)
);
"""
SQLITE_V7 = (
    SQLITE_BASE
    + SQLITE_CHAT_AND_QUEUE
    + SQLITE_TOURNAMENTS
    + """
CREATE TABLE leases_any (room TEXT PRIMARY KEY, holder TEXT NOT NULL, expires REAL NOT NULL);
DROP TABLE leases;
ALTER TABLE leases_any RENAME TO leases;
PRAGMA user_version=7;
"""
)

# PostgreSQL: each Alembic revision's statements, oldest first; alembic_version held
# the newest applied.
POSTGRES_REVISIONS: list[tuple[str, list[str]]] = [
    (
        "0001",
        [
            (
                "CREATE TABLE identities ( token_hash text PRIMARY KEY, created double precision "
                "NOT NULL )"
            ),
            (
                "CREATE TABLE rooms ( id text PRIMARY KEY, kind text NOT NULL, rules text NOT "
                "NULL, created double precision NOT NULL, options text NOT NULL )"
            ),
            (
                "CREATE TABLE seats ( room text NOT NULL REFERENCES rooms(id), seat text NOT "
                "NULL, identity_hash text, name text NOT NULL, bot text, PRIMARY KEY (room, seat)"
                " )"
            ),
            "CREATE INDEX seats_by_identity ON seats (identity_hash)",
            (
                "CREATE TABLE events ( room text NOT NULL REFERENCES rooms(id), seq bigint NOT "
                "NULL, kind text NOT NULL, payload text NOT NULL, created double precision NOT "
                "NULL, PRIMARY KEY (room, seq) )"
            ),
            (
                "CREATE TABLE players ( id text PRIMARY KEY, identity_hash text NOT NULL UNIQUE, "
                "name text NOT NULL, rating double precision NOT NULL, rd double precision NOT "
                "NULL, volatility double precision NOT NULL, rated_matches bigint NOT NULL "
                "DEFAULT 0, abandons bigint NOT NULL DEFAULT 0, created double precision NOT NULL"
                " )"
            ),
            "CREATE INDEX players_by_rating ON players (rating) WHERE rated_matches > 0",
            (
                "CREATE TABLE results ( room text NOT NULL REFERENCES rooms(id), match_seq bigint"
                " NOT NULL, player text NOT NULL REFERENCES players(id), seat text NOT NULL, "
                "opponent text, bot text, rated boolean NOT NULL, won boolean NOT NULL, rounds "
                "bigint NOT NULL, gins bigint NOT NULL, undercuts_scored bigint NOT NULL, "
                "undercuts_suffered bigint NOT NULL, points bigint NOT NULL, margin bigint NOT "
                "NULL, forfeit text, rating double precision, rd double precision, t double "
                "precision NOT NULL, PRIMARY KEY (room, match_seq, seat) )"
            ),
            "CREATE INDEX results_by_player ON results (player, t)",
            (
                "CREATE TABLE clocks ( room text PRIMARY KEY REFERENCES rooms(id), version bigint"
                " NOT NULL, remaining_ms bigint NOT NULL )"
            ),
        ],
    ),
    (
        "0002",
        [
            (
                "CREATE TABLE leases ( room text PRIMARY KEY REFERENCES rooms(id), holder text "
                "NOT NULL, expires timestamptz NOT NULL )"
            ),
        ],
    ),
    (
        "0003",
        [
            (
                "CREATE TABLE chat ( room text NOT NULL REFERENCES rooms(id), seq bigint NOT "
                "NULL, t double precision NOT NULL, seat text, player text NOT NULL, tag text NOT"
                " NULL, text text, phrase text, PRIMARY KEY (room, seq) )"
            ),
            (
                "CREATE TABLE quick_queue ( identity_hash text PRIMARY KEY, player text NOT NULL,"
                " rules text NOT NULL, since double precision NOT NULL, room text, seat text )"
            ),
            ("CREATE INDEX quick_queue_waiting ON quick_queue (rules, since) WHERE room IS NULL"),
        ],
    ),
    (
        "0004",
        [
            (
                "ALTER TABLE quick_queue ADD COLUMN confirmed double precision NOT NULL DEFAULT "
                "extract(epoch FROM now())::double precision"
            ),
            "ALTER TABLE quick_queue ALTER COLUMN confirmed DROP DEFAULT",
        ],
    ),
    (
        "0005",
        [
            (
                "CREATE TABLE tournaments ( id text PRIMARY KEY, name text NOT NULL, phase text "
                "NOT NULL, public boolean NOT NULL, created double precision NOT NULL )"
            ),
            "CREATE INDEX tournaments_live ON tournaments (created) WHERE phase <> 'finished'",
            (
                "CREATE TABLE tournament_events ( tournament text NOT NULL REFERENCES "
                "tournaments(id), seq bigint NOT NULL, kind text NOT NULL, payload text NOT NULL,"
                " created double precision NOT NULL, PRIMARY KEY (tournament, seq) )"
            ),
            (
                "CREATE TABLE tournament_identities ( tournament text NOT NULL REFERENCES "
                "tournaments(id), player text NOT NULL, identity_hash text NOT NULL, PRIMARY KEY "
                "(tournament, player) )"
            ),
            "ALTER TABLE leases DROP CONSTRAINT IF EXISTS leases_room_fkey",
        ],
    ),
    (
        "0006",
        [
            "ALTER TABLE chat ADD COLUMN channel text NOT NULL DEFAULT ''",
        ],
    ),
]


def postgres_statements(up_to: str) -> list[str]:
    """The statements that left a schema at Alembic revision ``up_to``."""
    done: list[str] = []
    for revision, statements in POSTGRES_REVISIONS:
        done += statements
        if revision == up_to:
            break
    return [
        *done,
        "CREATE TABLE alembic_version (version_num varchar(32) NOT NULL PRIMARY KEY)",
        f"INSERT INTO alembic_version VALUES ('{up_to}')",
    ]
