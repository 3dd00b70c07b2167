"""What the team says to itself: team chat and advice (docs/protocol.md, "Chouette
rooms"). Neither is game state: advice is told once, for the decision it was given on;
the team chat of each match is kept in the store's chat (the last ``TEAM_HISTORY`` lines,
channel ``team:<match>``) for a team member who reloads. Both travel on the room's topic
as notices that only the team's sockets forward (``ginrummy.server.sockets.chouette``).
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from ginrummy.server import players as players_
from ginrummy.server.clock import Clock
from ginrummy.server.room.chat import chat_message, checked_chat
from ginrummy.server.room.errors import RoomError
from ginrummy.server.store import Chat, ChatLine, Player, StoreError

log = logging.getLogger("ginrummy.server.chouette")

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


def team_channel(match: int) -> str:
    """The store's chat channel of the team of match ``match`` (its team is fixed: the
    box does not change during a match)."""
    return f"team:{match}"


class TeamChat:
    """The team's messages, by match: written to the store's chat (the channel
    ``team:<match>``) before they are told, so a reload, a restart or a socket on another
    instance reads the same history; numbered with the room's chat."""

    def __init__(self, room_id: str, store: Chat, clock: Clock) -> None:
        self._room_id = room_id
        self._store = store
        self._clock = clock

    async def message(
        self, match: int, position: int, player: Player, text: str | None, phrase: str | None
    ) -> dict[str, Any]:
        """A checked team message (the ``chat`` rules and limits), kept for ``match``."""
        text, phrase = checked_chat(text, phrase)
        now = round(self._clock.now(), 3)
        line = ChatLine(0, now, str(position), player.id, players_.tag(player), text, phrase)
        try:
            seq = await self._store.add_chat(self._room_id, line, TEAM_HISTORY, team_channel(match))
        except StoreError as exc:
            log.error("room %s: a team message was not saved: %s", self._room_id, exc)
            raise RoomError("unavailable", "the message could not be sent; try again") from exc
        return chat_message(replace(line, seq=seq))

    async def history(self, match: int) -> list[dict[str, Any]]:
        """The last messages of ``match``'s team, oldest first, said through any instance."""
        try:
            lines = await self._store.recent_chat(self._room_id, TEAM_HISTORY, team_channel(match))
        except StoreError as exc:
            log.error("room %s: cannot read the team chat: %s", self._room_id, exc)
            raise RoomError("unavailable", "the team chat cannot be read right now") from exc
        return [chat_message(line) for line in lines]
