"""Encode engine views to JSON-ready dicts and decode an action a client sends.

Cards travel as their two-character text (``7h``), actions as their engine text
(``discard Qs``), seats as ``"one"``/``"two"``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from ginrummy.engine import (
    Action,
    Arrangement,
    Card,
    GinRummyError,
    MatchResult,
    Pair,
    RoundResult,
    Rules,
    ScoredRound,
    Seat,
    SeatView,
    SpectatorView,
    TableView,
    parse_action,
)
from ginrummy.engine.round import PublicMove
from ginrummy.protocol.wire import to_json

MAX_FRAME_BYTES = 4096
"""Largest client frame the server reads; anything longer is refused unread."""


class ProtocolError(ValueError):
    """A client message that is malformed; ``code`` is the wire error code."""

    def __init__(self, code: str, message: str) -> None:
        self.code = code
        super().__init__(message)


def _cards(cards: Iterable[Card]) -> list[str]:
    return [str(c) for c in cards]


def _pair(pair: Pair[Any], fn: Any = lambda x: x) -> dict[str, Any]:
    return {seat.label: fn(pair[seat]) for seat in Seat}


def _seat(seat: Seat | None) -> str | None:
    return None if seat is None else seat.label


def encode_rules(rules: Rules) -> dict[str, Any]:
    return rules.to_dict()


def _arrangement(arr: Arrangement) -> dict[str, Any]:
    return {
        "melds": [_cards(m.cards) for m in arr.melds],
        "deadwood_cards": _cards(arr.unmatched),
        "deadwood": arr.deadwood,
    }


def encode_round_result(result: RoundResult) -> dict[str, Any]:
    """A finished round with its full score breakdown."""
    out: dict[str, Any] = {
        "kind": result.kind.value,
        "knocker": _seat(result.knocker),
        "winner": _seat(result.winner),
        "points": result.points,
        "hands": _pair(result.hands, _cards),
        "showdown": None,
    }
    sd = result.showdown
    if sd is not None:
        out["showdown"] = {
            "knocker_melds": [_cards(m.cards) for m in sd.knocker.melds],
            "knocker_deadwood_cards": _cards(sd.knocker.unmatched),
            "knocker_deadwood": sd.knocker_deadwood,
            "defender_melds": [_cards(m.cards) for m in sd.defender.melds],
            "defender_deadwood_cards": _cards(sd.defender_deadwood_cards),
            "defender_deadwood": sd.defender_deadwood,
            "layoffs": [{"card": str(lo.card), "onto": _cards(lo.onto.cards)} for lo in sd.layoffs],
            "base_points": sd.base_points,
            "bonus": sd.bonus,
            "multiplier": sd.multiplier,
            "points": sd.points,
        }
    return out


def _scored_round(r: ScoredRound) -> dict[str, Any]:
    return {
        "number": r.number,
        "dealer": r.dealer.label,
        "result": encode_round_result(r.result),
        "scores": _pair(r.scores),
    }


def _match_result(m: MatchResult | None) -> dict[str, Any] | None:
    return None if m is None else encode_match_result(m)


def encode_match_result(m: MatchResult) -> dict[str, Any]:
    """A finished match: who won, the totals and their parts, a forfeit if any."""
    return {
        "winner": m.winner.label,
        "round_points": _pair(m.round_points),
        "rounds_won": _pair(m.rounds_won),
        "box_bonus": _pair(m.box_bonus),
        "game_bonus": _pair(m.game_bonus),
        "shutout_bonus": _pair(m.shutout_bonus),
        "totals": _pair(m.totals),
        "forfeit": None if m.forfeit is None else m.forfeit.value,
        "forfeited_by": _seat(m.forfeited_by),
    }


def _table(t: TableView) -> dict[str, Any]:
    return {
        "rules": encode_rules(t.rules),
        "match_phase": t.match_phase.value,
        "round_phase": None if t.round_phase is None else t.round_phase.value,
        "round": t.round_number,
        "dealer": _seat(t.dealer),
        "turn": _seat(t.turn),
        "stock_size": t.stock_size,
        "discard_pile": _cards(t.discard_pile),
        "first_upcard": None if t.first_upcard is None else str(t.first_upcard),
        "upcard_passes": [s.label for s in t.upcard_passes],
        "knock_limit": t.knock_limit,
        "doubled": t.doubled,
        "hand_sizes": _pair(t.hand_sizes),
        "known": _pair(t.known, _cards),
        "scores": _pair(t.scores),
        "rounds_won": _pair(t.rounds_won),
        "rounds": [_scored_round(r) for r in t.rounds],
        "result": None if t.round_result is None else encode_round_result(t.round_result),
        "match_result": _match_result(t.match_result),
    }


def _moves(moves: Iterable[PublicMove]) -> list[dict[str, Any]]:
    return [{"seat": m.seat.label, "action": str(m)} for m in moves]


def encode_public_view(view: SeatView | SpectatorView) -> dict[str, Any]:
    """What every viewer of a version sees alike: the table and the public moves.

    The server encodes it once per version and shares it between all sockets; it is
    the spectator's view, so it holds no hidden card."""
    return {"table": _table(view.table), "moves": _moves(view.moves)}


