"""A chouette room's commands (docs/protocol.md, "Chouette rooms"): check a request
against the table, answer the events it writes and the snapshots they fold to.

Plain functions of a ``Board`` (the snapshot, who sits where, the room's id) and the
request, as the two-player master's: no socket, bus or store. A refusal raises
``RoomError`` and changes nothing.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from ginrummy.engine import (
    ActionKind,
    ForfeitReason,
    GinRummyError,
    MatchPhase,
    Rules,
    parse_card,
)
from ginrummy.engine.chouette import (
    BOX,
    TEAM,
    ChouetteEvent,
    ChouetteTable,
    Forfeit,
    Leave,
    NextMatch,
    Return,
    TablePhase,
    legal_actions,
    seat_of,
)
from ginrummy.engine.views import view_for_seat
from ginrummy.fairness import new_seed
from ginrummy.protocol import ProtocolError, decode_action
from ginrummy.server.chouette.log import Snap, fold
from ginrummy.server.room import fair
from ginrummy.server.room.errors import RoomError
from ginrummy.server.room.master import Builder
from ginrummy.server.room.seats import SeatInfo, is_person
from ginrummy.server.store import Event


@dataclass(frozen=True, slots=True)
class Board:
    """What a command decides on: the snapshot, the seats by position, the room's id."""

    snap: Snap
    seats: Mapping[int, SeatInfo]
    room: str = ""

    @property
    def table(self) -> ChouetteTable:
        assert self.snap.table is not None, "a chouette room's log starts with its table"
        return self.snap.table

    @property
    def full(self) -> bool:
        return len(self.seats) == self.table.players

    def person(self, position: int) -> bool:
        return is_person(self.seats, position)


@dataclass(frozen=True, slots=True)
class Change:
    events: tuple[Event, ...] = ()
    snaps: tuple[Snap, ...] = ()
    note: str = ""


class _Log(Builder[Snap]):
    def __init__(self, snap: Snap) -> None:
        super().__init__(snap, fold)

    def table(self, kind: str, event: ChouetteEvent, **extra: object) -> None:
        self.add(kind, {"event": str(event), **extra})

    def change(self, note: str = "") -> Change:
        return Change(tuple(self.events), tuple(self.snaps), note)


def _deal(b: _Log, board: Board) -> None:
    """Deal the round due: a fair deal (docs/fairness.md) from the server's seed and the
    default seeds of the box (seat one) and the captain (seat two), at once."""
    table = b.last.table
    assert table is not None
    round_ = len(table.match.rounds) + 1
    p = fair.Pending(new_seed(), board.room, table.number, round_)
    for seat, position in ((BOX, table.box), (TEAM, table.captain)):
        p = p.with_seed(seat, *fair.seat_seed(seat, board.seats.get(position), p))
    payload = fair.deal_payload(p)
    deck = payload.pop("deck")
    b.add("deal", {"event": f"deal {deck}", **payload})


def opening(board: Board, rules: Rules, drawn: str) -> Change:
    """A new room's first events: the table, and its first deal if every seat is taken."""
    b = _Log(board.snap)
    b.add("chouette", {"rules": rules.to_dict(), "drawn": drawn})
    if len(board.seats) == len(drawn.split()):
        _deal(b, board)
    return b.change("created")


def take_seat(board: Board, position: int) -> Change:
    """``position`` is taken (``board.seats`` has it); the first deal once all are."""
    b = _Log(board.snap)
    b.add("seat", {"position": position})
    table = board.table
    if board.full and table.dealt == 0 and table.match.phase is MatchPhase.DEAL:
        _deal(b, board)
    return b.change(f"position {position} taken")


def _started(board: Board) -> ChouetteTable:
    if not board.full:
        missing = board.table.players - len(board.seats)
        raise RoomError("table_not_full", f"the table waits for {missing} more player(s)")
    return board.table


def act(board: Board, position: int, version: int, text: str) -> Change:
    """``position`` plays ``text`` on the view of ``version``."""
    table = _started(board)
    if version != board.snap.version:
        raise RoomError(
            "stale_version", f"you acted on version {version}, the table is at {board.snap.version}"
        )
    if table.turn != position:
        raise RoomError("not_your_turn", "it is not your turn")
    try:
        action = decode_action(text)
    except ProtocolError as exc:
        raise RoomError(exc.code, str(exc)) from None
    b = _Log(board.snap)
    try:
        b.table("action", action, position=position)
    except GinRummyError as exc:
        raise RoomError("illegal_action", str(exc)) from None
    shown = action.kind.value if action.kind in (ActionKind.KNOCK, ActionKind.GIN) else action
    return b.change(f"position {position} plays {shown}")


def _round_due(board: Board, ready: frozenset[int]) -> bool:
    """Between rounds, and the box and the captain who plays next (the people among
    them) are ready."""
    table = board.table
    between = table.match.phase is MatchPhase.DEAL and bool(table.match.rounds)
    players = (table.box, table.captain)
    done = all(p in ready or not board.person(p) for p in players)
    return table.phase is TablePhase.MATCH and between and done


