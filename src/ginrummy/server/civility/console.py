"""The operators' console (docs/operations.md, "The operators' console"): who is an
operator, what they see (open reports with their evidence, a player's history) and
what they do (dismiss, warn, chat timeout, mute, ban, rename, close an account).

An action is done in three steps, in this order (``Console.act``):

1. **check** everything, writing nothing: the action, reason, duration, new name, the
   target, and the report it answers (open, and about the target: ``report_closed``,
   ``report_mismatch``);
2. **record**: the report is closed by a conditional update (only while it is open)
   and the audit entry appended, in one store transaction; if no open report matched
   (another operator closed it meanwhile) nothing is written and the action is
   refused with ``report_closed``, so of two operators answering one report one acts
   and the other is told. Without a report, the audit entry alone;
3. **act**: the sanction, rename or closing.

So nothing is done without its entry (an action that then fails leaves an entry that
says what was tried). The HTTP routes (``server/api/admin.py``) and ``ginrummy admin``
both act through ``Console.act``.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from ginrummy.protocol.limits import BadName
from ginrummy.server import players as players_
from ginrummy.server.accounts.names import account_name, name_key
from ginrummy.server.civility.service import Civility, CivilityError
from ginrummy.server.store import AuditEntry, Report, StoreConflict
from ginrummy.server.store.civility import SANCTIONS

ACTIONS = ("dismiss", "warn", "chat_timeout", "mute", "ban", "rename", "close")
TIMED = {"chat_timeout": 60 * 24 * 60, "ban": 60 * 24 * 365}
"""The longest duration (minutes) of the timed actions; a mute may also be for good."""
REASON_LENGTH = 300


@dataclass(frozen=True, slots=True)
class Operator:
    """Who acts in the console: a player id named in ``GINRUMMY_OPERATORS`` (what the
    audit log records) and that player's name now (recorded beside it)."""

    player: str
    name: str


async def operator_of(
    civility: Civility, identity_hash: str, operators: Sequence[str]
) -> Operator | None:
    """The operator a caller is, or None: only an *account* (a signed-in device's
    identity) whose player id the configuration names is an operator. A guest never is,
    and a name never makes one (names can be registered by anyone)."""
    if not operators:
        return None
    account = await civility.store.account_of(identity_hash)
    if account is None:
        return None
    player = await civility.store.known_player(identity_hash, lambda: players_.new_player(0))
    if player is None or player.id not in operators:
        return None
    return Operator(player.id, account.name)


async def operator_by_id(
    civility: Civility, player_id: str, operators: Sequence[str]
) -> Operator | None:
    """The operator with player id ``player_id`` (``ginrummy admin --as``), or None if
    the configuration does not name it or it is no account's player."""
    if player_id not in operators:
        return None
    identity = await civility.store.player_identity(player_id)
    if identity is None:
        return None
    return await operator_of(civility, identity, operators)


@dataclass(frozen=True, slots=True)
class Plan:
    """An action checked and not yet done: what its audit entry records and what
    ``Console._do`` needs."""

    action: str
    target: str  # a player id, or a report id for "dismiss"
    reason: str
    minutes: int | None
    seconds: float | None  # the duration of a timed action; None: none, or for good
    new_name: str | None  # a rename's
    report: str | None  # the open report the action answers and closes
    identity: str | None  # the target's, for a rename or a closing


def report_json(r: Report) -> dict[str, Any]:
    return asdict(r)


