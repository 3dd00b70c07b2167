"""The showdown after a knock and the points of a round (docs/rules.md §3.4, §3.5).

The knocker's arrangement is chosen among all arrangements within the knock limit to
maximise the knocker's net result given the defender's best reply; the defender's own
melds and layoffs are chosen together to minimise the defender's deadwood.

>>> from ginrummy.engine.cards import parse_cards
>>> from ginrummy.engine.rules import Rules
>>> r = settle(parse_cards("4c 4d 4h 7s 8s 9s Ac As 6c 2d"),
...            parse_cards("Kc Qd Jh 7c Ad Ah 2c 2h 3d 6s"), Rules())
>>> r.kind.value, r.knocker_deadwood, r.defender_deadwood, r.points
('knock', 10, 46, 36)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from ginrummy.engine.cards import Card, check_distinct, from_mask, to_mask
from ginrummy.engine.errors import HandSizeError, NotAKnockError
from ginrummy.engine.melds import (
    Arrangement,
    Meld,
    arrangement_of_mask,
    meld_choices,
    value_of_mask,
)
from ginrummy.engine.rules import Rules


class ShowdownKind(StrEnum):
    KNOCK = "knock"
    GIN = "gin"
    BIG_GIN = "big_gin"
    UNDERCUT = "undercut"


class Side(StrEnum):
    KNOCKER = "knocker"
    DEFENDER = "defender"


@dataclass(frozen=True, slots=True)
class Layoff:
    """A defender's card added to one of the knocker's melds (``onto`` as laid out)."""

    card: Card
    onto: Meld


@dataclass(frozen=True, slots=True)
class Showdown:
    """Everything a score line needs: both arrangements, the layoffs, the points."""

    kind: ShowdownKind
    knocker: Arrangement
    defender: Arrangement  # the defender's own melds; its unmatched cards include the layoffs
    layoffs: tuple[Layoff, ...]
    knocker_deadwood: int
    defender_deadwood: int  # after layoffs
    winner: Side
    base_points: int  # difference (or D for gin), before bonus and doubling
    bonus: int  # gin / big gin / undercut bonus
    multiplier: int  # 2 when Oklahoma spade doubling applies
    points: int  # (base_points + bonus) * multiplier, to the winner

    @property
    def defender_deadwood_cards(self) -> tuple[Card, ...]:
        laid = to_mask(lo.card for lo in self.layoffs)
        return tuple(c for c in self.defender.unmatched if not c.bit & laid)


# Where cards can be laid off: per knocker run (meld, lowest index, highest index, the
# first index of its suit), then per knocker set of three (meld, the missing card).
_Targets = tuple[tuple[tuple[int, int, int, int], ...], tuple[tuple[int, int], ...]]


def _targets(knocker_melds: tuple[int, ...]) -> _Targets:
    runs: list[tuple[int, int, int, int]] = []
    sets: list[tuple[int, int]] = []
    for meld in knocker_melds:
        lo = (meld & -meld).bit_length() - 1
        if meld >> lo & 0b11 == 0b11 and lo % 13 <= 11:  # a run (see Meld.kind)
            runs.append((meld, lo, meld.bit_length() - 1, lo - lo % 13))
        elif meld.bit_count() == 3:
            rank_bits = (0x8004002001 << lo % 13) & ((1 << 52) - 1)
            sets.append((meld, rank_bits & ~meld))
    return tuple(runs), tuple(sets)


def _lay(unmatched: int, targets: _Targets) -> list[tuple[int, int]]:
    """Lay off every card of ``unmatched`` that fits (card bit, meld mask), chains included.

    Laying off never hurts the defender, and the cards that can be laid off form a
    closure: every card chained to an end of a knocker run, then the fourth card of a
    knocker set. Runs go first: a card that fits both a run and a set can carry a chain
    on the run.
    """
    out: list[tuple[int, int]] = []
    free = unmatched
    runs, sets = targets
    for meld, lo, hi, suit_base in runs:
        k = hi + 1
        while k < suit_base + 13 and free >> k & 1:
            out.append((1 << k, meld))
            free ^= 1 << k
            k += 1
        k = lo - 1
        while k >= suit_base and free >> k & 1:
            out.append((1 << k, meld))
            free ^= 1 << k
            k -= 1
    for meld, missing in sets:
        if free & missing:
            out.append((missing, meld))
            free ^= missing
    return out


def defender_reply(
    defender_mask: int, knocker_melds: tuple[int, ...]
) -> tuple[Arrangement, tuple[tuple[int, int], ...], int]:
    """The defender's melds and layoffs that minimise the defender's deadwood."""
    return _reply(_defender_arrangements(defender_mask), knocker_melds)


def _reply(
    options: tuple[tuple[int, tuple[int, ...], int], ...], knocker_melds: tuple[int, ...]
) -> tuple[Arrangement, tuple[tuple[int, int], ...], int]:
    """:func:`defender_reply` over the defender's (deadwood, melds, unmatched cards)."""
    targets = _targets(knocker_melds)
    best: tuple[int, tuple[int, ...], tuple[tuple[int, int], ...], int] | None = None
    for own_deadwood, melds, unmatched in options:
        lays = _lay(unmatched, targets)
        laid = 0
        for bit, _ in lays:
            laid |= bit
        deadwood = own_deadwood - value_of_mask(laid)
        if best is None or deadwood < best[3]:
            best = (own_deadwood, melds, tuple(lays), deadwood)
    assert best is not None  # the empty arrangement is always there
    own_deadwood, melds, lays_made, deadwood = best
    hand = options[0][2]  # the first choice melds nothing: every card is unmatched
    return Arrangement(hand, 0, own_deadwood, melds), lays_made, deadwood


