"""Chouette: three to five players at one table (docs/rules.md §8), a layer over the match.

The box plays an ordinary two-player match against the team: the box is always
``Seat.ONE`` of that match and the team ``Seat.TWO``, whose rounds the captain of the
moment plays. Rounds, dealers, scores and end-of-match bonuses are the match's own;
this layer adds only what a table of more than two needs: who is box and captain, the
settlement into a running ledger, who meets whom in the next match, and who sits out.

Chance stays outside, as in the match: the seat draw (one card per player) is given to
``new_table``, and every deck order comes in a ``Deal``. Every other change is one event
through ``apply``: an ``Action`` of the player to move, ``Leave``/``Return`` of a
player, a ``Forfeit`` and ``NextMatch``. The table keeps its events, so its record is
(rules, drawn cards, events) and replaying that rebuilds the table
(``ginrummy.engine.chouette_record``).

>>> from ginrummy.engine.cards import parse_cards
>>> table = new_table(Rules(), parse_cards("7h Kd 2c Ks"))
>>> table.box, table.order, table.captain  # Ks is highest; then Kd, 7h, 2c
(3, (1, 0, 2), 1)
>>> table.match.next_dealer is TEAM  # the first captain deals the first round
True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from ginrummy.engine.actions import Action
from ginrummy.engine.cards import Card, cards_text
from ginrummy.engine.errors import ChouetteError, IllegalActionError
from ginrummy.engine.frozen import copier
from ginrummy.engine.match import ForfeitReason, MatchResult, MatchState, deal, forfeit, new_match
from ginrummy.engine.match import apply as apply_match
from ginrummy.engine.match import legal_actions as match_legal_actions
from ginrummy.engine.rules import Rules
from ginrummy.engine.seats import Seat
from ginrummy.engine.shuffle import RandomSource, shuffled_deck

MIN_PLAYERS, MAX_PLAYERS = 3, 5
BOX = Seat.ONE  # the box's seat in every match of the table
TEAM = Seat.TWO  # the team's seat: its captain of the moment plays it


class TablePhase(StrEnum):
    MATCH = "match"  # a match is under way: a deal is due or a round is being played
    SETTLED = "settled"  # the match is over and settled; ``NextMatch`` starts the next


# --- events -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Deal:
    """The next round's deck order (52 cards, deal order of ``round.py``)."""

    deck: tuple[Card, ...]

    def __str__(self) -> str:
        return f"deal {cards_text(self.deck)}"


@dataclass(frozen=True, slots=True)
class Leave:
    """A player left the table: skipped in the captain order until they return."""

    position: int

    def __str__(self) -> str:
        return f"leave {self.position}"


@dataclass(frozen=True, slots=True)
class Return:
    """An absent player is back."""

    position: int

    def __str__(self) -> str:
        return f"return {self.position}"


@dataclass(frozen=True, slots=True)
class Forfeit:
    """The box or the captain loses the match (timer, abandoned, resigned)."""

    position: int
    reason: ForfeitReason

    def __str__(self) -> str:
        return f"forfeit {self.position} {self.reason.value}"


@dataclass(frozen=True, slots=True)
class NextMatch:
    """Start the next match after a settled one."""

    def __str__(self) -> str:
        return "next match"


ChouetteEvent = Action | Deal | Leave | Return | Forfeit | NextMatch


# --- the table ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Settlement:
    """One finished match, settled: ``value`` to or from each team member (§8)."""

    number: int  # 1-based match number at the table
    box: int
    team: tuple[int, ...]  # the team members, in captain order
    result: MatchResult  # seat one is the box, seat two the team
    value: int
    changes: tuple[int, ...]  # the ledger's change per position; sums to zero


@dataclass(frozen=True, slots=True)
class ChouetteTable:
    """A chouette table; players are positions ``0..players-1``."""

    rules: Rules
    drawn: tuple[Card, ...]  # the seat draw, one card per position
    phase: TablePhase
    box: int
    order: tuple[int, ...]  # the team in captain order (cyclic)
    captain: int  # the team member who plays the team's rounds now
    match: MatchState  # box is Seat.ONE, the team Seat.TWO; the last one once settled
    number: int  # 1-based number of the current (or last) match
    captains: tuple[int, ...]  # the captain of each round dealt in this match
    ledger: tuple[int, ...]  # running result per position over the table's matches
    absent: frozenset[int]
    last_played: tuple[int, ...]  # per position: the table's round it last played, 0 never
    dealt: int  # rounds dealt at the table
    settlements: tuple[Settlement, ...]
    events: tuple[ChouetteEvent, ...]  # everything after the seat draw, in order

    @property
    def players(self) -> int:
        return len(self.drawn)

    @property
    def turn(self) -> int | None:
        """The position that must decide now, or None between rounds and matches."""
        seat = self.match.turn  # None once the match is over, so once settled
        return None if seat is None else position_of(self, seat)


