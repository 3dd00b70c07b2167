"""The SQLite store's schema: one script, upgraded in place by its own version number."""

from __future__ import annotations

SCHEMA_VERSION = 7
# Version 2 (public play) only adds tables: a version-1 file is upgraded in place by
# the CREATE TABLE IF NOT EXISTS below; its identities get a player on first use.
# Version 3 (several instances) adds the leases table the same way.
# Version 4 (several instances) adds chat and the quick-match queue: CHAT_AND_QUEUE.
# Version 5 adds quick_queue.confirmed (waiting entries live while confirmed): a
# version-4 file gets the column from QUEUE_CONFIRMED, its entries confirmed at upgrade.
# Version 6 adds tournaments (TOURNAMENTS) and leases of any key (a tournament's lease is
# "t:<id>", not a room): a version-5 file's leases table loses its foreign key
# (LEASES_OF_ANY_KEY copies it over, leases held included).
# Version 7 adds chat.channel (a chouette team's chat is kept beside the room's): a
# version-6 file gets the column from CHAT_CHANNEL, its lines in the room's channel ''.
SCHEMA = """
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
CHAT_AND_QUEUE = """
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
CHAT_CHANNEL = "ALTER TABLE chat ADD COLUMN channel TEXT NOT NULL DEFAULT ''"
QUEUE_CONFIRMED = "ALTER TABLE quick_queue ADD COLUMN confirmed REAL NOT NULL DEFAULT 0"
TOURNAMENTS = """
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
LEASES_OF_ANY_KEY = """
CREATE TABLE leases_any (
    room TEXT PRIMARY KEY,
    holder TEXT NOT NULL,
    expires REAL NOT NULL
);
INSERT INTO leases_any (room, holder, expires) SELECT room, holder, expires FROM leases;
DROP TABLE leases;
ALTER TABLE leases_any RENAME TO leases;
"""