def _match_due(board: Board, wishes: frozenset[int]) -> bool:
    """After a settled match, every person present wants the next (one at least)."""
    table = board.table
    present = [p for p in range(table.players) if board.person(p) and p not in table.absent]
    return table.phase is TablePhase.SETTLED and bool(present) and set(present) <= wishes


def _next_match(b: _Log, board: Board) -> None:
    b.table("next_match", NextMatch())
    _deal(b, board)


def _mark(board: Board, position: int, kind: str, marked: frozenset[int]) -> _Log:
    """``position`` said it is ready (``kind``; ``marked``: those who have so far)."""
    b = _Log(board.snap)
    if position not in marked:
        b.add(kind, {"position": position})
    return b


def ready(board: Board, position: int) -> Change:
    """``position`` is ready for the next round; it is dealt once the box and the
    captain who plays it (the people among them) are."""
    table = _started(board)
    if table.phase is not TablePhase.MATCH or table.match.phase is not MatchPhase.DEAL:
        raise RoomError("not_between_rounds", "there is no finished round to go on from")
    b = _mark(board, position, "ready", board.snap.ready)
    if _round_due(board, board.snap.ready | {position}):
        _deal(b, board)
    return b.change(f"position {position} ready")


def wish_next(board: Board, position: int) -> Change:
    """``position`` wants the next match; it starts once every person present does."""
    if _started(board).phase is not TablePhase.SETTLED:
        raise RoomError("match_running", "the next match can start once this one is over")
    b = _mark(board, position, "next_wish", board.snap.wishes)
    if _match_due(board, board.snap.wishes | {position}):
        _next_match(b, board)
    return b.change(f"position {position} wants the next match")


def auto_due(board: Board) -> bool:
    """A deal or a next match waits for nobody (computers are always ready)."""
    if board.snap.table is None or not board.full:
        return False
    return _round_due(board, board.snap.ready) or _match_due(board, board.snap.wishes)


def auto(board: Board) -> Change:
    """The deal or the next match that waits for nobody, if any."""
    b = _Log(board.snap)
    if board.snap.table is not None and board.full:
        if _round_due(board, board.snap.ready):
            _deal(b, board)
        elif _match_due(board, board.snap.wishes):
            _next_match(b, board)
    return b.change("dealt: nobody to wait for")


def end_by_forfeit(board: Board, position: int, reason: ForfeitReason) -> Change:
    """The box or the captain ``position`` loses the match."""
    table = _started(board)
    if table.phase is not TablePhase.MATCH:
        raise RoomError("match_over", "the match is already over")
    if seat_of(table, position) is None:
        raise RoomError("not_playing", "only the box or the captain can lose the match")
    b = _Log(board.snap)
    b.table("forfeit", Forfeit(position, reason), position=position)
    return b.change(f"position {position} forfeits ({reason.value})")


def away(board: Board, position: int, gone: bool) -> Change:
    """A partner left (``gone``: skipped in the captain order) or is back; nothing if
    the table already says so."""
    table = board.table
    if gone == (position in table.absent):
        return Change()
    b = _Log(board.snap)
    if gone:
        b.table("leave", Leave(position), position=position)
    else:
        b.table("return", Return(position), position=position)
    return b.change(f"position {position} {'left' if gone else 'is back'}")


def check_advice(
    board: Board, position: int, version: int, action: str | None, card: str | None
) -> tuple[str | None, str | None]:
    """A partner's advice as sent on (action text, card text); refused unless it names
    one of the captain's legal actions, or a card of the captain's hand or the discard
    pile's top, while the captain decides."""
    table = _started(board)
    if seat_of(table, position) is not None:
        raise RoomError("not_a_partner", "only partners (team members not captain) advise")
    _captain_decides(board, version)
    if (action is None) == (card is None):
        raise RoomError("bad_advice", "send either 'action' or 'card'")
    if action is not None:
        try:
            named = decode_action(action)
        except ProtocolError as exc:
            raise RoomError("bad_advice", str(exc)) from None
        if named not in legal_actions(table):
            raise RoomError("illegal_advice", f"{named} is not one of the captain's choices")
        return str(named), None
    assert card is not None
    try:
        pointed = parse_card(card)
    except GinRummyError as exc:
        raise RoomError("bad_advice", str(exc)) from None
    view = view_for_seat(table.match, TEAM)
    if pointed not in view.hand and pointed != view.table.discard_top:
        raise RoomError("illegal_advice", f"{pointed} is not in the captain's hand nor on the pile")
    return None, str(pointed)


def _captain_decides(board: Board, version: int) -> None:
    if version != board.snap.version:
        raise RoomError(
            "stale_version",
            f"you advised on version {version}, the table is at {board.snap.version}",
        )
    if board.table.match.turn is not TEAM:
        raise RoomError("nothing_to_advise", "the captain has no decision to take now")


def check_ask(board: Board, position: int, version: int) -> tuple[int, ...]:
    """The captain asks the computer partners for advice: the partners who answer."""
    table = _started(board)
    if position != table.captain:
        raise RoomError("not_captain", "only the captain asks for advice")
    _captain_decides(board, version)
    helpers = tuple(
        p
        for p in table.order
        if p != table.captain and (info := board.seats.get(p)) is not None and info.bot is not None
    )
    if not helpers:
        raise RoomError("no_computer_partner", "no computer sits in the team")
    return helpers
