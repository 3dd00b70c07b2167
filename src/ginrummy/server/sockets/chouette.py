"""A socket bound to a chouette room (docs/protocol.md, "Chouette rooms"): a player's
position or a spectator, on the table socket's life (``sockets.table``).

It renders the room's notices as ``event``/``view``/``presence`` frames for what its
position may see (``chouette.presenter``) and turns the client's intents into the room's
commands. Advice and team chat reach only the sockets of the team's members at that
moment: never the box's, never a spectator's.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ginrummy.engine import ForfeitReason
from ginrummy.protocol.messages import (
    Advice,
    AskAdvice,
    Hello,
    NextMatch,
    NextRound,
    Resign,
    TeamChat,
    sent,
)
from ginrummy.server.chouette import ChouetteRoom, presenter
from ginrummy.server.chouette.log import Snap
from ginrummy.server.chouette.team import TEAM_NOTICES, team_frame
from ginrummy.server.room import RoomError
from ginrummy.server.sockets.frames import Connection, Identity
from ginrummy.server.sockets.table import Frame, Handler, TableSocket


class ChouetteSocket(TableSocket[ChouetteRoom, int]):
    """The binding of a connection to one chouette room, as a position or a spectator."""

    kind_name = "chouette"

    @property
    def position(self) -> int | None:
        return self.key

    def commands(self) -> dict[str, Handler]:
        return {
            "team_chat": self._team_chat,
            "advice": self._advice,
            "ask_advice": self._ask_advice,
            "next_round": self._next_round,
            "next_match": self._next_match,
            "resign": self._resign,
        }

    @classmethod
    async def bind_to(cls, conn: Connection, room: ChouetteRoom, hello: Hello) -> None:
        """Bind ``conn`` to the position the hello's token holds, or as a spectator."""
        token_hash = await conn.resolve(sent(hello.token))
        position = room.seat_of(token_hash)
        if position is None and not room.spectators:
            raise RoomError("no_spectators", "this room has no seat of yours and no spectators")
        await conn.bind(cls(conn, room, position, await Identity.of(conn.rooms, token_hash)))

    # --- frames to the client -----------------------------------------------------------

    async def first_frames(self, room: ChouetteRoom, key: int | None) -> list[Frame]:
        snap = room.current
        first: list[Frame] = [
            {"type": "welcome", "room": presenter.info(room, key), "position": key},
            self.view_message(snap),
            {"type": "chat_history", "messages": await self.shown_chat(await room.chat.history())},
        ]
        if room.in_team(key) and snap.table is not None:
            team = await self.shown_chat(await room.team_chat.history(snap.table.number))
            first.append({"type": "team_chat_history", "messages": team})
        return first

    def view_message(self, snap: Snap) -> Frame:
        return presenter.view_message(self.room, snap, self.key)

    def event_message(self, notice: Mapping[str, Any], snap: Snap) -> dict[str, Any]:
        action = presenter.public_action(self.room, snap) if notice["kind"] == "action" else None
        return {
            "type": "event",
            "version": snap.version,
            "kind": notice["kind"],
            "position": notice.get("position"),
            "action": action,
        }

    def presence_shown(self, room: ChouetteRoom) -> object:
        return (tuple(room.connected(p) for p in range(room.players)), room.watching)

    def presence_message(self, room: ChouetteRoom) -> dict[str, Any]:
        players = presenter.players(room, room.current)
        return {"type": "presence", "players": players, "watchers": room.watching}

    async def own_notice(self, notice: Mapping[str, Any]) -> bool:
        """Advice and team chat: to a team member's socket only."""
        if notice.get("kind") not in TEAM_NOTICES:
            return False
        frame = team_frame(notice, self.key)  # never the box's, a spectator's
        hidden = notice.get("kind") == "team_chat" and not await self.shows_chat(notice["message"])
        if frame is not None and not hidden:
            await self.conn.send(frame)
        return True

    # --- the client's messages ----------------------------------------------------------

    async def _team_chat(self, room: ChouetteRoom, chat: TeamChat) -> None:
        position = self.own_seat()
        self.conn.check_chat_rate()
        if self.identity.player is not None:
            await self.check_chat(self.identity.player.id)
        await room.team_say(position, sent(chat.text), sent(chat.phrase))

    async def _advice(self, room: ChouetteRoom, advice: Advice) -> None:
        position = self.own_seat()
        await room.advise(position, advice.version, sent(advice.action), sent(advice.card))

    async def _ask_advice(self, room: ChouetteRoom, ask: AskAdvice) -> None:
        await room.ask_advice(self.own_seat(), ask.version)

    async def _next_round(self, room: ChouetteRoom, frame: NextRound) -> None:
        await room.ready(self.own_seat())

    async def _next_match(self, room: ChouetteRoom, frame: NextMatch) -> None:
        await room.wish_next(self.own_seat())

    async def _resign(self, room: ChouetteRoom, frame: Resign) -> None:
        await room.forfeit(self.own_seat(), ForfeitReason.RESIGNED)