def encode_own_view(view: SeatView | None) -> dict[str, Any]:
    """What differs by viewer: a seat's hand and choices (None: a spectator, empty)."""
    if view is None:
        return {
            "seat": None,
            "hand": [],
            "arrangement": None,
            "legal_actions": [],
            "taken": None,
            "knock_discard": None,
        }
    return {
        "seat": view.seat.label,
        "hand": _cards(view.hand),
        "arrangement": _arrangement(view.arrangement),
        "legal_actions": [str(a) for a in view.legal_actions],
        "taken": None if view.taken is None else str(view.taken),
        "knock_discard": None if view.knock_discard is None else str(view.knock_discard),
    }


def encode_seat_view(view: SeatView) -> dict[str, Any]:
    """The view of one seat; nothing in it is hidden from that seat."""
    return {**encode_own_view(view), **encode_public_view(view)}


def encode_spectator_view(view: SpectatorView) -> dict[str, Any]:
    """The view of a spectator: no hidden card."""
    return {**encode_own_view(None), **encode_public_view(view)}


def encode_view_frame(message: Mapping[str, Any], own: Mapping[str, Any], public: str) -> str:
    """``message`` with ``"view"``: the viewer's ``own`` part joined to the shared
    ``public`` JSON text (from ``encode_public_view``) without decoding it again."""
    if not message:
        raise ValueError("a view frame needs a message, an own part and a public object")
    return with_json(message, "view", joined_view(own, public))


def joined_view(own: Mapping[str, Any], public: str) -> str:
    """A seat view as JSON text: the viewer's ``own`` part (``encode_own_view``) joined
    to the shared ``public`` JSON text (``encode_public_view``), which is not decoded."""
    if not own or not public.startswith("{"):
        raise ValueError("a view frame needs a message, an own part and a public object")
    return f"{to_json(own)[:-1]},{public[1:]}"


def with_json(message: Mapping[str, Any], key: str, text: str) -> str:
    """``message`` as JSON text with one more field ``key`` whose value is JSON ``text``
    already encoded (a part shared by many frames)."""
    head = to_json(message)
    return f"{head[:-1]}{',' if message else ''}{to_json(key)}:{text}}}"


def decode_action(obj: object) -> Action:
    """An action from the wire: its engine text, e.g. ``"discard Qs"``."""
    if not isinstance(obj, str):
        raise ProtocolError("bad_action", f"an action is a text like 'discard Qs', got {obj!r}")
    try:
        return parse_action(obj)
    except GinRummyError as exc:
        raise ProtocolError("bad_action", str(exc)) from None
