"""A socket bound to a two-player room (docs/protocol.md, "WebSocket"): a seat's or a
spectator's, on the table socket's life (``sockets.table``).

``hello`` binds it, with the token that holds a seat or without one as a spectator.
It renders the room's notices as ``event``/``view``/``presence`` frames for what it may
see, and turns the client's intents into the room's commands. A seat socket also keeps
its tips (docs/rules.md §6, ``TipsState``).
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Mapping
from typing import Any

from ginrummy.engine import ForfeitReason, Seat, SeatView
from ginrummy.protocol import ClientMessage, encode_own_view, encode_view_frame, to_json
from ginrummy.protocol.messages import (
    Claim,
    Hello,
    NewMatch,
    NextRound,
    Resign,
    Seed,
    Tip,
    Tips,
    sent,
)
from ginrummy.server.room import Room, RoomError, Snapshot, fair_frame
from ginrummy.server.sockets.frames import Connection, Identity
from ginrummy.server.sockets.table import Frame, Handler, TableSocket
from ginrummy.server.tips import TipsError, TipsState, TipsUnavailable, tip_for

log = logging.getLogger("ginrummy.server.sockets")

RoundKey = tuple[int, int, bool]


def round_key(snap: Snapshot) -> RoundKey:
    """Which round a snapshot is in or after: it changes when a round ends (a scored
    round is added, the match ends or a new one is set up), not when one is dealt."""
    match = snap.match
    if match is None:
        return (snap.match_seq, 0, False)
    return (snap.match_seq, len(match.rounds), match.is_over)


class RoomSocket(TableSocket[Room, Seat]):
    """The binding of a connection to one two-player room, as a seat or a spectator."""

    kind_name = "room"

    def __init__(self, conn: Connection, room: Room, seat: Seat | None, identity: Identity) -> None:
        allowed = seat is not None and not room.rated and not room.public
        self.tips = TipsState(allowed=allowed)
        super().__init__(conn, room, seat, identity)

    @property
    def seat(self) -> Seat | None:
        return self.key

    def commands(self) -> dict[str, Handler]:
        return {
            "tips": self._switch_tips,
            "tip": self._tip,
            "claim": self._claim,
            "resign": self._resign,
            "next_round": self._next_round,
            "new_match": self._new_match,
            "seed": self._seed,
        }

    @classmethod
    async def bind_to(cls, conn: Connection, room: Room, hello: Hello) -> None:
        """Bind ``conn`` to the room and seat of a ``hello``; a refused hello (no
        spectators) leaves the socket bound as it was. The token resolves to its identity
        in the store (a device's token to its account's); a seat's player is the room's."""
        token_hash = await conn.resolve(sent(hello.token))
        seat = room.seat_of(token_hash)
        if seat is None and not room.spectators:
            raise RoomError("no_spectators", "this room has no free seat and allows no spectators")
        if seat is not None:  # the seat's own identity: the room holds its player
            identity = Identity(token_hash, room.player_of.get(seat))
        else:
            identity = await Identity.of(conn.rooms, token_hash)
        await conn.bind(cls(conn, room, seat, identity))

    # --- frames to the client -----------------------------------------------------------

    async def first_frames(self, room: Room, key: Seat | None) -> list[Frame]:
        welcome = {"type": "welcome", "room": room.info(key), "seat": _label(key)}
        messages = await self.shown_chat(await room.chat.history())
        history = {"type": "chat_history", "messages": messages} if messages else NO_CHAT
        first: list[Frame] = [welcome, self.view_message(room.current), history]
        if key is not None:
            first.append(_tips_text(self.tips))  # where the seat's tips stand: off
        return first

    def view_message(self, snap: Snapshot) -> str:
        """The ``view`` frame: this socket's own part, the room's shared public part."""
        room = self.room
        public, _ = room.public_part(snap)
        view = room.view(self.key, snap) if self.key is not None else None
        message = {
            "type": "view",
            "version": snap.version,
            "players": room.players(snap),
            "timer": room.timer(snap),
            "watchers": room.watching,
            "fair": fair_frame(snap, self.key),
        }
        own = encode_own_view(view if isinstance(view, SeatView) else None)
        return encode_view_frame(message, own, public)

    def event_message(self, notice: Mapping[str, Any], snap: Snapshot) -> dict[str, Any]:
        action = None
        if notice["kind"] == "action":
            # The last public move (the same for every socket): a knock's card stays face down.
            _, action = self.room.public_part(snap)
        return {
            "type": "event",
            "version": snap.version,
            "kind": notice["kind"],
            "seat": notice.get("seat"),
            "action": action,
        }

    def presence_shown(self, room: Room) -> object:
        return tuple(room.connected(s) for s in Seat)

    def presence_message(self, room: Room) -> dict[str, Any]:
        return {"type": "presence", "players": room.players(), "watchers": room.watching}

    async def followed(self, snap: Snapshot) -> None:
        """Tips end with the round they were switched on in (docs/rules.md §6)."""
        await self._set_tips(self.tips.in_round(round_key(snap)))

    async def acted(self) -> None:
        await self._set_tips(self.tips.decided())

    async def _set_tips(self, tips: TipsState) -> None:
        if tips != self.tips:
            self.tips = tips
            await self.conn.send(tips.message())

    # --- the client's messages ----------------------------------------------------------

    async def handle(self, msg: ClientMessage) -> None:
        try:
            await super().handle(msg)
        except TipsError as exc:
            raise RoomError(exc.code, str(exc)) from None

    async def _claim(self, room: Room, frame: Claim) -> None:
        await room.claim(self.own_seat())

    async def _resign(self, room: Room, frame: Resign) -> None:
        await room.end_by_forfeit(self.own_seat(), ForfeitReason.RESIGNED)

    async def _next_round(self, room: Room, frame: NextRound) -> None:
        # Readiness is idempotent, so its version is informational: never stale.
        await room.next_round(self.own_seat())

    async def _new_match(self, room: Room, frame: NewMatch) -> None:
        await room.new_match(self.own_seat())

    async def _seed(self, room: Room, seed: Seed) -> None:
        await room.seed(self.own_seat(), seed.seed, sent(seed.commitment))

    async def _switch_tips(self, room: Room, tips: Tips) -> None:
        self.tips = self.tips.switched(tips.on, round_key(room.current))
        await self.conn.send(self.tips.message())  # the answer, changed or not

    async def _tip(self, room: Room, frame: Tip) -> None:
        self.tips.check()
        seat = self.own_seat()
        snap = room.current
        view = room.view(seat, snap)
        if not isinstance(view, SeatView):
            raise TipsUnavailable("there is no decision to advise on right now")
        tip = await tip_for(view)
        await self.conn.send(
            {
                "type": "tip",
                "version": snap.version,
                "action": tip.action,
                "key": tip.key,
                "params": tip.params,
                "text": tip.texts,
            }
        )


def _label(seat: Seat | None) -> str | None:
    return None if seat is None else seat.label


NO_CHAT = to_json({"type": "chat_history", "messages": []})
"""The ``chat_history`` of a room without chat, encoded once."""


@functools.lru_cache(maxsize=8)
def _tips_text(tips: TipsState) -> str:
    """A ``tips`` frame; a new seat socket's (off, allowed or not) encoded once."""
    return to_json(tips.message())
