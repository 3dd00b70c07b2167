"""The RLCard adapter: its translation (no RLCard needed) and whole matches in the arena
(skipped unless RLCard is installed; it is an optional extra, not in the lock)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ginrummy.anchors.rlcard_novice import (
    DECLARE_DEAD_HAND,
    DISCARD,
    DRAW_CARD,
    GIN,
    KNOCK,
    PICK_UP_DISCARD,
    card_id,
    card_text,
    differences,
    first_upcard_or_pass,
    observation,
    rlcard_actions,
)
from ginrummy.arena import run
from ginrummy.engine import Rules


def test_cards_use_rlcards_ids() -> None:
    # RLCard: card id = rank index (A..K) + 13 * suit index (S, H, D, C)
    assert card_id("As") == 0 and card_id("Ks") == 12
    assert card_id("Ah") == 13 and card_id("Td") == 35 and card_id("Kc") == 51
    assert sorted(card_id(card_text(i)) for i in range(52)) == list(range(52))


def test_actions_map_both_ways() -> None:
    legal = ["discard 2h", "knock 7c", "draw stock"]
    assert rlcard_actions(legal) == {
        DISCARD + 14: "discard 2h",
        KNOCK + 45: "knock 7c",
        DRAW_CARD: "draw stock",
    }
    assert rlcard_actions(["draw stock", "draw discard"]) == {
        DRAW_CARD: "draw stock",
        PICK_UP_DISCARD: "draw discard",
    }
    # RLCard offers only its gin action (no card) when gin is possible
    assert rlcard_actions(["discard 9s", "knock 9s", "gin 9s", "gin Ts"]) == {GIN: "gin 9s"}
    # at the wall (stock_rule last_discard): pass is RLCard's dead hand
    assert rlcard_actions(["pass", "draw discard"]) == {
        DECLARE_DEAD_HAND: "pass",
        PICK_UP_DISCARD: "draw discard",
    }
    assert first_upcard_or_pass(["take", "pass"]) == {PICK_UP_DISCARD: "take", DRAW_CARD: "pass"}
    assert first_upcard_or_pass(["draw stock"]) == {}


def view(eleven: bool = True, knock_limit: int = 10, voids: int = 0) -> dict[str, Any]:
    rules = {"eleven_card_deal": eleven, "oklahoma": False}
    rounds = [{"result": {"kind": "void"}}] * voids + [{"result": {"kind": "knock"}}]
    table = {
        "rules": rules,
        "knock_limit": knock_limit,
        "discard_pile": ["2c", "9h"],
        "known": {"one": ["Qd"], "two": []},
        "rounds": rounds,
    }
    return {"seat": "two", "hand": ["As", "Kc"], "table": table}


def test_differences_that_matter_are_reported() -> None:
    assert differences(view()) is None
    assert "deal" in (differences(view(eleven=False)) or "")
    assert "knock limit" in (differences(view(knock_limit=7)) or "")
    assert "stock exhaustion" in (differences(view(voids=1)) or "")


def test_observation_planes() -> None:
    planes = observation(view())
    assert [i for i in range(52) if planes[0][i]] == [0, 51]  # hand
    assert [i for i in range(52) if planes[1][i]] == [card_id("9h")]  # top discard
    assert [i for i in range(52) if planes[2][i]] == [card_id("2c")]  # rest of the pile
    assert [i for i in range(52) if planes[3][i]] == [card_id("Qd")]  # opponent's known
    assert sum(planes[4]) == 52 - 5  # unknown


def test_rlcard_agent_plays_whole_matches_in_the_arena(
    anchor_python: Callable[[str, str], str],
) -> None:
    python = anchor_python("rlcard", "RLCard is not installed (pip install rlcard)")
    adapter = f"cmd:{python} -m ginrummy.anchors.rlcard_novice"
    rules = Rules.preset("standard", eleven_card_deal=True, stock_rule="last_discard")
    summary = run("baseline", adapter, 2, rules, seed=2, timeout=30)
    assert summary["forfeits"] == {"a": 0, "b": 0}, summary["errors"]
    assert summary["matches"] + summary["uncounted_matches"] == 2
    assert summary["rounds"] >= 2
    again = run("baseline", adapter, 2, rules, seed=2, timeout=30)
    assert again == summary  # the agent's random choices are seeded from the view
    standard = run("baseline", adapter, 1, Rules(), seed=2, timeout=30)
    assert standard["uncounted_matches"] == 1 and "deal" in standard["uncounted"][0]
