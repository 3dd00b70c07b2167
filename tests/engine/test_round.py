"""One round: first upcard, turns, knocks, stock exhaustion, options (docs/rules.md §4).

Deck convention (round.py): the non-dealer gets deck[0:10], the dealer deck[10:20], the
upcard is deck[20], the stock deck[21:] with deck[21] on top. The dealer is seat one
throughout, so seat two is the non-dealer and acts first.
"""

from __future__ import annotations

import dataclasses

import pytest

from ginrummy.engine import (
    Action,
    ActionKind,
    IllegalActionError,
    Phase,
    RecordError,
    ResultKind,
    Rules,
    Seat,
    StockRule,
    apply,
    legal_actions,
    new_round,
    parse_action,
    parse_cards,
)
from ginrummy.engine.round import is_legal, why_illegal

from .helpers import deck_of, filler, play, round_of, texts

ONE, TWO = Seat.ONE, Seat.TWO
STANDARD = Rules()

# non-dealer (two) Ac 2d 3h 4s 5c 6d 7h 8s 9c Td   -- no meld
# dealer (one)     Jc Qd Kh As 2c 3d 4h 5s 6c 7d   -- no meld
# upcard 8h, stock 9s on top
PLAIN = deck_of("Ac 2d 3h 4s 5c 6d 7h 8s 9c Td", "Jc Qd Kh As 2c 3d 4h 5s 6c 7d", "8h", "9s")

# non-dealer (two) 2c 3c 4c | 5d 6d 7d | 9h Th Jh | Qs  -> deadwood 10
# dealer (one)     Kc Kd Ks | Tc Td Ts | Js Jd Jc | 5h  -> deadwood 5, nothing to lay off
KNOCKY_HAND = "2c 3c 4c 5d 6d 7d 9h Th Jh Qs"
DEALER_HAND = "Kc Kd Ks Tc Td Ts Js Jd Jc 5h"


def acts(state) -> list[str]:
    return [str(a) for a in legal_actions(state)]


def test_the_deal_follows_the_deck_convention():
    s = new_round(STANDARD, PLAIN, ONE)
    assert texts(s.hand(TWO)) == texts(parse_cards("Ac 2d 3h 4s 5c 6d 7h 8s 9c Td"))
    assert texts(s.hand(ONE)) == texts(parse_cards("Jc Qd Kh As 2c 3d 4h 5s 6c 7d"))
    assert [str(c) for c in s.discard_pile] == ["8h"]
    assert str(s.first_upcard) == "8h"
    assert str(s.stock[0]) == "9s"
    assert len(s.stock) == 31
    assert (s.phase, s.turn, s.non_dealer, s.knock_limit) == (Phase.FIRST_UPCARD, TWO, TWO, 10)
    assert not s.is_over


def test_first_upcard_non_dealer_then_dealer_then_non_dealer_must_draw_stock():
    s = new_round(STANDARD, PLAIN, ONE)
    assert (s.turn, acts(s)) == (TWO, ["take", "pass"])
    s = play(s, "pass")
    assert (s.phase, s.turn, acts(s)) == (Phase.FIRST_UPCARD, ONE, ["take", "pass"])
    s = play(s, "pass")
    assert (s.phase, s.turn, acts(s)) == (Phase.DRAW, TWO, ["draw stock"])
    assert s.upcard_passes == (TWO, ONE)
    with pytest.raises(IllegalActionError, match="non-dealer must draw from the stock"):
        play(s, "draw discard")
    s = play(s, "draw stock", "discard 9s")  # a card drawn from the stock may be discarded
    assert (s.phase, s.turn) == (Phase.DRAW, ONE)  # the dealer plays next
    assert acts(s) == ["draw stock", "draw discard"]
    assert [str(c) for c in s.discard_pile] == ["8h", "9s"]


