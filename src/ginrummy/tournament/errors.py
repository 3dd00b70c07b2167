"""The typed error of the tournament core: a stable code (docs/tournaments.md) and a
sentence that says what and why. A refused command changes nothing: it raises before
any event exists."""

from __future__ import annotations

from enum import StrEnum


class ErrorCode(StrEnum):
    UNKNOWN_FORMAT = "unknown_format"
    SIZE_OUT_OF_RANGE = "size_out_of_range"
    ROUNDS_OUT_OF_RANGE = "rounds_out_of_range"
    START_IN_PAST = "start_in_past"
    BAD_SETTINGS = "bad_settings"  # empty name, unknown rules preset, bad timer or score
    TOURNAMENT_FULL = "tournament_full"
    ALREADY_JOINED = "already_joined"
    NOT_JOINED = "not_joined"
    ALREADY_STARTED = "already_started"  # join, leave (use withdraw) or start after the start
    NOT_STARTED = "not_started"
    FINISHED = "finished"
    NOT_CREATOR = "not_creator"
    TOO_FEW_PLAYERS = "too_few_players"
    TOO_EARLY = "too_early"  # the clock starts a tournament only at its start time
    UNKNOWN_MATCH = "unknown_match"
    MATCH_DECIDED = "match_decided"
    BAD_RESULT = "bad_result"  # a winner or an absent player who is not in the match
    WITHDRAWN = "withdrawn"


class TournamentError(ValueError):
    """A refused tournament command.

    >>> err = TournamentError(ErrorCode.TOURNAMENT_FULL, "all 8 places are taken")
    >>> err.code, str(err)
    (<ErrorCode.TOURNAMENT_FULL: 'tournament_full'>, 'tournament_full: all 8 places are taken')
    """

    def __init__(self, code: ErrorCode, message: str) -> None:
        self.code = code
        self.message = message
        super().__init__(f"{code.value}: {message}")


class LogError(ValueError):
    """An event log that does not fold: an event before ``created``, a second
    ``created``, or a record of an unknown kind or shape."""
