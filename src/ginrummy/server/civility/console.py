"""The operators' console (docs/operations.md, "The operators' console"): who is an
operator, what they see (open reports with their evidence, a player's history) and
what they do (dismiss, warn, chat timeout, mute, ban, rename, close an account).

Every action is written to the append-only audit log *before* it is done, so nothing
is done without its entry (an action that then fails leaves an entry that says what
was tried). The HTTP routes (``server/api/admin.py``) and ``ginrummy admin`` both act
through ``Console.act``.
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
        audited; ``report``: the report it answers, closed with it. Refusals change
        nothing and write no entry."""
        reason = reason.strip()
        if action not in ACTIONS:
            raise CivilityError("bad_action", f"action must be one of {', '.join(ACTIONS)}")
        if not reason or len(reason) > REASON_LENGTH:
            raise CivilityError("bad_request", f"give a reason (1 to {REASON_LENGTH} characters)")
        if action == "dismiss":
            report = target
            found = await self.store.report(target)
            if found is None or found.status != "open":
                raise CivilityError("not_found", "no open report has that id")
        else:
            if await self.store.player(target) is None:
                raise CivilityError("unknown_player", "there is no such player")
            if report is not None and await self.store.report(report) is None:
                raise CivilityError("not_found", "no report has that id")
        seconds = self._duration(action, minutes)
        new_name = self._new_name(action, name)
        identity = None
        if action in ("rename", "close"):
            identity = await self.store.player_identity(target)
            if identity is None:
                raise CivilityError("unknown_player", "there is no such player")
            if action == "close" and await self.store.account_of(identity) is None:
                raise CivilityError("no_account", "the player has no account to close")
            if new_name is not None:
                other = await self.store.account_by_key(name_key(new_name))
                if other is not None and other.identity_hash != identity:
                    raise CivilityError("name_taken", "another account has a name like that")
        detail: dict[str, Any] = {
            "minutes": minutes,
            "name": new_name,
            "report": report,
            "operator_name": operator.name,
        }
        entry = AuditEntry(
            self.civility.make_id("a_"),
            self.civility.now(),
            operator.player,
            action,
            target,
            reason,
            {k: v for k, v in detail.items() if v is not None},
        )
        await self.store.append_audit(entry)
        done: dict[str, Any] = {"audit": asdict(entry)}
        if action in ("warn", "chat_timeout", "mute", "ban"):
            sanction = await self.civility.add_sanction(
                target, action, reason, seconds, operator.player
            )
            done["sanction"] = asdict(sanction)
            if action == "ban":  # a ban locks the quick match: a waiting entry goes at once
                done["quick_left"] = await self._leave_quick(target)
        elif action == "rename" and identity is not None and new_name is not None:
            await self._rename(identity, target, new_name)
            if self.renamed is not None:
                await self.renamed(target)
        elif action == "close" and identity is not None:
            done["signed_out"] = await self.store.close_account(identity)
        if report is not None:
            await self.store.close_report(
                report, action if action != "dismiss" else "dismissed", operator.player, entry.t
            )
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
