"""The one schema history of the SQL store: numbered steps that SQLite and PostgreSQL both apply.

A database remembers the last step it took in ``schema_version``; opening it applies
the later steps, in order, in one transaction. A step's statements are written once
for both dialects (``text``, ``double precision``, ``bigint`` and ``boolean`` mean the
same to both); only where the spelling must differ does a step give each its own.

The numbers continue the two histories this one replaced: SQLite's ``user_version``
(1 to 7) and PostgreSQL's Alembic revisions (``0001`` to ``0006`` were versions 2 to
7), so a database written before keeps its place (``legacy_version``). Step 8
(accounts) is the first both took from here.

>>> [s.version for s in STEPS] == list(range(1, HEAD + 1))
True
>>> statements(STEPS[4], "sqlite", 1.5)[1]
'UPDATE quick_queue SET confirmed = 1.5'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Dialect = Literal["sqlite", "postgresql"]

# The advisory lock that serialises PostgreSQL upgrades across server instances: any
# fixed 64-bit number, the same for every instance ("ginrummy" in ASCII).
MIGRATION_LOCK = 0x67696E72756D6D79


@dataclass(frozen=True, slots=True)
class Step:
    """One step of the history: what it is for, its statements for both dialects, then
    each dialect's own. ``{now}`` in a statement is the opening instance's time."""

    version: int
    purpose: str
    both: tuple[str, ...] = ()
    sqlite: tuple[str, ...] = ()
    postgresql: tuple[str, ...] = ()


def statements(step: Step, dialect: Dialect, now: float) -> tuple[str, ...]:
    """The statements ``dialect`` runs for ``step``, in order."""
    own = step.sqlite if dialect == "sqlite" else step.postgresql
    return tuple(s.replace("{now}", repr(float(now))) for s in (*step.both, *own))


def pending(version: int) -> tuple[Step, ...]:
    """The steps a database at ``version`` has yet to take."""
    return tuple(s for s in STEPS if s.version > version)


def legacy_version(alembic_revision: str | None, user_version: int = 0) -> int:
    """The version of a database written before ``schema_version`` existed: its Alembic
    revision on PostgreSQL (``0001`` was version 2), its ``user_version`` on SQLite.

    >>> legacy_version("0006"), legacy_version(None, 7), legacy_version(None)
    (7, 7, 0)
    """
    if alembic_revision is None:
        return user_version
    if not alembic_revision.isdigit():
        raise ValueError(f"an Alembic revision this history does not know: {alembic_revision!r}")
    return int(alembic_revision) + 1


STEPS = (
    Step(
        1,
        "rooms, their seats and their event logs; browser identities",
        both=(
            "CREATE TABLE identities (token_hash text PRIMARY KEY, created double precision"
            " NOT NULL)",
            "CREATE TABLE rooms (id text PRIMARY KEY, kind text NOT NULL, rules text NOT NULL,"
            " created double precision NOT NULL, options text NOT NULL)",
            "CREATE TABLE seats (room text NOT NULL REFERENCES rooms(id), seat text NOT NULL,"
            " identity_hash text, name text NOT NULL, bot text, PRIMARY KEY (room, seat))",
            "CREATE TABLE events (room text NOT NULL REFERENCES rooms(id), seq bigint NOT NULL,"
            " kind text NOT NULL, payload text NOT NULL, created double precision NOT NULL,"
            " PRIMARY KEY (room, seq))",
        ),
    ),
    Step(
        2,
        "public play: players, their results and ratings; move clocks",
        both=(
            "CREATE INDEX seats_by_identity ON seats (identity_hash)",
            "CREATE TABLE players (id text PRIMARY KEY, identity_hash text NOT NULL UNIQUE,"
            " name text NOT NULL, rating double precision NOT NULL, rd double precision"
            " NOT NULL, volatility double precision NOT NULL, rated_matches bigint NOT NULL"
            " DEFAULT 0, abandons bigint NOT NULL DEFAULT 0, created double precision NOT NULL)",
            "CREATE INDEX players_by_rating ON players (rating) WHERE rated_matches > 0",
            "CREATE TABLE results (room text NOT NULL REFERENCES rooms(id), match_seq bigint"
            " NOT NULL, player text NOT NULL REFERENCES players(id), seat text NOT NULL,"
            " opponent text, bot text, rated boolean NOT NULL, won boolean NOT NULL,"
            " rounds bigint NOT NULL, gins bigint NOT NULL, undercuts_scored bigint NOT NULL,"
            " undercuts_suffered bigint NOT NULL, points bigint NOT NULL, margin bigint"
            " NOT NULL, forfeit text, rating double precision, rd double precision,"
            " t double precision NOT NULL, PRIMARY KEY (room, match_seq, seat))",
            "CREATE INDEX results_by_player ON results (player, t)",
            "CREATE TABLE clocks (room text PRIMARY KEY REFERENCES rooms(id), version bigint"
            " NOT NULL, remaining_ms bigint NOT NULL)",
        ),
    ),
    Step(
        3,
        "room leases: which instance runs a room's computer moves and timers",
        # PostgreSQL kept the database's time here until step 8.
        sqlite=(
            "CREATE TABLE leases (room text PRIMARY KEY REFERENCES rooms(id), holder text"
            " NOT NULL, expires double precision NOT NULL)",
        ),
        postgresql=(
            "CREATE TABLE leases (room text PRIMARY KEY REFERENCES rooms(id), holder text"
            " NOT NULL, expires timestamptz NOT NULL)",
        ),
    ),
    Step(
        4,
        "chat lines and the quick-match queue, shared by every instance",
        both=(
            "CREATE TABLE chat (room text NOT NULL REFERENCES rooms(id), seq bigint NOT NULL,"
            " t double precision NOT NULL, seat text, player text NOT NULL, tag text NOT NULL,"
            " text text, phrase text, PRIMARY KEY (room, seq))",
            # rules is the exact JSON the server wrote: equal rules are equal text.
            "CREATE TABLE quick_queue (identity_hash text PRIMARY KEY, player text NOT NULL,"
            " rules text NOT NULL, since double precision NOT NULL, room text, seat text)",
            "CREATE INDEX quick_queue_waiting ON quick_queue (rules, since) WHERE room IS NULL",
        ),
    ),
    Step(
        5,
        "quick-match entries live while confirmed; those waiting count as confirmed now",
        both=(
            "ALTER TABLE quick_queue ADD COLUMN confirmed double precision NOT NULL DEFAULT 0",
            "UPDATE quick_queue SET confirmed = {now}",
        ),
        postgresql=("ALTER TABLE quick_queue ALTER COLUMN confirmed DROP DEFAULT",),
    ),
    Step(
        6,
        "tournaments and their logs; leases of any key (a tournament's is t:<id>)",
        both=(
            "CREATE TABLE tournaments (id text PRIMARY KEY, name text NOT NULL, phase text"
            " NOT NULL, public boolean NOT NULL, created double precision NOT NULL)",
            "CREATE INDEX tournaments_live ON tournaments (created) WHERE phase <> 'finished'",
            "CREATE TABLE tournament_events (tournament text NOT NULL REFERENCES"
            " tournaments(id), seq bigint NOT NULL, kind text NOT NULL, payload text NOT NULL,"
            " created double precision NOT NULL, PRIMARY KEY (tournament, seq))",
            "CREATE TABLE tournament_identities (tournament text NOT NULL REFERENCES"
            " tournaments(id), player text NOT NULL, identity_hash text NOT NULL,"
            " PRIMARY KEY (tournament, player))",
        ),
        # SQLite drops a foreign key only by copying the table (leases held included).
        sqlite=(
            "CREATE TABLE leases_any (room text PRIMARY KEY, holder text NOT NULL,"
            " expires double precision NOT NULL)",
            "INSERT INTO leases_any (room, holder, expires) SELECT room, holder, expires"
            " FROM leases",
            "DROP TABLE leases",
            "ALTER TABLE leases_any RENAME TO leases",
        ),
        postgresql=("ALTER TABLE leases DROP CONSTRAINT IF EXISTS leases_room_fkey",),
    ),
    Step(
        7,
        "chat channels: a chouette team's chat beside its room's (''), old lines the room's",
        both=("ALTER TABLE chat ADD COLUMN channel text NOT NULL DEFAULT ''",),
    ),
    Step(
        8,
        "accounts: names, devices, passkeys, ceremonies' challenges, sign-in codes",
        both=(
            "CREATE TABLE accounts (identity_hash text PRIMARY KEY REFERENCES"
            " identities(token_hash), name text NOT NULL, name_key text NOT NULL UNIQUE,"
            " created double precision NOT NULL)",
            "CREATE TABLE devices (id text PRIMARY KEY, token_hash text NOT NULL UNIQUE,"
            " identity_hash text NOT NULL REFERENCES accounts(identity_hash), label text"
            " NOT NULL, created double precision NOT NULL, last_seen double precision"
            " NOT NULL)",
            "CREATE INDEX devices_by_identity ON devices (identity_hash)",
            "CREATE TABLE passkeys (credential_id text PRIMARY KEY, identity_hash text NOT NULL"
            " REFERENCES accounts(identity_hash), public_key text NOT NULL, sign_count bigint"
            " NOT NULL, created double precision NOT NULL)",
            "CREATE INDEX passkeys_by_identity ON passkeys (identity_hash)",
            "CREATE TABLE challenges (challenge text PRIMARY KEY, purpose text NOT NULL,"
            " identity_hash text, name text, expires double precision NOT NULL)",
            "CREATE TABLE sign_in_codes (code_hash text PRIMARY KEY, identity_hash text"
            " NOT NULL REFERENCES accounts(identity_hash), expires double precision NOT NULL)",
        ),
    ),
    # -- civility (issue 22, part 3): its own block, numbered after accounts ------------
    Step(
        9,
        "civility: reports, blocks, sanctions, the operators' append-only audit log",
        both=(
            "CREATE TABLE reports (id text PRIMARY KEY, t double precision NOT NULL,"
            " reporter text NOT NULL, reported text NOT NULL, reason text NOT NULL,"
            " place text NOT NULL, room text, evidence text NOT NULL, note text NOT NULL,"
            " status text NOT NULL, outcome text, closed_by text, closed_t double precision)",
            "CREATE INDEX reports_by_status ON reports (status, t)",
            "CREATE INDEX reports_by_reported ON reports (reported, t)",
            "CREATE TABLE blocks (blocker text NOT NULL, blocked text NOT NULL,"
            " t double precision NOT NULL, PRIMARY KEY (blocker, blocked))",
            "CREATE INDEX blocks_by_blocked ON blocks (blocked)",
            "CREATE TABLE sanctions (id text PRIMARY KEY, player text NOT NULL, kind text"
            " NOT NULL, reason text NOT NULL, t double precision NOT NULL, until double"
            " precision, by_operator text NOT NULL)",
            "CREATE INDEX sanctions_by_player ON sanctions (player, t)",
            "CREATE TABLE audit (id text PRIMARY KEY, t double precision NOT NULL, operator"
            " text NOT NULL, action text NOT NULL, target text NOT NULL, reason text NOT NULL,"
            " detail text NOT NULL)",
            "CREATE INDEX audit_by_target ON audit (target, t)",
        ),
    ),
    # -- step 10: friends (issue 22, part 2) ---------------------------------------------
    Step(
        10,
        "friends: follows, privacy switches, challenges to a match, whereabouts",
        both=(
            "CREATE TABLE follows (follower text NOT NULL, followee text NOT NULL,"
            " created double precision NOT NULL, PRIMARY KEY (follower, followee))",
            "CREATE INDEX follows_by_followee ON follows (followee)",
            "CREATE TABLE social_settings (player text PRIMARY KEY, hide_whereabouts"
            " boolean NOT NULL, friends_only boolean NOT NULL)",
            "CREATE TABLE match_challenges (id text PRIMARY KEY, sender text NOT NULL,"
            " receiver text NOT NULL, preset text NOT NULL, target_score bigint, created"
            " double precision NOT NULL, expires double precision NOT NULL, state text"
            " NOT NULL, room text)",
            "CREATE INDEX match_challenges_by_sender ON match_challenges (sender, state)",
            "CREATE INDEX match_challenges_by_receiver ON match_challenges (receiver, state)",
            "CREATE TABLE whereabouts (player text NOT NULL, instance text NOT NULL, place"
            " text NOT NULL, room text, seen double precision NOT NULL,"
            " PRIMARY KEY (player, instance))",
        ),
    ),
    # -- step 11: sign-in codes' failures, counted for the whole site ------------------
    Step(
        11,
        "sign-in codes: failed code sign-ins counted per minute; one live code per account",
        both=(
            "CREATE TABLE sign_in_code_failures (minute bigint PRIMARY KEY, failures bigint"
            " NOT NULL)",
            "CREATE INDEX sign_in_codes_by_identity ON sign_in_codes (identity_hash)",
        ),
    ),
)
HEAD = STEPS[-1].version
