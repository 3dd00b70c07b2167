"""The events of a tournament's log and their stored form (docs/tournaments.md, event log).

Commands decide and return events; ``state.fold`` applies them; the store keeps each as
``(kind, payload)`` with a JSON-ready payload, and ``from_record(to_record(e)) == e``.

>>> kind, payload = to_record(Left("ann", at=12.5))
>>> kind, payload
('left', {'player': 'ann', 'at': 12.5})
>>> from_record(kind, payload)
Left(player='ann', at=12.5)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass
from enum import StrEnum
from typing import Any

from ginrummy.tournament.errors import LogError
from ginrummy.tournament.games import Pairing
from ginrummy.tournament.settings import Entrant, Settings


class ResultReason(StrEnum):
    PLAYED = "played"  # the room's match ended (a forfeit inside the match included)
    NO_SHOW = "no_show"  # a player did not come within the grace period
    WITHDRAWAL = "withdrawal"  # a player withdrew: the match is forfeited


class WithdrawReason(StrEnum):
    REQUEST = "request"
    NO_SHOWS = "no_shows"  # two no-shows in a row


class FinishReason(StrEnum):
    COMPLETED = "completed"  # the last round (or the final) was played
    CANCELLED = "cancelled"  # the start time came with fewer than four players
    NO_PAIRING = "no_pairing"  # too few players left, or no one left who may take a bye


@dataclass(frozen=True, slots=True)
class Created:
    settings: Settings
    creator: str
    at: float


@dataclass(frozen=True, slots=True)
class Joined:
    entrant: Entrant
    at: float


@dataclass(frozen=True, slots=True)
class Left:
    player: str
    at: float


@dataclass(frozen=True, slots=True)
class Started:
    seeds: tuple[Entrant, ...]  # the field in seed order, computers included
    rounds: int  # Swiss: rounds to play; knockout: rounds of the main bracket
    at: float


@dataclass(frozen=True, slots=True)
class RoundPaired:
    round: int
    pairings: tuple[Pairing, ...]
    at: float


@dataclass(frozen=True, slots=True)
class MatchResult:
    match_id: str
    winner: str | None  # None: both absent, both lose (Swiss only)
    first_points: int
    second_points: int
    reason: ResultReason
    absent: tuple[str, ...]  # no-show or withdrawn players
    at: float


@dataclass(frozen=True, slots=True)
class Withdrawn:
    player: str
    reason: WithdrawReason
    at: float


@dataclass(frozen=True, slots=True)
class Finished:
    reason: FinishReason
    at: float


Event = Created | Joined | Left | Started | RoundPaired | MatchResult | Withdrawn | Finished

KINDS: dict[str, type[Event]] = {
    "created": Created,
    "joined": Joined,
    "left": Left,
    "started": Started,
    "round_paired": RoundPaired,
    "match_result": MatchResult,
    "withdrawn": Withdrawn,
    "finished": Finished,
}
_KIND_OF = {cls: kind for kind, cls in KINDS.items()}


def to_record(event: Event) -> tuple[str, dict[str, Any]]:
    """The event's kind and a payload of JSON values (enums as their text)."""
    payload = asdict(event)  # nested dataclasses become dicts, tuples stay tuples
    return _KIND_OF[type(event)], _plain(payload)


def _plain(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    if isinstance(value, StrEnum):
        return value.value
    return value


def from_record(kind: str, payload: Mapping[str, Any]) -> Event:
    """The event a stored record names; ``LogError`` if kind or payload is malformed."""
    reader = _READERS.get(kind)
    if reader is None:
        raise LogError(f"unknown tournament event kind {kind!r}")
    try:
        return reader(payload)
    except (KeyError, TypeError, ValueError) as exc:
        raise LogError(f"malformed {kind} event {dict(payload)!r}: {exc}") from exc


def _entrant(p: Mapping[str, Any]) -> Entrant:
    return Entrant(str(p["id"]), str(p["name"]), float(p["rating"]), p["computer"])


def _pairing(p: Mapping[str, Any]) -> Pairing:
    return Pairing(int(p["board"]), p["first"], p["second"], p["match_id"], bool(p["third_place"]))


def _settings(p: Mapping[str, Any]) -> Settings:
    return Settings(**p)


_READERS: dict[str, Callable[[Mapping[str, Any]], Event]] = {
    "created": lambda p: Created(_settings(p["settings"]), p["creator"], p["at"]),
    "joined": lambda p: Joined(_entrant(p["entrant"]), p["at"]),
    "left": lambda p: Left(p["player"], p["at"]),
    "started": lambda p: Started(tuple(map(_entrant, p["seeds"])), int(p["rounds"]), p["at"]),
    "round_paired": lambda p: RoundPaired(
        int(p["round"]), tuple(map(_pairing, p["pairings"])), p["at"]
    ),
    "match_result": lambda p: MatchResult(
        p["match_id"],
        p["winner"],
        int(p["first_points"]),
        int(p["second_points"]),
        ResultReason(p["reason"]),
        tuple(p["absent"]),
        p["at"],
    ),
    "withdrawn": lambda p: Withdrawn(p["player"], WithdrawReason(p["reason"]), p["at"]),
    "finished": lambda p: Finished(FinishReason(p["reason"]), p["at"]),
}
