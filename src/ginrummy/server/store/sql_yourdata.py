"""The SQL store's "your data" calls (``yourdata.YourData``), one dialect for both
databases. The erasure is one transaction (``Work``): it reads the names the person went
by, then rewrites and deletes; a failure anywhere leaves everything as it was."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from ginrummy.server.store import sql
from ginrummy.server.store.civility import Report
from ginrummy.server.store.friends import MatchChallenge
from ginrummy.server.store.sql_civility import REPORT_COLUMNS, report_of
from ginrummy.server.store.sql_friends import CHALLENGE_COLUMNS, challenge_of
from ginrummy.server.store.work import Statement, Work, row, rows
from ginrummy.server.store.yourdata import (
    PLACEHOLDER,
    Erasure,
    SaidLine,
    renames,
    scrub,
    tag_of,
)

if TYPE_CHECKING:
    from ginrummy.server.store.sql_store import Driver

REPORTS_BY = f"SELECT {REPORT_COLUMNS} FROM reports WHERE reporter = ? ORDER BY t, id"
CHAT_BY = (
    f"SELECT room, channel, {sql.CHAT_COLUMNS} FROM chat WHERE player = ? ORDER BY t, room, seq"
)
MATCH_CHALLENGES_BY = (
    f"SELECT {CHALLENGE_COLUMNS} FROM match_challenges WHERE sender = ? OR receiver = ?"
    " ORDER BY created, id"
)
HAS_IDENTITY = "SELECT 1 FROM identities WHERE token_hash = ?"
PLAYER_OF = "SELECT id, name FROM players WHERE identity_hash = ?"
ACCOUNT_NAME = "SELECT name FROM accounts WHERE identity_hash = ?"
SEAT_NAMES = "SELECT DISTINCT name FROM seats WHERE identity_hash = ?"
# a report's evidence may name them wherever it holds their player id or their room
REPORTS_TOUCHING = (
    "SELECT id, reporter, note, evidence FROM reports WHERE reporter = ? OR reported = ?"
    " OR evidence LIKE ? OR room IN (SELECT room FROM seats WHERE identity_hash = ?)"
)
UPDATE_REPORT = "UPDATE reports SET note = ?, evidence = ? WHERE id = ?"
THEIR_TOURNAMENT_EVENTS = (
    "SELECT tournament, seq, payload FROM tournament_events WHERE tournament IN"
    " (SELECT tournament FROM tournament_identities WHERE identity_hash = ?)"
)
UPDATE_TOURNAMENT_EVENT = (
    "UPDATE tournament_events SET payload = ? WHERE tournament = ? AND seq = ?"
)
CHAT_TAGS = "SELECT DISTINCT tag FROM chat WHERE player = ?"
ERASE_CHAT = "UPDATE chat SET text = ?, phrase = NULL, tag = ? WHERE player = ?"
ERASE = (
    "DELETE FROM devices WHERE identity_hash = ?",
    "DELETE FROM passkeys WHERE identity_hash = ?",
    "DELETE FROM sign_in_codes WHERE identity_hash = ?",
    "DELETE FROM challenges WHERE identity_hash = ?",
    "DELETE FROM accounts WHERE identity_hash = ?",
    "DELETE FROM quick_queue WHERE identity_hash = ?",
    "DELETE FROM identities WHERE token_hash = ?",
)
TOMBSTONE = (
    "UPDATE seats SET identity_hash = ?, name = ? WHERE identity_hash = ?",
    "UPDATE players SET identity_hash = ?, name = ? WHERE identity_hash = ?",
)
TOMBSTONE_TOURNAMENTS = "UPDATE tournament_identities SET identity_hash = ? WHERE identity_hash = ?"
DELETE_BLOCKS = "DELETE FROM blocks WHERE blocker = ?"
ERASE_FRIENDS = (  # (pid, pid): their friends' part
    "DELETE FROM follows WHERE follower = ? OR followee = ?",
    "DELETE FROM match_challenges WHERE sender = ? OR receiver = ?",
)
ERASE_SOCIAL = (  # (pid,)
    "DELETE FROM social_settings WHERE player = ?",
    "DELETE FROM whereabouts WHERE player = ?",
)


class SqlYourData:
    """``yourdata.YourData`` over the SQL store's driver (``SqlStore`` is one)."""

    driver: Driver

    async def reports_by(self, reporter: str) -> list[Report]:
        return [report_of(r) for r in await self.driver.read(rows(REPORTS_BY, reporter), one=True)]

    async def chat_by(self, player: str) -> list[SaidLine]:
        found = await self.driver.read(rows(CHAT_BY, player), one=True)
        return [SaidLine(r[0], r[1], sql.chat_of(r[2:])) for r in found]

    async def match_challenges_by(self, player: str) -> list[MatchChallenge]:
        found = await self.driver.read(rows(MATCH_CHALLENGES_BY, player, player), one=True)
        return [challenge_of(r) for r in found]

    async def erase_identity(self, erasure: Erasure) -> bool:
        h, label, tomb = erasure.identity_hash, erasure.label, erasure.tombstone

        def work() -> Work[bool]:
            if (yield from row(HAS_IDENTITY, h)) is None:
                return False
            player = yield from row(PLAYER_OF, h)
            pid = None if player is None else str(player[0])
            names = {str(r[0]) for r in (yield from rows(SEAT_NAMES, h))}
            if player is not None:
                names.add(str(player[1]))
            account = yield from row(ACCOUNT_NAME, h)
            if account is not None:
                names.add(str(account[0]))
            if pid is not None:  # names it had when it chatted (a guest may rename)
                tags = yield from rows(CHAT_TAGS, pid)
                names.update(str(t[0]).rpartition("#")[0] for t in tags)
            renamed = renames(names, label, pid)
            if pid is not None:
                yield from _erase_said(pid, label, renamed, h)
            for tournament, seq, payload in (yield from rows(THEIR_TOURNAMENT_EVENTS, h)):
                scrubbed = sql.json_text(scrub(json.loads(payload), renamed))
                if scrubbed != payload:
                    yield Statement(UPDATE_TOURNAMENT_EVENT, (scrubbed, tournament, seq))
            for statement in ERASE:
                yield Statement(statement, (h,))
            for statement in TOMBSTONE:
                yield Statement(statement, (tomb, label, h))
            yield Statement(TOMBSTONE_TOURNAMENTS, (tomb, h))
            return True

        return await self.driver.write(work())


def _erase_said(pid: str, label: str, renamed: dict[str, str], h: str) -> Work[None]:
    """The player's chat lines, the blocks they made, their friends' part, and every
    report that names them (before their seats are rewritten: the reports of their rooms
    are found by those)."""
    yield Statement(ERASE_CHAT, (PLACEHOLDER, tag_of(label, pid), pid))
    yield Statement(DELETE_BLOCKS, (pid,))
    for statement in ERASE_FRIENDS:
        yield Statement(statement, (pid, pid))
    for statement in ERASE_SOCIAL:
        yield Statement(statement, (pid,))
    touching = yield from rows(REPORTS_TOUCHING, pid, pid, f'%"{pid}"%', h)
    for report_id, reporter, note, evidence in touching:
        kept = "" if reporter == pid else note
        scrubbed = sql.json_text(scrub(json.loads(evidence), renamed, pid))
        if kept != note or scrubbed != evidence:
            yield Statement(UPDATE_REPORT, (kept, scrubbed, report_id))
