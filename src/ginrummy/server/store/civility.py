"""The store's civility records (docs/accounts.md, "Civility"): reports, blocks,
sanctions and the operators' append-only audit log.

Players are named by their public id (``p_...``) throughout. A report's evidence is
what the server attached when it was made (chat lines, the room's facts), never what
the reporter sent. The audit log has an append and reads, and no other path: no store
call updates or deletes an entry.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

REASONS = ("chat", "stalling", "abandoning", "cheating", "name")
"""Why a player is reported: abuse in chat, stalling, abandoning, suspected cheating,
an offensive name."""

PLACES = ("table", "chat", "player")
"""Where a report was made: at the table, from a chat line, from the player's page."""

SANCTIONS = ("warn", "chat_timeout", "mute", "ban")
"""What an operator may impose: a warning, a chat timeout, a mute, a play ban."""


@dataclass(frozen=True, slots=True)
class Report:
    """A report of ``reported`` by ``reporter``; ``status`` "open" until an operator
    closes it with an ``outcome`` ("dismissed" or the action taken)."""

    id: str  # "r_" + random
    t: float
    reporter: str
    reported: str
    reason: str  # one of REASONS
    place: str  # one of PLACES
    room: str | None
    evidence: Mapping[str, Any] = field(default_factory=dict)
    note: str = ""  # the reporter's own words (short, optional)
    status: str = "open"  # "open" | "closed"
    outcome: str | None = None
    closed_by: str | None = None
    closed_t: float | None = None


@dataclass(frozen=True, slots=True)
class Sanction:
    """An operator's sanction of a player, in force from ``t`` to ``until`` (None: for
    good)."""

    id: str  # "s_" + random
    player: str
    kind: str  # one of SANCTIONS
    reason: str
    t: float
    until: float | None
    by: str  # the operator's name

    def active(self, now: float) -> bool:
        return self.t <= now and (self.until is None or now < self.until)


@dataclass(frozen=True, slots=True)
class AuditEntry:
    """One operator action: who, what, whom, why, when (and the action's details)."""

    id: str  # "a_" + random
    t: float
    operator: str
    action: str
    target: str  # a player id, or a report id
    reason: str
    detail: Mapping[str, Any] = field(default_factory=dict)


class Civility(Protocol):
    """Reports, blocks, sanctions and the audit log (docs/accounts.md, "Civility")."""

    async def add_report(self, report: Report) -> None: ...

    async def report(self, report_id: str) -> Report | None: ...

    async def open_reports(self, limit: int = 100) -> list[Report]:
        """Open reports, oldest first."""

    async def reports_about(self, player: str, limit: int = 100) -> list[Report]:
        """Reports of ``player``, open or closed, newest first."""

    async def close_report(self, report_id: str, outcome: str, by: str, t: float) -> bool:
        """Close an open report; False if it is unknown or closed already."""

    async def close_report_audited(self, report_id: str, outcome: str, entry: AuditEntry) -> bool:
        """Close an open report (by ``entry``'s operator at its time) and append
        ``entry``, the action that closes it, in one transaction; False, and nothing
        written, if the report is unknown or closed already (another operator's close
        won: the update is conditional on the report being open)."""

    async def add_block(self, blocker: str, blocked: str, t: float) -> None:
        """``blocker`` blocks ``blocked`` (again: nothing changes)."""

    async def remove_block(self, blocker: str, blocked: str) -> bool:
        """False if there was no such block."""

    async def blocks_of(self, blocker: str) -> list[str]:
        """Whom ``blocker`` blocks, oldest block first."""

    async def blocked_either(self, a: str, b: str) -> bool:
        """One of the two blocks the other."""

    async def add_sanction(self, sanction: Sanction) -> None: ...

    async def sanctions_of(self, player: str) -> list[Sanction]:
        """The player's sanctions, oldest first."""

    async def append_audit(self, entry: AuditEntry) -> None:
        """Append to the audit log (the only write it has)."""

    async def audit_log(self, limit: int = 100, target: str | None = None) -> list[AuditEntry]:
        """The newest entries (about ``target`` only, if given), newest first."""

    async def player_identity(self, player_id: str) -> str | None:
        """The identity (token hash) of a player, for an operator's rename or closing."""

    async def close_account(self, identity_hash: str) -> int:
        """Sign every device of the account out and forget its passkeys and sign-in
        codes, in one transaction (its player, name and games stay); the devices signed
        out."""

    async def rename_account(self, identity_hash: str, name: str, key: str) -> None:
        """Give an account and its player a new name; ``StoreConflict`` (nothing
        changed) if the key is another account's."""
