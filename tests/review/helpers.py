"""Records to review: bot matches from a fixed seed, and explicit scenarios."""

from __future__ import annotations

from ginrummy.benchmarks.review import bot_match as benchmark_match
from ginrummy.engine import DECK, MatchRecord, RoundRecord, Rules, Seat, parse_action, parse_cards
from ginrummy.review import Budget

# Small budgets keep the suite fast; the judgements are still real rollouts.
TINY = Budget(samples=3, screen=1, keep=2, confirm=2)


def bot_match(
    seed: int, one: str = "expert", two: str = "strong", rules: Rules | None = None
) -> MatchRecord:
    """A match between two bots, everything derived from ``seed`` (the benchmark's)."""
    return benchmark_match(one, two, seed, rules)


def first_rounds(record: MatchRecord, n: int) -> MatchRecord:
    return MatchRecord(record.rules, record.first_dealer, record.rounds[:n])


# Seat one (non-dealer) is dealt   3c 4c 5c | 7d 7h 7s | 9s Ts Js | Kd   (deadwood 10)
# Seat two is dealt                Ac 2d 4h 6h 8h Jh Kh 2s 5s Ks
ONE = "3c 4c 5c 7d 7h 7s 9s Ts Js Kd"
TWO = "Ac 2d 4h 6h 8h Jh Kh 2s 5s Ks"


def scenario(upcard: str, stock_top: str, actions: str) -> MatchRecord:
    """A one-round match from the hands above, the first upcard, the top of the stock
    and the actions (comma-separated), seat two dealing."""
    front = parse_cards(f"{ONE} {TWO} {upcard} {stock_top}")
    deck = front + tuple(c for c in DECK if c not in front)
    played = tuple(parse_action(a) for a in actions.split(", "))
    return MatchRecord(Rules.preset("standard"), Seat.TWO, (RoundRecord(deck, Seat.TWO, played),))
