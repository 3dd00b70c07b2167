"""What the team says to itself: team chat and advice (docs/protocol.md, "Chouette
rooms"). Neither is game state: advice is told once, for the decision it was given on;
the current match's team chat is kept in memory (the last ``TEAM_HISTORY`` lines) for a
team member who reloads. Both travel on the room's topic as notices that only the
team's sockets forward (``ginrummy.server.sockets.chouette``).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping, Sequence
from typing import Any

from ginrummy.server import players as players_
from ginrummy.server.room.chat import checked_chat
from ginrummy.server.store import Player

TEAM_HISTORY = 50
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


class TeamChat:
    """The current match's team messages, numbered from 1 per room."""

    def __init__(self) -> None:
        self._lines: deque[tuple[int, dict[str, Any]]] = deque(maxlen=TEAM_HISTORY)
        self._count = 0

    def message(
        self,
        match: int,
        position: int,
        player: Player,
        text: str | None,
        phrase: str | None,
        now: float,
    ) -> dict[str, Any]:
        """A checked team message (the ``chat`` rules and limits), kept for ``match``."""
        text, phrase = checked_chat(text, phrase)
        self._count += 1
        sender = {"seat": str(position), "tag": players_.tag(player), "player": player.id}
        line = {"id": self._count, "t": round(now, 3), "from": sender, "text": text}
        line["phrase"] = phrase
        self._lines.append((match, line))
        return line

    def history(self, match: int) -> list[dict[str, Any]]:
        """The messages of ``match``, oldest first."""
        return [line for number, line in self._lines if number == match]
