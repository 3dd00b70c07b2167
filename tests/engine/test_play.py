"""Random matches under every preset and a few option mixes: invariants at every step."""

from __future__ import annotations

import dataclasses
import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from ginrummy.engine import (
    DECK,
    Action,
    ActionKind,
    Arrangement,
    Card,
    MatchPhase,
    MatchRecord,
    Meld,
    Phase,
    PublicMove,
    Rules,
    Seat,
    legal_actions,
    record_of,
    replay_match,
    view_for_seat,
    view_for_spectator,
)
from ginrummy.engine.cards import from_mask
from ginrummy.engine.round import is_legal

from .helpers import random_match

RULESETS = [
    Rules.preset("standard", target_score=40),
    Rules.preset("oklahoma", target_score=40),
    Rules.preset("classic", target_score=40),
    Rules.preset("first-to-knock"),
    Rules.preset(
        "standard",
        target_score=30,
        eleven_card_deal=True,
        next_dealer="loser",
        after_void="same",
        big_gin_bonus=31,
    ),
    Rules.preset(
        "standard", target_score=30, stock_rule="last_discard", big_gin_bonus=6, knock_limit=5
    ),
    Rules.preset("oklahoma", target_score=30, big_gin_bonus=50, undercut_bonus=10),
]

PLAIN_ACTIONS = [Action(k) for k in ActionKind if not k.takes_card]


_FIELDS: dict[type, tuple[str, ...] | None] = {}


def _fields_of(cls: type) -> tuple[str, ...] | None:
    if cls not in _FIELDS:
        _FIELDS[cls] = (
            tuple(f.name for f in dataclasses.fields(cls))
            if dataclasses.is_dataclass(cls)
            else None
        )
    return _FIELDS[cls]


def cards_in(obj, out=None, skip=frozenset({"rounds", "rules"})):
    """Every card a view holds, walking dataclasses, tuples, melds and arrangements.

    ``TableView.rounds`` (finished rounds, public once over) is skipped: its cards are
    dealt again in later rounds.
    """
    if out is None:
        out = set()
    if obj is None or isinstance(obj, int | str):
        return out
    if isinstance(obj, Card):
        out.add(obj)
    elif isinstance(obj, PublicMove | Action):
        if obj.card is not None:
            out.add(obj.card)
    elif isinstance(obj, Arrangement):
        out.update(from_mask(obj.mask))
        for m in obj.meld_masks:
            out.update(from_mask(m))
    elif isinstance(obj, Meld):
        out.update(obj.cards)
    elif isinstance(obj, tuple | list | frozenset | set):
        for item in obj:
            cards_in(item, out, skip)
    else:
        names = _fields_of(type(obj))
        assert names is not None, type(obj)
        for name in names:
            if name not in skip:
                cards_in(getattr(obj, name), out, skip)
    return out


def check_round(rnd) -> None:
    hands = [rnd.hands.one, rnd.hands.two]
    all_cards = [*from_mask(hands[0]), *from_mask(hands[1]), *rnd.stock, *rnd.discard_pile]
    if rnd.knock_discard is not None:
        all_cards.append(rnd.knock_discard)
    assert sorted(all_cards) == list(DECK)  # 52 cards, each once
    sizes = {s: rnd.hands[s].bit_count() for s in Seat}
    turn = rnd.turn
    if rnd.phase is Phase.DISCARD:
        assert (sizes[turn], sizes[turn.other]) == (11, 10)
    elif rnd.phase is Phase.OVER:
        r = rnd.result
        if r.knocker is not None:
            big = r.kind.value == "big_gin"
            assert (sizes[r.knocker], sizes[r.knocker.other]) == (11 if big else 10, 10)
            assert (rnd.knock_discard is None) == big
        else:
            assert sizes == {Seat.ONE: 10, Seat.TWO: 10}
    else:
        assert sizes == {Seat.ONE: 10, Seat.TWO: 10}
    assert len(rnd.stock) >= 2
    assert (rnd.known.one & ~rnd.hands.one, rnd.known.two & ~rnd.hands.two) == (0, 0)


def check_legal(rnd, rng) -> None:
    legal = set(legal_actions(rnd))
    assert bool(legal) == (rnd.phase is not Phase.OVER)
    cards = [*rnd.hand(rnd.turn), *rnd.discard_pile[-1:], rng.choice(DECK)]
    candidates = PLAIN_ACTIONS + [Action(k, c) for k in ActionKind if k.takes_card for c in cards]
    for a in candidates:
        assert is_legal(rnd, a) == (a in legal), (str(a), rnd.phase)


def check_views(match) -> None:
    rnd = match.round
    stock = set(rnd.stock) if rnd is not None else set()
    over = rnd is None or rnd.phase is Phase.OVER
    knock_discard = rnd.knock_discard if rnd is not None else None
    if knock_discard is not None:
        public = {a.card for _, a in rnd.history if a.kind is ActionKind.DISCARD}
        if knock_discard in public or knock_discard is rnd.first_upcard:
            knock_discard = None  # seen face up earlier this round: no secret to keep
    for seat in Seat:
        view = view_for_seat(match, seat)
        seen = set(cards_in(view))
        hidden = set(stock)
        if rnd is not None and not over:
            other = rnd.hands[seat.other] & ~rnd.known[seat.other]
            hidden |= set(from_mask(other))
        if knock_discard is not None and rnd.result.knocker is not seat:
            hidden.add(knock_discard)
            assert view.knock_discard is None
            assert all(mv.card is None for mv in view.moves if mv.kind is not ActionKind.DISCARD)
        assert not seen & hidden, (seat, sorted(seen & hidden))
        if rnd is not None:
            assert set(view.hand) == set(rnd.hand(seat))
            assert view.to_act == (match.turn is seat)
    seen = set(cards_in(view_for_spectator(match)))
    hidden = set(stock)
    if rnd is not None and not over:
        hidden |= set(
            from_mask((rnd.hands.one & ~rnd.known.one) | (rnd.hands.two & ~rnd.known.two))
        )
    if knock_discard is not None:
        hidden.add(knock_discard)
    assert not seen & hidden, sorted(seen & hidden)


def check_replay(match) -> None:
    data = json.loads(json.dumps(record_of(match).to_dict()))
    assert replay_match(MatchRecord.from_dict(data)) == match


@settings(max_examples=14, deadline=None)
@given(st.sampled_from(RULESETS), st.integers(0, 2**32 - 1))
def test_random_matches_keep_every_invariant(rules, seed):
    rng = random.Random(seed)
    last = None
    for match in random_match(rules, rng):
        last = match
        if match.round is not None:
            check_round(match.round)
            if match.phase is MatchPhase.ROUND:
                check_legal(match.round, rng)
        check_views(match)
        if rng.random() < 0.02:
            check_replay(match)
    check_replay(last)
    if last.is_over:
        r = last.result
        if rules.target_score is not None:
            assert r.round_points[r.winner] >= rules.target_score
        assert r.totals[r.winner] == (
            r.round_points[r.winner]
            + r.box_bonus[r.winner]
            + r.game_bonus[r.winner]
            + r.shutout_bonus[r.winner]
        )
    assert sum(sr.result.points for sr in last.rounds) == last.scores.one + last.scores.two
