"""Commands: each checks a request against the state and returns the events it causes,
or raises ``TournamentError`` and changes nothing (docs/tournaments.md, life).

The clock is the caller's: every command takes ``at`` (seconds). Pairing a round needs
match ids for its rooms; ``match_ids(round, board)`` makes them (by default ``"3.2"``
for round 3, board 2), so the server may pass its own room ids.

>>> from ginrummy.tournament import Entrant, Settings, rebuild
>>> log = [create(Settings("Cup", "knockout", 4), "ann", at=0)]
>>> for i, name in enumerate(["ann", "bob", "cat", "dan"]):
...     log += join(rebuild(log), Entrant(name, name.title(), 1500 - i), at=1)
>>> t = rebuild(log)
>>> t.phase, [p.players for p in t.current.pairings]
(<Phase.RUNNING: 'running'>, [('ann', 'dan'), ('bob', 'cat')])
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable
from dataclasses import replace

from ginrummy.tournament import knockout, swiss
from ginrummy.tournament.errors import ErrorCode, TournamentError
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
)
from ginrummy.tournament.games import Pairing
from ginrummy.tournament.settings import MIN_PLAYERS, START_NOTICE, Entrant, Settings
from ginrummy.tournament.state import Phase, Tournament, fold

MatchIds = Callable[[int, int], str]
NO_SHOWS_TO_WITHDRAW = 2


def default_match_id(round_number: int, board: int) -> str:
    return f"{round_number}.{board}"


def apply_events(state: Tournament, events: Iterable[Event]) -> Tournament:
    """The state after the events a command returned."""
    for event in events:
        state = fold(state, event)
    return state


def create(settings: Settings, creator: str, *, at: float) -> Created:
    """A new tournament; a set start time must lie at least a minute ahead."""
    if settings.start_at is not None and settings.start_at < at + START_NOTICE:
        raise TournamentError(
            ErrorCode.START_IN_PAST,
            f"the start time must be at least {START_NOTICE} s ahead; "
            f"it is {settings.start_at - at:.0f} s from now",
        )
    return Created(settings, creator, at)


def _must_be_open(state: Tournament, what: str) -> None:
    if state.phase is Phase.FINISHED:
        raise TournamentError(ErrorCode.FINISHED, f"cannot {what}: the tournament is over")
    if state.phase is Phase.RUNNING:
        raise TournamentError(
            ErrorCode.ALREADY_STARTED, f"cannot {what}: the tournament has started"
        )


def join(
    state: Tournament, entrant: Entrant, *, at: float, match_ids: MatchIds = default_match_id
) -> tuple[Event, ...]:
    """Take a place; the last place starts a tournament that starts when full."""
    _must_be_open(state, "join")
    if state.entrant(entrant.id) is not None:
        raise TournamentError(ErrorCode.ALREADY_JOINED, f"{entrant.id} has already joined")
    if state.full:
        raise TournamentError(
            ErrorCode.TOURNAMENT_FULL, f"all {state.settings.max_players} places are taken"
        )
    joined = Joined(entrant, at)
    after = fold(state, joined)
    if after.full and state.settings.start_at is None:
        return (joined, *_start(after, at, match_ids))
    return (joined,)


def leave(state: Tournament, player: str, *, at: float) -> tuple[Event, ...]:
    """Give up a place before the start (after it, ``withdraw``)."""
    if state.phase is Phase.RUNNING:
        raise TournamentError(
            ErrorCode.ALREADY_STARTED, "the tournament has started: withdraw instead of leaving"
        )
    _must_be_open(state, "leave")
    if state.entrant(player) is None:
        raise TournamentError(ErrorCode.NOT_JOINED, f"{player} has not joined")
    return (Left(player, at),)


def start(
    state: Tournament,
    *,
    at: float,
    by: str | None,
    match_ids: MatchIds = default_match_id,
    computer_rating: float = 1500.0,
) -> tuple[Event, ...]:
    """Start now: by the creator (early, with at least four players once computers fill
    the empty places), or by the clock (``by=None``) at the set start time, which
    cancels a tournament that has fewer than four."""
    _must_be_open(state, "start")
    if by is not None and by != state.creator:
        raise TournamentError(
            ErrorCode.NOT_CREATOR, f"only {state.creator} may start the tournament"
        )
    start_at = state.settings.start_at
    if by is None and (start_at is None or at < start_at):
        raise TournamentError(
            ErrorCode.TOO_EARLY, f"the clock starts this tournament at {start_at}"
        )
    filled, joins = _with_computers(state, at, computer_rating)
    field = len(filled.entrants)
    if field < MIN_PLAYERS:
        if by is None:
            return (Finished(FinishReason.CANCELLED, at),)
        raise TournamentError(
            ErrorCode.TOO_FEW_PLAYERS, f"{field} players; a tournament needs {MIN_PLAYERS}"
        )
    return (*joins, *_start(filled, at, match_ids))


def _with_computers(
    state: Tournament, at: float, rating: float
) -> tuple[Tournament, tuple[Joined, ...]]:
    """Computer players of the chosen level in every empty place."""
    level = state.settings.computer_level
    if level is None:
        return state, ()
    taken = set(state.players)
    joins = []
    number = 0
    while len(taken) < state.settings.max_players:
        number += 1
        player = f"computer:{level}:{number}"
        if player not in taken:
            taken.add(player)
            joins.append(Joined(Entrant(player, f"{level} {number}", rating, level), at))
    return apply_events(state, joins), tuple(joins)


def _start(state: Tournament, at: float, match_ids: MatchIds) -> tuple[Event, ...]:
    order = {e.id: i for i, e in enumerate(state.entrants)}
    # seeded by rating; equal ratings by who joined first
    seeds = tuple(sorted(state.entrants, key=lambda e: (-e.rating, order[e.id])))
    n = len(seeds)
    if state.is_knockout:
        rounds = knockout.rounds_for(n)
    else:
        rounds = min(state.settings.rounds or swiss.default_rounds(n), n - 1)
    started = Started(seeds, rounds, at)
    return (started, *advance(fold(state, started), at=at, match_ids=match_ids))


def advance(
    state: Tournament, *, at: float, match_ids: MatchIds = default_match_id
) -> tuple[Event, ...]:
    """When the current round is complete: pair the next one (with its walkovers, which
    may complete it in turn), or finish. Nothing while a match is being played."""
    events: list[Event] = []
    while state.phase is Phase.RUNNING and (state.current is None or state.current.complete):
        step = _next_round(state, at, match_ids)
        events += step
        state = apply_events(state, step)
    return tuple(events)


def _next_round(state: Tournament, at: float, match_ids: MatchIds) -> tuple[Event, ...]:
    number = len(state.rounds) + 1
    pairings = _knockout_round(state) if state.is_knockout else _swiss_round(state, number)
    if isinstance(pairings, FinishReason):
        return (Finished(pairings, at),)
    with_ids = tuple(
        p if p.is_bye else replace(p, match_id=match_ids(number, p.board)) for p in pairings
    )
    paired = RoundPaired(number, with_ids, at)
    return (paired, *_walkovers(fold(state, paired), at))


def _knockout_round(state: Tournament) -> tuple[Pairing, ...] | FinishReason:
    current = state.current
    if current is None:
        return knockout.first_round(state.players, state.apart)
    main = [(p, game) for p, game in current.decided() if not p.third_place]
    # a knockout match always has a winner: a double no-show goes to the better seed
    winners = {p.board: game.winner or p.first for p, game in main}
    pairings = knockout.next_round(
        [p for p, _ in main], winners, state.players, third_place=state.settings.third_place
    )
    return pairings or FinishReason.COMPLETED


def _swiss_round(state: Tournament, number: int) -> tuple[Pairing, ...] | FinishReason:
    if len(state.rounds) >= state.planned_rounds:
        return FinishReason.COMPLETED
    active = set(state.active())
    ranked = [s.player for s in state.standings() if s.player in active]
    games = state.games()
    if len(ranked) < 2 or not swiss.bye_possible(ranked, games):
        return FinishReason.NO_PAIRING
    return swiss.pair(ranked, games, round_number=number, avoid=state.apart)


def _walkovers(state: Tournament, at: float) -> tuple[MatchResult, ...]:
    """A knockout pairs players who withdrew after winning their last tie: their
    opponent advances (two withdrawn players: the better seed, formally)."""
    current = state.current
    assert current is not None, "walkovers follow a pairing"
    out = []
    for p in current.pending():
        absent = tuple(x for x in p.players if x in state.withdrawn)
        if absent and p.match_id is not None:
            winner = next((x for x in p.players if x not in absent), p.first)
            out.append(MatchResult(p.match_id, winner, 0, 0, ResultReason.WITHDRAWAL, absent, at))
    return tuple(out)


def _pending_match(state: Tournament, match_id: str) -> Pairing:
    if state.phase is Phase.OPEN:
        raise TournamentError(ErrorCode.NOT_STARTED, "the tournament has not started")
    if state.phase is Phase.FINISHED:
        raise TournamentError(ErrorCode.FINISHED, "the tournament is over")
    found = state.find(match_id)
    if found is None:
        raise TournamentError(ErrorCode.UNKNOWN_MATCH, f"no match {match_id!r} in this tournament")
    rnd, pairing = found
    # earlier rounds are complete: the next one is paired only then
    if rnd.result_of(match_id) is not None:
        raise TournamentError(ErrorCode.MATCH_DECIDED, f"match {match_id} is already decided")
    return pairing


def record_result(
    state: Tournament,
    match_id: str,
    winner: str,
    points: tuple[int, int],
    *,
    at: float,
    match_ids: MatchIds = default_match_id,
) -> tuple[Event, ...]:
    """The room's match ended: ``winner`` and the game points of (first, second)."""
    pairing = _pending_match(state, match_id)
    if winner not in pairing.players:
        raise TournamentError(ErrorCode.BAD_RESULT, f"{winner} does not play match {match_id}")
    if min(points) < 0:
        raise TournamentError(ErrorCode.BAD_RESULT, f"points cannot be negative: {points}")
    result = MatchResult(match_id, winner, *points, ResultReason.PLAYED, (), at)
    return (result, *advance(fold(state, result), at=at, match_ids=match_ids))


