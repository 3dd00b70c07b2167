"""Brute-force oracles written straight from docs/rules.md §1-§3.5.

Nothing here uses the engine's meld, layoff or showdown code: cards are only read for
their rank and suit. Slow on purpose; fine for the hand sizes of gin (10 or 11 cards).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations, pairwise, product

from ginrummy.engine import Card


def value(card: Card) -> int:
    # §1: A = 1, 2-10 face value, J Q K = 10
    return min(card.rank, 10)


def total(cards: Iterable[Card]) -> int:
    return sum(value(c) for c in cards)


def valid_meld(cards: Iterable[Card]) -> bool:
    """§2: a set is 3 or 4 cards of one rank; a run 3+ of one suit in sequence, ace low."""
    cs = list(cards)
    if len(cs) < 3 or len(set(cs)) != len(cs):
        return False
    ranks = sorted(c.rank for c in cs)
    if len(set(ranks)) == 1:
        return len(cs) <= 4
    if len({c.suit for c in cs}) != 1:
        return False
    return all(b == a + 1 for a, b in pairwise(ranks))


@lru_cache(maxsize=4096)
def melds_within(hand: frozenset[Card]) -> tuple[frozenset[Card], ...]:
    """Every subset of the hand that is a valid meld."""
    cards = sorted(hand, key=lambda c: (c.suit, c.rank))
    out = []
    for size in range(3, len(cards) + 1):
        for combo in combinations(cards, size):
            if valid_meld(combo):
                out.append(frozenset(combo))
    return tuple(out)


def families(hand: frozenset[Card]) -> Iterator[tuple[frozenset[Card], ...]]:
    """Every choice of pairwise disjoint melds within the hand, each exactly once."""
    melds = melds_within(hand)
    order = sorted(hand, key=lambda c: (c.suit, c.rank))

    def walk(i: int, free: frozenset[Card], chosen: tuple[frozenset[Card], ...]):
        while i < len(order) and order[i] not in free:
            i += 1
        if i == len(order):
            yield chosen
            return
        card = order[i]
        yield from walk(i + 1, free - {card}, chosen)  # the card stays unmatched
        for meld in melds:
            if card in meld and meld <= free:
                yield from walk(i + 1, free - meld, (*chosen, meld))

    yield from walk(0, hand, ())


def unmatched(hand: frozenset[Card], family: tuple[frozenset[Card], ...]) -> frozenset[Card]:
    covered: frozenset[Card] = frozenset().union(*family) if family else frozenset()
    return hand - covered


@lru_cache(maxsize=4096)
def min_deadwood(hand: frozenset[Card]) -> int:
    """§2: the minimum over every split of the hand into melds and unmatched cards."""
    return min(total(unmatched(hand, f)) for f in families(hand))


def max_layoff(free: frozenset[Card], knocker_melds: tuple[frozenset[Card], ...]) -> int:
    """The most value of ``free`` the defender can add to the knocker's melds (§3.4).

    Each meld may take any subset of the free cards that leaves it a valid meld (this
    includes chains); a card goes to at most one meld.
    """
    options = []
    for meld in knocker_melds:
        ranks = {c.rank for c in meld}
        suits = {c.suit for c in meld}
        fits = [
            c
            for c in free
            if (len(ranks) == 1 and c.rank in ranks) or (len(suits) == 1 and c.suit in suits)
        ]
        extensions = [frozenset()]
        for size in range(1, len(fits) + 1):
            for combo in combinations(fits, size):
                if valid_meld([*meld, *combo]):
                    extensions.append(frozenset(combo))
        options.append(extensions)
    best = 0
    for choice in product(*options):
        seen: set[Card] = set()
        ok = True
        for ext in choice:
            if seen & ext:
                ok = False
                break
            seen |= ext
        if ok:
            best = max(best, total(seen))
    return best


@dataclass(frozen=True)
class Outcome:
    kind: str  # "knock", "gin", "big_gin", "undercut"
    knocker_deadwood: int
    defender_deadwood: int
    points: int
    winner: str  # "knocker" or "defender"


def settle_oracle(
    knocker: Iterable[Card],
    defender: Iterable[Card],
    *,
    knock_limit: int = 10,
    gin_bonus: int = 25,
    undercut_bonus: int = 25,
    big_gin_bonus: int = 0,
    doubled: bool = False,
) -> Outcome | None:
    """The round result by §3.4-§3.5; None when the knocker may not knock."""
    k_hand, d_hand = frozenset(knocker), frozenset(defender)
    mult = 2 if doubled else 1
    if min_deadwood(k_hand) == 0:
        # gin: the defender forms own melds, no layoffs
        d = min_deadwood(d_hand)
        big = len(k_hand) == 11
        bonus = big_gin_bonus if big else gin_bonus
        return Outcome("big_gin" if big else "gin", 0, d, (d + bonus) * mult, "knocker")
    if len(k_hand) == 11:
        return None
    frees = {unmatched(d_hand, f) for f in families(d_hand)}
    best: tuple[tuple[int, int], Outcome] | None = None
    for fam in families(k_hand):
        k = total(unmatched(k_hand, fam))
        if k > knock_limit:
            continue
        d = min(total(free) - max_layoff(free, fam) for free in frees)
        if k < d:
            outcome = Outcome("knock", k, d, (d - k) * mult, "knocker")
            net = d - k
        else:
            outcome = Outcome("undercut", k, d, (k - d + undercut_bonus) * mult, "defender")
            net = -(k - d + undercut_bonus)
        key = (net, -k)
        if best is None or key > best[0]:
            best = (key, outcome)
    return None if best is None else best[1]