def test_dealer_takes_the_upcard_and_the_non_dealer_plays_next():
    s = play(new_round(STANDARD, PLAIN, ONE), "pass", "take")
    assert (s.phase, s.turn, str(s.taken)) == (Phase.DISCARD, ONE, "8h")
    assert s.discard_pile == ()
    s = play(s, "discard Jc")
    assert (s.phase, s.turn) == (Phase.DRAW, TWO)
    assert [str(c) for c in s.discard_pile] == ["Jc"]


def test_non_dealer_takes_the_upcard_and_the_dealer_plays_next():
    s = play(new_round(STANDARD, PLAIN, ONE), "take", "discard Td")
    assert (s.phase, s.turn) == (Phase.DRAW, ONE)
    assert s.actions == tuple(parse_action(t) for t in ("take", "discard Td"))


def test_a_card_just_taken_from_the_discard_pile_may_not_be_discarded():
    s = play(new_round(STANDARD, PLAIN, ONE), "take")
    assert "discard 8h" not in acts(s)
    with pytest.raises(IllegalActionError) as err:
        play(s, "discard 8h")
    assert str(err.value) == (
        "discard 8h is not legal in phase discard: "
        "8h was just taken from the discard pile and may not be discarded now"
    )
    # ...nor in a normal turn
    s = play(s, "discard Td", "draw discard")
    assert str(s.taken) == "Td"
    assert "discard Td" not in acts(s)
    assert len(acts(s)) == 10
    with pytest.raises(IllegalActionError, match="Td was just taken"):
        play(s, "discard Td")
    s = play(s, "discard Jc")  # any other card may go
    assert [str(c) for c in s.discard_pile] == ["Jc"]
    assert s.taken is None


def test_illegal_actions_name_action_phase_and_reason_and_change_nothing():
    s = new_round(STANDARD, PLAIN, ONE)
    before = dataclasses.replace(s)
    with pytest.raises(IllegalActionError) as err:
        apply(s, parse_action("draw stock"))
    e = err.value
    assert (str(e.action), e.phase) == ("draw stock", "first_upcard")
    assert e.reason == "the first upcard may only be taken or passed (take, pass), not draw stock"
    assert str(e).startswith("draw stock is not legal in phase first_upcard: ")
    assert s == before
    assert len(s.history) == 0
    with pytest.raises(dataclasses.FrozenInstanceError):
        s.turn = ONE  # type: ignore[misc]

    s = play(s, "pass", "pass")
    with pytest.raises(IllegalActionError, match="draw first: draw stock"):
        play(s, "discard 9c")
    s = play(s, "draw stock")
    with pytest.raises(IllegalActionError, match="you have drawn already"):
        play(s, "take")
    with pytest.raises(IllegalActionError, match="Kh is not in your hand"):
        play(s, "discard Kh")
    with pytest.raises(IllegalActionError, match="Big Gin is not played with these rules"):
        play(s, "big gin")


def test_why_illegal_explains_an_empty_discard_pile():
    # Not reachable by play (the pile is never empty when a draw is due); the reason
    # is still worded for a hand-made state.
    s = play(new_round(STANDARD, PLAIN, ONE), "take", "discard Td")
    empty = dataclasses.replace(s, discard_pile=())
    assert acts(empty) == ["draw stock"]
    assert why_illegal(empty, parse_action("draw discard")) == "the discard pile is empty"


