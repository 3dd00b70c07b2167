"""The memory store's civility records (``civility.Civility``), with the same promises
as the SQL store's (``tests/server/test_store_civility.py``)."""

from __future__ import annotations

from dataclasses import replace

from ginrummy.server.store.base import StoreConflict
from ginrummy.server.store.civility import AuditEntry, Report, Sanction


class MemoryCivility:
    """``civility.Civility`` in memory, its reports, blocks, sanctions and audit log;
    ``MemoryStore`` is one, and answers the calls on accounts and players itself
    (``player_identity``, ``close_account``, ``rename_account``: its own fields)."""

    def _civility_init(self) -> None:
        self._reports: dict[str, Report] = {}
        self._blocks: dict[tuple[str, str], float] = {}  # (blocker, blocked) -> when
        self._sanctions: list[Sanction] = []
        self._audit: list[AuditEntry] = []

    def _blocked_either(self, a: str, b: str) -> bool:
        return (a, b) in self._blocks or (b, a) in self._blocks

    async def add_report(self, report: Report) -> None:
        if report.id in self._reports:
            raise StoreConflict(f"report {report.id} exists")
        self._reports[report.id] = report

    async def report(self, report_id: str) -> Report | None:
        return self._reports.get(report_id)

    async def open_reports(self, limit: int = 100) -> list[Report]:
        found = sorted((r for r in self._reports.values() if r.status == "open"), key=_order)
        return found[:limit]

    async def reports_about(self, player: str, limit: int = 100) -> list[Report]:
        found = sorted((r for r in self._reports.values() if r.reported == player), key=_order)
        return found[::-1][:limit]

    async def close_report(self, report_id: str, outcome: str, by: str, t: float) -> bool:
        found = self._reports.get(report_id)
        if found is None or found.status != "open":
            return False
        closed = replace(found, status="closed", outcome=outcome, closed_by=by, closed_t=t)
        self._reports[report_id] = closed
        return True

    async def close_report_audited(self, report_id: str, outcome: str, entry: AuditEntry) -> bool:
        if any(e.id == entry.id for e in self._audit):
            raise StoreConflict(f"audit entry {entry.id} exists")
        if not await self.close_report(report_id, outcome, entry.operator, entry.t):
            return False
        self._audit.append(entry)
        return True

    async def add_block(self, blocker: str, blocked: str, t: float) -> None:
        self._blocks.setdefault((blocker, blocked), t)

    async def remove_block(self, blocker: str, blocked: str) -> bool:
        return self._blocks.pop((blocker, blocked), None) is not None

    async def blocks_of(self, blocker: str) -> list[str]:
        mine = sorted((t, b) for (a, b), t in self._blocks.items() if a == blocker)
        return [b for _, b in mine]

    async def blocked_either(self, a: str, b: str) -> bool:
        return self._blocked_either(a, b)

    async def add_sanction(self, sanction: Sanction) -> None:
        if any(s.id == sanction.id for s in self._sanctions):
            raise StoreConflict(f"sanction {sanction.id} exists")
        self._sanctions.append(sanction)

    async def sanctions_of(self, player: str) -> list[Sanction]:
        return sorted((s for s in self._sanctions if s.player == player), key=lambda s: (s.t, s.id))

    async def append_audit(self, entry: AuditEntry) -> None:
        if any(e.id == entry.id for e in self._audit):
            raise StoreConflict(f"audit entry {entry.id} exists")
        self._audit.append(entry)

    async def audit_log(self, limit: int = 100, target: str | None = None) -> list[AuditEntry]:
        found = [e for e in self._audit if target is None or e.target == target]
        return sorted(found, key=lambda e: (e.t, e.id), reverse=True)[:limit]


def _order(r: Report) -> tuple[float, str]:
    return (r.t, r.id)
