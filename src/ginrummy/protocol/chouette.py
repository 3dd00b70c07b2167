"""Chouette views on the wire (docs/bot-protocol.md, chouette; docs/rules.md §8).

A chouette player's view is the two-player seat view (``encode_seat_view``: the box's
seat ``"one"``, or the team's seat ``"two"`` with the captain's cards) wrapped with
the table's public facts::

    {"position": 2, "role": "partner",
     "chouette": {"players": 4, "drawn": ["7h", ...], "phase": "match", "number": 1,
                  "box": 3, "order": [1, 0, 2], "captain": 1, "next_captain": 0,
                  "captains": [1],
                  "absent": [], "ledger": [0, 0, 0, 0], "settlements": [],
                  "turn": 1, "seats": {"box": "one", "team": "two"}},
     "view": {...the seat view...},
     "advice": ["take", "pass"]}

Only what the engine's view holds is written, so a role sees only what it may
(``ginrummy.engine.chouette_views``): the box never a team card, a partner the
captain's hand and nothing else hidden, a spectator no hidden card at all.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ginrummy.engine.chouette import BOX, TEAM, Settlement
from ginrummy.engine.chouette_views import ChouetteInfo, ChouetteSpectatorView, PlayerView
from ginrummy.protocol.codec import (
    encode_match_result,
    encode_seat_view,
    encode_spectator_view,
)
from ginrummy.protocol.wire import to_json

SEATS = {"box": BOX.label, "team": TEAM.label}
"""The match seat of each side: the box plays seat one, the team (its captain) seat two."""


def encode_settlement(s: Settlement) -> dict[str, Any]:
    """One settled match: ``changes`` per position sums to zero."""
    return {
        "number": s.number,
        "box": s.box,
        "team": list(s.team),
        "result": encode_match_result(s.result),
        "value": s.value,
        "changes": list(s.changes),
    }


def encode_chouette_info(info: ChouetteInfo) -> dict[str, Any]:
    """The table's public facts, the same for every player and spectator."""
    return {
        "players": info.players,
        "drawn": [str(c) for c in info.drawn],
        "phase": info.phase.value,
        "number": info.number,
        "box": info.box,
        "order": list(info.order),
        "captain": info.captain,
        "next_captain": info.next_captain,
        "captains": list(info.captains),
        "absent": sorted(info.absent),
        "ledger": list(info.ledger),
        "settlements": [encode_settlement(s) for s in info.settlements],
        "turn": info.turn,
        "seats": dict(SEATS),
    }


def encode_player_view(view: PlayerView) -> dict[str, Any]:
    """The view of the player at ``view.position``: nothing in it is hidden from them."""
    return {
        "position": view.position,
        "role": view.role.value,
        "chouette": encode_chouette_info(view.chouette),
        "view": encode_seat_view(view.seat),
        "advice": [str(a) for a in view.advice],
    }


def encode_chouette_spectator_view(view: ChouetteSpectatorView) -> dict[str, Any]:
    """The view of someone watching the table: the same shape, no position, no role,
    no hand, no advice."""
    return {
        "position": None,
        "role": None,
        "chouette": encode_chouette_info(view.chouette),
        "view": encode_spectator_view(view.match),
        "advice": [],
    }


def encode_view_text(
    position: int | None, role: str | None, info: str, seat: str, advice: Sequence[str]
) -> str:
    """``encode_player_view``'s (or the spectator's) JSON text from parts encoded once
    and shared by every socket of a version: ``info`` is ``encode_chouette_info``'s
    text, ``seat`` the seat view's (``codec.joined_view``); neither is decoded again."""
    if not info.startswith("{") or not seat.startswith("{"):
        raise ValueError("a chouette view needs the table's facts and a seat view as objects")
    head = to_json({"position": position, "role": role})[:-1]
    return f'{head},"chouette":{info},"view":{seat},"advice":{to_json(list(advice))}}}'
