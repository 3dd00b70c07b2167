"""Adapters that let outside gin rummy players sit in ``ginrummy arena`` (issue 21).

Each adapter is a bot-protocol program (docs/bot-protocol.md) that translates our seat
view into the outside library's state, asks the library's own player, and translates
its answer back. The libraries are never vendored: install them with pip
(docs/computer-players.md, "Anchors"). When a rule of the outside game differs from
the rules the arena plays in a way that matters, the adapter says so in its answer
(``"uncounted": "<why>"``) and the arena does not count the match.
"""

from __future__ import annotations

import json
import sys
import zlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, TextIO

from ginrummy.engine.cards import RANK_LETTERS


@dataclass(frozen=True, slots=True)
class CardIds:
    """A library's card ids 0..51: rank + 13 × suit, in the library's order of suits
    (one letter each, as in our card text ``Ts``)."""

    suits: str

    def id(self, card: str) -> int:
        """Our card text (``Ts``) as the library's card id."""
        return RANK_LETTERS.index(card[0]) + 13 * self.suits.index(card[1])

    def text(self, card_id: int) -> str:
        """The library's card id as our card text."""
        return RANK_LETTERS[card_id % 13] + self.suits[card_id // 13]


@dataclass(frozen=True, slots=True)
class Answer:
    """The action text to send and, when a rule of the outside game differed, why."""

    action: str
    uncounted: str | None = None


def void_round_count(view: dict[str, Any]) -> int:
    """Rounds of this match that ended void (stock exhaustion), from the public table."""
    return sum(1 for r in view["table"]["rounds"] if r["result"]["kind"] == "void")


def view_seed(view: dict[str, Any]) -> int:
    """A seed derived from the view alone, so a library's random choices replay exactly
    for the same arena ``--seed``."""
    return zlib.crc32(json.dumps(view, sort_keys=True).encode())


def serve(
    decide: Callable[[dict[str, Any]], Answer],
    lines: Iterable[str] = sys.stdin,
    out: TextIO = sys.stdout,
) -> int:
    """The bot-protocol loop: one answer per ``decide``; ``bye`` ends it."""
    for line in lines:
        message = json.loads(line)
        if message.get("type") == "bye":
            break
        if message.get("type") != "decide":
            continue
        answer = decide(message["view"])
        reply: dict[str, Any] = {"id": message["id"], "action": answer.action}
        if answer.uncounted:
            reply["uncounted"] = answer.uncounted
        out.write(json.dumps(reply) + "\n")
        out.flush()
    return 0
