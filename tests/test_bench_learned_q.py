"""bench/learned_q.py: its features hold the expert's own discard score, and its player
plays by the weights it is given (bench/RESULTS.md, "Master: a discard value learned
from true outcomes")."""

from __future__ import annotations

import json
import sys
from itertools import islice
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[1] / "bench"
sys.path.insert(0, str(BENCH))

from learned_q import (  # noqa: E402
    DRAW_NAMES,
    NAMES,
    Learned,
    _collect,
    _positions,
    _seated,
    expert_weights,
)
from master_gains import expert_play  # noqa: E402

from ginrummy.bots.expert import Expert  # noqa: E402
from ginrummy.bots.portable import PortableRandom  # noqa: E402
from ginrummy.bots.simple import choose_baseline  # noqa: E402
from ginrummy.engine import ActionKind, Seat  # noqa: E402

DECISIONS = 600


def _compare(player: Learned) -> tuple[int, int]:
    """(decisions where ``player`` and the expert differ, discard decisions seen) over
    the first ``DECISIONS`` decisions of seeded expert-against-expert play; every
    action of ``player`` legal."""
    expert = Expert()
    differ = discards = 0
    for k, (view, _match, _action, _players) in enumerate(
        islice(expert_play("test-learned-q", 1), DECISIONS)
    ):
        mine = player(view, PortableRandom(k))
        theirs = expert(view, PortableRandom(k))
        assert mine in view.legal_actions
        discards += theirs.kind is ActionKind.DISCARD
        differ += mine != theirs
    return differ, discards


def test_the_expert_score_as_weights_discards_as_the_expert() -> None:
    differ, discards = _compare(Learned(expert_weights()))
    assert discards > 100
    assert differ == 0


def test_the_learned_weights_change_some_discards_and_stay_legal() -> None:
    shipped = json.loads((BENCH / "learned_q.json").read_text())
    assert shipped["names"] == NAMES
    differ, discards = _compare(Learned(shipped["weights"]))
    assert 0 < differ < discards


def test_a_lighter_danger_weight_changes_discards() -> None:
    differ, _ = _compare(Learned(expert_weights(danger=1.0)))
    assert differ > 0


def test_weights_of_the_wrong_length_are_refused() -> None:
    with pytest.raises(ValueError, match="a discard needs 12 weights, not 2"):
        Learned([1.0, 2.0])
    with pytest.raises(ValueError, match="a draw needs 9 weights, not 12"):
        Learned(None, expert_weights())


def test_against_the_simple_player_its_seat_plays_by_it_in_the_matches_and_playouts() -> None:
    """``collect --opponent baseline``: seat two is the simple player in the matches the
    positions come from and in the playouts that value them."""
    expert, judge = Expert(), _seated(Expert(), choose_baseline)
    seats = set()
    for k, (view, _match, action, _players) in enumerate(
        islice(expert_play("test-learned-q", 1, choose_baseline), 300)
    ):
        simple = choose_baseline(view, PortableRandom(k))
        if view.seat is Seat.TWO:
            assert action == simple
        assert judge(view, PortableRandom(k)) == (
            simple if view.seat is Seat.TWO else expert(view, PortableRandom(k))
        )
        seats.add(view.seat)
    assert seats == {Seat.ONE, Seat.TWO}
    rows, values, groups = _collect(("discard", 1, 3, 1, "baseline"))
    assert len(set(groups)) == 3
    assert len(rows) == len(values) == len(groups) > 3


@pytest.mark.parametrize("kind", ["discard", "draw"])
def test_positions_come_from_both_seats_against_the_expert_from_seat_one_against_the_simple(
    kind: str,
) -> None:
    """Against the expert every seat's decisions count, all the way through (a draw
    position once made later positions seat one's only); against the simple player
    seat one's only. Each position's candidates are legal and distinct, a row of features each."""
    for opponent, wanted in (("expert", {Seat.ONE, Seat.TWO}), ("baseline", {Seat.ONE})):
        found = list(islice(_positions(kind, 1, opponent), 60))
        assert {view.seat for view, *_ in found} == wanted
        assert {view.seat for view, *_ in found[30:]} == wanted
        for view, _match, actions, rows in found:
            assert len(actions) == len(rows) >= 2 and len(set(actions)) == len(actions)
            assert all(a in view.legal_actions for a in actions)
            assert len(rows[0]) == len(NAMES if kind == "discard" else DRAW_NAMES)
            if kind == "discard":
                assert all(a.kind is ActionKind.DISCARD for a in actions)


@pytest.mark.parametrize("path", sorted(BENCH.glob("learned_q*.json")), ids=lambda p: p.name)
def test_every_weights_file_names_its_features_and_plays(path: Path) -> None:
    """Each weights file of the bench (the level's, and those measured beside it) is a
    discard's or a draw's, a weight per feature, and a player takes it."""
    data = json.loads(path.read_text())
    assert data["names"] in (NAMES, DRAW_NAMES)
    assert len(data["weights"]) == len(data["names"])
    assert all(isinstance(w, float) for w in data["weights"])
    if data["names"] == NAMES:
        Learned(data["weights"])
    else:
        Learned(None, data["weights"])