def test_knock_limit_is_counted_after_the_discard():
    # non-dealer 2c 3c 4c | 5d 6d 7d | 9h Th Jh | Qs, draws 2s: 11 cards, deadwood 12
    deck = deck_of(KNOCKY_HAND, DEALER_HAND, "8s", "2s")
    s = play(new_round(STANDARD, deck, ONE), "pass", "pass", "draw stock")
    assert "knock Qs" in acts(s)  # 2s left: 2
    assert "knock 2s" in acts(s)  # Qs left: 10, exactly the limit
    assert "knock 9h" not in acts(s)
    with pytest.raises(IllegalActionError) as err:
        play(s, "knock 9h")
    assert err.value.reason == "deadwood after discarding 9h would be 32, above the knock limit 10"
    assert not any(a.startswith("gin") for a in acts(s))
    end = play(s, "knock 2s")
    assert end.phase is Phase.OVER
    assert str(end.knock_discard) == "2s"
    r = end.result
    # knocker Qs = 10, defender 5h = 5 (no layoffs): undercut 10 - 5 + 25
    assert (r.kind, r.knocker, r.winner, r.points) == (ResultKind.UNDERCUT, TWO, ONE, 30)
    assert texts(r.hands[TWO]) == texts(parse_cards("2c 3c 4c 5d 6d 7d 9h Th Jh Qs"))
    assert acts(end) == []
    with pytest.raises(IllegalActionError, match="the round is over"):
        play(end, "pass")


def test_gin_and_knock_are_different_actions():
    # non-dealer 2c 3c 4c | 5d 6d 7d | 9h Th Jh | Qs, draws Qh: gin by discarding Qs
    deck = deck_of(KNOCKY_HAND, DEALER_HAND, "8s", "Qh")
    s = play(new_round(STANDARD, deck, ONE), "pass", "pass", "draw stock")
    assert "gin Qs" in acts(s)
    assert "knock Qs" not in acts(s)
    with pytest.raises(IllegalActionError, match="would be 0: that is gin, not a knock"):
        play(s, "knock Qs")
    with pytest.raises(IllegalActionError, match="would be 17; gin needs 0"):
        play(s, "gin 2c")
    end = play(s, "gin Qs")
    r = end.result
    # gin: defender 5h = 5, no layoffs -> 5 + 25
    assert (r.kind, r.knocker, r.winner, r.points) == (ResultKind.GIN, TWO, TWO, 30)
    assert r.showdown.layoffs == ()


def test_example_7_1_as_a_full_round():
    # non-dealer 2c 3c 4c | 5d 5h 5s | 9h Th Jh | Ks, takes the upcard 7s, knocks with Ks
    # dealer     6d 7d 8d | Kc Kd Kh | 8h Qh (laid off on 9h-Jh) | Ad 4s -> 5
    deck = deck_of("2c 3c 4c 5d 5h 5s 9h Th Jh Ks", "8h Qh 6d 7d 8d Kc Kd Kh Ad 4s", "7s")
    end = round_of(STANDARD, deck, ONE, "take", "knock Ks")
    r = end.result
    assert (r.kind, r.knocker, r.winner) == (ResultKind.UNDERCUT, TWO, ONE)
    assert (r.showdown.knocker_deadwood, r.showdown.defender_deadwood, r.points) == (7, 5, 27)


def test_oklahoma_knock_limit_is_the_upcard_value():
    ok = Rules.preset("oklahoma")
    for upcard, limit in (("7c", 7), ("Qc", 10), ("Kh", 10), ("Qh", 10), ("2h", 2), ("Ac", 0)):
        deck = deck_of(KNOCKY_HAND, DEALER_HAND, upcard)
        s = new_round(ok, deck, ONE)
        assert (s.knock_limit, s.doubled) == (limit, False)
    s = new_round(ok, deck_of(KNOCKY_HAND, DEALER_HAND, "9s"), ONE)
    assert (s.knock_limit, s.doubled) == (9, True)
    no_doubling = Rules.preset("oklahoma", spade_doubling=False)
    assert not new_round(no_doubling, deck_of(KNOCKY_HAND, DEALER_HAND, "9s"), ONE).doubled
    # spade doubling is never on outside Oklahoma
    assert not new_round(STANDARD, deck_of(KNOCKY_HAND, DEALER_HAND, "9s"), ONE).doubled
    assert new_round(STANDARD, deck_of(KNOCKY_HAND, DEALER_HAND, "2s"), ONE).knock_limit == 10


