"""The master level: legal, deterministic, blind to hidden cards, within its budget."""

from __future__ import annotations

import random
from collections.abc import Iterator
from itertools import islice

import pytest

from ginrummy.bots import LEVELS, PLAYABLE, PortableRandom, make_bot
from ginrummy.bots.expert import EXPERT, Expert
from ginrummy.bots.master import Master, MasterPlan, Search
from ginrummy.engine import (
    ActionKind,
    MatchState,
    Phase,
    Rules,
    SeatView,
    parse_action,
    view_for_seat,
)
from ginrummy.engine.melds import deadwood_of_mask

from .helpers import hidden_twin, positions

QUICK = Master(MasterPlan(worlds=3))  # the same procedure on fewer worlds: fast tests


def views(seed: int, level: str = "expert", rules: Rules | None = None) -> Iterator[SeatView]:
    for match in positions(seed, level, rules):
        seat = match.turn
        assert seat is not None
        yield view_for_seat(match, seat)


def choices(view: SeatView) -> bool:
    """A decision with more than one legal action (one the search may look at)."""
    return len(view.legal_actions) > 1


def test_master_is_a_heavy_level_offered_at_the_top_of_the_ladder() -> None:
    assert "master" in LEVELS and "master" in PLAYABLE
    assert LEVELS["master"].offered
    assert [k for k, lv in LEVELS.items() if lv.offered][-1] == "master"  # the strongest
    assert LEVELS["master"].heavy  # the server thinks it in its worker processes
    assert make_bot("master") is LEVELS["master"].choose


@pytest.mark.parametrize("preset", ["standard", "oklahoma"])
def test_master_returns_a_legal_action_in_every_position(preset: str) -> None:
    for seed in range(2):
        for i, view in enumerate(views(seed, "casual", Rules.preset(preset))):
            if i % 3:
                continue
            assert QUICK(view, PortableRandom(i)) in view.legal_actions


def test_master_is_legal_under_the_last_discard_rule_and_big_gin() -> None:
    # test_bots.py plays every other level under these rules; master on fewer worlds here
    # (random players reach the last discard often).
    rules = Rules.preset("standard", stock_rule="last_discard", big_gin_bonus=31)
    last = 0
    for i, view in enumerate(views(2, "random", rules)):
        if view.table.round_phase is Phase.LAST_DISCARD or i % 400 == 0:
            last += view.table.round_phase is Phase.LAST_DISCARD
            assert QUICK(view, PortableRandom(i)) in view.legal_actions
        if last == 12:
            break
    assert last == 12


def test_master_with_its_own_plan_decides_legally() -> None:
    master = make_bot("master")
    asked = 0
    for i, view in enumerate(views(3)):
        if i % 9 or not choices(view):
            continue
        assert master(view, PortableRandom(i)) in view.legal_actions
        asked += 1
        if asked == 6:
            break
    assert asked == 6


def test_master_is_deterministic_for_a_seed() -> None:
    picked = [v for i, v in enumerate(views(5)) if choices(v) and i % 4 == 0][:12]
    first = [QUICK(v, PortableRandom(i)) for i, v in enumerate(picked)]
    again = [Master(MasterPlan(worlds=3))(v, PortableRandom(i)) for i, v in enumerate(picked)]
    assert first == again
    view = picked[1]
    candidates = QUICK.candidates(view, Expert()(view, PortableRandom(0)))
    searches = [QUICK.search(view, candidates, PortableRandom(9)) for _ in range(2)]
    assert searches[0] == searches[1] and searches[0].worlds == 3


def test_master_takes_one_draw_from_the_games_generator() -> None:
    view = next(v for v in views(2) if choices(v))
    rng, twin = PortableRandom(4), PortableRandom(4)
    QUICK(view, rng)
    twin.getrandbits(64)
    assert rng.getstate() == twin.getstate()


def test_hidden_cards_do_not_change_the_decision() -> None:
    shuffle = random.Random(11)
    checked = 0
    for i, match in enumerate(positions(4, "strong")):
        seat = match.turn
        assert seat is not None
        view = view_for_seat(match, seat)
        if i % 3 or not choices(view):
            continue
        twin = hidden_twin(match, seat, shuffle)
        assert _hidden(twin, seat) != _hidden(match, seat)
        twin_view = view_for_seat(twin, seat)
        assert view == twin_view
        assert QUICK(twin_view, PortableRandom(i)) == QUICK(view, PortableRandom(i))
        checked += 1
    assert checked > 10


def _hidden(match: MatchState, seat: object) -> object:
    rnd = match.round
    assert rnd is not None
    return rnd.hands, rnd.stock


def test_master_takes_gin_when_gin_is_there() -> None:
    gins = 0
    for seed in range(8):
        for i, view in enumerate(views(seed)):
            if any(a.kind is ActionKind.GIN for a in view.legal_actions):
                assert QUICK(view, PortableRandom(i)).kind is ActionKind.GIN
                gins += 1
    assert gins >= 2


@pytest.mark.parametrize("preset", ["standard", "oklahoma"])
def test_master_knocks_within_the_knock_limit(preset: str) -> None:
    knocks = 0
    for seed in range(3):
        for i, view in enumerate(views(seed, "expert", Rules.preset(preset))):
            if view.table.round_phase is not Phase.DISCARD:
                continue
            if not any(a.kind is ActionKind.KNOCK for a in view.legal_actions):
                continue
            action = QUICK(view, PortableRandom(i))
            if action.kind is ActionKind.KNOCK:
                assert action.card is not None
                hand = sum(c.bit for c in view.hand) & ~action.card.bit
                assert deadwood_of_mask(hand) <= view.table.knock_limit
                knocks += 1
    assert knocks > 0


