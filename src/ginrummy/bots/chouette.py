"""Computer players at a chouette table (docs/rules.md §8): the two-player bots, unchanged.

The box and the captain each play an ordinary two-player match seat, so a bot decides
on their seat view as in two-player. A partner's advice is the level's bot deciding
the captain's position: the partner sees the captain's hand and what the captain sees
(``PlayerView.seat``), and the captain's options come as ``PlayerView.advice``. The bot
never gets more than the player it plays or advises for may see.

>>> import random
>>> from ginrummy.engine import Rules, parse_cards, shuffled_deck
>>> from ginrummy.engine.chouette import Deal, apply, new_table
>>> from ginrummy.engine.chouette_views import view_for_player
>>> table = new_table(Rules(), parse_cards("7h Kd 2c Ks"))
>>> table = apply(table, Deal(shuffled_deck(random.Random(4))))
>>> box, partner = view_for_player(table, 3), view_for_player(table, 0)  # captain is 1
>>> str(choose_move("baseline", box, random.Random(1))) in ("take", "pass")
True
>>> advise("baseline", partner, random.Random(1)) is None  # the box decides, not the captain
True
"""

from __future__ import annotations

import random
from dataclasses import replace

from ginrummy.bots import make_bot
from ginrummy.engine import Action, SeatView
from ginrummy.engine.chouette_views import PlayerView, Role


class NotYourDecisionError(ValueError):
    """A computer asked to move for a player who does not decide now, or to advise as one
    who is not a partner."""


def decision_view(view: PlayerView) -> SeatView:
    """The seat view a bot decides on for ``view``'s player: the box's or the captain's
    own, or for a partner the captain's with the captain's options (``advice``)."""
    if view.role is Role.PARTNER:
        return replace(view.seat, legal_actions=view.advice)
    return view.seat


def choose_move(level: str, view: PlayerView, rng: random.Random) -> Action:
    """The action of a computer of ``level`` playing box or captain, on its turn.

    Raises ``NotYourDecisionError`` for a partner (who never decides) or a player who is
    not to act; ``KeyError`` for an unknown level."""
    if view.role is Role.PARTNER:
        raise NotYourDecisionError(f"position {view.position} is a partner: the captain decides")
    if not view.seat.legal_actions:
        raise NotYourDecisionError(f"position {view.position} has no decision to make now")
    return make_bot(level)(view.seat, rng)


def advise(level: str, view: PlayerView, rng: random.Random) -> Action | None:
    """The advice of a computer of ``level`` for a partner: the action the level's bot
    would take in the captain's place; ``None`` when the captain has nothing to decide.

    Raises ``NotYourDecisionError`` for the box and the captain (only partners advise)."""
    if view.role is not Role.PARTNER:
        raise NotYourDecisionError(f"position {view.position} is {view.role}: only partners advise")
    if not view.advice:
        return None
    return make_bot(level)(decision_view(view), rng)