def test_oklahoma_ace_upcard_means_gin_only():
    # non-dealer 2c 3c 4c | 5d 6d 7d | 9h Th Jh | Qs, takes Ah: knocking with Qs leaves 1
    ok = Rules.preset("oklahoma")
    s = new_round(ok, deck_of(KNOCKY_HAND, DEALER_HAND, "Ah"), ONE)
    assert (s.knock_limit, s.doubled) == (0, False)
    s = play(s, "take")
    assert not any(a.startswith(("knock", "gin")) for a in acts(s))
    with pytest.raises(IllegalActionError) as err:
        play(s, "knock Qs")
    assert err.value.reason == "the first upcard was an ace: this round may only end with gin"
    # a gin is still allowed: the dealer takes As? the dealer passes; the non-dealer later
    s = new_round(ok, deck_of(KNOCKY_HAND, DEALER_HAND, "As", "Qh"), ONE)
    s = play(s, "pass", "pass", "draw stock")
    assert "gin Qs" in acts(s)
    end = play(s, "gin Qs")
    # ace of spades: doubled -> (5 + 25) * 2
    assert (end.result.kind, end.result.points) == (ResultKind.GIN, 60)


def test_oklahoma_spade_doubles_the_points_bonus_included():
    # upcard 3s: knock limit 3, doubled. non-dealer takes it and knocks with Qs (K = 3)
    # dealer Kc Kd Kh | Qc Qd Qh | Js Jd Jc | 2h -> D = 2: undercut (3 - 2 + 25) * 2 = 52
    deck = deck_of(KNOCKY_HAND, "Kc Kd Kh Qc Qd Qh Js Jd Jc 2h", "3s")
    end = round_of(Rules.preset("oklahoma"), deck, ONE, "take", "knock Qs")
    r = end.result
    assert (r.kind, r.winner, r.points) == (ResultKind.UNDERCUT, ONE, 52)
    assert (r.showdown.base_points, r.showdown.bonus, r.showdown.multiplier) == (1, 25, 2)


def test_big_gin_shows_eleven_melded_cards_without_a_discard():
    # non-dealer 2c 3c 4c 5c | 6d 7d 8d | Th Td Ts, takes Tc: all 11 melded
    # dealer Kh Qh Js 9h 9s 8c 2h 3h 4h As -> run 2h-4h, D = 57; big gin 57 + 31
    big = Rules.preset("standard", big_gin_bonus=31)
    deck = deck_of("2c 3c 4c 5c 6d 7d 8d Th Td Ts", "Kh Qh Js 9h 9s 8c 2h 3h 4h As", "Tc")
    s = round_of(big, deck, ONE, "take")
    assert "big gin" in acts(s)
    assert "gin 5c" in acts(s)
    end = play(s, "big gin")
    r = end.result
    assert (r.kind, r.knocker, r.winner, r.points) == (ResultKind.BIG_GIN, TWO, TWO, 88)
    assert len(r.hands[TWO]) == 11
    assert end.knock_discard is None
    # without the option there is no Big Gin
    s = round_of(STANDARD, deck, ONE, "take")
    assert "big gin" not in acts(s)
    # with the option but deadwood left, neither
    s = round_of(big, deck_of(KNOCKY_HAND, DEALER_HAND, "Qh"), ONE, "pass", "pass", "draw stock")
    assert "big gin" not in acts(s)
    with pytest.raises(
        IllegalActionError, match="Big Gin needs all 11 cards melded; deadwood is 10"
    ):
        play(s, "big gin")


def test_eleven_card_deal_non_dealer_opens_by_discarding():
    rules = Rules(eleven_card_deal=True)
    deck = deck_of("Ac 2d 3h 4s 5c 6d 7h 8s 9c Td Jd", "Jc Qd Kh As 2c 3d 4h 5s 6c 7d", "", "9s")
    s = new_round(rules, deck, ONE)
    assert (s.phase, s.turn, s.discard_pile, s.first_upcard) == (Phase.DISCARD, TWO, (), None)
    assert (len(s.hand(TWO)), len(s.hand(ONE)), len(s.stock)) == (11, 10, 31)
    assert str(s.stock[0]) == "9s"
    assert acts(s) == [f"discard {c}" for c in s.hand(TWO)]
    s = play(s, "discard Jd")
    assert (s.phase, s.turn, acts(s)) == (Phase.DRAW, ONE, ["draw stock", "draw discard"])


