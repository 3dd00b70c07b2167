"""The two seats and a frozen pair of per-seat values (never parallel 0/1 lists)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from enum import IntEnum
from typing import Generic, TypeVar

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
        return self.one if seat is Seat.ONE else self.two

    def replace(self, seat: Seat, value: T) -> Pair[T]:
        return Pair(value, self.two) if seat is Seat.ONE else Pair(self.one, value)

    def map(self, fn: Callable[[T], U]) -> Pair[U]:
        return Pair(fn(self.one), fn(self.two))

    def __iter__(self) -> Iterator[T]:
        yield self.one
        yield self.two

    @classmethod
    def of(cls, fn: Callable[[Seat], T]) -> Pair[T]:
        return cls(fn(Seat.ONE), fn(Seat.TWO))
