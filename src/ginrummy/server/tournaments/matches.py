"""A tournament's matches as ordinary rooms: open the room of a pairing (its match id
is the room's id), read how its match ended, end it for a no-show; a match of two
computer players has no room and is played here, off the event loop.

The room's options name its tournament (id, name and round: the table links back to
the tournament's page). Seat one is the pairing's ``first`` player, or the person when
a person meets a computer; the ``first`` player deals the first round either way (the
room option ``first_dealer``), and the room plays that one match (no new match after
it). Both seats are bound to the players' identities when the room opens, as a quick
match binds them, so each player's lobby takes them to their table.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from dataclasses import dataclass

from ginrummy.arena import Job, play_match
from ginrummy.engine import ForfeitReason, Seat
from ginrummy.server.computer import Thinker, heavy
from ginrummy.server.quick import player_topic
from ginrummy.server.room import Room, RoomError, RoomManager, Snapshot, replay
from ginrummy.server.store import StoreError
from ginrummy.server.tokens import new_room_id
from ginrummy.tournament import Pairing, Tournament

log = logging.getLogger("ginrummy.server.tournaments")

BOT_TIMEOUT = 30.0  # seconds a computer may think in a computer-only match
FIRST_MATCH_SEQ = 1  # a room's log opens with the "match" event of its first match


@dataclass(frozen=True, slots=True)
class Ended:
    """How a match ended: the winner and the game points of (first, second)."""

    winner: str
    points: tuple[int, int]


def new_match_id(round_number: int, board: int) -> str:
    """A match's id is the id of its room: fresh, random (the core's ``MatchIds``)."""
    return new_room_id()


def seats(state: Tournament, pairing: Pairing) -> dict[Seat, str]:
    """Which player sits where: ``first`` in seat one unless only ``second`` is a person."""
    first, second = pairing.first, pairing.second
    assert second is not None, "a bye has no room"
    if _computer(state, first) is not None and _computer(state, second) is None:
        first, second = second, first
    return {Seat.ONE: first, Seat.TWO: second}


def first_dealer(where: dict[Seat, str], pairing: Pairing) -> Seat:
    """The seat of the pairing's ``first`` player: they deal the match's first round
    (the core alternates first deals, docs/tournaments.md)."""
    return next(s for s, p in where.items() if p == pairing.first)


def round_of(state: Tournament, pairing: Pairing) -> int:
    """The number of the round the pairing belongs to (the table names it)."""
    found = None if pairing.match_id is None else state.find(pairing.match_id)
    assert found is not None, "a room's pairing is one of the tournament's"
    return found[0].number


def _computer(state: Tournament, player: str) -> str | None:
    entrant = state.entrant(player)
    return None if entrant is None else entrant.computer


def computers_only(state: Tournament, pairing: Pairing) -> bool:
    return all(_computer(state, p) is not None for p in pairing.players)


async def open_room(
    rooms: RoomManager,
    tournament_id: str,
    state: Tournament,
    pairing: Pairing,
    identities: dict[str, str],
    *,
    fresh: bool = False,
) -> Room:
    """The pairing's room, opened now if no instance has opened it yet. ``fresh``: this
    instance has just paired the round (the lease holder alone opens rooms), so the
    room is opened without asking the store first whether it exists (if it does
    after all, it is loaded instead)."""
    assert pairing.match_id is not None
    room = rooms.resident(pairing.match_id) if fresh else await rooms.get(pairing.match_id)
    if room is not None:
        return room
    where = seats(state, pairing)
    one, two = state.entrant(where[Seat.ONE]), state.entrant(where[Seat.TWO])
    assert one is not None and two is not None
    settings = state.settings
    try:
        room = await rooms.create(
            kind="room",
            rules=settings.rules(),
            creator_hash=identities[one.id],
            name=one.name,
            opponent_bot=two.computer,
            spectators=True,
            opponent_name=two.name,
            opponent_hash=None if two.computer else identities[two.id],
            options={
                "visibility": "public" if settings.public else "private",
                "rated": settings.rated and two.computer is None,
                "tournament": tournament_id,
                "tournament_name": settings.name,
                "tournament_round": round_of(state, pairing),
                "first_dealer": first_dealer(where, pairing).label,
            },
            room_id=pairing.match_id,
        )
    except RoomError:  # opened meanwhile by another instance (or the store failed)
        opened = await rooms.get(pairing.match_id)
        if opened is None:
            raise
        return opened
    await _take_to_table(rooms, room, where)
    return room


async def _take_to_table(rooms: RoomManager, room: Room, where: dict[Seat, str]) -> None:
    """Each person's lobby sockets (any instance) get ``matched``, as after a quick
    match: the page takes them to their table."""
    for seat, player in where.items():
        if room.person(seat):
            notice = {"kind": "matched", "room": room.id, "seat": seat.label}
            await rooms.bus.publish(player_topic(player), notice)


async def ended(
    rooms: RoomManager, state: Tournament, pairing: Pairing, room: Room
) -> Ended | None:
    """The result of the room's first match, once it is over (the players may have
    started a new match since: then the first one is read back from the room's log)."""
    snap = room.current
    if snap.match_seq > FIRST_MATCH_SEQ:
        snap = await _first_match(rooms, room.id) or snap
    match = snap.match
    if match is None or match.result is None:
        return None
    where = seats(state, pairing)
    result = match.result
    by_player = {where[s]: result.totals[s] for s in Seat}
    second = pairing.second or ""
    return Ended(where[result.winner], (by_player[pairing.first], by_player[second]))


async def _first_match(rooms: RoomManager, room_id: str) -> Snapshot | None:
    """The room's first match as its log has it, up to the event that set up the next."""
    try:
        stored = await rooms.store.load_room(room_id)
    except StoreError as exc:
        log.warning("room %s: cannot read its first match: %s", room_id, exc)
        return None
    if stored is None:
        return None
    later = (e.seq for e in stored.events if e.kind == "match" and e.seq > FIRST_MATCH_SEQ)
    cut = next(later, None)
    return replay([e for e in stored.events if cut is None or e.seq < cut])


async def forfeit(
    room: Room,
    state: Tournament,
    pairing: Pairing,
    loser: str,
    reason: ForfeitReason = ForfeitReason.ABANDONED,
) -> None:
    """End the room's match against a player who did not come or withdrew (the
    tournament has already recorded it): the room shows it is over."""
    where = seats(state, pairing)
    seat = next(s for s, p in where.items() if p == loser)
    try:
        await room.end_by_forfeit(seat, reason)
    except RoomError as exc:  # over meanwhile: nothing left to end
        log.info("room %s: no forfeit for a no-show: %s", room.id, exc.message)


async def play_computers(
    state: Tournament, pairing: Pairing, thinker: Thinker | None = None
) -> Ended:
    """Play a match of two computer players (no room, nobody to watch) in a thread, or
    with a heavy level in ``thinker``'s worker processes (one whole match in a worker)."""
    first, second = pairing.first, pairing.second or ""
    a, b = _computer(state, first), _computer(state, second)
    assert a is not None and b is not None
    job = Job(a, b, state.settings.rules(), secrets.randbits(32), 0, BOT_TIMEOUT)
    if thinker is not None and (heavy(a) or heavy(b)):
        out = await thinker.run("computers' match", play_match, job)
    else:
        out = await asyncio.to_thread(play_match, job)
    winner = first if out.winner == 0 else second
    return Ended(winner, (out.points[0], out.points[1]))
