"""The two seats and a frozen pair of per-seat values (never parallel 0/1 lists)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from enum import IntEnum
from typing import Generic, TypeVar

from ginrummy.engine.frozen import maker

T = TypeVar("T")
U = TypeVar("U")


class Seat(IntEnum):
    ONE = 0
    TWO = 1

    @property
    def other(self) -> Seat:
        return Seat.TWO if self is Seat.ONE else Seat.ONE

    @property
    def label(self) -> str:
        return "one" if self is Seat.ONE else "two"

    @classmethod
    def parse(cls, text: str) -> Seat:
        return {"one": Seat.ONE, "two": Seat.TWO, "1": Seat.ONE, "2": Seat.TWO}[text.lower()]


@dataclass(frozen=True, slots=True)
class Pair(Generic[T]):
    """One value per seat."""

    one: T
    two: T

    def __getitem__(self, seat: Seat) -> T:
        return self.two if seat else self.one  # Seat.ONE is 0

    def replace(self, seat: Seat, value: T) -> Pair[T]:
        return _make_pair(value, self.two) if seat is Seat.ONE else _make_pair(self.one, value)

    def map(self, fn: Callable[[T], U]) -> Pair[U]:
        return _make_pair(fn(self.one), fn(self.two))

    def __iter__(self) -> Iterator[T]:
        yield self.one
        yield self.two

    @classmethod
    def of(cls, fn: Callable[[Seat], T]) -> Pair[T]:
        return cls(fn(Seat.ONE), fn(Seat.TWO))


_make_pair = maker(Pair)  # Pair(one, two) without __init__: pairs change at every action
