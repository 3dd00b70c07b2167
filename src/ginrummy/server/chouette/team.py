"""What the team says to itself: team chat and advice (docs/protocol.md, "Chouette
rooms"). Neither is game state: advice is told once, for the decision it was given on;
the team chat of each match is kept in the store's chat (the last ``CHAT_HISTORY`` lines,
channel ``team:<match>``) for a team member who reloads. Both travel on the room's topic
as notices that only the team's sockets forward (``ginrummy.server.sockets.chouette``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ginrummy.server.clock import Clock
from ginrummy.server.room.chat import ChatLog
from ginrummy.server.store import Chat, Player

TEAM_NOTICES = ("advice", "team_chat")
"""Notice kinds for the team's sockets only: never the box's, never a spectator's."""


def advice_notice(
    version: int, position: int, name: str, computer: bool, action: str | None, card: str | None
) -> dict[str, Any]:
    """An ``advice`` for the decision of ``version`` (exactly one of action and card)."""
    adviser = {"position": position, "name": name, "computer": computer}
    return {"kind": "advice", "version": version, "from": adviser, "action": action, "card": card}


def for_team(notice: dict[str, Any], team: Sequence[int]) -> dict[str, Any]:
    """``notice`` addressed to ``team`` (the team members when it was said): only their
    sockets forward it, whatever the table has become meanwhile."""
    return {**notice, "team": list(team)}


def team_frame(notice: Mapping[str, Any], position: int | None) -> dict[str, Any] | None:
    """The frame of a team notice for the socket of ``position``; None if not addressed
    to it (the box, a spectator, or a team that has changed since)."""
    team = notice.get("team")
    if position is None or not isinstance(team, list) or position not in team:
        return None
    return {
        "type": notice["kind"],
        **{k: v for k, v in notice.items() if k not in ("kind", "team")},
    }


def team_channel(match: int) -> str:
    """The store's chat channel of the team of match ``match`` (its team is fixed: the
    box does not change during a match)."""
    return f"team:{match}"


class TeamChat:
    """The team's messages, by match: the room's chat lines (``ChatLog``) in the channel
    ``team:<match>``, written to the store before they are told, so a reload, a restart
    or a socket on another instance reads the same history; numbered with the room's chat."""

    def __init__(self, room_id: str, store: Chat, clock: Clock) -> None:
        self._log = ChatLog(room_id, store, clock)

    async def message(
        self, match: int, position: int, player: Player, text: str | None, phrase: str | None
    ) -> dict[str, Any]:
        """A checked team message (the ``chat`` rules and limits), kept for ``match``."""
        return await self._log.add(str(position), player, text, phrase, team_channel(match))

    async def history(self, match: int) -> list[dict[str, Any]]:
        """The last messages of ``match``'s team, oldest first, said through any instance."""
        return await self._log.history(team_channel(match))