_copy = copier(ChouetteTable)


def _draw_key(card: Card) -> tuple[int, int]:
    # The seat draw: ace low, ties of rank broken by suit, clubs < diamonds < hearts < spades.
    return (card.rank, int(card.suit))


def draw_seat_cards(rng: RandomSource, players: int) -> tuple[Card, ...]:
    """Everyone draws one card from a shuffled deck, position 0 first (§8)."""
    _check_players(players)
    return shuffled_deck(rng)[:players]


def _check_players(players: int) -> None:
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise ChouetteError(f"a chouette is {MIN_PLAYERS} to {MAX_PLAYERS} players, got {players}")


def new_table(rules: Rules, drawn: Sequence[Card]) -> ChouetteTable:
    """A table after the seat draw: the highest card is box, the rest the team in the
    order of their cards, highest first; the first of them is captain and deals."""
    drawn = tuple(drawn)
    _check_players(len(drawn))
    if not all(isinstance(c, Card) for c in drawn) or len(set(drawn)) != len(drawn):
        raise ChouetteError(f"the seat draw needs a different card per player: {drawn}")
    ranked = sorted(range(len(drawn)), key=lambda p: _draw_key(drawn[p]), reverse=True)
    box, order = ranked[0], tuple(ranked[1:])
    return ChouetteTable(
        rules=rules,
        drawn=drawn,
        phase=TablePhase.MATCH,
        box=box,
        order=order,
        captain=order[0],
        match=new_match(rules, TEAM),  # the first captain deals the first round
        number=1,
        captains=(),
        ledger=(0,) * len(drawn),
        absent=frozenset(),
        last_played=(0,) * len(drawn),
        dealt=0,
        settlements=(),
        events=(),
    )


def seat_of(table: ChouetteTable, position: int) -> Seat | None:
    """The match seat ``position`` plays now: the box's, the captain's, or None."""
    if position == table.box:
        return BOX
    return TEAM if position == table.captain else None


def position_of(table: ChouetteTable, seat: Seat) -> int:
    """Who plays ``seat`` of the current match now."""
    return table.box if seat is BOX else table.captain


def legal_actions(table: ChouetteTable) -> tuple[Action, ...]:
    """The in-round actions of the player to move (``table.turn``), from the round."""
    if table.phase is not TablePhase.MATCH:
        return ()
    return match_legal_actions(table.match)


# --- the transition -----------------------------------------------------------------------


def apply(table: ChouetteTable, event: ChouetteEvent) -> ChouetteTable:
    """The table after ``event``; refuses an event the table cannot take now."""
    if isinstance(event, Action):
        changed = _play(table, event)
    elif isinstance(event, Deal):
        changed = _deal(table, event)
    elif isinstance(event, Leave | Return):
        changed = _presence(table, event)
    elif isinstance(event, Forfeit):
        changed = _forfeit(table, event)
    else:
        changed = _next_match(table, event)
    return _copy(changed, events=(*table.events, event))


def _in_match(table: ChouetteTable, event: ChouetteEvent) -> None:
    if table.phase is not TablePhase.MATCH:
        raise IllegalActionError(event, table.phase.value, "the match is over; start the next")


def _play(table: ChouetteTable, action: Action) -> ChouetteTable:
    _in_match(table, action)
    played = apply_match(table.match, action)
    if len(played.rounds) == len(table.match.rounds):
        return _copy(table, match=played)
    if played.is_over:
        return _settle(_copy(table, match=played))
    captain = table.captain
    if played.rounds[-1].result.winner is BOX:
        # The captain lost the round: the next team member in the order takes over.
        # A void round (no winner) and a round the captain won keep the captain (§8).
        captain = next_captain(table)
    return _copy(table, match=played, captain=captain)


def _deal(table: ChouetteTable, event: Deal) -> ChouetteTable:
    _in_match(table, event)
    dealt = deal(table.match, event.deck)
    number = table.dealt + 1
    last = list(table.last_played)
    last[table.box] = last[table.captain] = number
    return _copy(
        table,
        match=dealt,
        dealt=number,
        last_played=tuple(last),
        captains=(*table.captains, table.captain),
    )


