"""The tips coach: sound advice from the own hand and the open discard only."""

from __future__ import annotations

import doctest
import random

import pytest

import ginrummy.hints.coach
from bots.helpers import hidden_twin, positions  # shared with the bot tests (tests/ is on the path)
from ginrummy.engine import Action, parse_action, parse_card, parse_cards, view_for_seat
from ginrummy.hints import TEXTS, advise, render


def acts(text: str) -> tuple[Action, ...]:
    return tuple(parse_action(a) for a in text.split(","))


def test_take_the_upcard_that_completes_a_run() -> None:
    hand = parse_cards("5h 6h 2c 9d Kc Qs 3s 4d 8c Jh")
    tip = advise(hand, acts("take,pass"), parse_card("7h"))
    assert tip.action == parse_action("take")
    assert tip.key == "take_completes_meld"
    assert tip.params == {"card": "7h", "meld": "5h 6h 7h", "before": 67, "after": 46}
    assert render(tip, "en") == "Take 7h: it completes 5h 6h 7h, deadwood 67 → 46."
    assert render(tip, "de").startswith("Nimm 7h")


def test_draw_from_the_stock_when_the_discard_makes_no_meld() -> None:
    hand = parse_cards("5h 6h 2c 9d Kc Qs 3s 4d 8c Jh")
    tip = advise(hand, acts("draw stock,draw discard"), parse_card("Ks"))
    assert tip.action == parse_action("draw stock")
    assert tip.key == "draw_stock_no_meld"
    tip = advise(hand, acts("take,pass"), parse_card("Ks"))
    assert tip.action == parse_action("pass")


def test_gin_and_knock_when_legal() -> None:
    hand = parse_cards("5h 6h 7h 2c 2d 2s 9s Ts Js Kd 3c")
    legal = tuple(
        [parse_action(f"discard {c}") for c in hand]
        + [parse_action("gin Kd"), parse_action("knock 3c")]
    )
    tip = advise(hand, legal, None)
    assert (tip.action, tip.key) == (parse_action("gin Kd"), "gin")
    tip = advise(hand, (*legal[:-2], parse_action("knock Kd")), None)
    assert (tip.action, tip.key, tip.params["deadwood"]) == (parse_action("knock Kd"), "knock", 3)


def test_discard_the_card_that_leaves_least_deadwood() -> None:
    hand = parse_cards("5h 6h 7h 2c 2d 9s Ts Kd Qc 3c 4s")
    legal = tuple(parse_action(f"discard {c}") for c in hand)
    tip = advise(hand, legal, None)
    assert tip.action.card in parse_cards("Kd Qc")
    assert tip.key == "discard_loose"


def test_no_decision_no_tip() -> None:
    with pytest.raises(ValueError):
        advise(parse_cards("5h 6h"), (), None)


def test_tips_are_legal_and_have_texts_in_both_languages() -> None:
    for match in positions(6, "baseline"):
        seat = match.turn
        assert seat is not None
        view = view_for_seat(match, seat)
        tip = advise(view.hand, view.legal_actions, view.table.discard_top)
        assert tip.action in view.legal_actions
        for lang in ("de", "en"):
            assert render(tip, lang)
    assert all(set(t) == {"de", "en"} for t in TEXTS.values())


def test_tip_ignores_history_and_the_opponent() -> None:
    """Positions that share the own hand, the legal actions and the open discard get the
    same tip, whatever else differs (here: the opponent's cards and the stock)."""
    shuffle = random.Random(3)
    for match in positions(8, "strong"):
        seat = match.turn
        assert seat is not None
        twin = hidden_twin(match, seat, shuffle)
        a, b = view_for_seat(match, seat), view_for_seat(twin, seat)
        tip = advise(a.hand, a.legal_actions, a.table.discard_top)
        assert tip == advise(b.hand, b.legal_actions, b.table.discard_top)


def test_coach_doctests_pass() -> None:
    result = doctest.testmod(ginrummy.hints.coach, optionflags=doctest.ELLIPSIS)
    assert result.attempted and not result.failed


def test_only_a_pass_on_the_last_discard_is_advised_as_such() -> None:
    # Alternative stock rule: the stock is used up and the last discard may only be
    # passed (it cannot be taken); the one legal choice is advised, not an error.
    hand = parse_cards("2c 5d 9h Js Kc 3s 7d 8c Qh 4h")
    tip = advise(hand, [parse_action("pass")], parse_card("6s"))
    assert (str(tip.action), tip.key) == ("pass", "pass_only")
    assert render(tip, "en").startswith("Pass: the stock is used up")
    assert render(tip, "de").startswith("Pass: Der Vorrat")
