"""Records of chouette tables (docs/rules.md §8): the seat draw and the events, as text.

A table is (rules, drawn cards, events); each event has one text that ``str()`` writes
and ``parse_event`` reads, so a record is plain data that any JSON library writes, and
replaying it rebuilds an identical table.

>>> str(parse_event("Forfeit 2 timeout")), str(parse_event("discard qs"))
('forfeit 2 timeout', 'discard Qs')
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from ginrummy.engine.actions import parse_action
from ginrummy.engine.cards import Card, cards_text, parse_cards
from ginrummy.engine.chouette import (
    ChouetteEvent,
    ChouetteTable,
    Deal,
    Forfeit,
    Leave,
    NextMatch,
    Return,
    apply,
    new_table,
)
from ginrummy.engine.errors import ActionParseError, GinRummyError, RecordError
from ginrummy.engine.match import ForfeitReason
from ginrummy.engine.record import FORMAT
from ginrummy.engine.rules import Rules

KIND = "chouette"


def parse_event(text: str) -> ChouetteEvent:
    """Read an event: an action's text, ``deal <52 cards>``, ``leave 2``, ``return 2``,
    ``forfeit 2 timeout`` or ``next match`` (case-insensitive)."""
    if not isinstance(text, str):
        raise ActionParseError(f"an event is a text, got {type(text).__name__}")
    words = text.strip().lower().split()
    head, args = (words[0], words[1:]) if words else ("", [])
    try:
        if head == "deal":
            return Deal(parse_cards(" ".join(args)))
        if head in ("leave", "return") and len(args) == 1:
            return (Leave if head == "leave" else Return)(_position(args[0]))
        if head == "forfeit" and len(args) == 2:
            return Forfeit(_position(args[0]), ForfeitReason(args[1]))
    except ValueError as exc:  # a card, a position or a reason that is none
        raise ActionParseError(f"{text.strip()!r}: {exc}") from None
    if words == ["next", "match"]:
        return NextMatch()
    return parse_action(text)


def _position(text: str) -> int:
    if not text.isdigit():
        raise ActionParseError(f"a player's position is a whole number, got {text!r}")
    return int(text)


@dataclass(frozen=True, slots=True)
class ChouetteRecord:
    rules: Rules
    drawn: tuple[Card, ...]
    events: tuple[ChouetteEvent, ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "kind": KIND,
            "rules": self.rules.to_dict(),
            "drawn": cards_text(self.drawn),
            "events": [str(e) for e in self.events],
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> ChouetteRecord:
        if not isinstance(data, Mapping) or data.get("kind") != KIND:
            raise RecordError(f"not a chouette record (kind {KIND!r})")
        try:
            rules = Rules.from_dict(dict(data["rules"]))
            drawn = parse_cards(str(data["drawn"]))
            events = tuple(parse_event(e) for e in data["events"])
        except (KeyError, TypeError) as exc:
            raise RecordError(f"malformed chouette record: missing or bad {exc}") from None
        except GinRummyError as exc:
            raise RecordError(f"malformed chouette record: {exc}") from None
        return cls(rules, drawn, events)


def record_of_table(table: ChouetteTable) -> ChouetteRecord:
    return ChouetteRecord(table.rules, table.drawn, table.events)


def replay_table_steps(record: ChouetteRecord) -> Iterator[ChouetteTable]:
    """Every state of a recorded table, from the seat draw to the last event."""
    try:
        table = new_table(record.rules, record.drawn)
    except GinRummyError as exc:
        raise RecordError(f"the seat draw does not replay: {exc}") from None
    yield table
    for i, event in enumerate(record.events, 1):
        try:
            table = apply(table, event)
        except GinRummyError as exc:
            raise RecordError(f"event {i} ({event}) does not replay: {exc}") from None
        yield table


def replay_table(record: ChouetteRecord) -> ChouetteTable:
    """Rebuild a table from its record."""
    table = None
    for table in replay_table_steps(record):  # noqa: B007
        pass
    assert table is not None
    return table
