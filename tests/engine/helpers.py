"""Scenario helpers: explicit decks in the deal convention of ``round.py`` and action lists."""

from __future__ import annotations

from ginrummy.engine import (
    DECK,
    Card,
    MatchState,
    RoundState,
    Rules,
    Seat,
    apply,
    apply_match,
    deal,
    new_match,
    new_round,
    parse_action,
    parse_cards,
)


def deck_of(non_dealer: str, dealer: str, upcard: str = "", stock: str = "") -> tuple[Card, ...]:
    """A full deck: the non-dealer's hand, the dealer's, the upcard, then the stock top first.

    Cards not named follow in canonical order at the bottom of the stock.
    """
    nd, de, up, st = (parse_cards(t) for t in (non_dealer, dealer, upcard, stock))
    assert len(nd) in (10, 11) and len(de) == 10 and len(up) <= 1
    front = nd + de + up + st
    rest = tuple(c for c in DECK if c not in front)
    deck = front + rest
    assert len(deck) == 52 and len(set(deck)) == 52, "a card is named twice"
    return deck


def play(state: RoundState, *actions: str) -> RoundState:
    for text in actions:
        state = apply(state, parse_action(text))
    return state


def round_of(rules: Rules, deck: tuple[Card, ...], dealer: Seat, *actions: str) -> RoundState:
    return play(new_round(rules, deck, dealer), *actions)


def play_match(match: MatchState, *actions: str) -> MatchState:
    for text in actions:
        match = apply_match(match, parse_action(text))
    return match


def match_of(rules: Rules, first_dealer: Seat, *rounds: tuple[tuple[Card, ...], list[str]]):
    match = new_match(rules, first_dealer)
    for deck, actions in rounds:
        match = play_match(deal(match, deck), *actions)
    return match


def texts(cards: tuple[Card, ...] | list[Card]) -> list[str]:
    return sorted(str(c) for c in cards)


def filler(used: str, n: int) -> str:
    """``n`` cards not in ``used``, in canonical order, as text."""
    taken = set(parse_cards(used))
    return " ".join(str(c) for c in DECK if c not in taken)[: 3 * n - 1]


# --- random legal play --------------------------------------------------------------


def choose(rng, state: RoundState):
    """A legal action, biased to knock and to keep good cards so that rounds end."""
    from ginrummy.engine import ActionKind, best_discards, legal_actions

    legal = legal_actions(state)
    ends = [a for a in legal if a.kind in (ActionKind.KNOCK, ActionKind.GIN, ActionKind.BIG_GIN)]
    if ends and rng.random() < 0.6:
        return rng.choice(ends)
    if state.phase.value == "discard" and rng.random() < 0.7:
        for option in best_discards(state.hand(state.turn)):
            for a in legal:
                if a.kind is ActionKind.DISCARD and a.card is option.card:
                    return a
    return rng.choice(legal)


def random_match(rules: Rules, rng, max_rounds: int = 12):
    """Yield every match state of a seeded random match (at most ``max_rounds`` deals)."""
    from ginrummy.engine import MatchPhase, draw_first_dealer, shuffled_deck

    match = new_match(rules, draw_first_dealer(rng))
    yield match
    while match.phase is not MatchPhase.OVER and len(match.rounds) < max_rounds:
        match = deal(match, shuffled_deck(rng))
        yield match
        while match.phase is MatchPhase.ROUND:
            match = apply_match(match, choose(rng, match.round))
            yield match


def random_table(rules: Rules, rng, players: int, max_rounds: int = 10):
    """Yield every state of a seeded random chouette table (at most ``max_rounds`` deals):
    legal play, with now and then a player leaving or coming back, and a forfeit."""
    from ginrummy.engine import ForfeitReason, MatchPhase, shuffled_deck
    from ginrummy.engine.chouette import (
        Deal,
        Forfeit,
        Leave,
        NextMatch,
        Return,
        TablePhase,
        apply,
        draw_seat_cards,
        new_table,
        position_of,
    )

    table = new_table(rules, draw_seat_cards(rng, players))
    yield table
    while table.dealt < max_rounds or table.match.phase is MatchPhase.ROUND:
        roll = rng.random()
        if roll < 0.01:
            p = rng.randrange(players)
            event = Return(p) if p in table.absent else Leave(p)
        elif table.phase is TablePhase.SETTLED:
            event = NextMatch()
        elif roll < 0.013:
            seat = rng.choice(list(Seat))
            event = Forfeit(position_of(table, seat), rng.choice(list(ForfeitReason)))
        elif table.match.phase is MatchPhase.DEAL:
            event = Deal(shuffled_deck(rng))
        else:
            event = choose(rng, table.match.round)
        table = apply(table, event)
        yield table