def _long_round(rules: Rules, non_dealer: str, dealer: str, stock: str, draws: int):
    """Both pass the upcard 8s, then each draws the stock and discards that card."""
    deck = deck_of(non_dealer, dealer, "8s", stock)
    s = play(new_round(rules, deck, ONE), "pass", "pass")
    for _ in range(draws):
        card = s.stock[0]
        s = play(s, "draw stock", f"discard {card}")
    return s


# non-dealer 2c 3c 4c | 5d 6d 7d | 9h Th Jh | Qs   (can knock with any low draw)
# dealer     Kc Kd Kh | Qc Qd Qh | Js Jd | 5c 5h   (the Jc makes a set: knock with 5h)
LONG_DEALER = "Kc Kd Kh Qc Qd Qh Js Jd 5c 5h"
# the stock, top first: 28 cards that help nobody, then Jc, then two never drawn
LONG_STOCK = "Ac Ad Ah As 2d 2h 3d 3h 3s 4d 4h 4s 6c 6h 6s 7c 7h 7s 8c 8d 8h 9c 9d 9s Tc Td Ts Kc"


def test_example_7_6_discard_at_two_stock_cards_ends_the_round_void():
    # stock: 27 fillers and Ks (28 draws, each thrown away), then Jc (the 29th draw), 2 left
    stock = LONG_STOCK.replace(" Kc", "") + " Ks Jc"
    s = _long_round(STANDARD, KNOCKY_HAND, LONG_DEALER, stock, 28)
    assert (len(s.stock), s.turn, s.phase) == (3, TWO, Phase.DRAW)
    s = play(s, "draw stock")
    assert len(s.stock) == 2
    assert "Jc" in texts(s.hand(TWO))
    # the player who drew the third-to-last card may still knock
    assert "knock Jc" in acts(s)
    end = play(s, "discard Jc")
    assert end.phase is Phase.OVER
    r = end.result
    assert (r.kind, r.knocker, r.winner, r.points, r.showdown) == (
        ResultKind.VOID,
        None,
        None,
        0,
        None,
    )
    assert len(end.stock) == 2


def test_alternative_stock_rule_last_discard_may_be_taken_only_to_knock():
    rules = Rules.preset("standard", stock_rule="last_discard")
    assert rules.stock_rule is StockRule.LAST_DISCARD
    stock = LONG_STOCK.replace(" Kc", "") + " Ks Jc"
    s = _long_round(rules, KNOCKY_HAND, LONG_DEALER, stock, 28)
    s = play(s, "draw stock", "discard Jc")
    assert (s.phase, s.turn, len(s.stock)) == (Phase.LAST_DISCARD, ONE, 2)
    assert acts(s) == ["draw discard", "pass"]
    with pytest.raises(IllegalActionError, match="only take the last discard to knock, or pass"):
        play(s, "draw stock")
    taken = play(s, "draw discard")
    # KKK QQQ JJJ 5c 5h: must knock (5c or 5h), no plain discard, not the Jc
    assert acts(taken) == ["knock 5c", "knock 5h"]
    with pytest.raises(IllegalActionError, match="the last discard was taken to knock"):
        play(taken, "discard 5h")
    end = play(taken, "knock 5h")
    r = end.result
    # knocker Kc Kd Kh | Qc Qd Qh | Js Jd Jc | 5c = 5
    # defender 2c 3c 4c | 5d 6d 7d | 9h Th Jh, Qs laid off on the queens -> D = 0
    # undercut: 5 - 0 + 25
    assert (r.kind, r.knocker, r.winner, r.points) == (ResultKind.UNDERCUT, ONE, TWO, 30)
    assert [(str(lo.card), str(lo.onto)) for lo in r.showdown.layoffs] == [("Qs", "Qc Qd Qh")]
    void = play(s, "pass")
    assert (void.phase, void.result.kind) == (Phase.OVER, ResultKind.VOID)


