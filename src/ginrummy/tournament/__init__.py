"""Tournaments, the pure core (docs/tournaments.md): knockout brackets, Swiss pairing by
maximum-weight matching, standings with tie-breaks, and a state machine whose commands
return events and whose one ``fold`` rebuilds a tournament from its log. L1: imports
the engine (for the rules presets) and rustworkx, never the server; no I/O, no clock
(every command takes ``at``), no global random state.
"""

from ginrummy.tournament.commands import (
    MatchIds,
    advance,
    apply_events,
    create,
    default_match_id,
    join,
    leave,
    no_show,
    record_result,
    start,
    withdraw,
)
from ginrummy.tournament.errors import ErrorCode, LogError, TournamentError
from ginrummy.tournament.events import (
    Created,
    Event,
    Finished,
    FinishReason,
    Joined,
    Left,
    MatchResult,
    ResultReason,
    RoundPaired,
    Started,
    Withdrawn,
    WithdrawReason,
    from_record,
    to_record,
)
from ginrummy.tournament.games import Game, Pairing
from ginrummy.tournament.knockout import Placing
from ginrummy.tournament.settings import Entrant, Format, Settings
from ginrummy.tournament.standings import Standing
from ginrummy.tournament.state import Phase, Round, Tournament, fold, rebuild

__all__ = [
    "Created",
    "Entrant",
    "ErrorCode",
    "Event",
    "FinishReason",
    "Finished",
    "Format",
    "Game",
    "Joined",
    "Left",
    "LogError",
    "MatchIds",
    "MatchResult",
    "Pairing",
    "Phase",
    "Placing",
    "ResultReason",
    "Round",
    "RoundPaired",
    "Settings",
    "Standing",
    "Started",
    "Tournament",
    "TournamentError",
    "WithdrawReason",
    "Withdrawn",
    "advance",
    "apply_events",
    "create",
    "default_match_id",
    "fold",
    "from_record",
    "join",
    "leave",
    "no_show",
    "rebuild",
    "record_result",
    "start",
    "to_record",
    "withdraw",
]
