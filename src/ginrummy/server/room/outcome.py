"""What a match's end writes besides its last event: one result row per person and,
for a rated match, who played whom and how it ended (the store rates it, atomically,
in the same transaction). A pure function of plain values."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from ginrummy.engine import ForfeitReason, MatchState, ResultKind, Seat
from ginrummy.server.store import Outcome, Player, RatedMatch, ResultRow


def outcome(
    room_id: str,
    match: MatchState,
    match_seq: int,
    players: Mapping[Seat, Player],
    bots: Mapping[Seat, str | None],
    rated: bool,
    now: float,
) -> Outcome:
    """Result rows for the people of the finished ``match`` (``players``: their records,
    a computer seat has none; ``bots``: each seat's computer level) and, if the room is
    ``rated`` and both seats are people, the match for the store to rate."""
    result = match.result
    if result is None:
        raise ValueError("a match without a result has no outcome")
    abandons: tuple[str, ...] = ()
    if result.forfeit is ForfeitReason.ABANDONED and result.forfeited_by is not None:
        leaver = players.get(result.forfeited_by)
        abandons = () if leaver is None else (leaver.id,)
    rated = rated and len(players) == 2
    rating = (
        RatedMatch(
            players[Seat.ONE].id,
            players[Seat.TWO].id,
            1.0 if result.winner is Seat.ONE else 0.0,
        )
        if rated
        else None
    )
    rows = tuple(
        replace(
            _row(room_id, match_seq, match, seat, player, players.get(seat.other), now),
            bot=bots.get(seat.other),
            rated=rating is not None,
        )
        for seat, player in players.items()
    )
    return Outcome(rows, rating, abandons)


def _row(
    room_id: str,
    match_seq: int,
    match: MatchState,
    seat: Seat,
    player: Player,
    opponent: Player | None,
    now: float,
) -> ResultRow:
    """``player``'s result row, unrated and against no computer until the caller says
    otherwise; a rated row's rating and RD are filled in by the store."""
    result = match.result
    assert result is not None
    rounds = [r.result for r in match.rounds]
    return ResultRow(
        room=room_id,
        match_seq=match_seq,
        player=player.id,
        seat=seat.label,
        opponent=None if opponent is None else opponent.id,
        bot=None,
        rated=False,
        won=result.winner is seat,
        rounds=len(rounds),
        gins=sum(
            r.winner is seat and r.kind in (ResultKind.GIN, ResultKind.BIG_GIN) for r in rounds
        ),
        undercuts_scored=sum(r.kind is ResultKind.UNDERCUT and r.winner is seat for r in rounds),
        undercuts_suffered=sum(r.kind is ResultKind.UNDERCUT and r.knocker is seat for r in rounds),
        points=result.round_points[seat],
        margin=result.totals[seat] - result.totals[seat.other],
        forfeit=None if result.forfeit is None else result.forfeit.value,
        rating=None,
        rd=None,
        t=now,
    )
