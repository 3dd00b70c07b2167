"""One round of gin: phases, the legal actions of each, and the one transition ``apply``.

A round is fully determined by (rules, deck order, dealer, actions). ``legal_actions``
is the single truth about what may happen next; ``apply`` refuses anything else with
an ``IllegalActionError`` naming the action, the phase and the reason. Section signs
(§) in comments are those of the rule book, docs/rules.md.

Deck order convention: the non-dealer gets ``deck[0:10]`` (``deck[0:11]`` with the
11-card deal), the dealer the next ten, then the first upcard (10-card deal only); the
rest is the stock, ``deck[21]`` on top.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum

from ginrummy.engine.actions import (
    DRAW_DISCARD,
    DRAW_STOCK,
    PASS,
    TAKE,
    Action,
    ActionKind,
    card_action,
)
from ginrummy.engine.cards import DECK, Card, Suit, from_mask, to_mask
from ginrummy.engine.errors import IllegalActionError, RecordError
from ginrummy.engine.frozen import copier
from ginrummy.engine.melds import deadwood_of_mask, discard_deadwoods
from ginrummy.engine.rules import Rules, StockRule
from ginrummy.engine.seats import Pair, Seat
from ginrummy.engine.showdown import Showdown, Side, settle

STOCK_FLOOR = 2  # the last two stock cards are never drawn (docs/rules.md §3.6)


class Phase(StrEnum):
    FIRST_UPCARD = "first_upcard"  # take or pass the first upcard (non-dealer, then dealer)
    DRAW = "draw"
    DISCARD = "discard"
    LAST_DISCARD = "last_discard"  # alternative stock rule: take the last discard to knock?
    OVER = "over"


@dataclass(frozen=True, slots=True)
class PublicMove:
    """One move as anyone may see it: ``card`` is None where it is hidden (the drawn
    stock card is not part of a move; the knock discard lies face down)."""

    seat: Seat
    kind: ActionKind
    card: Card | None

    def __str__(self) -> str:
        return self.kind.value if self.card is None else f"{self.kind.value} {self.card}"


def public_move(seat: Seat, action: Action) -> PublicMove:
    """``action`` by ``seat`` as anyone may see it (interned: one value per move)."""
    if action.kind is ActionKind.DISCARD:
        return _SHOWN[seat][action.card.index]  # type: ignore[union-attr]
    return _HIDDEN[seat][action.kind]


_SHOWN = tuple(tuple(PublicMove(s, ActionKind.DISCARD, c) for c in DECK) for s in Seat)
# Every other move shows no card: the knock and gin discards lie face down.
_HIDDEN = tuple({k: PublicMove(s, k, None) for k in ActionKind} for s in Seat)


class ResultKind(StrEnum):
    KNOCK = "knock"
    GIN = "gin"
    BIG_GIN = "big_gin"
    UNDERCUT = "undercut"
    VOID = "void"


@dataclass(frozen=True, slots=True)
class RoundResult:
    """How a round ended. ``showdown`` carries the full breakdown unless the round was void."""

    kind: ResultKind
    knocker: Seat | None
    winner: Seat | None
    points: int
    showdown: Showdown | None
    hands: Pair[tuple[Card, ...]]  # both final hands (after the knock discard)


@dataclass(frozen=True, slots=True)
class RoundState:
    rules: Rules
    dealer: Seat
    deck: tuple[Card, ...]
    hands: Pair[int]  # card masks; hidden from the other seat
    stock: tuple[Card, ...]  # stock[0] is the top; hidden order
    discard_pile: tuple[Card, ...]  # discard_pile[-1] is the top
    phase: Phase
    turn: Seat  # the seat to decide (meaningless once OVER)
    first_upcard: Card | None
    knock_limit: int
    doubled: bool  # Oklahoma spade doubling applies this round
    known: Pair[int]  # cards each seat is known to hold: taken from the pile, not yet discarded
    upcard_passes: tuple[Seat, ...] = ()
    taken: Card | None = None  # just taken from the discard pile: may not be discarded now
    stock_only: bool = False  # both passed the first upcard: the non-dealer must draw the stock
    must_knock: bool = False  # took the last discard under the alternative stock rule
    knock_discard: Card | None = None  # face down; never shown to the other seat
    history: tuple[tuple[Seat, Action], ...] = ()
    public_moves: tuple[PublicMove, ...] = ()  # the history as anyone may see it
    result: RoundResult | None = None
    # Memo of legal_actions(self): a pure function of the other fields.
    legal_memo: tuple[Action, ...] | None = field(default=None, compare=False, repr=False)

    @property
    def non_dealer(self) -> Seat:
        return self.dealer.other

    @property
    def is_over(self) -> bool:
        return self.phase is Phase.OVER

    def hand(self, seat: Seat) -> tuple[Card, ...]:
        return from_mask(self.hands[seat])

    @property
    def actions(self) -> tuple[Action, ...]:
        return tuple(a for _, a in self.history)


# dataclasses.replace for the transitions, without __init__ and without the memo.
_copy = copier(RoundState, reset=("legal_memo",))


def _oklahoma_limit(upcard: Card) -> int:
    # Oklahoma: the knock limit is the first upcard's value; an ace means gin only.
    return 0 if upcard.rank == 1 else upcard.value


_ALL = (1 << 52) - 1


def new_round(rules: Rules, deck: Sequence[Card], dealer: Seat) -> RoundState:
    """Deal a round from a full deck order (see the module doc for the convention)."""
    deck = tuple(deck)
    # Cards are interned, so 52 cards whose bits cover the deck are each card once.
    if len(deck) != 52 or not all(isinstance(c, Card) for c in deck) or to_mask(deck) != _ALL:
        raise RecordError(f"a deck must hold each of the 52 cards once, got {len(deck)} cards")
    non_dealer = dealer.other
    eleven = rules.eleven_card_deal  # 11 to the non-dealer, who opens by discarding (§4)
    first = 11 if eleven else 10
    hands = Pair.of(
        lambda s: to_mask(deck[0:first] if s is non_dealer else deck[first : first + 10])
    )
    upcard = None if eleven else deck[20]
    return RoundState(
        rules=rules,
        dealer=dealer,
        deck=deck,
        hands=hands,
        stock=deck[21:],
        discard_pile=() if upcard is None else (upcard,),
        # The non-dealer is offered the upcard first (§3.2), or opens by discarding.
        phase=Phase.DISCARD if upcard is None else Phase.FIRST_UPCARD,
        turn=non_dealer,
        first_upcard=upcard,
        knock_limit=_oklahoma_limit(upcard) if rules.oklahoma and upcard else rules.knock_limit,
        doubled=upcard is not None and rules.spade_doubling and upcard.suit is Suit.SPADES,
        known=Pair(0, 0),
    )


# --- legal actions ----------------------------------------------------------------------


def legal_actions(state: RoundState) -> tuple[Action, ...]:
    """Every action the seat ``state.turn`` may take now, in a fixed order."""
    memo = state.legal_memo
    if memo is None:
        memo = _legal_actions(state)
        object.__setattr__(state, "legal_memo", memo)  # a memo, not a change of state
    return memo


def _legal_actions(state: RoundState) -> tuple[Action, ...]:
    phase = state.phase
    if phase is Phase.FIRST_UPCARD:
        return (TAKE, PASS)
    if phase is Phase.DRAW:
        if state.stock_only or not state.discard_pile:
            return (DRAW_STOCK,)
        return (DRAW_STOCK, DRAW_DISCARD)
    if phase is Phase.DISCARD:
        return _discard_actions(state)
    if phase is Phase.LAST_DISCARD:
        return (DRAW_DISCARD, PASS) if _can_knock_with(state, state.discard_pile[-1]) else (PASS,)
    return ()


def _discard_actions(state: RoundState) -> tuple[Action, ...]:
    hand = state.hands[state.turn]
    taken = state.taken.index if state.taken is not None else -1
    limit = state.knock_limit
    discards: list[Action] = []
    knocks: list[Action] = []
    for index, deadwood in discard_deadwoods(hand):  # counted after the discard (§3.3)
        if index == taken:
            continue  # a card just taken from the discard pile may not go back (§3.3)
        discards.append(_DISCARDS[index])
        if deadwood == 0:
            knocks.append(_GINS[index])
        elif deadwood <= limit:
            knocks.append(_KNOCKS[index])
    if state.rules.big_gin_bonus is not None and deadwood_of_mask(hand) == 0:
        knocks.append(Action(ActionKind.BIG_GIN))
    if state.must_knock:
        return tuple(knocks)  # took the last discard to knock (§3.6)
    return (*discards, *knocks)


_DISCARDS, _KNOCKS, _GINS = (
    tuple(card_action(kind, c) for c in DECK)
    for kind in (ActionKind.DISCARD, ActionKind.KNOCK, ActionKind.GIN)
)


def _can_knock_with(state: RoundState, card: Card) -> bool:
    hand = state.hands[state.turn] | card.bit
    taken_ok = [c for c in from_mask(hand) if c is not card]
    if state.rules.big_gin_bonus is not None and deadwood_of_mask(hand) == 0:
        return True
    return any(deadwood_of_mask(hand ^ c.bit) <= state.knock_limit for c in taken_ok)


def is_legal(state: RoundState, action: Action) -> bool:
    """``action in legal_actions(state)``, without listing every action (the hot path)."""
    phase, kind = state.phase, action.kind
    if phase is Phase.FIRST_UPCARD:
        return kind is ActionKind.TAKE or kind is ActionKind.PASS
    if phase is Phase.DRAW:
        if kind is ActionKind.DRAW_STOCK:
            return True
        return kind is ActionKind.DRAW_DISCARD and not state.stock_only and bool(state.discard_pile)
    if phase is Phase.DISCARD:
        hand = state.hands[state.turn]
        card = action.card
        if card is None:
            return (
                kind is ActionKind.BIG_GIN
                and state.rules.big_gin_bonus is not None
                and deadwood_of_mask(hand) == 0
            )
        if not hand & card.bit or card is state.taken:
            return False
        if kind is ActionKind.DISCARD:
            return not state.must_knock
        deadwood = deadwood_of_mask(hand ^ card.bit)
        if kind is ActionKind.GIN:
            return deadwood == 0
        return 0 < deadwood <= state.knock_limit
    if phase is Phase.LAST_DISCARD:
        if kind is ActionKind.PASS:
            return True
        return kind is ActionKind.DRAW_DISCARD and _can_knock_with(state, state.discard_pile[-1])
    return False


# --- apply ------------------------------------------------------------------------------


def apply(state: RoundState, action: Action) -> RoundState:
    """The state after ``action`` by ``state.turn``; refuses anything not legal."""
    if not is_legal(state, action):
        raise IllegalActionError(action, state.phase.value, why_illegal(state, action))
    seat = state.turn
    # The move goes into the logs in the same copy of the state as its effect: draws
    # and discards are the engine's hottest path.
    history = (*state.history, (seat, action))
    moves = (*state.public_moves, public_move(seat, action))
    kind = action.kind
    if kind is ActionKind.DRAW_STOCK:
        card = state.stock[0]
        return _copy(
            state,
            hands=state.hands.replace(seat, state.hands[seat] | card.bit),
            stock=state.stock[1:],
            phase=Phase.DISCARD,
            taken=None,
            history=history,
            public_moves=moves,
        )
    if kind is ActionKind.DISCARD:
        return _discard(state, seat, action.card, history, moves)  # type: ignore[arg-type]
    if kind is ActionKind.DRAW_DISCARD or kind is ActionKind.TAKE:
        # Under the alternative stock rule the last discard may only be taken to knock.
        must_knock = state.phase is Phase.LAST_DISCARD
        return _take(state, seat, state.discard_pile[-1], must_knock, history, moves)
    moved = _copy(state, history=history, public_moves=moves)
    if kind is ActionKind.PASS:
        return _pass(moved, seat)
    return _knock(moved, seat, action)


_Log = tuple[tuple[Seat, Action], ...]


def _take(
    state: RoundState,
    seat: Seat,
    card: Card,
    must_knock: bool,
    history: _Log,
    moves: tuple[PublicMove, ...],
) -> RoundState:
    return _copy(
        state,
        hands=state.hands.replace(seat, state.hands[seat] | card.bit),
        discard_pile=state.discard_pile[:-1],
        known=state.known.replace(seat, state.known[seat] | card.bit),  # public (§5)
        phase=Phase.DISCARD,
        taken=card,
        must_knock=must_knock,
        history=history,
        public_moves=moves,
    )


def _pass(state: RoundState, seat: Seat) -> RoundState:
    if state.phase is Phase.LAST_DISCARD:
        return _end_void(state)
    passes = (*state.upcard_passes, seat)
    if len(passes) == 1:
        return _copy(state, upcard_passes=passes, turn=seat.other)
    # Both passed: the non-dealer must draw from the stock (§3.2).
    return _copy(
        state, upcard_passes=passes, turn=state.non_dealer, phase=Phase.DRAW, stock_only=True
    )


def _discard(
    state: RoundState, seat: Seat, card: Card, history: _Log, moves: tuple[PublicMove, ...]
) -> RoundState:
    known = state.known
    if known[seat] & card.bit:  # a card it took earlier is no longer known to be held
        known = known.replace(seat, known[seat] ^ card.bit)
    # Stock exhaustion (§3.6): void, unless the alternative rule lets the next
    # player take this discard to knock.
    exhausted = len(state.stock) <= STOCK_FLOOR
    last_discard = exhausted and state.rules.stock_rule is StockRule.LAST_DISCARD
    discarded = _copy(
        state,
        hands=state.hands.replace(seat, state.hands[seat] ^ card.bit),
        discard_pile=(*state.discard_pile, card),
        known=known,
        taken=None,
        stock_only=False,
        turn=seat.other,
        phase=Phase.LAST_DISCARD if last_discard else Phase.DRAW,
        history=history,
        public_moves=moves,
    )
    if exhausted and not last_discard:
        return _end_void(discarded)
    return discarded


def _end_void(state: RoundState) -> RoundState:
    result = RoundResult(
        kind=ResultKind.VOID,
        knocker=None,
        winner=None,
        points=0,
        showdown=None,
        hands=Pair.of(state.hand),
    )
    return _copy(state, phase=Phase.OVER, result=result)


def _knock(state: RoundState, seat: Seat, action: Action) -> RoundState:
    hands = state.hands
    if action.card is not None:
        hands = hands.replace(seat, hands[seat] ^ action.card.bit)
    showdown = settle(
        from_mask(hands[seat]),
        from_mask(hands[seat.other]),
        state.rules,
        knock_limit=state.knock_limit,
        doubled=state.doubled,
    )
    winner = seat if showdown.winner is Side.KNOCKER else seat.other
    ended = _copy(
        state,
        hands=hands,
        knock_discard=action.card,
        known=state.known.replace(seat, state.known[seat] & hands[seat]),
        taken=None,
        phase=Phase.OVER,
    )
    result = RoundResult(
        kind=ResultKind(showdown.kind.value),
        knocker=seat,
        winner=winner,
        points=showdown.points,
        showdown=showdown,
        hands=Pair.of(ended.hand),
    )
    return _copy(ended, result=result)


# --- why an action is not legal ---------------------------------------------------------


def why_illegal(state: RoundState, action: Action) -> str:
    """A human reason for refusing ``action``; diagnostic only (``legal_actions`` decides)."""
    phase, kind, card = state.phase, action.kind, action.card
    choices = ", ".join(str(a) for a in legal_actions(state)[:6])
    if phase is Phase.OVER:
        return "the round is over"
    if phase is Phase.FIRST_UPCARD:
        return f"the first upcard may only be taken or passed (take, pass), not {kind.value}"
    if phase is Phase.LAST_DISCARD:
        if kind is ActionKind.DRAW_DISCARD:
            return "the last discard may only be taken to knock, and no knock is possible with it"
        return "with two stock cards left you may only take the last discard to knock, or pass"
    if phase is Phase.DRAW:
        if kind is ActionKind.DRAW_DISCARD and state.stock_only:
            return "after both passed on the first upcard the non-dealer must draw from the stock"
        if kind is ActionKind.DRAW_DISCARD:
            return "the discard pile is empty"
        return f"draw first: {choices}"
    # Phase.DISCARD
    hand = state.hands[state.turn]
    if card is None:
        if kind is ActionKind.BIG_GIN:
            if state.rules.big_gin_bonus is None:
                return "Big Gin is not played with these rules"
            return f"Big Gin needs all 11 cards melded; deadwood is {deadwood_of_mask(hand)}"
        return "you have drawn already; now discard, knock or gin"
    if not hand & card.bit:
        return f"{card} is not in your hand"
    if card is state.taken:
        return f"{card} was just taken from the discard pile and may not be discarded now"
    deadwood = deadwood_of_mask(hand ^ card.bit)
    if kind is ActionKind.DISCARD:
        return "the last discard was taken to knock: you must knock or go gin"
    if kind is ActionKind.GIN:
        return f"deadwood after discarding {card} would be {deadwood}; gin needs 0"
    if deadwood == 0:
        return f"deadwood after discarding {card} would be 0: that is gin, not a knock"
    if state.knock_limit == 0:
        return "the first upcard was an ace: this round may only end with gin"
    return (
        f"deadwood after discarding {card} would be {deadwood}, "
        f"above the knock limit {state.knock_limit}"
    )
