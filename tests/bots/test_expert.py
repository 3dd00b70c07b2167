"""The expert level: inference, the undercut check on knocks, the last turns."""

from __future__ import annotations

import random
from dataclasses import replace

from ginrummy.bots import LEVELS, make_bot
from ginrummy.bots.evaluation import danger
from ginrummy.bots.expert import EXPERT, PLAN, Expert
from ginrummy.bots.heuristic import Player
from ginrummy.engine import ActionKind, Phase, view_for_seat

from .helpers import positions
from .test_expert_model import index, knowledge


def test_expert_infers_from_what_the_opponent_took() -> None:
    know = knowledge("2c 3c 4c 9d 9h Ks Qs Jd 5h 6h", known="7s", discarded="Kh")
    odds = Expert().odds(know)
    plain = Player(EXPERT).odds(know)
    assert odds is not None and plain is not None
    assert plain[index("8s")] == plain[index("Kd")]
    assert odds[index("8s")] > odds[index("Kd")]


def test_expert_throws_safe_cards_near_the_wall() -> None:
    hand = "2c 3c 4c 9d 9h Ks Qs Jd 5h 6h 8s"
    expert = Expert()
    early = knowledge(hand, known="7s 7d", discarded="Kh")
    late = replace(early, stock_size=PLAN.wall)
    plain = Player(EXPERT)
    for know, extra in ((early, 0.0), (late, PLAN.wall_danger)):
        odds = expert.odds(know)
        assert odds is not None
        base = plain.scores(know.hand, know, odds)
        scored = expert.scores(know.hand, know, odds)
        for i, (dw, score) in scored.items():
            assert dw == base[i][0]
            assert abs(score - base[i][1] - extra * danger(i, odds)) < 1e-9
    # The 8s melds with the 7s the opponent holds: near the wall it is kept back.
    odds = expert.odds(late)
    assert odds is not None
    assert danger(index("8s"), odds) > danger(index("Ks"), odds)


def test_expert_drops_some_knocks_the_table_allows() -> None:
    """The undercut check over sampled hands turns down some knocks, and only it does."""
    expert = Expert()
    unchecked = Expert(plan=replace(PLAN, samples=0))
    fearless = Expert(plan=replace(PLAN, veto=1.01))  # samples, but never plays on
    declined = made = 0
    for seed in range(6):
        for match in positions(seed, "expert"):
            seat = match.turn
            assert seat is not None
            view = view_for_seat(match, seat)
            kinds = {a.kind for a in view.legal_actions}
            if ActionKind.KNOCK not in kinds or ActionKind.GIN in kinds:
                continue
            if unchecked(view, random.Random(0)).kind is not ActionKind.KNOCK:
                continue  # the stock table says play on
            assert fearless(view, random.Random(0)).kind is ActionKind.KNOCK
            if expert(view, random.Random(0)).kind is ActionKind.KNOCK:
                made += 1
            else:
                declined += 1
    assert made > 0 and declined > 0


def test_a_bot_never_takes_back_its_own_discard() -> None:
    """Two experts each taking the other's discard near the wall played on for ever
    (seed 5 of the test positions); a bot now draws from the stock instead."""
    from ginrummy.bots.heuristic import threw_top
    from ginrummy.bots.knowledge import read

    mattered = 0
    for level in ("expert", "strong"):
        bot = make_bot(level)
        for seed in range(6):
            for match in positions(seed, level):
                seat = match.turn
                assert seat is not None
                view = view_for_seat(match, seat)
                if match.round is None or not threw_top(view):
                    continue
                if view.table.round_phase is not Phase.DRAW:
                    continue
                assert bot(view, random.Random(0)).kind is ActionKind.DRAW_STOCK
                player = Expert() if level == "expert" else LEVELS[level].choose
                mattered += bool(player.wants_top(view, read(view)))  # type: ignore[attr-defined]
    assert mattered > 0
