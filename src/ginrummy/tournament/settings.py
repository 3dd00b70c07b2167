"""A tournament's settings and the people and computers who play in it."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from ginrummy.engine import Rules, RulesError
from ginrummy.tournament import knockout
from ginrummy.tournament.errors import ErrorCode, TournamentError

MIN_PLAYERS = knockout.MIN_PLAYERS  # both formats: 4 to 64 players
MAX_PLAYERS = knockout.MAX_PLAYERS
START_NOTICE = 60  # seconds: a set start time lies at least this far ahead
NAME_LENGTH = 60


class Format(StrEnum):
    KNOCKOUT = "knockout"
    SWISS = "swiss"


@dataclass(frozen=True, slots=True)
class Settings:
    """What the creator chose. Refuses bad values with a ``TournamentError``; the start
    time is checked against the clock by ``commands.create``.

    >>> Settings("Friday", "swiss", 16).format
    <Format.SWISS: 'swiss'>
    >>> try:
    ...     Settings("Friday", "round robin", 16)
    ... except TournamentError as err:
    ...     print(err.code.value)
    unknown_format
    """

    name: str
    format: Format
    max_players: int
    rules_preset: str = "standard"
    target_score: int = 100
    move_timer_seconds: int | None = None
    rated: bool = False
    start_at: float | None = None  # seconds on the caller's clock; None: when full
    public: bool = True
    rounds: int | None = None  # Swiss only; None: ceil(log2(n)) + 1 at the start
    third_place: bool = False  # knockout only: a match for third place
    computer_level: str | None = None  # fill empty places with this level at the start
    grace_seconds: int = 120  # how long the server waits for a player before a no-show

    def __post_init__(self) -> None:
        try:
            object.__setattr__(self, "format", Format(self.format))
        except ValueError:
            raise TournamentError(
                ErrorCode.UNKNOWN_FORMAT,
                f"unknown format {self.format!r}; choose {' or '.join(Format)}",
            ) from None
        if not MIN_PLAYERS <= self.max_players <= MAX_PLAYERS:
            raise TournamentError(
                ErrorCode.SIZE_OUT_OF_RANGE,
                f"a tournament has {MIN_PLAYERS} to {MAX_PLAYERS} places, not {self.max_players}",
            )
        if self.rounds is not None and not 1 <= self.rounds < self.max_players:
            raise TournamentError(
                ErrorCode.ROUNDS_OUT_OF_RANGE,
                f"{self.max_players} places allow 1 to {self.max_players - 1} rounds, "
                f"not {self.rounds}",
            )
        problem = self._problem()
        if problem:
            raise TournamentError(ErrorCode.BAD_SETTINGS, problem)

    def _problem(self) -> str | None:
        if not self.name.strip() or len(self.name) > NAME_LENGTH:
            return f"the name must have 1 to {NAME_LENGTH} characters"
        if self.rounds is not None and self.format is not Format.SWISS:
            return "only a Swiss tournament has a number of rounds"
        if self.third_place and self.format is not Format.KNOCKOUT:
            return "only a knockout has a match for third place"
        if self.computer_level is not None and not self.computer_level:
            return "the computer level must be named"
        if not 10 <= self.grace_seconds <= 3600:
            return f"the grace period must be 10..3600 seconds, not {self.grace_seconds}"
        try:
            self.rules()
        except RulesError as exc:
            return str(exc)
        return None

    def rules(self) -> Rules:
        """The rules of every match: the preset with the target score and move timer."""
        return Rules.preset(
            self.rules_preset,
            target_score=self.target_score,
            move_timer_seconds=self.move_timer_seconds,
        )


@dataclass(frozen=True, slots=True)
class Entrant:
    """A player: ``id`` is the server's identity of a person (or a computer's own id),
    ``rating`` seeds the field, ``computer`` names a computer player's level."""

    id: str
    name: str
    rating: float
    computer: str | None = None
