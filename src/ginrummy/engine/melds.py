"""Meld maths over cards: arrangements, deadwood, best discards, layoffs (docs/rules.md §2, §3.4).

Pure functions, no game state. Hands are handled as 52-bit masks (``Card.bit``), one
13-bit field per suit. The key fact that makes it fast: once the sets are chosen, the
best way to cover the rest of a suit with runs is to take every maximal sequence of
three or more cards whole (card values are positive). So an optimal arrangement is a
choice of sets (for each rank held three or four times: none, all, or three of four)
plus per-suit table look-ups. Random hands rarely hold three of a rank, so the usual
cost is eight table look-ups.

>>> from ginrummy.engine.cards import parse_cards
>>> a = best_arrangement(parse_cards("7h 8h 9h Tc Td Ts 2c 3d 4s Kh"))
>>> a.deadwood, [str(m) for m in a.melds], [str(c) for c in a.unmatched]
(19, ['Tc Td Ts', '7h 8h 9h'], ['2c', '3d', '4s', 'Kh'])
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from enum import StrEnum
from itertools import product
from operator import attrgetter

from ginrummy.engine.cards import Card, Suit, card_from_index, from_mask, to_mask
from ginrummy.engine.errors import DuplicateCardError

SUIT_MASK = 0x1FFF
_BIT = attrgetter("bit")
_RANK_VALUE = tuple(min(r + 1, 10) for r in range(13))  # by 0-based rank


def _suit_tables() -> tuple[tuple[int, ...], tuple[int, ...], tuple[tuple[int, ...], ...]]:
    values: list[int] = []
    covers: list[int] = []
    segments: list[tuple[int, ...]] = []
    for m in range(1 << 13):
        values.append(sum(_RANK_VALUE[r] for r in range(13) if m >> r & 1))
        segs: list[int] = []
        r = 0
        while r < 13:
            if m >> r & 1:
                start = r
                while r < 13 and m >> r & 1:
                    r += 1
                if r - start >= 3:  # a run is three or more in sequence; ace low only
                    segs.append(((1 << (r - start)) - 1) << start)
            else:
                r += 1
        segments.append(tuple(segs))
        covers.append(sum(_seg_value(seg) for seg in segs))
    return tuple(values), tuple(covers), tuple(segments)


def _seg_value(seg: int) -> int:
    return sum(_RANK_VALUE[r] for r in range(13) if seg >> r & 1)


SUIT_VALUE, RUN_COVER, RUN_SEGMENTS = _suit_tables()
"""Per 13-bit suit mask: value of the cards, value covered by runs, the runs (as masks)."""
IN_RUN = tuple(sum(segs) for segs in RUN_SEGMENTS)
"""Per 13-bit suit mask: the ranks that lie in a sequence of three or more."""
SUIT_DEADWOOD = tuple(v - r for v, r in zip(SUIT_VALUE, RUN_COVER, strict=True))
"""Per 13-bit suit mask: deadwood when only runs are formed in that suit."""


class MeldKind(StrEnum):
    SET = "set"
    RUN = "run"


@dataclass(frozen=True, slots=True)
class Meld:
    """A set (3-4 of a rank) or a run (3+ in sequence, one suit, ace low)."""

    mask: int

    @property
    def cards(self) -> tuple[Card, ...]:
        cards = from_mask(self.mask)
        return tuple(sorted(cards, key=lambda c: (c.rank, c.suit)))

    @property
    def kind(self) -> MeldKind:
        low = (self.mask & -self.mask).bit_length() - 1
        return MeldKind.RUN if self.mask >> low & 0b11 == 0b11 and low % 13 <= 11 else MeldKind.SET

    @property
    def value(self) -> int:
        return sum(c.value for c in from_mask(self.mask))

    def __str__(self) -> str:
        return " ".join(str(c) for c in self.cards)

    def __len__(self) -> int:
        return self.mask.bit_count()


def is_meld(cards: Iterable[Card]) -> bool:
    """True for a valid set or run (docs/rules.md §2). ``Q-K-A`` is not a run; ``A-2-3`` is."""
    cs = list(cards)
    if len(cs) < 3 or len({c.index for c in cs}) != len(cs):
        return False
    if len({c.rank for c in cs}) == 1:
        return len(cs) <= 4
    if len({c.suit for c in cs}) != 1:
        return False
    ranks = sorted(c.rank for c in cs)
    return ranks == list(range(ranks[0], ranks[0] + len(ranks)))


class Arrangement:
    """A split of a hand into melds and unmatched cards; ``deadwood`` is the unmatched value.

    Built from the hand mask and the mask of its cards in sets (the runs follow from
    those); ``meld_masks`` is worked out on first use.
    """

    __slots__ = ("_melds", "deadwood", "mask", "set_mask")

    def __init__(
        self, mask: int, set_mask: int, deadwood: int, melds: tuple[int, ...] | None = None
    ) -> None:
        self.mask = mask
        self.set_mask = set_mask
        self.deadwood = deadwood
        self._melds = melds

    @property
    def meld_masks(self) -> tuple[int, ...]:
        if self._melds is None:
            self._melds = _sets_in(self.set_mask) + _runs_of(self.mask & ~self.set_mask)
        return self._melds

    @property
    def melds(self) -> tuple[Meld, ...]:
        return tuple(Meld(m) for m in self.meld_masks)

    @property
    def unmatched_mask(self) -> int:
        covered = 0
        for m in self.meld_masks:
            covered |= m
        return self.mask & ~covered

    @property
    def unmatched(self) -> tuple[Card, ...]:
        return tuple(sorted(from_mask(self.unmatched_mask), key=lambda c: (c.rank, c.suit)))

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Arrangement)
            and self.mask == other.mask
            and set(self.meld_masks) == set(other.meld_masks)
        )

    def __hash__(self) -> int:
        return hash((self.mask, frozenset(self.meld_masks)))

    def __repr__(self) -> str:
        melds = " | ".join(str(m) for m in self.melds)
        rest = " ".join(str(c) for c in self.unmatched)
        return f"Arrangement([{melds}] deadwood {self.deadwood}: {rest})"


def _split(mask: int) -> tuple[int, int, int, int]:
    return mask & SUIT_MASK, mask >> 13 & SUIT_MASK, mask >> 26 & SUIT_MASK, mask >> 39


def _ranks_held_three_times(c: int, d: int, h: int, s: int) -> int:
    return (c & d & (h | s)) | (h & s & (c | d))


def _set_options(
    c: int, d: int, h: int, s: int, three: int, runnable: int
) -> list[tuple[int, ...]]:
    """Per rank held three or four times, the set choices worth trying, as card masks.

    In general: no set, a set of all of them, or (four held) a set of three leaving one
    out for a run. A card that lies in no sequence of three in its suit can never be in
    a run, so leaving it out of the set only adds deadwood: those choices are skipped
    (and "no set" too when no card of the rank can be in a run). ``runnable``: the cards
    of these ranks that lie in a sequence of three in their suit.
    """
    options: list[tuple[int, ...]] = []
    while three:
        low = three & -three
        three ^= low
        full = (
            (low if c & low else 0)
            | (low << 13 if d & low else 0)
            | (low << 26 if h & low else 0)
            | (low << 39 if s & low else 0)
        )
        free = full & runnable  # cards of this rank that could be in a run instead
        if not free:
            options.append((full,))
        elif full.bit_count() == 4:
            singles = []
            while free:
                bit = free & -free
                free ^= bit
                singles.append(full ^ bit)
            options.append((0, full, *singles))
        else:
            options.append((0, full))
    return options


def _best_sets(mask: int, c: int, d: int, h: int, s: int, three: int) -> tuple[int, int]:
    """(deadwood, mask of the cards in sets) of the best choice of sets; ties: first found."""
    dw_table = SUIT_DEADWOOD
    runnable = (
        (IN_RUN[c] & three)
        | (IN_RUN[d] & three) << 13
        | (IN_RUN[h] & three) << 26
        | (IN_RUN[s] & three) << 39
    )
    if not runnable:
        # No card of these ranks can be in a run: every set is melded whole (the one
        # choice ``_set_options`` offers), the most common case by far.
        sets = (three | three << 13 | three << 26 | three << 39) & mask
        rest = mask & ~sets
        dw = (
            dw_table[rest & SUIT_MASK]
            + dw_table[rest >> 13 & SUIT_MASK]
            + dw_table[rest >> 26 & SUIT_MASK]
            + dw_table[rest >> 39]
        )
        return dw, sets
    best_dw, best_sets = 1 << 30, 0
    for combo in product(*_set_options(c, d, h, s, three, runnable)):
        sets = sum(combo)  # the parts are disjoint, so their sum is their union
        rest = mask & ~sets
        dw = (
            dw_table[rest & SUIT_MASK]
            + dw_table[rest >> 13 & SUIT_MASK]
            + dw_table[rest >> 26 & SUIT_MASK]
            + dw_table[rest >> 39]
        )
        if dw < best_dw:
            best_dw, best_sets = dw, sets
    return best_dw, best_sets


_DEADWOOD_CACHE: dict[int, int] = {}
_CACHE_LIMIT = 1 << 18


def clear_caches() -> None:
    """Forget memoised results (benchmarks use it to measure computation, not look-ups)."""
    _DEADWOOD_CACHE.clear()


def deadwood_of_mask(mask: int) -> int:
    """Minimum deadwood of the cards in ``mask``."""
    # The suit split is written out here and in arrangement_of_mask on purpose: this
    # is the engine's hottest path, and a helper call costs more than the work.
    c = mask & SUIT_MASK
    d = mask >> 13 & SUIT_MASK
    h = mask >> 26 & SUIT_MASK
    s = mask >> 39
    three = (c & d & (h | s)) | (h & s & (c | d))
    if not three:
        return SUIT_DEADWOOD[c] + SUIT_DEADWOOD[d] + SUIT_DEADWOOD[h] + SUIT_DEADWOOD[s]
    cached = _DEADWOOD_CACHE.get(mask)
    if cached is None:
        if len(_DEADWOOD_CACHE) >= _CACHE_LIMIT:
            _DEADWOOD_CACHE.clear()  # a bounded memo; results never change
        cached = _DEADWOOD_CACHE[mask] = _best_sets(mask, c, d, h, s, three)[0]
    return cached


def discard_deadwoods(mask: int) -> list[tuple[int, int]]:
    """(card index, deadwood of the other cards) for each card of ``mask``, in index
    order: the deadwood left by each discard (docs/rules.md §3.3).

    Only the discarded card's suit changes, so the other suits are summed once. With
    three cards of a rank that cannot be in a run, the sets are melded whole in every
    part of the hand too: a discard from a set of three leaves two loose cards, one
    from four leaves a set of three, any other discard leaves the sets alone."""
    c = mask & SUIT_MASK
    d = mask >> 13 & SUIT_MASK
    h = mask >> 26 & SUIT_MASK
    s = mask >> 39
    three = (c & d & (h | s)) | (h & s & (c | d))
    table = SUIT_DEADWOOD
    sets = (three | three << 13 | three << 26 | three << 39) & mask
    out: list[tuple[int, int]] = []
    if sets & (IN_RUN[c] | IN_RUN[d] << 13 | IN_RUN[h] << 26 | IN_RUN[s] << 39):
        bits = mask
        while bits:
            low = bits & -bits
            bits ^= low
            out.append((low.bit_length() - 1, deadwood_of_mask(mask ^ low)))
        return out
    core = mask & ~sets
    suits = (core & SUIT_MASK, core >> 13 & SUIT_MASK, core >> 26 & SUIT_MASK, core >> 39)
    total = table[suits[0]] + table[suits[1]] + table[suits[2]] + table[suits[3]]
    for k in range(4):
        offset = 13 * k
        rest = total - table[suits[k]]
        for r, left in _drops(suits[k]):
            out.append((offset + r, rest + left))  # left: the suit without the card
    if not sets:
        return out
    while sets:
        low = sets & -sets
        sets ^= low
        index = low.bit_length() - 1
        r = index % 13
        three_left = (mask & 0x8004002001 << r).bit_count() == 4
        out.append((index, total if three_left else total + 2 * _RANK_VALUE[r]))
    out.sort()
    return out


_DROPS: dict[int, tuple[tuple[int, int], ...]] = {}


def _drops(suit: int) -> tuple[tuple[int, int], ...]:
    """Per card of a 13-bit suit: (rank, run deadwood of the suit without it); a memo
    over at most 8,192 suits."""
    drops = _DROPS.get(suit)
    if drops is None:
        ranks = [r for r in range(13) if suit >> r & 1]
        drops = _DROPS[suit] = tuple((r, SUIT_DEADWOOD[suit ^ 1 << r]) for r in ranks)
    return drops


def _runs_of(mask: int) -> tuple[int, ...]:
    runs: list[int] = []
    for k, suit in enumerate(_split(mask)):
        runs.extend(seg << (13 * k) for seg in RUN_SEGMENTS[suit])
    return tuple(runs)


def _sets_in(set_mask: int) -> tuple[int, ...]:
    out = []
    for r in range(13):
        group = set_mask & (0x8004002001 << r)
        if group:
            out.append(group)
    return tuple(out)


def arrangement_of_mask(mask: int) -> Arrangement:
    """The optimal arrangement of ``mask``; ties resolved by a fixed enumeration order."""
    c = mask & SUIT_MASK
    d = mask >> 13 & SUIT_MASK
    h = mask >> 26 & SUIT_MASK
    s = mask >> 39
    three = (c & d & (h | s)) | (h & s & (c | d))
    if not three:
        dw = SUIT_DEADWOOD[c] + SUIT_DEADWOOD[d] + SUIT_DEADWOOD[h] + SUIT_DEADWOOD[s]
        return Arrangement(mask, 0, dw)
    dw, sets = _best_sets(mask, c, d, h, s, three)
    return Arrangement(mask, sets, dw)


def best_arrangement(cards: Iterable[Card]) -> Arrangement:
    """The arrangement of a hand with minimum deadwood (any number of distinct cards)."""
    try:
        n = len(cards)  # type: ignore[arg-type]
    except TypeError:
        cards = tuple(cards)
        n = len(cards)
    mask = sum(map(_BIT, cards))
    if mask.bit_count() != n or mask >> 52:
        raise DuplicateCardError("a hand may not hold the same card twice")
    return arrangement_of_mask(mask)


def hand_deadwood(cards: Iterable[Card]) -> int:
    return deadwood_of_mask(to_mask(cards))


@dataclass(frozen=True, slots=True)
class DiscardOption:
    card: Card
    deadwood: int  # deadwood of the ten cards kept


def best_discards(cards: Iterable[Card]) -> tuple[DiscardOption, ...]:
    """Every discard of a hand with the deadwood left, best first (ties: canonical order)."""
    options = [DiscardOption(card_from_index(i), dw) for i, dw in discard_deadwoods(to_mask(cards))]
    return tuple(sorted(options, key=lambda o: (o.deadwood, -o.card.value, o.card.index)))


# --- every meld and every arrangement (for the showdown) -------------------------------


def melds_in_mask(mask: int) -> tuple[int, ...]:
    """Every possible meld (as a mask) within ``mask``: all sets and all sub-runs."""
    c, d, h, s = _split(mask)
    suits = (c, d, h, s)
    out: list[int] = []
    three = _ranks_held_three_times(c, d, h, s)
    while three:
        low = three & -three
        three ^= low
        full = sum(low << (13 * k) for k in range(4) if suits[k] & low)
        out.append(full)
        if full.bit_count() == 4:
            out.extend(full ^ (low << (13 * k)) for k in range(4))
    for k, suit in enumerate(suits):
        for seg in RUN_SEGMENTS[suit]:
            lo = (seg & -seg).bit_length() - 1
            hi = seg.bit_length()  # exclusive
            for a in range(lo, hi - 2):
                for b in range(a + 3, hi + 1):
                    out.append((((1 << (b - a)) - 1) << a) << (13 * k))
    return tuple(out)


def all_arrangements(mask: int) -> Iterator[Arrangement]:
    """Every way to choose pairwise disjoint melds in ``mask`` (the empty choice included)."""
    for deadwood, melds in meld_choices(mask):
        yield Arrangement(mask, 0, deadwood, melds)


def meld_choices(mask: int) -> list[tuple[int, tuple[int, ...]]]:
    """(deadwood, melds) of :func:`all_arrangements`, in the same order: a depth-first
    walk over the melds of :func:`melds_in_mask`, each choice before its extensions."""
    melds = melds_in_mask(mask)
    values = [value_of_mask(m) for m in melds]
    n = len(melds)
    out: list[tuple[int, tuple[int, ...]]] = []
    stack: list[tuple[int, int, tuple[int, ...], int]] = [(0, 0, (), value_of_mask(mask))]
    while stack:
        start, used, chosen, deadwood = stack.pop()
        out.append((deadwood, chosen))
        for i in range(n - 1, start - 1, -1):  # pushed last first: popped in order
            if not melds[i] & used:
                stack.append((i + 1, used | melds[i], (*chosen, melds[i]), deadwood - values[i]))
    return out


def value_of_mask(mask: int) -> int:
    """The card values of ``mask`` added up."""
    return (
        SUIT_VALUE[mask & SUIT_MASK]
        + SUIT_VALUE[mask >> 13 & SUIT_MASK]
        + SUIT_VALUE[mask >> 26 & SUIT_MASK]
        + SUIT_VALUE[mask >> 39]
    )


def meld_of(cards: Iterable[Card]) -> Meld:
    return Meld(to_mask(cards))


def card_at(suit: Suit, rank: int) -> Card:
    return card_from_index(int(suit) * 13 + rank - 1)
