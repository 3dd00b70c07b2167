"""What each player of a chouette may know (docs/rules.md §8, §5): built on ``views``.

The box gets the two-player view of the box's seat, the captain that of the team's
seat. A team member who is not captain gets the captain's view with no legal action of
their own (every decision is the captain's); the captain's choices come separately as
``advice``, the options to advise on. Nobody else's hand exists: partners hold no cards.
A spectator gets the two-player spectator view. The chouette's own facts (who is box
and captain, the ledger, the settlements) are public.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum

from ginrummy.engine.actions import Action
from ginrummy.engine.cards import Card
from ginrummy.engine.chouette import (
    BOX,
    TEAM,
    ChouetteTable,
    Settlement,
    TablePhase,
    check_position,
    next_captain,
)
from ginrummy.engine.views import SeatView, SpectatorView, view_for_seat, view_for_spectator


class Role(StrEnum):
    BOX = "box"
    CAPTAIN = "captain"
    PARTNER = "partner"  # a team member who is not captain: watches and may advise


@dataclass(frozen=True, slots=True)
class ChouetteInfo:
    """The public facts of the table, the same for everyone."""

    players: int
    drawn: tuple[Card, ...]
    phase: TablePhase
    number: int  # the current (or last) match
    box: int
    order: tuple[int, ...]  # the team in captain order
    captain: int
    next_captain: int  # who is captain next (``chouette.next_captain``)
    captains: tuple[int, ...]  # the captain of each round dealt in this match
    absent: frozenset[int]
    ledger: tuple[int, ...]
    settlements: tuple[Settlement, ...]
    turn: int | None  # the position that decides now


@dataclass(frozen=True, slots=True)
class PlayerView:
    """Everything the player at ``position`` may know; all a bot or client ever gets."""

    position: int
    role: Role
    chouette: ChouetteInfo
    seat: SeatView  # the box's seat view, or the team's (the captain's cards)
    advice: tuple[Action, ...]  # a partner's: the captain's legal actions; else ()

    @property
    def advising(self) -> bool:
        return self.role is Role.PARTNER


@dataclass(frozen=True, slots=True)
class ChouetteSpectatorView:
    chouette: ChouetteInfo
    match: SpectatorView


def _info(table: ChouetteTable) -> ChouetteInfo:
    return ChouetteInfo(
        players=table.players,
        drawn=table.drawn,
        phase=table.phase,
        number=table.number,
        box=table.box,
        order=table.order,
        captain=table.captain,
        next_captain=next_captain(table),
        captains=table.captains,
        absent=table.absent,
        ledger=table.ledger,
        settlements=table.settlements,
        turn=table.turn,
    )


def view_for_player(table: ChouetteTable, position: int) -> PlayerView:
    """The view of the player at ``position``."""
    check_position(table, position)
    info = _info(table)
    if position == table.box:
        return PlayerView(position, Role.BOX, info, view_for_seat(table.match, BOX), ())
    team = view_for_seat(table.match, TEAM)
    if position == table.captain:
        return PlayerView(position, Role.CAPTAIN, info, team, ())
    # A partner sees what the captain sees; the decision stays the captain's.
    watching = replace(team, legal_actions=())
    return PlayerView(position, Role.PARTNER, info, watching, team.legal_actions)


def view_for_table_spectator(table: ChouetteTable) -> ChouetteSpectatorView:
    """The view of someone watching the table: no hidden card at all."""
    return ChouetteSpectatorView(_info(table), view_for_spectator(table.match))
