"""A tournament's state and the one transition ``fold(state, event)``.

The live path and the rebuild share ``fold``: a tournament rebuilt from its log is the
tournament that was. ``fold`` trusts that commands validated the events; it refuses
only logs that cannot be folded (``LogError``).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from enum import StrEnum

from ginrummy.tournament import knockout
from ginrummy.tournament.errors import LogError
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
)
from ginrummy.tournament.games import Game, Pairing
from ginrummy.tournament.settings import Entrant, Format, Settings
from ginrummy.tournament.standings import Standing, standings


class Phase(StrEnum):
    OPEN = "open"  # players join and leave
    RUNNING = "running"
    FINISHED = "finished"


@dataclass(frozen=True, slots=True)
class Round:
    """One round: its pairings and the results reported so far."""

    number: int
    pairings: tuple[Pairing, ...]
    results: tuple[MatchResult, ...] = ()

    def result_of(self, match_id: str) -> MatchResult | None:
        return next((r for r in self.results if r.match_id == match_id), None)

    def pending(self) -> tuple[Pairing, ...]:
        """The matches still being played."""
        decided = {r.match_id for r in self.results}
        return tuple(p for p in self.pairings if not p.is_bye and p.match_id not in decided)

    @property
    def complete(self) -> bool:
        return not self.pending()

    def decided(self) -> tuple[tuple[Pairing, Game], ...]:
        """Byes and decided matches, in board order."""
        out = []
        for p in self.pairings:
            result = None if p.match_id is None else self.result_of(p.match_id)
            if p.is_bye:
                out.append((p, Game(p.first, None, p.first)))
            elif result is not None:
                game = Game(
                    p.first, p.second, result.winner, result.first_points, result.second_points
                )
                out.append((p, game))
        return tuple(out)


@dataclass(frozen=True, slots=True)
class Tournament:
    """Everything the log says so far. Players are named by ``Entrant.id``; ``players``
    is the seed order once started, and withdrawn players stay in it (and in the
    standings) but are not paired again."""

    settings: Settings
    creator: str
    created_at: float
    phase: Phase = Phase.OPEN
    entrants: tuple[Entrant, ...] = ()  # in join order while open, in seed order from the start
    planned_rounds: int = 0
    rounds: tuple[Round, ...] = ()
    withdrawn: tuple[str, ...] = ()  # in the order they withdrew
    finish: FinishReason | None = None
    started_at: float | None = None
    version: int = 1  # events folded
    # Not from the log: the pairs of players who block each other, as the caller knows
    # them when it runs a command; Swiss pairing and a knockout's first round keep them
    # apart where they can (docs/accounts.md, "Blocks"). Events never depend on it but
    # for that choice.
    apart: frozenset[frozenset[str]] = frozenset()

    def entrant(self, player: str) -> Entrant | None:
        return next((e for e in self.entrants if e.id == player), None)

    @property
    def players(self) -> tuple[str, ...]:
        return tuple(e.id for e in self.entrants)

    @property
    def full(self) -> bool:
        return len(self.entrants) >= self.settings.max_players

    def active(self) -> tuple[str, ...]:
        """Players not withdrawn, in seed order."""
        return tuple(p for p in self.players if p not in self.withdrawn)

    @property
    def current(self) -> Round | None:
        return self.rounds[-1] if self.rounds else None

    def find(self, match_id: str) -> tuple[Round, Pairing] | None:
        for rnd in self.rounds:
            for p in rnd.pairings:
                if p.match_id == match_id:
                    return rnd, p
        return None

    def games(self) -> tuple[Game, ...]:
        """Every bye and decided match so far, round by round."""
        return tuple(game for rnd in self.rounds for _, game in rnd.decided())

    def standings(self) -> tuple[Standing, ...]:
        """Swiss standings (a knockout ranks by ``placings``)."""
        return standings(self.players, self.games())

    def placings(self) -> tuple[knockout.Placing, ...]:
        return knockout.placings([rnd.decided() for rnd in self.rounds], self.players)

    def no_show_streak(self, player: str) -> int:
        """No-shows in a row in the player's latest decided matches."""
        streak = 0
        for rnd in self.rounds:
            for p, _ in rnd.decided():
                if p.is_bye or player not in p.players:
                    continue
                result = rnd.result_of(p.match_id or "")
                missed = result is not None and result.reason is ResultReason.NO_SHOW
                streak = streak + 1 if missed and player in _absent(result) else 0
        return streak

    @property
    def is_knockout(self) -> bool:
        return self.settings.format is Format.KNOCKOUT


def _absent(result: MatchResult | None) -> tuple[str, ...]:
    return () if result is None else result.absent


def fold(state: Tournament | None, event: Event) -> Tournament:
    """The tournament after ``event`` (``None`` before ``created``)."""
    if state is None:
        if not isinstance(event, Created):
            raise LogError(f"the log starts with {type(event).__name__}, not Created")
        return Tournament(event.settings, event.creator, event.at)
    after = _apply(state, event)
    return replace(after, version=state.version + 1)


def _apply(state: Tournament, event: Event) -> Tournament:
    match event:
        case Joined(entrant=entrant):
            return replace(state, entrants=(*state.entrants, entrant))
        case Left(player=player):
            return replace(state, entrants=tuple(e for e in state.entrants if e.id != player))
        case Started(seeds=seeds, rounds=rounds, at=at):
            return replace(
                state, phase=Phase.RUNNING, entrants=seeds, planned_rounds=rounds, started_at=at
            )
        case RoundPaired(round=number, pairings=pairings):
            return replace(state, rounds=(*state.rounds, Round(number, pairings)))
        case MatchResult(match_id=match_id):
            return _with_result(state, match_id, event)
        case Withdrawn(player=player):
            return replace(state, withdrawn=(*state.withdrawn, player))
        case Finished(reason=reason):
            return replace(state, phase=Phase.FINISHED, finish=reason)
        case Created():
            raise LogError("a second Created event")
    raise LogError(f"not a tournament event: {event!r}")


def _with_result(state: Tournament, match_id: str, result: MatchResult) -> Tournament:
    current = state.current
    if current is None or all(p.match_id != match_id for p in current.pairings):
        raise LogError(f"a result for {match_id!r}, which is not a match of the current round")
    updated = replace(current, results=(*current.results, result))
    return replace(state, rounds=(*state.rounds[:-1], updated))


def rebuild(events: Iterable[Event]) -> Tournament:
    """The tournament a whole log describes."""
    state: Tournament | None = None
    for event in events:
        state = fold(state, event)
    if state is None:
        raise LogError("an empty log has no tournament")
    return state
