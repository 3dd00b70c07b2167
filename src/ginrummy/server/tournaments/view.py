"""A tournament as the HTTP API and the lobby socket show it (docs/protocol.md,
Tournaments): settings, players, rounds with their results and rooms, standings
(Swiss) or placings (knockout), the winner. Public: no identity is in it."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from ginrummy.server.tournaments.records import Loaded
from ginrummy.tournament import Pairing, Phase, Round, Tournament


def summary(loaded: Loaded) -> dict[str, Any]:
    """What the lobby lists of a tournament."""
    t = loaded.state
    s = t.settings
    return {
        "id": loaded.id,
        "name": s.name,
        "format": s.format.value,
        "phase": t.phase.value,
        "players": len(t.entrants),
        "max_players": s.max_players,
        "rules": s.rules_preset,
        "target_score": s.target_score,
        "rated": s.rated,
        "start_at": s.start_at,
        "round": len(t.rounds),
        "created": t.created_at,
        "version": t.version,
    }


def full(loaded: Loaded) -> dict[str, Any]:
    """Everything a tournament page shows."""
    t = loaded.state
    out = summary(loaded)
    out.update(
        settings=_settings(t),
        creator=t.creator,
        entrants=[{**asdict(e), "withdrawn": e.id in t.withdrawn} for e in t.entrants],
        planned_rounds=t.planned_rounds,
        rounds=[_round(r) for r in t.rounds],
        finish=None if t.finish is None else t.finish.value,
        winner=_winner(t),
    )
    if t.phase is not Phase.OPEN:
        if t.is_knockout:
            out["placings"] = [asdict(p) for p in t.placings()]
        else:
            out["standings"] = [asdict(s) for s in t.standings()]
    return out


def played(loaded: Loaded, player: str) -> dict[str, Any] | None:
    """A tournament on ``player``'s statistics page: their place (``placing`` of
    ``of``, by the placings or standings so far; a knockout's place is shared by the
    players out in the same round) once it started with them, else None."""
    t = loaded.state
    if t.started_at is None or player not in t.players:
        return None
    if t.is_knockout:
        placing = next(p.place for p in t.placings() if p.player == player)
    else:
        placing = next(s.rank for s in t.standings() if s.player == player)
    return {
        "id": loaded.id,
        "name": t.settings.name,
        "format": t.settings.format.value,
        "placing": placing,
        "of": len(t.players),
        "finished": t.phase is Phase.FINISHED,
        "started": t.started_at,
    }


def _settings(t: Tournament) -> dict[str, Any]:
    s = asdict(t.settings)
    s["format"] = t.settings.format.value
    return s


def _round(r: Round) -> dict[str, Any]:
    return {"round": r.number, "pairings": [_pairing(r, p) for p in r.pairings]}


def _pairing(r: Round, p: Pairing) -> dict[str, Any]:
    result = None if p.match_id is None else r.result_of(p.match_id)
    return {
        "board": p.board,
        "first": p.first,
        "second": p.second,
        "room": p.match_id,
        "third_place": p.third_place,
        "result": None
        if result is None
        else {
            "winner": result.winner,
            "first_points": result.first_points,
            "second_points": result.second_points,
            "reason": result.reason.value,
            "absent": list(result.absent),
        },
    }


def _winner(t: Tournament) -> str | None:
    if t.phase is not Phase.FINISHED or not t.rounds:
        return None
    ranked = t.placings() if t.is_knockout else t.standings()
    return ranked[0].player if ranked else None
