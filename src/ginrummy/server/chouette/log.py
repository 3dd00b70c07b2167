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

from ginrummy.engine import GinRummyError, MatchState, Rules, parse_cards
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

    @property
    def match(self) -> MatchState | None:
        """The match the box and the captain play now (what the computer driver reads)."""
        return None if self.table is None else self.table.match

    @property
    def decision(self) -> tuple[int, int] | None:
        """Which decision the table waits for: the match, and its count of the events
        that move the game on (a partner leaving or coming back does not)."""
        if self.table is None:
            return None
        moving = sum(1 for e in self.table.events if not isinstance(e, Leave | Return))
        return (self.table.number, moving)


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
        moved = apply(table, parse_event(str(p["event"])))
        if event.kind == "deal":
            return replace(after, table=moved, ready=frozenset())
        if event.kind == "next_match":
            return replace(after, table=moved, ready=frozenset(), wishes=frozenset())
        return replace(after, table=moved)
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