def no_show(
    state: Tournament,
    match_id: str,
    absent: Collection[str],
    *,
    at: float,
    match_ids: MatchIds = default_match_id,
) -> tuple[Event, ...]:
    """Players of the match did not come within the grace period: they lose by forfeit
    (both absent: both lose in Swiss; the better seed advances in a knockout), and a
    second no-show in a row withdraws a player."""
    pairing = _pending_match(state, match_id)
    if not absent or not set(absent) <= set(pairing.players):
        raise TournamentError(
            ErrorCode.BAD_RESULT, f"{sorted(absent)} are not the players of {match_id}"
        )
    present = [p for p in pairing.players if p not in absent]
    winner = present[0] if present else (pairing.first if state.is_knockout else None)
    missing = tuple(p for p in pairing.players if p in absent)
    result = MatchResult(match_id, winner, 0, 0, ResultReason.NO_SHOW, missing, at)
    after = fold(state, result)
    out: list[Event] = [result]
    out += [
        Withdrawn(p, WithdrawReason.NO_SHOWS, at)
        for p in missing
        if after.no_show_streak(p) >= NO_SHOWS_TO_WITHDRAW and p not in after.withdrawn
    ]
    after = apply_events(after, out[1:])
    return (*out, *advance(after, at=at, match_ids=match_ids))


def withdraw(
    state: Tournament, player: str, *, at: float, match_ids: MatchIds = default_match_id
) -> tuple[Event, ...]:
    """Leave a running tournament: a match being played is forfeited, later rounds do
    not pair the player, the standings keep the games played."""
    if state.phase is Phase.OPEN:
        raise TournamentError(
            ErrorCode.NOT_STARTED, "the tournament has not started: leave instead"
        )
    if state.phase is Phase.FINISHED:
        raise TournamentError(ErrorCode.FINISHED, "the tournament is over")
    if state.entrant(player) is None:
        raise TournamentError(ErrorCode.NOT_JOINED, f"{player} does not play in this tournament")
    if player in state.withdrawn:
        raise TournamentError(ErrorCode.WITHDRAWN, f"{player} has already withdrawn")
    out: list[Event] = [Withdrawn(player, WithdrawReason.REQUEST, at)]
    current = state.current
    for p in current.pending() if current is not None else ():
        if player in p.players and p.match_id is not None:
            other = next(x for x in p.players if x != player)
            out.append(MatchResult(p.match_id, other, 0, 0, ResultReason.WITHDRAWAL, (player,), at))
    after = apply_events(state, out)
    return (*out, *advance(after, at=at, match_ids=match_ids))
