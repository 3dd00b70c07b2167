"""Cards, actions and seats: values, text notation, parsers and their errors (docs/rules.md §1)."""

from __future__ import annotations

import copy
import pickle

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ginrummy.engine import (
    DECK,
    Action,
    ActionKind,
    ActionParseError,
    Card,
    CardParseError,
    DuplicateCardError,
    GinRummyError,
    IllegalActionError,
    Pair,
    Seat,
    Suit,
    cards_text,
    parse_action,
    parse_card,
    parse_cards,
)
from ginrummy.engine.cards import card_from_index, from_mask, hand_order, to_mask


def test_deck_has_52_distinct_cards_with_values():
    assert len(DECK) == len(set(DECK)) == 52
    assert sum(c.value for c in DECK) == 4 * (1 + 2 + 3 + 4 + 5 + 6 + 7 + 8 + 9 + 10 * 4)
    assert [parse_card(t).value for t in ("As", "2c", "9d", "Th", "Jh", "Qs", "Kc")] == [
        1,
        2,
        9,
        10,
        10,
        10,
        10,
    ]
    assert [c.index for c in DECK] == list(range(52))
    assert card_from_index(51) == Card(13, Suit.SPADES)


def test_cards_are_interned_and_survive_pickle_and_copy():
    c = Card(7, Suit.HEARTS)
    assert c is parse_card("7h")
    assert pickle.loads(pickle.dumps(c)) is c
    assert copy.deepcopy(c) is c
    assert repr(c) == "Card(7h)"
    assert hash(c) == c.index
    assert sorted([parse_card("2s"), parse_card("Kc"), parse_card("Ah")]) == list(
        parse_cards("Kc Ah 2s")
    )
    with pytest.raises(CardParseError, match=r"rank must be 1\.\.13, got 14"):
        Card(14, Suit.CLUBS)


def test_suits_have_letters_and_symbols():
    assert [s.letter for s in Suit] == ["c", "d", "h", "s"]
    assert [s.symbol for s in Suit] == ["♣", "♦", "♥", "♠"]


@pytest.mark.parametrize(
    ("text", "card"),
    [
        ("7h", "7h"),
        ("7H", "7h"),
        ("td", "Td"),
        ("10d", "Td"),
        ("10♦", "Td"),
        ("7♥", "7h"),
        ("a♠", "As"),
        ("Q♣", "Qc"),
        ("k♡", "Kh"),
        ("2♢", "2d"),
        ("3♤", "3s"),
        ("4♧", "4c"),
        ("  Js ", "Js"),
    ],
)
def test_parse_card_is_case_insensitive_and_takes_10_and_symbols(text, card):
    assert str(parse_card(text)) == card


@pytest.mark.parametrize("text", ["", "7", "1h", "11h", "7x", "h7", "0d", "Td5", "♥7"])
def test_parse_card_refuses_what_is_not_a_card(text):
    with pytest.raises(CardParseError, match="not a card") as err:
        parse_card(text)
    assert isinstance(err.value, GinRummyError) and isinstance(err.value, ValueError)


def test_parse_cards_takes_spaces_and_commas_and_refuses_duplicates():
    assert [str(c) for c in parse_cards("as, 2c Kd,10h")] == ["As", "2c", "Kd", "Th"]
    assert parse_cards("  ") == ()
    with pytest.raises(DuplicateCardError, match="card 7h appears more than once"):
        parse_cards("7h 8h 7H")
    with pytest.raises(CardParseError):
        parse_cards("7h zz")


def test_mask_helpers_and_display_order():
    cards = parse_cards("Kd 2c As Ah")
    assert [str(c) for c in from_mask(to_mask(cards))] == ["2c", "Kd", "Ah", "As"]
    assert [str(c) for c in hand_order(cards)] == ["2c", "Kd", "Ah", "As"]
    assert cards_text(cards) == "Kd 2c As Ah"
    assert from_mask(0) == ()


@given(st.sampled_from(DECK))
@settings(max_examples=52, deadline=None)
def test_card_text_round_trips(card):
    assert parse_card(str(card)) is card
    assert parse_card(str(card).lower()) is card
    assert parse_card(str(card)[0] + card.suit.symbol) is card


def _all_actions():
    plain = [Action(k) for k in ActionKind if not k.takes_card]
    return plain + [Action(k, c) for k in ActionKind if k.takes_card for c in DECK]


def test_action_text_round_trips_for_every_action():
    actions = _all_actions()
    assert len(actions) == 5 + 3 * 52
    for a in actions:
        assert parse_action(str(a)) == a
        assert parse_action(f"  {str(a).upper()}  ") == a


def test_parse_action_folds_case_and_spaces():
    assert str(parse_action("Discard qs")) == "discard Qs"
    assert parse_action("DRAW    stock") == Action(ActionKind.DRAW_STOCK)
    assert parse_action("knock 10♥") == Action(ActionKind.KNOCK, parse_card("Th"))
    assert str(parse_action("big   GIN")) == "big gin"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("fold", "not an action: 'fold'"),
        ("discard", "not an action: 'discard'"),
        ("draw", "not an action"),
        ("take 7h", "not an action: 'take 7h'"),
        ("discard 7h 8h", "not an action"),
        ("discard 1x", "'discard 1x': not a card"),
        ("", "not an action: ''"),
    ],
)
def test_parse_action_errors_say_what_is_wrong(text, message):
    with pytest.raises(ActionParseError) as err:
        parse_action(text)
    assert message in str(err.value)


def test_parse_action_wants_text_and_actions_check_their_card():
    with pytest.raises(ActionParseError, match="an action is a text, got int"):
        parse_action(5)  # type: ignore[arg-type]
    with pytest.raises(ActionParseError, match="action 'discard' needs a card"):
        Action(ActionKind.DISCARD)
    with pytest.raises(ActionParseError, match="action 'take' takes no card"):
        Action(ActionKind.TAKE, parse_card("7h"))


def test_illegal_action_error_keeps_its_parts():
    e = IllegalActionError("knock 7h", "draw", "draw first")
    assert (e.action, e.phase, e.reason) == ("knock 7h", "draw", "draw first")
    assert str(e) == "knock 7h is not legal in phase draw: draw first"


def test_seats_and_pairs():
    assert (Seat.ONE.other, Seat.TWO.other) == (Seat.TWO, Seat.ONE)
    assert (Seat.ONE.label, Seat.TWO.label) == ("one", "two")
    assert [Seat.parse(t) for t in ("one", "TWO", "1", "2")] == [
        Seat.ONE,
        Seat.TWO,
        Seat.ONE,
        Seat.TWO,
    ]
    p = Pair(1, 2)
    assert (p[Seat.ONE], p[Seat.TWO], list(p)) == (1, 2, [1, 2])
    assert p.replace(Seat.ONE, 5) == Pair(5, 2)
    assert p.replace(Seat.TWO, 5) == Pair(1, 5)
    assert p.map(str) == Pair("1", "2")
    assert Pair.of(lambda s: s.label) == Pair("one", "two")
