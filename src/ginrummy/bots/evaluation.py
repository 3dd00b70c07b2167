"""Shared judgement of hands and discards, over 52-bit card masks (``Card.bit``).

- *potential*: how many live cards would turn the loose cards of a hand into melds
  (pairs waiting for a third, two in sequence waiting for an end, a gap to fill);
- *holding odds*: how likely each card is in the opponent's hand, from what it took,
  left and discarded;
- *danger*: how likely a discard helps the opponent to a meld.
"""

from __future__ import annotations

from ginrummy.bots.knowledge import SUIT, Knowledge


def suits(mask: int) -> tuple[int, int, int, int]:
    return mask & SUIT, mask >> 13 & SUIT, mask >> 26 & SUIT, mask >> 39 & SUIT


def potential(loose: int, live: int) -> int:
    """Live cards that would meld with two loose cards (counted once per pair)."""
    lc, ld, lh, ls = suits(loose)
    two = (lc & ld) | (lc & lh) | (lc & ls) | (ld & lh) | (ld & ls) | (lh & ls)
    return (
        (_WANTS[lc] & (live & SUIT) * _TRIPLE).bit_count()
        + (_WANTS[ld] & (live >> 13 & SUIT) * _TRIPLE).bit_count()
        + (_WANTS[lh] & (live >> 26 & SUIT) * _TRIPLE).bit_count()
        + (_WANTS[ls] & (live >> 39 & SUIT) * _TRIPLE).bit_count()
        + (two * _SPREAD & live).bit_count()  # live cards of a rank held loose twice
    )


def _run_wants() -> tuple[tuple[int, int, int], ...]:
    out = []
    for s in range(1 << 13):
        pair = s & (s >> 1)  # r and r+1 held: r-1 or r+2 completes
        gap = s & (s >> 2) & ~(s >> 1)  # r and r+2 held: r+1 completes
        out.append((pair >> 1, (pair << 2) & SUIT, gap << 1))
    return tuple(out)


_RUN_WANTS = _run_wants()
_TRIPLE = 1 | 1 << 13 | 1 << 26
_WANTS = tuple(a | b << 13 | c << 26 for a, b, c in _RUN_WANTS)
"""Per 13-bit loose suit: the three want masks of :func:`_run_wants` side by side, so
that one ``bit_count`` against the live suit copied three times (``* _TRIPLE``) counts
a card once per sequence or gap it completes."""


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
    triple = (c & d & (h | s)) | (h & s & (c | d))
    if not triple:
        lc, ld, lh, ls = _LOOSE[c], _LOOSE[d], _LOOSE[h], _LOOSE[s]
        deadwood = _VALUE[lc] + _VALUE[ld] + _VALUE[lh] + _VALUE[ls]
        return deadwood, lc | ld << 13 | lh << 26 | ls << 39
    # Three of a rank: try every choice of sets; the rest of each suit melds in runs,
    # where taking every sequence of three or more is best.
    best_dw, best_loose = 1 << 30, 0
    for used in _set_choices(mask, triple):
        rest = mask & ~used
        lc = _LOOSE[rest & SUIT]
        ld = _LOOSE[rest >> 13 & SUIT]
        lh = _LOOSE[rest >> 26 & SUIT]
        ls = _LOOSE[rest >> 39 & SUIT]
        deadwood = _VALUE[lc] + _VALUE[ld] + _VALUE[lh] + _VALUE[ls]
        if deadwood < best_dw:
            best_dw, best_loose = deadwood, lc | ld << 13 | lh << 26 | ls << 39
    return best_dw, best_loose


def _set_choices(mask: int, triple: int) -> list[int]:
    """Every combination of sets (none, or three or four cards of each rank in
    ``triple``) as masks of the cards they use."""
    combos = [0]
    while triple:
        low = triple & -triple
        triple ^= low
        rank = low.bit_length() - 1
        combos = [u | option for u in combos for option in _RANK_SETS[rank][mask >> rank & _SPREAD]]
    return combos


_SPREAD = 1 | 1 << 13 | 1 << 26 | 1 << 39


def _rank_sets() -> tuple[dict[int, tuple[int, ...]], ...]:
    """Per rank, for each spread of its cards (bits at 0, 13, 26, 39): the set options."""
    out = []
    for rank in range(13):
        table: dict[int, tuple[int, ...]] = {}
        for present in range(16):
            spread = sum(1 << 13 * k for k in range(4) if present >> k & 1)
            members = [1 << (13 * k + rank) for k in range(4) if present >> k & 1]
            options = [0]
            if len(members) == 3:
                options.append(sum(members))
            elif len(members) == 4:
                for skip in range(4):
                    options.append(sum(m for i, m in enumerate(members) if i != skip))
                options.append(sum(members))
            table[spread] = tuple(options)
        out.append(table)
    return tuple(out)


