"""Who sits where: a seat's name, identity and computer level."""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping
from dataclasses import dataclass
from typing import TypeVar

from ginrummy.engine import Seat
from ginrummy.server.store import SeatRow


@dataclass(frozen=True, slots=True)
class SeatInfo:
    name: str
    identity_hash: str | None
    bot: str | None  # computer level, None for a person


def seats_of(rows: Iterable[SeatRow]) -> dict[Seat, SeatInfo]:
    """The seats as the store lists them."""
    return {Seat.parse(s.seat): SeatInfo(s.name, s.identity_hash, s.bot) for s in rows}


def seat_rows(seats: Mapping[Seat, SeatInfo]) -> list[SeatRow]:
    return [SeatRow(s.label, i.identity_hash, i.name, i.bot) for s, i in seats.items()]


K = TypeVar("K", bound=Hashable)  # a two-player room's Seat, a chouette room's position


def seat_of(seats: Mapping[K, SeatInfo], identity_hash: str | None) -> K | None:
    """The seat ``identity_hash`` holds, if any."""
    if identity_hash is None:
        return None
    return next((s for s, i in seats.items() if i.identity_hash == identity_hash), None)


def free_seat(seats: Mapping[Seat, SeatInfo]) -> Seat | None:
    return next((s for s in Seat if s not in seats), None)


def is_person(seats: Mapping[K, SeatInfo], seat: K) -> bool:
    """A person (not a computer) holds ``seat``."""
    info = seats.get(seat)
    return info is not None and info.bot is None


def waiting_people(seats: Mapping[Seat, SeatInfo], done: frozenset[Seat]) -> list[Seat]:
    """The people not in ``done`` (computers are always ready)."""
    return [s for s, i in seats.items() if i.bot is None and s not in done]
