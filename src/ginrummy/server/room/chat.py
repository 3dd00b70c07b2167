"""A room's chat: validated plain text or a stock phrase, written to the store before
it is told to every socket of the room (on any instance). ``ChatLog`` is the writing
and reading by channel, which a chouette team's chat shares (``server/chouette/team.py``)."""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from ginrummy.protocol import limits
from ginrummy.server import players as players_
from ginrummy.server.clock import Clock
from ginrummy.server.pubsub import Bus
from ginrummy.server.room.errors import RoomError
from ginrummy.server.store import ROOM_CHAT, ChatLine, Player, Store, StoreError
from ginrummy.server.store import Chat as ChatStore

log = logging.getLogger("ginrummy.server.room")

CHAT_HISTORY = 50


def valid_chat(raw: str) -> str:
    """Chat text as stored and sent (``ginrummy.protocol.limits``, the one source of
    the limits the client is served), or ``bad_chat``.

    >>> valid_chat("  <b>hi</b>  ")
    '<b>hi</b>'
    """
    try:
        return limits.clean_chat(raw)
    except limits.BadChat as exc:
        raise RoomError("bad_chat", str(exc)) from None


def checked_chat(text: str | None, phrase: str | None) -> tuple[str | None, str | None]:
    """A message's text (cleaned) or stock phrase, exactly one of them; ``bad_chat``."""
    if (text is None) == (phrase is None):
        raise RoomError("bad_chat", "send either 'text' or 'phrase'")
    if phrase is not None and phrase not in limits.PHRASE_KEYS:
        keys = ", ".join(limits.PHRASE_KEYS)
        raise RoomError("bad_chat", f"phrase must be one of {keys}")
    return (None if text is None else valid_chat(text)), phrase


def chat_message(line: ChatLine) -> dict[str, Any]:
    """A stored chat line as ``chat`` and ``chat_history`` carry it."""
    return {
        "id": line.seq,
        "t": line.t,
        "from": {"seat": line.seat, "tag": line.tag, "player": line.player},
        "text": line.text,
        "phrase": line.phrase,
    }


class ChatLog:
    """A room's chat lines in the store, by channel (``ROOM_CHAT``, or a chouette team's
    ``team:<match>``): a checked line is written before it is told, so a reload, a
    restart or a socket on another instance reads the same history; the newest
    ``CHAT_HISTORY`` lines of a channel are kept."""

    def __init__(self, room_id: str, store: ChatStore, clock: Clock) -> None:
        self._room_id = room_id
        self._store = store
        self._clock = clock

    async def add(
        self,
        seat: str | None,
        player: Player,
        text: str | None,
        phrase: str | None,
        channel: str = ROOM_CHAT,
    ) -> dict[str, Any]:
        """The message written to ``channel`` from ``seat`` (a label; None: a spectator),
        as ``chat`` carries it; ``bad_chat`` or ``unavailable`` and nothing written."""
        text, phrase = checked_chat(text, phrase)
        now = round(self._clock.now(), 3)
        line = ChatLine(0, now, seat, player.id, players_.tag(player), text, phrase)
        try:
            seq = await self._store.add_chat(self._room_id, line, CHAT_HISTORY, channel)
        except StoreError as exc:
            log.error("room %s: a chat message was not saved: %s", self._room_id, exc)
            raise RoomError("unavailable", "the message could not be sent; try again") from exc
        return chat_message(replace(line, seq=seq))

    async def history(self, channel: str = ROOM_CHAT) -> list[dict[str, Any]]:
        """The channel's last messages, oldest first, said through any instance."""
        try:
            lines = await self._store.recent_chat(self._room_id, CHAT_HISTORY, channel)
        except StoreError as exc:
            log.error("room %s: cannot read the chat: %s", self._room_id, exc)
            raise RoomError("unavailable", "the chat cannot be read right now") from exc
        return [chat_message(line) for line in lines]


class Chat:
    """A room's chat. The room may know it has none: a room opened here (followed before
    it was written), or one whose history was read empty, until its follower hears a
    line or a ``resync``; its history is then sent without a read while the follower
    has taken in every notice delivered here (``told``). A line written by an instance
    that died before it could tell of it is not in such a history."""

    def __init__(
        self,
        room_id: str,
        topic: str,
        store: Store,
        bus: Bus,
        clock: Clock,
        spectators: bool,
        told: Callable[[], bool] = lambda: False,
    ) -> None:
        """``spectators``: spectators may chat too; ``told``: the room's follower has
        taken in every notice delivered to this instance (none waits)."""
        self._log = ChatLog(room_id, store, clock)
        self._topic = topic
        self._bus = bus
        self.spectators = spectators
        self._told = told
        self.empty = False  # known to have no line (see the class's text)
        self._heard = 0  # lines (or resyncs) heard of: a read that raced one proves nothing

    def opened(self) -> None:
        """A new room, followed before it was written: no line can exist yet."""
        self.empty = True

    def heard(self) -> None:
        """The follower took in a line or a ``resync`` (notices lost): lines may exist."""
        self.empty = False
        self._heard += 1

    async def say(
        self, seat: str | None, player: Player | None, text: str | None, phrase: str | None
    ) -> None:
        """A message from a seat or a chouette position (its label; a spectator: None)
        to every socket of the room."""
        if seat is None and not self.spectators:
            raise RoomError("chat_closed", "spectators may not chat in this room")
        if player is None:
            raise RoomError("chat_closed", "only players with an identity may chat")
        self.heard()  # from now on the history is read: the line may be in the store
        # Write before tell: a socket on any instance reads the history from the store.
        message = await self._log.add(seat, player, text, phrase)
        await self._bus.publish(self._topic, {"kind": "chat", "message": message})

    async def history(self) -> list[dict[str, Any]]:
        """The room's last messages, oldest first, said through any instance; none
        without a read while the room knows it has none."""
        if self.empty and self._told():
            return []
        heard = self._heard
        lines = await self._log.history()
        if not lines and heard == self._heard:
            self.empty = True  # no line was said before the read, none heard of since
        return lines
