"""A sample external bot for the gin rummy bot protocol (docs/bot-protocol.md).

Reads one JSON object per line on stdin; answers each ``decide`` request with one
JSON line ``{"id": ..., "action": ...}`` on stdout. Standard library only. Its play:
take the open discard only when it makes a meld with two cards of the hand, discard
the highest card that has no partner, knock or go gin as soon as it may.

    ginrummy arena --a "cmd:python examples/sample_bot.py" --b baseline --matches 10
"""

from __future__ import annotations

import json
import sys

RANKS = "A23456789TJQK"


def value(card: str) -> int:
    return min(RANKS.index(card[0]) + 1, 10)


def partners(card: str, hand: list[str]) -> int:
    """Cards of the hand that could share a meld with ``card``."""
    rank, suit = RANKS.index(card[0]), card[1]
    n = 0
    for other in hand:
        if other == card:
            continue
        o_rank, o_suit = RANKS.index(other[0]), other[1]
        if o_rank == rank or (o_suit == suit and abs(o_rank - rank) <= 2):
            n += 1
    return n


def makes_meld(card: str, hand: list[str]) -> bool:
    rank, suit = RANKS.index(card[0]), card[1]
    same_rank = sum(1 for c in hand if RANKS.index(c[0]) == rank)
    ranks = {RANKS.index(c[0]) for c in hand if c[1] == suit}
    run = any({rank + a, rank + b} <= ranks for a, b in ((-2, -1), (-1, 1), (1, 2)))
    return same_rank >= 2 or run


def decide(view: dict) -> str:
    legal: list[str] = view["legal_actions"]
    hand: list[str] = view["hand"]
    pile: list[str] = view["table"]["discard_pile"]
    for prefix in ("big gin", "gin ", "knock "):
        ends = [a for a in legal if a.startswith(prefix)]
        if ends:
            return ends[0]
    top = pile[-1] if pile else None
    if "take" in legal:
        return "take" if top and makes_meld(top, hand) else "pass"
    if "draw stock" in legal or "draw discard" in legal:
        if "draw discard" in legal and top and makes_meld(top, hand):
            return "draw discard"
        return "draw stock" if "draw stock" in legal else legal[0]
    discards = [a for a in legal if a.startswith("discard ")]
    if not discards:
        return legal[0]
    unmatched = [a for a in discards if partners(a.split()[1], hand) == 0]
    pool = unmatched or discards
    return max(pool, key=lambda a: value(a.split()[1]))


def main() -> int:
    for line in sys.stdin:
        message = json.loads(line)
        if message.get("type") == "decide":
            answer = {"id": message["id"], "action": decide(message["view"])}
            sys.stdout.write(json.dumps(answer) + "\n")
            sys.stdout.flush()
        elif message.get("type") == "bye":
            break
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