_RANK_SETS = _rank_sets()


def hand_score(mask: int, live: int, weight: float) -> float:
    """Deadwood less ``weight`` points per live out of the loose cards (lower is better)."""
    deadwood, loose = loose_cards(mask)
    if weight == 0.0 or not deadwood:
        return float(deadwood)
    return deadwood - weight * potential(loose, live)


def discard_scores(hand: int, live: int, weight: float) -> dict[int, tuple[int, float]]:
    """For each card index of ``hand``: (deadwood, :func:`hand_score`) of the hand
    without that card, computed in one pass (only the suit of the card changes)."""
    split = suits(hand)
    c, d, h, s = split
    triple = (c & d & (h | s)) | (h & s & (c | d))
    if not triple:
        return _plain_discard_scores(split, live, weight)
    in_sets = (triple * _SPREAD) & hand  # every card of a rank held three or four times
    runnable = (
        (c & ~_LOOSE[c]) | (d & ~_LOOSE[d]) << 13 | (h & ~_LOOSE[h]) << 26 | (s & ~_LOOSE[s]) << 39
    )
    if in_sets & runnable:
        return _discard_scores_with_sets(hand, triple, live, weight)
    return _fixed_sets_discard_scores(hand, in_sets, live, weight)


def _fixed_sets_discard_scores(
    hand: int, in_sets: int, live: int, weight: float
) -> dict[int, tuple[int, float]]:
    """:func:`discard_scores` when no card of a rank held three or four times lies in
    a sequence of three in its suit. Each set is then best melded whole (a card left
    out could only be loose), so every discard has one best choice of sets: a card
    outside the sets is scored on the rest of the hand (the *core*); a card of a set
    of three leaves its two partners loose; a card of four leaves a set of three."""
    core = hand & ~in_sets
    scored = _plain_discard_scores(suits(core), live, weight)
    deadwood, loose = _loose_of(core)
    bits = in_sets
    while bits:
        low = bits & -bits
        bits ^= low
        rank = (low.bit_length() - 1) % 13
        same = hand & _SPREAD << rank
        extra = same ^ low if same.bit_count() == 3 else 0
        dw = deadwood + _RANK_VALUE[rank] * extra.bit_count()
        if weight == 0.0 or not dw:
            scored[low.bit_length() - 1] = (dw, float(dw))
        else:
            scored[low.bit_length() - 1] = (dw, dw - weight * potential(loose | extra, live))
    return {i: scored[i] for i in sorted(scored)}


def _loose_of(mask: int) -> tuple[int, int]:
    """(deadwood, loose cards) of ``mask`` with runs only."""
    lc, ld = _LOOSE[mask & SUIT], _LOOSE[mask >> 13 & SUIT]
    lh, ls = _LOOSE[mask >> 26 & SUIT], _LOOSE[mask >> 39 & SUIT]
    return _VALUE[lc] + _VALUE[ld] + _VALUE[lh] + _VALUE[ls], lc | ld << 13 | lh << 26 | ls << 39


_RANK_VALUE = tuple(min(r + 1, 10) for r in range(13))


def _discard_scores_with_sets(
    hand: int, triple: int, live: int, weight: float
) -> dict[int, tuple[int, float]]:
    """:func:`discard_scores` for a hand with three cards of a rank. The set choices
    of the hand without a card are those of the hand that do not use the card, in the
    same order, so each discard takes the first best choice as :func:`loose_cards`."""
    tc, td = (live & SUIT) * _TRIPLE, (live >> 13 & SUIT) * _TRIPLE
    th, ts = (live >> 26 & SUIT) * _TRIPLE, (live >> 39 & SUIT) * _TRIPLE
    wants = _WANTS
    choices = []
    for used in _set_choices(hand, triple):
        rest = hand & ~used
        sm = (rest & SUIT, rest >> 13 & SUIT, rest >> 26 & SUIT, rest >> 39 & SUIT)
        loose = [_LOOSE[x] for x in sm]
        values = [_VALUE[x] for x in loose]
        choices.append((used, sm, loose, values, sum(values)))
    out: dict[int, tuple[int, float]] = {}
    bits = hand
    while bits:
        low = bits & -bits
        bits ^= low
        index = low.bit_length() - 1
        k = index // 13
        suit_bit = low >> 13 * k
        best_dw, best_nl, best_loose = 1 << 30, 0, choices[0][2]
        for used, sm, loose, values, total in choices:
            if used & low:
                continue
            nl = _LOOSE[sm[k] & ~suit_bit]
            dw = total - values[k] + _VALUE[nl]
            if dw < best_dw:
                best_dw, best_nl, best_loose = dw, nl, loose
        if weight == 0.0 or not best_dw:
            out[index] = (best_dw, float(best_dw))
            continue
        lc, ld, lh, ls = best_loose
        if k == 0:
            lc = best_nl
        elif k == 1:
            ld = best_nl
        elif k == 2:
            lh = best_nl
        else:
            ls = best_nl
        # potential(), inlined: this is the bots' innermost loop
        two = (lc & ld) | (lc & lh) | (lc & ls) | (ld & lh) | (ld & ls) | (lh & ls)
        pot = (
            (wants[lc] & tc).bit_count()
            + (wants[ld] & td).bit_count()
            + (wants[lh] & th).bit_count()
            + (wants[ls] & ts).bit_count()
            + (two * _SPREAD & live).bit_count()
        )
        out[index] = (best_dw, best_dw - weight * pot)
    return out