def test_alternative_stock_rule_without_a_possible_knock_only_pass():
    rules = Rules.preset("standard", stock_rule="last_discard")
    stock = LONG_STOCK.replace(" Kc", "") + " Jc Ks"  # the Ks is discarded last: no help
    s = _long_round(rules, KNOCKY_HAND, LONG_DEALER, stock, 28)
    s = play(s, "draw stock", "discard Ks")
    assert (s.phase, acts(s)) == (Phase.LAST_DISCARD, ["pass"])
    with pytest.raises(IllegalActionError, match="no knock is possible with it"):
        play(s, "draw discard")


def test_alternative_stock_rule_big_gin_with_the_last_discard():
    # non-dealer 2c 3c 4c | 5d 6d 7d | 9h Th Jh | Qs
    # dealer     Kc Kd Kh | Qc Qd Qh | 5c 6c 7c 9c: the last discard 8c melds all 11
    rules = Rules.preset("standard", stock_rule="last_discard", big_gin_bonus=50)
    dealer = "Kc Kd Kh Qc Qd Qh 5c 6c 7c 9c"
    stock = filler(f"{KNOCKY_HAND} {dealer} 8s 8c", 28) + " 8c"
    s = _long_round(rules, KNOCKY_HAND, dealer, stock, 28)
    s = play(s, "draw stock", "discard 8c")
    assert acts(s) == ["draw discard", "pass"]
    taken = play(s, "draw discard")
    assert acts(taken) == ["gin 5c", "knock 6c", "gin 9c", "big gin"]
    end = play(taken, "big gin")
    # defender: 9h Th Jh, 2c-4c, 5d-7d melded, Qs laid off? no layoffs after gin -> 10
    assert (end.result.kind, end.result.winner, end.result.points) == (
        ResultKind.BIG_GIN,
        ONE,
        10 + 50,
    )


def test_a_round_needs_a_full_deck():
    with pytest.raises(RecordError, match="each of the 52 cards once, got 51"):
        new_round(STANDARD, PLAIN[:51], ONE)
    with pytest.raises(RecordError):
        new_round(STANDARD, (*PLAIN[:51], PLAIN[0]), ONE)
    with pytest.raises(RecordError):
        new_round(STANDARD, (*PLAIN[:51], "As"), ONE)  # type: ignore[arg-type]


def test_is_legal_agrees_with_legal_actions_everywhere_in_a_scenario():
    deck = deck_of(KNOCKY_HAND, DEALER_HAND, "8s", "Qh")
    s = new_round(Rules.preset("standard", big_gin_bonus=10), deck, ONE)
    candidates = [
        parse_action(t) for t in ("take", "pass", "draw stock", "draw discard", "big gin")
    ] + [Action(k, c) for k in (ActionKind.DISCARD, ActionKind.KNOCK, ActionKind.GIN) for c in deck]
    for step in ("pass", "pass", "draw stock", "gin Qs", None):
        legal = set(legal_actions(s))
        for a in candidates:
            assert is_legal(s, a) == (a in legal), (str(a), s.phase)
        if step is not None:
            s = play(s, step)


def test_the_transitions_copy_refuses_unknown_fields_and_drops_the_memo():
    from ginrummy.engine import round as round_module

    s = new_round(STANDARD, PLAIN, ONE)
    assert legal_actions(s) and s.legal_memo is not None
    with pytest.raises(TypeError, match="colour"):
        round_module._copy(s, colour="red")
    copy = round_module._copy(s, turn=s.turn.other)
    assert copy.legal_memo is None
    assert copy == dataclasses.replace(s, turn=s.turn.other)