class Console:
    """What an operator sees and does; the operator's player id is recorded with every
    action (and their name now beside it, as ``operator_name`` in the entry's details)."""

    def __init__(
        self, civility: Civility, renamed: Callable[[str], Awaitable[None]] | None = None
    ) -> None:
        """``renamed``: told a player id after a rename, to show the new name live
        (the server's rooms and lobbies, as ``PUT /api/me`` does); None off the server."""
        self.civility = civility
        self.store = civility.store
        self.renamed = renamed

    async def open_reports(self, limit: int = 100) -> list[dict[str, Any]]:
        found = await self.store.open_reports(limit)
        names = await self._names({r.reported for r in found} | {r.reporter for r in found})
        return [
            {
                **report_json(r),
                "reported_name": names.get(r.reported),
                "reporter_name": names.get(r.reporter),
            }
            for r in found
        ]

    async def history(self, player_id: str) -> dict[str, Any]:
        player = await self.store.player(player_id)
        if player is None:
            raise CivilityError("unknown_player", "there is no such player")
        lock, offences = await self.civility.play_lock(player_id)
        return {
            "player": players_.summary(player),
            "abandons": player.abandons,
            "offences": offences,
            "play_lock": None if lock is None else {"reason": lock.reason, "until": lock.until},
            "reports": [report_json(r) for r in await self.store.reports_about(player_id)],
            "sanctions": [asdict(s) for s in await self.store.sanctions_of(player_id)],
            "audit": [asdict(e) for e in await self.store.audit_log(100, player_id)],
        }

    async def audit(self, limit: int = 100) -> list[dict[str, Any]]:
        return [asdict(e) for e in await self.store.audit_log(limit)]

    async def act(
        self,
        operator: Operator,
        action: str,
        target: str,
        reason: str,
        minutes: int | None = None,
        name: str | None = None,
        report: str | None = None,
    ) -> dict[str, Any]:
        """Do ``action`` to ``target`` (a report id for ``dismiss``, else a player id),
        audited; ``report``: the open report about ``target`` it answers, closed with
        it. Refusals change nothing and write no entry."""
        plan = await self._plan(action, target, reason, minutes, name, report)
        entry = self._entry(operator, plan)
        await self._record(plan, entry)
        return {"audit": asdict(entry), **await self._do(operator, plan)}

    # -- 1. check ----------------------------------------------------------------------

    async def _plan(
        self,
        action: str,
        target: str,
        reason: str,
        minutes: int | None,
        name: str | None,
        report: str | None,
    ) -> Plan:
        """The action checked, nothing written; a ``CivilityError`` if refused."""
        reason = reason.strip()
        if action not in ACTIONS:
            raise CivilityError("bad_action", f"action must be one of {', '.join(ACTIONS)}")
        if not reason or len(reason) > REASON_LENGTH:
            raise CivilityError("bad_request", f"give a reason (1 to {REASON_LENGTH} characters)")
        if action == "dismiss":
            await self._open_report(target, None)
            report = target
        else:
            if await self.store.player(target) is None:
                raise CivilityError("unknown_player", "there is no such player")
            if report is not None:
                await self._open_report(report, target)
        seconds = self._duration(action, minutes)
        new_name = self._new_name(action, name)
        identity = await self._account_target(action, target, new_name)
        return Plan(action, target, reason, minutes, seconds, new_name, report, identity)

    async def _open_report(self, report_id: str, about: str | None) -> None:
        """The report exists, is open and (``about`` given) reports ``about``."""
        found = await self.store.report(report_id)
        if found is None:
            raise CivilityError("not_found", "no report has that id")
        if found.status != "open":
            raise CivilityError("report_closed", "the report is closed already")
        if about is not None and found.reported != about:
            raise CivilityError("report_mismatch", "the report is about another player")

    async def _account_target(self, action: str, target: str, new_name: str | None) -> str | None:
        """The target's identity for a rename or closing (its account for a closing,
        a new name no other account's), else None."""
        if action not in ("rename", "close"):
            return None
        identity = await self.store.player_identity(target)
        if identity is None:
            raise CivilityError("unknown_player", "there is no such player")
        if action == "close" and await self.store.account_of(identity) is None:
            raise CivilityError("no_account", "the player has no account to close")
        if new_name is not None:
            other = await self.store.account_by_key(name_key(new_name))
            if other is not None and other.identity_hash != identity:
                raise CivilityError("name_taken", "another account has a name like that")
        return identity

    # -- 2. record ---------------------------------------------------------------------

    def _entry(self, operator: Operator, plan: Plan) -> AuditEntry:
        detail: dict[str, Any] = {
            "minutes": plan.minutes,
            "name": plan.new_name,
            "report": plan.report,
            "operator_name": operator.name,
        }
        return AuditEntry(
            self.civility.make_id("a_"),
            self.civility.now(),
            operator.player,
            plan.action,
            plan.target,
            plan.reason,
            {k: v for k, v in detail.items() if v is not None},
        )

    async def _record(self, plan: Plan, entry: AuditEntry) -> None:
        """Close the plan's report and append the entry in one transaction (refused if
        the report was closed meanwhile), or append the entry alone."""
        if plan.report is None:
            await self.store.append_audit(entry)
            return
        outcome = "dismissed" if plan.action == "dismiss" else plan.action
        if not await self.store.close_report_audited(plan.report, outcome, entry):
            raise CivilityError("report_closed", "another operator closed the report just now")

    # -- 3. act ------------------------------------------------------------------------

    async def _do(self, operator: Operator, plan: Plan) -> dict[str, Any]:
        """The action itself, once recorded; what it did, for the answer."""
        done: dict[str, Any] = {}
        if plan.action in SANCTIONS:
            sanction = await self.civility.add_sanction(
                plan.target, plan.action, plan.reason, plan.seconds, operator.player
            )
            done["sanction"] = asdict(sanction)
            if plan.action == "ban":  # a ban locks the quick match: a waiting entry goes
                done["quick_left"] = await self._leave_quick(plan.target)
        elif plan.action == "rename" and plan.identity is not None and plan.new_name:
            await self._rename(plan.identity, plan.target, plan.new_name)
            if self.renamed is not None:
                await self.renamed(plan.target)
        elif plan.action == "close" and plan.identity is not None:
            done["signed_out"] = await self.store.close_account(plan.identity)
        return done

    async def _leave_quick(self, player_id: str) -> bool:
        identity = await self.store.player_identity(player_id)
        return identity is not None and await self.store.quick_leave(identity)

    def _duration(self, action: str, minutes: int | None) -> float | None:
        if action in TIMED:
            if minutes is None or not 1 <= minutes <= TIMED[action]:
                raise CivilityError("bad_duration", f"minutes must be from 1 to {TIMED[action]}")
            return minutes * 60.0
        if action == "mute":
            if minutes is not None and not 1 <= minutes <= TIMED["ban"]:
                raise CivilityError("bad_duration", "a mute is for 1 minute to a year, or for good")
            return None if minutes is None else minutes * 60.0
        if minutes is not None:
            raise CivilityError("bad_duration", f"{action} takes no duration")
        return None

    def _new_name(self, action: str, name: str | None) -> str | None:
        if action != "rename":
            if name is not None:
                raise CivilityError("bad_request", f"{action} takes no name")
            return None
        try:
            return account_name(name)
        except BadName as exc:
            raise CivilityError("bad_name", str(exc)) from None

    async def _rename(self, identity: str, player_id: str, name: str) -> None:
        account = await self.store.account_of(identity)
        if account is None:
            await self.store.rename_player(player_id, name)
            return
        try:  # (a name taken since the check above: the store refuses it)
            await self.store.rename_account(identity, name, name_key(name))
        except StoreConflict:
            raise CivilityError("name_taken", "another account has a name like that") from None

    async def _names(self, ids: set[str]) -> dict[str, str]:
        names: dict[str, str] = {}
        for pid in ids:
            found = await self.store.player(pid)
            if found is not None:
                names[pid] = players_.tag(found)
        return names
