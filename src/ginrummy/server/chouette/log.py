"""A chouette room's event log and the state it folds to (docs/protocol.md, "Chouette
rooms"): ``Snap``, ``fold``, ``replay``.

The first event, ``chouette``, holds the rules and the seat draw; the table's own
events (``deal``, ``action``, ``leave``, ``return``, ``forfeit``, ``next_match``) carry
their engine text (``ginrummy.engine.chouette_record``) and are folded through the
engine, so a room rebuilt from its log is the room that was. ``seat``, ``ready`` and
``next_wish`` are the room's bookkeeping around the table.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from ginrummy.engine import FairBlock, GinRummyError, MatchState, Rules, parse_cards
from ginrummy.engine.chouette import ChouetteTable, Leave, Return, apply, new_table
from ginrummy.engine.chouette_record import parse_event
from ginrummy.server.room.log import fold_each, following
from ginrummy.server.store import Event

TABLE_KINDS = ("deal", "action", "leave", "return", "forfeit", "next_match")
"""Event kinds that are the engine's table events (payload ``event``: its text)."""


@dataclass(frozen=True, slots=True)
class Snap:
    """A chouette room after the event with seq ``version``."""

    version: int
    table: ChouetteTable | None  # None only before the ``chouette`` event
    ready: frozenset[int] = frozenset()  # people ready for the next round
    wishes: frozenset[int] = frozenset()  # people who want the next match
    # The current match's fair blocks, one per deal (round n's is fair[n - 1]); they hold
    # the server seed: the presenter shows a round's block only once the round is over.
    fair: tuple[FairBlock | None, ...] = ()
    # The table's events that moved the game on, counted as they are folded (a partner
    # leaving or coming back does not): ``decision`` reads it without a rescan.
    moving: int = 0

    @property
    def match(self) -> MatchState | None:
        """The match the box and the captain play now (what the computer driver reads)."""
        return None if self.table is None else self.table.match

    @property
    def decision(self) -> tuple[int, int] | None:
        """Which decision the table waits for: the match, and the count of the table's
        events that move the game on (a partner leaving or coming back does not)."""
        return None if self.table is None else (self.table.number, self.moving)


def fold(snap: Snap, event: Event) -> Snap:
    """The snapshot after ``event``; raises ``GinRummyError`` if the engine refuses it."""
    after = following(snap, event)
    p = event.payload
    if event.kind == "chouette":
        opened = new_table(Rules.from_dict(dict(p["rules"])), parse_cards(str(p["drawn"])))
        return replace(after, table=opened)
    table = snap.table
    if table is None:
        raise GinRummyError(f"event {event.seq} ({event.kind}) before the table was set up")
    if event.kind in TABLE_KINDS:
        happened = parse_event(str(p["event"]))
        moves = not isinstance(happened, Leave | Return)  # else the decision stays
        after = replace(after, table=apply(table, happened), moving=snap.moving + moves)
        if event.kind == "deal":
            block = FairBlock.from_dict(p["fair"]) if "fair" in p else None
            return replace(after, ready=frozenset(), fair=(*snap.fair, block))
        if event.kind == "next_match":
            return replace(after, ready=frozenset(), wishes=frozenset(), fair=())
        return after
    position = int(p["position"])
    if event.kind == "seat":  # a seat taken: the seats themselves are the store's
        return after
    if event.kind == "ready":
        return replace(after, ready=snap.ready | {position})
    if event.kind == "next_wish":
        return replace(after, wishes=snap.wishes | {position})
    raise GinRummyError(f"unknown chouette event kind {event.kind!r}")


def fold_all(snap: Snap, events: Iterable[Event]) -> tuple[Snap, ...]:
    """The snapshot after each of ``events`` in turn, from ``snap``."""
    return fold_each(fold, snap, events)


def replay(events: Sequence[Event]) -> Snap:
    """The snapshot a whole log folds to."""
    return ([Snap(0, None), *fold_all(Snap(0, None), events)])[-1]
