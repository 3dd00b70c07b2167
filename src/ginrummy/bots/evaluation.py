"""Shared judgement of hands and discards, over 52-bit card masks (``Card.bit``).

- *potential*: how many live cards would turn the loose cards of a hand into melds
  (pairs waiting for a third, two in sequence waiting for an end, a gap to fill);
- *holding odds*: how likely each card is in the opponent's hand, from what it took,
  left and discarded;
- *danger*: how likely a discard helps the opponent to a meld.
"""

from __future__ import annotations

from ginrummy.bots.knowledge import SUIT, Knowledge
from ginrummy.engine.melds import arrangement_of_mask


def suits(mask: int) -> tuple[int, int, int, int]:
    return mask & SUIT, mask >> 13 & SUIT, mask >> 26 & SUIT, mask >> 39 & SUIT


def potential(loose: int, live: int) -> int:
    """Live cards that would meld with two loose cards (counted once per pair)."""
    outs = 0
    lc, ld, lh, ls = suits(loose)
    vc, vd, vh, vs = suits(live)
    for s, v in ((lc, vc), (ld, vd), (lh, vh), (ls, vs)):
        if not s:
            continue
        pair = s & (s >> 1)  # r and r+1 held: r-1 or r+2 completes
        if pair:
            outs += ((pair >> 1) & v).bit_count() + ((pair << 2) & v & SUIT).bit_count()
        gap = s & (s >> 2) & ~(s >> 1)  # r and r+2 held: r+1 completes
        if gap:
            outs += ((gap << 1) & v).bit_count()
    two = (lc & ld) | (lc & lh) | (lc & ls) | (ld & lh) | (ld & ls) | (lh & ls)
    if two:
        outs += (two & vc).bit_count() + (two & vd).bit_count()
        outs += (two & vh).bit_count() + (two & vs).bit_count()
    return outs


def _suit_tables() -> tuple[tuple[int, ...], tuple[int, ...]]:
    values, loose = [], []
    for m in range(1 << 13):
        values.append(sum(min(r + 1, 10) for r in range(13) if m >> r & 1))
        runs = 0
        r = 0
        while r < 13:
            start = r
            while r < 13 and m >> r & 1:
                r += 1
            if r - start >= 3:  # a run: three or more in sequence, ace low
                runs |= ((1 << (r - start)) - 1) << start
            r += 1
        loose.append(m & ~runs)
    return tuple(values), tuple(loose)


_VALUE, _LOOSE = _suit_tables()


def loose_cards(mask: int) -> tuple[int, int]:
    """(deadwood, mask of the unmatched cards) of the best arrangement of ``mask``."""
    c, d, h, s = mask & SUIT, mask >> 13 & SUIT, mask >> 26 & SUIT, mask >> 39 & SUIT
    if (c & d & (h | s)) | (h & s & (c | d)):  # three of a rank: sets to choose
        arr = arrangement_of_mask(mask)
        return arr.deadwood, arr.unmatched_mask
    lc, ld, lh, ls = _LOOSE[c], _LOOSE[d], _LOOSE[h], _LOOSE[s]
    deadwood = _VALUE[lc] + _VALUE[ld] + _VALUE[lh] + _VALUE[ls]
    return deadwood, lc | ld << 13 | lh << 26 | ls << 39


def hand_score(mask: int, live: int, weight: float) -> float:
    """Deadwood less ``weight`` points per live out of the loose cards (lower is better)."""
    deadwood, loose = loose_cards(mask)
    if weight == 0.0 or not deadwood:
        return float(deadwood)
    return deadwood - weight * potential(loose, live)


def holding_odds(know: Knowledge, infer: bool) -> list[float]:
    """For each card index, the chance that the opponent holds it."""
    odds = [0.0] * 52
    unseen = know.unseen
    n_unseen = unseen.bit_count()
    for i in range(52):
        if know.opp_known >> i & 1:
            odds[i] = 1.0
    if not n_unseen or not know.opp_hidden:
        return odds
    base = know.opp_hidden / n_unseen
    if not infer:
        for i in range(52):
            if unseen >> i & 1:
                odds[i] = base
        return odds
    weights = [0.0] * 52
    total = 0.0
    picks, left = know.opp_known, know.opp_discarded | know.opp_passed
    for i in range(52):
        if not unseen >> i & 1:
            continue
        w = 1.0
        near = neighbours(i)
        if near & picks:
            w *= 1.8  # melds with a card it took: likely kept for that meld
        if near & left:
            w *= 0.55  # next to a card it left or threw away: likely not wanted
        weights[i] = w
        total += w
    scale = know.opp_hidden / total
    for i in range(52):
        if weights[i]:
            odds[i] = min(0.95, weights[i] * scale)
    return odds


def neighbours(i: int) -> int:
    """The cards that share a meld with card ``i``: same rank, or one or two away in suit."""
    return _NEIGHBOURS[i]


def _makeneighbours() -> tuple[int, ...]:
    out = []
    for i in range(52):
        suit, rank = divmod(i, 13)
        m = 0
        for s in range(4):
            if s != suit:
                m |= 1 << (s * 13 + rank)
        for d in (-2, -1, 1, 2):
            if 0 <= rank + d < 13:
                m |= 1 << (suit * 13 + rank + d)
        out.append(m)
    return tuple(out)


_NEIGHBOURS = _makeneighbours()


def _make_partner_pairs() -> tuple[tuple[tuple[int, int], ...], ...]:
    out = []
    for i in range(52):
        suit, rank = divmod(i, 13)
        others = [s * 13 + rank for s in range(4) if s != suit]
        pairs = [(others[0], others[1]), (others[0], others[2]), (others[1], others[2])]
        for lo, hi in ((-2, -1), (-1, 1), (1, 2)):
            if rank + lo >= 0 and rank + hi < 13:
                pairs.append((suit * 13 + rank + lo, suit * 13 + rank + hi))
        out.append(tuple(pairs))
    return tuple(out)


PARTNERS = _make_partner_pairs()
"""For each card index, the pairs of cards that make a meld with it."""


def danger(index: int, odds: list[float]) -> float:
    """Chance-weighted count of the opponent's ways to meld the card ``index``."""
    total = 0.0
    for a, b in PARTNERS[index]:
        total += odds[a] * odds[b]
    return total
