"""The SQL store's civility records (``civility.Civility``): reports, blocks,
sanctions and the audit log, one dialect for both databases.

The audit log's statements are an INSERT and SELECTs: there is no UPDATE or DELETE of
``audit`` anywhere in the store.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from ginrummy.server.store import sql
from ginrummy.server.store.civility import AuditEntry, Report, Sanction
from ginrummy.server.store.work import Statement, Work, count, row, rows

if TYPE_CHECKING:
    from ginrummy.server.store.sql_store import Driver

REPORT_COLUMNS = (
    "id, t, reporter, reported, reason, place, room, evidence, note, status, outcome,"
    " closed_by, closed_t"
)
SANCTION_COLUMNS = "id, player, kind, reason, t, until, by_operator"
AUDIT_COLUMNS = "id, t, operator, action, target, reason, detail"

INSERT_REPORT = (
    f"INSERT INTO reports ({REPORT_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
)
REPORT = f"SELECT {REPORT_COLUMNS} FROM reports WHERE id = ?"
OPEN_REPORTS = f"SELECT {REPORT_COLUMNS} FROM reports WHERE status = 'open' ORDER BY t, id LIMIT ?"
REPORTS_ABOUT = (
    f"SELECT {REPORT_COLUMNS} FROM reports WHERE reported = ? ORDER BY t DESC, id DESC LIMIT ?"
)
CLOSE_REPORT = (
    "UPDATE reports SET status = 'closed', outcome = ?, closed_by = ?, closed_t = ?"
    " WHERE id = ? AND status = 'open'"
)
# ON CONFLICT DO NOTHING (PostgreSQL and SQLite 3.24+): blocking twice at once, from two
# instances, is one block and no error (a read-then-insert raced into a conflict).
INSERT_BLOCK = (
    "INSERT INTO blocks (blocker, blocked, t) VALUES (?, ?, ?)"
    " ON CONFLICT (blocker, blocked) DO NOTHING"
)
REMOVE_BLOCK = "DELETE FROM blocks WHERE blocker = ? AND blocked = ?"
BLOCKS_OF = "SELECT blocked FROM blocks WHERE blocker = ? ORDER BY t, blocked"
EITHER_BLOCK = (
    "SELECT 1 FROM blocks WHERE (blocker = ? AND blocked = ?) OR (blocker = ? AND blocked = ?)"
)
INSERT_SANCTION = f"INSERT INTO sanctions ({SANCTION_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?)"
SANCTIONS_OF = f"SELECT {SANCTION_COLUMNS} FROM sanctions WHERE player = ? ORDER BY t, id"
INSERT_AUDIT = f"INSERT INTO audit ({AUDIT_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?)"
AUDIT = f"SELECT {AUDIT_COLUMNS} FROM audit ORDER BY t DESC, id DESC LIMIT ?"
AUDIT_ABOUT = f"SELECT {AUDIT_COLUMNS} FROM audit WHERE target = ? ORDER BY t DESC, id DESC LIMIT ?"
CLOSE_DEVICES = "DELETE FROM devices WHERE identity_hash = ?"
CLOSE_PASSKEYS = "DELETE FROM passkeys WHERE identity_hash = ?"
CLOSE_CODES = "DELETE FROM sign_in_codes WHERE identity_hash = ?"
RENAME_ACCOUNT = "UPDATE accounts SET name = ?, name_key = ? WHERE identity_hash = ?"
PLAYER_IDENTITY = "SELECT identity_hash FROM players WHERE id = ?"
RENAME_PLAYER = "UPDATE players SET name = ? WHERE identity_hash = ?"


def report_of(r: Any) -> Report:
    closed_t = None if r[12] is None else float(r[12])
    return Report(
        r[0], float(r[1]), r[2], r[3], r[4], r[5], r[6], json.loads(r[7]), r[8], r[9],
        r[10], r[11], closed_t,
    )  # fmt: skip


def sanction_of(r: Any) -> Sanction:
    return Sanction(
        r[0], r[1], r[2], r[3], float(r[4]), None if r[5] is None else float(r[5]), r[6]
    )


def audit_of(r: Any) -> AuditEntry:
    return AuditEntry(r[0], float(r[1]), r[2], r[3], r[4], r[5], json.loads(r[6]))


class SqlCivility:
    """``civility.Civility`` over the SQL store's driver (``SqlStore`` is one)."""

    driver: Driver

    async def add_report(self, report: Report) -> None:
        p = report
        values = (
            p.id, p.t, p.reporter, p.reported, p.reason, p.place, p.room,
            sql.json_text(p.evidence), p.note, p.status, p.outcome, p.closed_by, p.closed_t,
        )  # fmt: skip
        await self.driver.write(count(INSERT_REPORT, *values), one=True)

    async def report(self, report_id: str) -> Report | None:
        found = await self.driver.read(row(REPORT, report_id), one=True)
        return None if found is None else report_of(found)

    async def open_reports(self, limit: int = 100) -> list[Report]:
        return [report_of(r) for r in await self.driver.read(rows(OPEN_REPORTS, limit), one=True)]

    async def reports_about(self, player: str, limit: int = 100) -> list[Report]:
        found = await self.driver.read(rows(REPORTS_ABOUT, player, limit), one=True)
        return [report_of(r) for r in found]

    async def close_report(self, report_id: str, outcome: str, by: str, t: float) -> bool:
        closed = count(CLOSE_REPORT, outcome, by, t, report_id)
        return await self.driver.write(closed, one=True) == 1

    async def close_report_audited(self, report_id: str, outcome: str, entry: AuditEntry) -> bool:
        e = entry

        def work() -> Work[bool]:
            closed = yield Statement(CLOSE_REPORT, (outcome, e.operator, e.t, report_id))
            if closed != 1:
                return False  # closed by another operator: nothing written
            detail = sql.json_text(e.detail)
            yield Statement(
                INSERT_AUDIT, (e.id, e.t, e.operator, e.action, e.target, e.reason, detail)
            )
            return True

        return await self.driver.write(work())

    async def add_block(self, blocker: str, blocked: str, t: float) -> None:
        await self.driver.write(count(INSERT_BLOCK, blocker, blocked, t), one=True)

    async def remove_block(self, blocker: str, blocked: str) -> bool:
        return await self.driver.write(count(REMOVE_BLOCK, blocker, blocked), one=True) == 1

    async def blocks_of(self, blocker: str) -> list[str]:
        return [str(r[0]) for r in await self.driver.read(rows(BLOCKS_OF, blocker), one=True)]

    async def blocked_either(self, a: str, b: str) -> bool:
        found = await self.driver.read(row(EITHER_BLOCK, a, b, b, a), one=True)
        return found is not None

    async def add_sanction(self, sanction: Sanction) -> None:
        s = sanction
        values = (s.id, s.player, s.kind, s.reason, s.t, s.until, s.by)
        await self.driver.write(count(INSERT_SANCTION, *values), one=True)

    async def sanctions_of(self, player: str) -> list[Sanction]:
        return [
            sanction_of(r) for r in await self.driver.read(rows(SANCTIONS_OF, player), one=True)
        ]

    async def append_audit(self, entry: AuditEntry) -> None:
        e = entry
        values = (e.id, e.t, e.operator, e.action, e.target, e.reason, sql.json_text(e.detail))
        await self.driver.write(count(INSERT_AUDIT, *values), one=True)

    async def audit_log(self, limit: int = 100, target: str | None = None) -> list[AuditEntry]:
        read = rows(AUDIT, limit) if target is None else rows(AUDIT_ABOUT, target, limit)
        return [audit_of(r) for r in await self.driver.read(read, one=True)]

    async def player_identity(self, player_id: str) -> str | None:
        found = await self.driver.read(row(PLAYER_IDENTITY, player_id), one=True)
        return None if found is None else str(found[0])

    async def close_account(self, identity_hash: str) -> int:
        def work() -> Work[int]:
            signed_out: int = yield Statement(CLOSE_DEVICES, (identity_hash,))
            yield Statement(CLOSE_PASSKEYS, (identity_hash,))
            yield Statement(CLOSE_CODES, (identity_hash,))
            return signed_out

        return await self.driver.write(work())

    async def rename_account(self, identity_hash: str, name: str, key: str) -> None:
        def work() -> Work[None]:
            yield Statement(RENAME_ACCOUNT, (name, key, identity_hash))
            yield Statement(RENAME_PLAYER, (name, identity_hash))

        await self.driver.write(work())
