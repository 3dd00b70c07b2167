"""Players: the public face of a browser identity (docs/protocol.md, "Public play").

A player has a public id (never the token), a nickname shown as a tag ``Ann#k3Xa``,
a Glicko-2 rating and a count of abandoned matches. Statistics are derived from the
finished matches' result rows.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping, Sequence
from typing import Any

from ginrummy.protocol.limits import BadName, clean_name
from ginrummy.server.store import Player, ResultRow

LEAVER_ABANDONS = 2  # from this many abandoned matches on, the lobby marks a player

_ADJECTIVES = ("Quick", "Calm", "Bold", "Lucky", "Clever", "Merry", "Brave", "Sly", "Keen")
_ANIMALS = ("Fox", "Owl", "Otter", "Lynx", "Heron", "Badger", "Hare", "Wren", "Seal")


def new_player(now: float) -> Player:
    """A fresh player with a random public id and a friendly default name."""
    name = f"{secrets.choice(_ADJECTIVES)} {secrets.choice(_ANIMALS)}"
    return Player(id="p_" + secrets.token_urlsafe(8)[:10], name=name, created=now)


def valid_name(raw: object) -> str:
    """A name a person typed (nickname or seat name), or ``BadName`` with the reason.

    The rule is ``ginrummy.protocol.limits``'s, the one the browser gets from
    ``GET /api/config``.

    >>> valid_name("  Ann   Lee ")
    'Ann Lee'
    """
    return clean_name(raw)


__all__ = ["BadName", "history", "new_player", "statistics", "summary", "tag", "valid_name"]


def tag(player: Player) -> str:
    return f"{player.name}#{player.id[2:6]}"


def summary(player: Player) -> dict[str, Any]:
    """player-summary of docs/protocol.md."""
    return {
        "id": player.id,
        "name": player.name,
        "tag": tag(player),
        "rating": round(player.rating),
        "rd": round(player.rd),
        "rated_matches": player.rated_matches,
        "abandons": player.abandons,
        "leaver": player.abandons >= LEAVER_ABANDONS,
        "account": player.account,
    }


def statistics(results: Sequence[ResultRow]) -> dict[str, Any]:
    """The statistics page's numbers: matches against people, then per computer level."""
    people = [r for r in results if r.bot is None]
    rounds = sum(r.rounds for r in people)
    wins = sum(r.won for r in people)
    won = [r for r in people if r.won]
    # A match won on the board beats any forfeit win: a resignation after one round
    # can leave a margin of 0, which says nothing about how well the match went.
    best = max(won, key=lambda r: (r.forfeit is None, r.margin, -r.t), default=None)
    vs_computer: dict[str, dict[str, int]] = {}
    for r in results:
        if r.bot is not None:
            level = vs_computer.setdefault(r.bot, {"matches": 0, "wins": 0})
            level["matches"] += 1
            level["wins"] += int(r.won)
    return {
        "matches": len(people),
        "wins": wins,
        "win_rate": round(wins / len(people), 3) if people else None,
        "rounds": rounds,
        "gins": sum(r.gins for r in people),
        "undercuts_scored": sum(r.undercuts_scored for r in people),
        "undercuts_suffered": sum(r.undercuts_suffered for r in people),
        "points_per_round": round(sum(r.points for r in people) / rounds, 2) if rounds else None,
        "best_match": None
        if best is None
        else {"room": best.room, "margin": best.margin, "forfeit": best.forfeit},
        "rating_history": [
            {"t": r.t, "rating": round(r.rating), "rd": round(r.rd)}
            for r in results
            if r.rated and r.rating is not None and r.rd is not None
        ],
        "vs_computer": vs_computer,
    }


HISTORY_LENGTH = 50  # matches the player page lists


def history(results: Sequence[ResultRow], names: Mapping[str, str]) -> list[dict[str, Any]]:
    """The player's last matches, newest first: opponent (a person's id and name, or
    the computer's level), result and date. A room keeps only its latest match's
    record, so only that one can be reviewed (``review``: the review page's path).
    ``names`` maps opponents' player ids to their names."""
    latest: dict[str, int] = {}
    for r in results:
        latest[r.room] = max(latest.get(r.room, r.match_seq), r.match_seq)
    newest = sorted(results, key=lambda r: (r.t, r.match_seq), reverse=True)[:HISTORY_LENGTH]
    return [
        {
            "room": r.room,
            "seat": r.seat,
            "opponent": None
            if r.opponent is None
            else {"id": r.opponent, "name": names.get(r.opponent)},
            "bot": r.bot,
            "won": r.won,
            "margin": r.margin,
            "forfeit": r.forfeit,
            "rated": r.rated,
            "t": r.t,
            "review": f"/r/{r.room}/review/{r.seat}" if latest[r.room] == r.match_seq else None,
        }
        for r in newest
    ]
