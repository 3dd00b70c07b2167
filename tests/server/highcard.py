"""A toy kind of table, "high card", registered through the public registration alone
(``create_app(kinds=[HIGH_CARD])``, server/kinds.py): two seats, each dealt one card
face down; each shows it when they like; the higher card wins. What it writes here is
only its game: its snapshot and replay, its decisions, its frames and its route. The
seats, versions, log, publishing, presence, sockets and rebuilding are the table core's.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from starlette.requests import Request
from starlette.routing import Route

from ginrummy.engine import MatchState, Seat
from ginrummy.protocol.messages import Hello, sent
from ginrummy.server.api import callers
from ginrummy.server.api.services import rooms_of
from ginrummy.server.kinds import TableKind
from ginrummy.server.responses import JSONResponse
from ginrummy.server.room import RoomError, RoomManager
from ginrummy.server.room.base import RoomBase
from ginrummy.server.room.context import Rebuild, RoomContext
from ginrummy.server.room.duties import DutiesBase
from ginrummy.server.room.seats import SeatInfo
from ginrummy.server.sockets.frames import Connection, Identity
from ginrummy.server.sockets.table import Frame, TableSocket
from ginrummy.server.store import Event, RoomRow, SeatRow, StoredRoom
from ginrummy.server.tokens import new_room_id

NAME = "highcard"
SEATS = (0, 1)


@dataclass(frozen=True, slots=True)
class Snap:
    """After the event of ``version``: the two cards (2-14), the seats that showed."""

    version: int
    cards: tuple[int, int] = (0, 0)
    shown: frozenset[int] = frozenset()

    @property
    def match(self) -> MatchState | None:  # no gin match: nothing for a computer
        return None

    @property
    def over(self) -> bool:
        return len(self.shown) == 2

    @property
    def winner(self) -> int | None:
        a, b = self.cards
        return None if not self.over or a == b else (0 if a > b else 1)


def fold(snap: Snap, event: Event) -> Snap:
    if event.kind == "dealt":
        cards = tuple(event.payload["cards"])
        return Snap(event.seq, (int(cards[0]), int(cards[1])))
    if event.kind == "shown":
        return replace(snap, version=event.seq, shown=snap.shown | {int(event.payload["seat"])})
    if event.kind == "sat":
        return replace(snap, version=event.seq)
    raise ValueError(f"a high card room has no event {event.kind!r}")


def replay(events: Iterable[Event]) -> Snap:
    snap = Snap(0)
    for event in events:
        snap = fold(snap, event)
    return snap


@dataclass(frozen=True, slots=True)
class Change:
    events: tuple[Event, ...] = ()
    snaps: tuple[Snap, ...] = ()
    note: str = ""


def event(snap: Snap, kind: str, **payload: Any) -> Change:
    e = Event(snap.version + 1, kind, payload)
    return Change((e,), (fold(snap, e),), kind)


def show(snap: Snap, seats: Mapping[int, SeatInfo], key: int, version: int, text: str) -> Change:
    """The one decision of the game: a seat shows its card."""
    if text != "show":
        raise RoomError("illegal_action", f"{text!r} is not a move of high card: 'show'")
    if version != snap.version:
        raise RoomError("stale_version", "the game moved on meanwhile")
    if len(seats) < 2:
        raise RoomError("not_your_turn", "the other seat is still free")
    if key in snap.shown:
        raise RoomError("not_your_turn", "your card is shown already")
    return event(snap, "shown", seat=key)


class Duties(DutiesBase):
    """No computer and no move timer: grace periods only, for a seat that left."""

    def __init__(self, room: HighCardRoom, ctx: RoomContext) -> None:
        self._room = room
        super().__init__(room.id, ctx, lambda: room.current, self._no_move, room.catch_up)

    async def _no_move(self, seat: Seat, version: int, text: str) -> None:
        raise AssertionError("no computer plays high card")

    def rearm(self, remaining_ms: int | None = None) -> None:
        self.update_grace()

    def update_grace(self) -> None:
        room = self._room
        playing = room.status == "playing" and not room.broken
        absent = [k for k in SEATS if playing and room.presence.anywhere(k) == 0]
        self.run_graces(absent, room.presence.settled)

    def bot_to_move(self) -> tuple[Seat, str | None] | None:
        return None

    def work_due(self) -> bool:
        return self.graces.running

    async def _timed_out(self, seat: Seat, version: int) -> None:
        raise AssertionError("high card has no move timer")

    async def _grace_over(self, key: int, end: float) -> None:
        await self._room.announce(key)


class HighCardRoom(RoomBase[Snap, int, Duties]):
    def __init__(
        self,
        ctx: RoomContext,
        row: RoomRow,
        seats: Mapping[int, SeatInfo],
        snap: Snap,
        settle_s: float = 0.0,
    ) -> None:
        super().__init__(ctx, row, SEATS, snap, seats, settle_s)
        self.duties = Duties(self, ctx)

    @property
    def status(self) -> str:
        if len(self.seats) < 2:
            return "waiting"
        return "over" if self.current.over else "playing"

    def move(self, key: int, version: int, text: str) -> Change:
        return show(self.current, self.seats, key, version, text)

    def seat_change(self, key: int, info: SeatInfo) -> Change:
        return event(self.current, "sat", seat=key)

    def notice(self, event: Event) -> dict[str, Any]:
        return {"kind": event.kind, "version": event.seq, "seat": event.payload.get("seat")}

    async def take_in(self, stored: StoredRoom) -> bool:
        self.seats = seats_of(stored.seats)
        newer = [e for e in stored.events if e.seq > self.current.version]
        snaps: list[Snap] = []
        for e in newer:
            snaps.append(fold(snaps[-1] if snaps else self.current, e))
        await self.load_players()
        await self.settle(snaps)
        return bool(snaps)


def seats_of(rows: Sequence[SeatRow]) -> dict[int, SeatInfo]:
    return {int(r.seat): SeatInfo(r.name, r.identity_hash, r.bot) for r in rows}


class HighCardSocket(TableSocket[HighCardRoom, int]):
    kind_name = NAME

    @classmethod
    async def bind_to(cls, conn: Connection, room: HighCardRoom, hello: Hello) -> None:
        token_hash = await conn.resolve(sent(hello.token))
        key = room.seat_of(token_hash)
        await conn.bind(cls(conn, room, key, await Identity.of(conn.rooms, token_hash)))

    async def first_frames(self, room: HighCardRoom, key: int | None) -> list[Frame]:
        welcome = {"type": "welcome", "room": room.id, "seat": key}
        return [welcome, self.view_message(room.current)]

    def view_message(self, snap: Snap) -> Frame:
        """Each seat sees its own card; a card once shown, everyone sees."""
        seen = {k for k in SEATS if k in snap.shown or k == self.key}
        cards = [snap.cards[k] if k in seen else None for k in SEATS]
        return {"type": "view", "version": snap.version, "cards": cards, "winner": snap.winner}

    def event_message(self, notice: Mapping[str, Any], snap: Snap) -> Frame:
        return {"type": "event", "version": snap.version, "kind": notice["kind"]}

    def presence_shown(self, room: HighCardRoom) -> object:
        return tuple(room.connected(k) for k in SEATS)

    def presence_message(self, room: HighCardRoom) -> Frame:
        return {"type": "presence", "connected": [room.connected(k) for k in SEATS]}


async def open_table(request: Request) -> JSONResponse:
    """``POST /api/highcard``: a new table, the caller at seat 0."""
    identity = await callers.identity(request)
    rooms: RoomManager = rooms_of(request)
    player = await rooms.player(identity)
    row = RoomRow(new_room_id(), NAME, {}, rooms.clock.now(), {"spectators": True})
    seats = {0: SeatInfo(player.name, identity, None)}
    room = HighCardRoom(rooms.ctx, row, seats, Snap(0))
    await room.load_players()
    rng = random.Random(row.id)
    deal = event(room.current, "dealt", cards=rng.sample(range(2, 15), 2))
    rows = [SeatRow("0", identity, player.name, None)]
    await rooms.open(room, rows, deal.events, deal.snaps)
    return JSONResponse({"room": room.id, "seat": 0}, status_code=201)


async def join(request: Request) -> JSONResponse:
    """``POST /api/highcard/{room}/join``: the free seat."""
    identity = await callers.identity(request)
    rooms = rooms_of(request)
    room = await rooms.get_any(request.path_params["room"])
    if not isinstance(room, HighCardRoom):
        raise RoomError("unknown_room", "there is no such high card table")
    player = await rooms.player(identity)
    return JSONResponse({"seat": await room.join(identity, player.name, player)})


HIGH_CARD = TableKind(
    NAME,
    Rebuild(
        replay,
        lambda ctx, stored, snap, settle: HighCardRoom(
            ctx, stored.room, seats_of(stored.seats), snap, settle
        ),
    ),
    HighCardSocket.bind_to,
    lambda room, seat: {"room": room.id, "seat": seat, "kind": NAME, "status": room.status},
    (
        Route("/api/highcard", open_table, methods=["POST"]),
        Route("/api/highcard/{room}/join", join, methods=["POST"]),
    ),
)
"""The registration: everything the server needs to play high card."""