def test_a_spent_budget_gives_the_experts_choice_or_the_best_so_far() -> None:
    broke = Master(MasterPlan(budget=0))
    tight = Master(MasterPlan(budget=40))
    expert = broke.expert  # its base: the learned discard (bots/learned.py)
    for i, view in enumerate(islice((v for v in views(6) if choices(v)), 0, 40, 4)):
        local = PortableRandom(PortableRandom(i).getrandbits(64))  # as the master seeds it
        assert broke(view, PortableRandom(i)) == expert(view, local)
        assert tight(view, PortableRandom(i)) in view.legal_actions
        candidates = tight.candidates(view, view.legal_actions[0])
        search = tight.search(view, candidates, PortableRandom(i))
        assert search.moves <= 40


def test_a_switch_is_checked_on_fresh_worlds_and_stands_or_falls_back() -> None:
    """Where one search would leave the expert's choice, the check on fresh worlds keeps
    that pick or returns to the expert's choice, never a third action; both happen."""
    once = Master(MasterPlan(verify=0))
    checked = Master(MasterPlan(verify=2))
    expert = once.expert  # its base: the learned discard (bots/learned.py)
    kept = reverted = 0
    for i, view in enumerate(islice((v for v in views(8) if choices(v)), 80)):
        local = PortableRandom(PortableRandom(i).getrandbits(64))  # as the master seeds it
        choice = expert(view, local)
        pick = once(view, PortableRandom(i))
        final = checked(view, PortableRandom(i))
        assert final in (pick, choice)
        if pick != choice:
            kept += final == pick
            reverted += final != pick
    assert kept and reverted, (kept, reverted)


def test_the_check_spends_what_the_first_search_left_of_the_budget() -> None:
    master = Master(MasterPlan(worlds=6, budget=400))
    found: list[Search] = []
    master.searches = found
    checks = 0
    for i, view in enumerate(islice((v for v in views(9) if choices(v)), 60)):
        found.clear()
        assert master(view, PortableRandom(i)) in view.legal_actions
        spent = [s.moves for s in found]
        assert sum(spent) <= 400, spent
        checks += len(spent) > 1
    assert checks


def test_the_expert_choice_stands_unless_a_candidate_is_clearly_better() -> None:
    take, stock = parse_action("draw discard"), parse_action("draw stock")
    noisy = Search((take, stock), ((0, 30, -30, 0), (30, 0, 0, -30)), 0)
    assert noisy.best(margin=1.0, sure=1.0) == take  # a mean gain of 0, however spread
    clear = Search((take, stock), ((0, 0, 0, 0), (5, 4, 6, 5)), 0)
    assert clear.best(margin=1.0, sure=1.0) == stock
    small = Search((take, stock), ((0, 0, 0, 0), (1, 1, 1, 1)), 0)
    assert small.best(margin=1.0, sure=1.0) == take  # a gain within the margin
    assert Search((take, stock), (), 0).best(1.0, 1.0) == take  # no world played


def test_a_plan_is_checked() -> None:
    for bad in (
        {"worlds": 0},
        {"discards": 0},
        {"budget": -1},
        {"worlds": 14, "particles": 4},
        {"late_knock": -1},
        {"late_knock": 11},
        {"verify": -1},
    ):
        with pytest.raises(ValueError):
            MasterPlan(**bad)  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        Master(MasterPlan(particles=0))  # the belief it samples with is checked too


def test_a_belief_of_particles_changes_what_the_master_plays() -> None:
    """The filtered belief draws other worlds, so some searches decide otherwise."""
    plain = Master(MasterPlan(worlds=6, improve=3, particles=1))
    filtered = Master(MasterPlan(worlds=6, improve=3, particles=4))
    differ = asked = 0
    for i, view in enumerate(views(5)):
        if not choices(view) or asked == 40:
            continue
        a, b = plain(view, PortableRandom(i)), filtered(view, PortableRandom(i))
        assert b in view.legal_actions
        differ += a != b
        asked += 1
    assert asked == 40 and differ > 0


def test_the_late_knock_is_the_rollout_players_last_knock_step_and_changes_searches() -> None:
    """``late_knock`` is the most deadwood the rollouts' player knocks with below 4 stock
    cards; the rest of its knock table is the expert's, and its knocks change rollouts."""
    assert Master(MasterPlan(late_knock=10)).rollout.style.knock == EXPERT.knock
    assert Master().rollout.style.knock == (*EXPERT.knock[:-1], (0, 5))  # the level's
    tight = Master(MasterPlan(worlds=6, late_knock=3))
    assert tight.rollout.style.knock == (*EXPERT.knock[:-1], (0, 3))
    plain = Master(MasterPlan(worlds=6))
    differ = searched = 0
    for i, view in enumerate(views(6)):
        if not choices(view) or view.table.stock_size > 8 or searched == 30:
            continue
        choice = plain.expert(view, PortableRandom(i))
        candidates = plain.candidates(view, choice)
        if len(candidates) < 2:
            continue
        searched += 1
        a = plain.search(view, candidates, PortableRandom(i)).points
        b = tight.search(view, candidates, PortableRandom(i)).points
        differ += a != b
    assert searched > 5 and differ > 0, (searched, differ)