def _defender_arrangements(mask: int) -> tuple[tuple[int, tuple[int, ...], int], ...]:
    # Only arrangements that are not strictly contained in another matter for the
    # defender only when layoffs differ, so all are kept; the list is short in practice.
    out = []
    for deadwood, melds in meld_choices(mask):
        unmatched = mask
        for meld in melds:
            unmatched &= ~meld
        out.append((deadwood, melds, unmatched))
    return tuple(out)


def settle(
    knocker: Sequence[Card],
    defender: Sequence[Card],
    rules: Rules,
    *,
    knock_limit: int | None = None,
    doubled: bool = False,
) -> Showdown:
    """Score a knock: ``knocker`` is the knocker's hand after the knock discard (10 cards;
    11 for Big Gin), ``defender`` the defender's 10 cards.

    Raises ``NotAKnockError`` if the knocker's deadwood is above the knock limit
    (``knock_limit`` overrides ``rules.knock_limit``, e.g. for Oklahoma).
    """
    check_distinct([*knocker, *defender])
    if len(knocker) not in (10, 11) or (len(knocker) == 11 and rules.big_gin_bonus is None):
        raise HandSizeError(
            f"the knocker must hold 10 cards after the knock discard, got {len(knocker)}"
            + (" (Big Gin with 11 is off in these rules)" if len(knocker) == 11 else "")
        )
    if len(defender) != 10:
        raise HandSizeError(f"the defender must hold 10 cards, got {len(defender)}")
    limit = rules.knock_limit if knock_limit is None else knock_limit
    k_mask, d_mask = to_mask(knocker), to_mask(defender)
    best = arrangement_of_mask(k_mask)
    multiplier = 2 if doubled else 1
    if len(knocker) == 11 and best.deadwood != 0:
        raise NotAKnockError(f"Big Gin needs all 11 cards melded; deadwood is {best.deadwood}")
    if best.deadwood == 0:
        # Gin: no layoffs (docs/rules.md §3.4); the defender only forms own melds.
        d_arr = arrangement_of_mask(d_mask)
        big = len(knocker) == 11
        bonus = (rules.big_gin_bonus or 0) if big else rules.gin_bonus
        return Showdown(
            kind=ShowdownKind.BIG_GIN if big else ShowdownKind.GIN,
            knocker=best,
            defender=d_arr,
            layoffs=(),
            knocker_deadwood=0,
            defender_deadwood=d_arr.deadwood,
            winner=Side.KNOCKER,
            base_points=d_arr.deadwood,
            bonus=bonus,
            multiplier=multiplier,
            points=(d_arr.deadwood + bonus) * multiplier,
        )
    if best.deadwood > limit:
        raise NotAKnockError(
            f"cannot knock: deadwood {best.deadwood} is above the knock limit {limit}"
            + (" (gin only)" if limit == 0 else "")
        )
    chosen: tuple[int, Arrangement, tuple[tuple[int, int], ...], int, Arrangement] | None = None
    d_options = _defender_arrangements(d_mask)  # the same for every knocker arrangement
    for k_deadwood, k_melds in meld_choices(k_mask):
        if k_deadwood > limit:
            continue
        d_arr, lays, d_dw = _reply(d_options, k_melds)
        k_arr = Arrangement(k_mask, 0, k_deadwood, k_melds)
        net = d_dw - k_arr.deadwood if k_arr.deadwood < d_dw else -(k_arr.deadwood - d_dw)
        key = (net, -k_arr.deadwood)
        if chosen is None or key > (chosen[0], -chosen[4].deadwood):
            chosen = (net, d_arr, lays, d_dw, k_arr)
    assert chosen is not None  # the optimal arrangement is within the limit
    _, d_arr, lays, d_dw, k_arr = chosen
    layoffs = tuple(Layoff(from_mask(bit)[0], Meld(meld)) for bit, meld in lays)
    k_dw = k_arr.deadwood
    if k_dw < d_dw:
        kind, winner, base, bonus = ShowdownKind.KNOCK, Side.KNOCKER, d_dw - k_dw, 0
    else:
        kind, winner, base, bonus = (
            ShowdownKind.UNDERCUT,
            Side.DEFENDER,
            k_dw - d_dw,
            rules.undercut_bonus,
        )
    return Showdown(
        kind=kind,
        knocker=k_arr,
        defender=d_arr,
        layoffs=layoffs,
        knocker_deadwood=k_dw,
        defender_deadwood=d_dw,
        winner=winner,
        base_points=base,
        bonus=bonus,
        multiplier=multiplier,
        points=(base + bonus) * multiplier,
    )


__all__ = ["Layoff", "Showdown", "ShowdownKind", "Side", "defender_reply", "settle"]
