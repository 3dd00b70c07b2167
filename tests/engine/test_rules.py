"""Rules configurations and presets (docs/rules.md §3-§4): valid ones build, others say why not."""

from __future__ import annotations

import pytest

from ginrummy.engine import PRESETS, AfterVoid, NextDealer, Rules, RulesError, StockRule


def test_presets_have_the_documented_values():
    std = Rules.preset()
    assert std == Rules() == PRESETS["standard"]
    assert (std.target_score, std.knock_limit, std.gin_bonus, std.undercut_bonus) == (
        100,
        10,
        25,
        25,
    )
    assert (std.box_bonus, std.game_bonus, std.shutout_bonus) == (0, 0, 0)
    assert (std.oklahoma, std.spade_doubling, std.big_gin_bonus) == (False, False, None)
    assert (std.next_dealer, std.after_void, std.stock_rule) == (
        NextDealer.ALTERNATE,
        AfterVoid.NEXT,
        StockRule.VOID,
    )
    assert (std.eleven_card_deal, std.move_timer_seconds) == (False, None)
    ok = Rules.preset("oklahoma")
    assert (ok.name, ok.oklahoma, ok.spade_doubling) == ("oklahoma", True, True)
    classic = Rules.preset("classic")
    assert (classic.gin_bonus, classic.undercut_bonus, classic.box_bonus) == (25, 25, 25)
    assert (classic.game_bonus, classic.shutout_bonus) == (100, 100)
    assert Rules.preset("first-to-knock").target_score is None
    assert sorted(PRESETS) == ["classic", "first-to-knock", "oklahoma", "standard"]


def test_overrides_keep_the_preset_name_and_coerce_text_values():
    r = Rules.preset("oklahoma", target_score=50, undercut_bonus=20, after_void="same")
    assert (r.name, r.target_score, r.undercut_bonus, r.after_void) == (
        "oklahoma",
        50,
        20,
        AfterVoid.SAME,
    )
    assert Rules.preset("standard", move_timer_seconds=30).move_timer_seconds == 30
    assert Rules.preset("standard", big_gin_bonus=None).big_gin_bonus is None
    assert Rules.from_dict(r.to_dict()) == r
    assert r.to_dict()["after_void"] == "same"
    assert r.with_(gin_bonus=20).gin_bonus == 20


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"eleven_card_deal": True}, "Oklahoma takes the knock limit from the upcard"),
        ({"target_score": 0}, "target_score must be 1..10000 or null"),
        ({"knock_limit": 31}, "knock_limit must be 0..30, got 31"),
        ({"gin_bonus": -1}, "gin_bonus must be 0..1000, got -1"),
        ({"big_gin_bonus": 1001}, "big_gin_bonus must be 0..1000 or null"),
        ({"move_timer_seconds": 3}, "move_timer_seconds must be 5..600 or null"),
        ({"oklahoma": "yes"}, "oklahoma must be true or false, got 'yes'"),
        ({"knock_limit": "10"}, "knock_limit must be a whole number, got '10'"),
        ({"knock_limit": True}, "knock_limit must be a whole number, got True"),
        ({"next_dealer": "winner"}, "next_dealer must be one of alternate, loser, got 'winner'"),
        ({"colour": "red"}, "unknown rules option(s): colour"),
    ],
)
def test_impossible_configurations_are_rejected_with_a_clear_message(overrides, message):
    with pytest.raises(RulesError) as err:
        Rules.preset("oklahoma", **overrides)
    assert message in str(err.value)


def test_more_impossible_combinations():
    with pytest.raises(RulesError, match="spade doubling is an Oklahoma rule"):
        Rules.preset("standard", spade_doubling=True)
    with pytest.raises(RulesError, match="cannot have a game or shutout bonus"):
        Rules.preset("first-to-knock", game_bonus=100)
    with pytest.raises(RulesError, match="unknown preset 'poker'; choose one of standard"):
        Rules.preset("poker")
    with pytest.raises(RulesError, match="Oklahoma takes the knock limit"):
        Rules(oklahoma=True, eleven_card_deal=True)
    with pytest.raises(RulesError, match="name must be a non-empty string"):
        Rules.from_dict({"name": ""})
    # every problem is named, not just the first
    with pytest.raises(RulesError) as err:
        Rules(knock_limit=-1, undercut_bonus=2000)
    assert "knock_limit" in str(err.value) and "undercut_bonus" in str(err.value)


def test_rules_built_directly_get_the_same_type_checks():
    # Rules(...) and with_(...) bypass from_dict; a text where an option value belongs
    # must not be accepted silently (the match compares with `is NextDealer.LOSER`).
    with pytest.raises(RulesError, match="knock_limit must be a whole number"):
        Rules(knock_limit="10")  # type: ignore[arg-type]
    loser = Rules(next_dealer="loser")  # type: ignore[arg-type]
    assert loser.next_dealer is NextDealer.LOSER
    assert Rules().with_(stock_rule="last_discard").stock_rule is StockRule.LAST_DISCARD
    with pytest.raises(RulesError, match="oklahoma must be true or false"):
        Rules().with_(oklahoma=1)
