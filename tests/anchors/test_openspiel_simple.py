"""The OpenSpiel adapter: its translation and the replay of a round (no OpenSpiel
needed), and whole matches in the arena (skipped unless OpenSpiel is installed; it is
an optional extra, not in the lock)."""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Iterator
from typing import Any

from ginrummy.anchors.openspiel_simple import (
    DRAW_STOCK,
    DRAW_UPCARD,
    KNOCK,
    PASS,
    Memory,
    answer_for,
    card_id,
    card_text,
    differences,
    remember,
    replay,
)
from ginrummy.arena import run
from ginrummy.bots import make_bot
from ginrummy.engine import (
    MatchPhase,
    Rules,
    Seat,
    apply_match,
    deal,
    draw_first_dealer,
    new_match,
    shuffled_deck,
    view_for_seat,
)
from ginrummy.protocol import encode_seat_view


def test_cards_use_openspiels_ids() -> None:
    # OpenSpiel: card id = rank index (A..K) + 13 * suit index (s, c, d, h)
    assert card_id("As") == 0 and card_id("Ac") == 13 and card_id("Ad") == 26
    assert card_id("Kh") == 51
    assert sorted(card_id(card_text(i)) for i in range(52)) == list(range(52))


def test_answers_map_back_to_our_actions() -> None:
    assert answer_for([DRAW_UPCARD], ["take", "pass"]) == ("take", None)
    assert answer_for([PASS], ["take", "pass"]) == ("pass", None)
    assert answer_for([DRAW_UPCARD], ["draw stock"]) == ("draw stock", None)
    assert answer_for([DRAW_STOCK], ["draw stock", "draw discard"]) == ("draw stock", None)
    assert answer_for([KNOCK], ["pass", "draw discard"]) == ("draw discard", None)  # wall
    assert answer_for([card_id("9s")], ["discard 9s", "discard Kd"]) == ("discard 9s", None)
    assert answer_for([KNOCK, card_id("9s")], ["discard 9s", "knock 9s"]) == ("knock 9s", None)
    assert answer_for([KNOCK, card_id("9s")], ["discard 9s", "gin 9s"]) == ("gin 9s", None)
    # OpenSpiel may discard the card just taken; we may not
    action, why = answer_for([card_id("Kd")], ["discard 9s"])
    assert action is None and "Kd" in (why or "")
    action, why = answer_for([KNOCK], ["discard 9s"])
    assert action is None and "knock" in (why or "")
    # An action with no counterpart always says why: the match must not count.
    for opens, legal in [([DRAW_STOCK], ["take", "pass"]), ([DRAW_STOCK], ["pass", "draw discard"]),
                         ([PASS], ["draw stock", "draw discard"])]:  # fmt: skip
        action, why = answer_for(opens, legal)
        assert action is None and why and "no counterpart" in why, (opens, legal, why)


def seat_views(seed: int, rules: Rules) -> Iterator[dict[str, Any]]:
    """Seat two's encoded views of one match between two baseline players."""
    rng = random.Random(seed)
    players = {seat: make_bot("baseline") for seat in (Seat.ONE, Seat.TWO)}
    match = new_match(rules, draw_first_dealer(rng))
    while not match.is_over:
        if match.phase is MatchPhase.DEAL:
            match = deal(match, shuffled_deck(rng))
            continue
        turn = match.turn
        assert turn is not None
        view = view_for_seat(match, turn)
        if turn is Seat.TWO:
            yield encode_seat_view(view)
        match = apply_match(match, players[turn](view, rng))


def test_the_replay_holds_the_view() -> None:
    memory = Memory()
    rules = Rules.preset("standard", stock_rule="last_discard")
    checked = 0
    for view in seat_views(5, rules):
        memory = remember(view, memory)
        me, actions = replay(view, memory)
        assert me == (1 if view["table"]["dealer"] == "two" else 0)
        dealt = actions[:21]
        assert len(set(dealt)) == 21 and dealt[20] == card_id(view["table"]["first_upcard"])
        assert sorted(dealt[me * 10 : me * 10 + 10]) == sorted(map(card_id, memory.dealt))
        # every card of the replay is one card, and ours are where we hold them
        draws = [b for a, b in itertools.pairwise(actions[21:]) if a == DRAW_STOCK]
        assert len(set(dealt) | set(draws)) == 21 + len(draws)
        assert 52 - 21 - len(draws) == view["table"]["stock_size"]
        checked += 1
    assert checked > 20


def test_differences_that_matter_are_reported() -> None:
    def view(**rules: Any) -> dict[str, Any]:
        r = {"eleven_card_deal": False, "oklahoma": False, "stock_rule": "last_discard"}
        table = {"rules": {**r, **rules}, "knock_limit": 10, "rounds": []}
        return {"table": table}

    assert differences(view()) is None
    assert "deal" in (differences(view(eleven_card_deal=True)) or "")
    voided = view(stock_rule="void")
    assert differences(voided) is None
    voided["table"]["rounds"] = [{"result": {"kind": "void"}}]
    assert "stock exhaustion" in (differences(voided) or "")


def test_openspiel_bot_plays_whole_matches_in_the_arena(
    anchor_python: Callable[[str, str], str],
) -> None:
    python = anchor_python("pyspiel", "OpenSpiel is not installed (pip install open_spiel)")
    adapter = f"cmd:{python} -m ginrummy.anchors.openspiel_simple"
    rules = Rules.preset("standard", stock_rule="last_discard")
    summary = run("baseline", adapter, 2, rules, seed=3, timeout=30)
    assert summary["forfeits"] == {"a": 0, "b": 0}, summary["errors"]
    assert summary["uncounted_matches"] == 0, summary["uncounted"]
    assert summary["matches"] == 2 and summary["rounds"] >= 2
    eleven = run("baseline", adapter, 1, rules.with_(eleven_card_deal=True), seed=3, timeout=30)
    assert eleven["uncounted_matches"] == 1 and "deal" in eleven["uncounted"][0]
