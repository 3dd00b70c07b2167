"""What a match's end writes besides its last event: one result row per person and,
for a rated match, both people's new ratings. A pure function of plain values."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from ginrummy.engine import ForfeitReason, MatchState, ResultKind, Seat
from ginrummy.ratings import Rating, rate_match
from ginrummy.server.store import Outcome, Player, ResultRow


def outcome(
    room_id: str,
    match: MatchState,
    match_seq: int,
    players: Mapping[Seat, Player],
    bots: Mapping[Seat, str | None],
    rated: bool,
    now: float,
) -> Outcome:
    """Result rows for the people of the finished ``match`` (``players``: their current
    records, a computer seat has none; ``bots``: each seat's computer level) and, if
    the room is ``rated`` and both seats are people, their new ratings."""
    result = match.result
    if result is None:
        raise ValueError("a match without a result has no outcome")
    abandons: tuple[str, ...] = ()
    if result.forfeit is ForfeitReason.ABANDONED and result.forfeited_by is not None:
        leaver = players.get(result.forfeited_by)
        abandons = () if leaver is None else (leaver.id,)
    rated = rated and len(players) == 2
    new = _rated(players, result.winner) if rated else {}
    rounds = [r.result for r in match.rounds]
    rows = []
    for seat, player in players.items():
        opponent = players.get(seat.other)
        after = new.get(seat)
        rows.append(
            ResultRow(
                room=room_id,
                match_seq=match_seq,
                player=player.id,
                seat=seat.label,
                opponent=None if opponent is None else opponent.id,
                bot=bots.get(seat.other),
                rated=rated,
                won=result.winner is seat,
                rounds=len(rounds),
                gins=sum(
                    r.winner is seat and r.kind in (ResultKind.GIN, ResultKind.BIG_GIN)
                    for r in rounds
                ),
                undercuts_scored=sum(
                    r.kind is ResultKind.UNDERCUT and r.winner is seat for r in rounds
                ),
                undercuts_suffered=sum(
                    r.kind is ResultKind.UNDERCUT and r.knocker is seat for r in rounds
                ),
                points=result.round_points[seat],
                margin=result.totals[seat] - result.totals[seat.other],
                forfeit=None if result.forfeit is None else result.forfeit.value,
                rating=None if after is None else after.rating,
                rd=None if after is None else after.rd,
                t=now,
            )
        )
    return Outcome(tuple(rows), tuple(new.values()), abandons)


def _rated(players: Mapping[Seat, Player], winner: Seat | None) -> dict[Seat, Player]:
    a, b = players[Seat.ONE], players[Seat.TWO]
    ra, rb = rate_match(
        Rating(a.rating, a.rd, a.volatility),
        Rating(b.rating, b.rd, b.volatility),
        1.0 if winner is Seat.ONE else 0.0,
    )
    return {
        seat: replace(
            p, rating=r.rating, rd=r.rd, volatility=r.volatility, rated_matches=p.rated_matches + 1
        )
        for seat, p, r in ((Seat.ONE, a, ra), (Seat.TWO, b, rb))
    }