def _presence(table: ChouetteTable, event: Leave | Return) -> ChouetteTable:
    check_position(table, event.position)
    away = event.position in table.absent
    if isinstance(event, Leave):
        if away:
            raise IllegalActionError(event, table.phase.value, "that player is absent already")
        return _copy(table, absent=table.absent | {event.position})
    if not away:
        raise IllegalActionError(event, table.phase.value, "that player is not absent")
    return _copy(table, absent=table.absent - {event.position})


def check_position(table: ChouetteTable, position: int) -> None:
    """Refuse a position that names no player of ``table``."""
    if not 0 <= position < table.players:
        raise ChouetteError(f"no player {position} at a table of {table.players}")


def _forfeit(table: ChouetteTable, event: Forfeit) -> ChouetteTable:
    check_position(table, event.position)
    _in_match(table, event)
    seat = seat_of(table, event.position)
    if seat is None:
        # Only the two who play the match can lose it; a partner who left is skipped.
        reason = "only the box or the captain can forfeit the match"
        raise IllegalActionError(event, table.phase.value, reason)
    return _settle(_copy(table, match=forfeit(table.match, seat, event.reason)))


def _settle(table: ChouetteTable) -> ChouetteTable:
    result = table.match.result
    assert result is not None  # called once the match is over
    # The value is the winner's total minus the loser's; a forfeit stands on the
    # scores as they are, and never pays the side that forfeited (at least 0).
    value = max(result.margin, 0)
    each = value if result.winner is TEAM else -value  # what each team member gains
    changes = [0] * table.players
    for member in table.order:
        changes[member] = each
    changes[table.box] = -each * len(table.order)
    settlement = Settlement(table.number, table.box, table.order, result, value, tuple(changes))
    return _copy(
        table,
        phase=TablePhase.SETTLED,
        ledger=tuple(a + b for a, b in zip(table.ledger, changes, strict=True)),
        settlements=(*table.settlements, settlement),
    )


def next_captain(table: ChouetteTable) -> int:
    """Who is captain next (§8.1). While a match is played: the team member who takes
    over when the captain loses a round, the next present one in the cyclic order (the
    captain if nobody else is here); once the match is settled: the first opponent of
    the next match."""
    if table.phase is TablePhase.MATCH:
        return _next_captain(table.order, table.captain, table.absent)
    return _next_sides(table)[2]


def _next_sides(table: ChouetteTable) -> tuple[int, tuple[int, ...], int]:
    """The next match's box, team order and first captain, after a settled match."""
    assert table.match.result is not None  # settled
    # The side that reaches the target (or wins a forfeit) always won the last round.
    if table.match.result.winner is BOX:
        return table.box, table.order, _sat_out_longest(table)
    order = _order_after_box_lost(table)
    return table.captain, order, order[0]


def _next_match(table: ChouetteTable, event: NextMatch) -> ChouetteTable:
    if table.phase is not TablePhase.SETTLED:
        raise IllegalActionError(event, table.phase.value, "the match is not over")
    box, order, first = _next_sides(table)
    return _copy(
        table,
        phase=TablePhase.MATCH,
        box=box,
        order=order,
        captain=first,
        match=new_match(table.rules, TEAM),  # the first opponent deals
        number=table.number + 1,
        captains=(),
    )


def _next_captain(order: tuple[int, ...], captain: int, absent: frozenset[int]) -> int:
    """The next team member after ``captain`` in the cyclic order who is present."""
    i = order.index(captain)
    ring = order[i + 1 :] + order[: i + 1]  # the others in turn, the captain last
    for member in ring:
        if member not in absent:
            return member
    return ring[0]  # nobody is here: the order as if all were


def _sat_out_longest(table: ChouetteTable) -> int:
    """The present team member whose last round is the oldest; ties: captain order."""
    present = [m for m in table.order if m not in table.absent] or list(table.order)
    return min(present, key=lambda m: table.last_played[m])  # min keeps the first of ties


def _order_after_box_lost(table: ChouetteTable) -> tuple[int, ...]:
    """The team when the captain beat the box and becomes box (§8).

    The first opponent is the team member before the new box in the cyclic order (the
    nearest one present); the order runs on from there as before, and the old box
    joins at its end: the last to become captain before the first opponent again.
    """
    i = table.order.index(table.captain)
    others = table.order[i + 1 :] + table.order[:i]  # after the new box; ends before it
    present = [m for m in others if m not in table.absent]
    first = present[-1] if present else others[-1]
    j = others.index(first)
    return (*others[j:], *others[:j], table.box)