def _plain_discard_scores(
    split: tuple[int, int, int, int], live: int, weight: float
) -> dict[int, tuple[int, float]]:
    """:func:`discard_scores` of a hand without three cards of a rank (no sets)."""
    c, d, h, s = split
    lc, ld, lh, ls = _LOOSE[c], _LOOSE[d], _LOOSE[h], _LOOSE[s]
    total = _VALUE[lc] + _VALUE[ld] + _VALUE[lh] + _VALUE[ls]
    out: dict[int, tuple[int, float]] = {}
    if weight == 0.0:
        for off, suit, loose in ((0, c, lc), (13, d, ld), (26, h, lh), (39, s, ls)):
            base = total - _VALUE[loose]
            for r, _, value, _ in _drops(suit):
                out[off + r] = (base + value, float(base + value))
        return out
    tc, td = (live & SUIT) * _TRIPLE, (live >> 13 & SUIT) * _TRIPLE
    th, ts = (live >> 26 & SUIT) * _TRIPLE, (live >> 39 & SUIT) * _TRIPLE
    rc, rd = (_WANTS[lc] & tc).bit_count(), (_WANTS[ld] & td).bit_count()
    rh, rs = (_WANTS[lh] & th).bit_count(), (_WANTS[ls] & ts).bit_count()
    runs = rc + rd + rh + rs
    # Per suit: ranks loose in two / in one of the other three suits.
    cd, hs, both_cd, both_hs = lc | ld, lh | ls, lc & ld, lh & ls
    spread = _SPREAD
    for off, suit, loose, triple_live, base_runs, pairs, union in (
        (0, c, lc, tc, runs - rc, (ld & hs) | both_hs, ld | hs),
        (13, d, ld, td, runs - rd, (lc & hs) | both_hs, lc | hs),
        (26, h, lh, th, runs - rh, (ls & cd) | both_cd, ls | cd),
        (39, s, ls, ts, runs - rs, (lh & cd) | both_cd, lh | cd),
    ):
        base = total - _VALUE[loose]
        for r, nl, value, wants in _drops(suit):
            dw = base + value
            if not dw:
                out[off + r] = (0, 0.0)
                continue
            two = pairs | (nl & union)  # ranks loose in two suits
            pot = base_runs + (wants & triple_live).bit_count() + (two * spread & live).bit_count()
            out[off + r] = (dw, dw - weight * pot)
    return out


_DROPS: dict[int, tuple[tuple[int, int, int, int], ...]] = {}


def _drops(suit: int) -> tuple[tuple[int, int, int, int], ...]:
    """Per card of a 13-bit suit, by rank: (rank, loose cards of the suit without it,
    their value, their wants); a memo over at most 8,192 suits."""
    drops = _DROPS.get(suit)
    if drops is None:
        out = []
        for r in _RANKS[suit]:
            nl = _LOOSE[suit ^ 1 << r]
            out.append((r, nl, _VALUE[nl], _WANTS[nl]))
        drops = _DROPS[suit] = tuple(out)
    return drops


def holding_odds(know: Knowledge, infer: bool) -> list[float]:
    """For each card index, the chance that the opponent holds it."""
    unseen = know.unseen
    known = know.opp_known
    n_unseen = unseen.bit_count()
    base = know.opp_hidden / n_unseen if n_unseen else 0.0
    odds = [0.0] * 52
    ranks = _RANKS
    if known:
        for i in indices(known):
            odds[i] = 1.0
    if not infer or not base:
        for off in (0, 13, 26, 39):
            for r in ranks[unseen >> off & SUIT]:
                odds[off + r] = base
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


def indices(mask: int) -> list[int]:
    """The card indices in ``mask``, in order."""
    out: list[int] = []
    for k in range(4):
        bits = mask >> 13 * k & SUIT
        if bits:
            base = 13 * k
            out.extend([base + r for r in _RANKS[bits]])
    return out


_RANKS = tuple(tuple(r for r in range(13) if m >> r & 1) for m in range(1 << 13))


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
