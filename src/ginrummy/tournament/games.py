"""A round's pairings and the finished games that pairing and tie-breaks read."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Pairing:
    """One tie of a round. ``first`` deals the first round of the match; a pairing
    without ``second`` is a bye (no match, no room). ``match_id`` names the match the
    server opens as an ordinary room; it is ``None`` for a bye."""

    board: int
    first: str
    second: str | None
    match_id: str | None = None
    third_place: bool = False  # knockout: the match of the two losing semi-finalists

    @property
    def is_bye(self) -> bool:
        return self.second is None

    @property
    def players(self) -> tuple[str, ...]:
        return (self.first,) if self.second is None else (self.first, self.second)


@dataclass(frozen=True, slots=True)
class Game:
    """A decided tie as pairing and tie-breaks see it.

    >>> g = Game("ann", "bob", winner="bob", first_points=40, second_points=112)
    >>> g.opponent("ann"), g.won("bob"), g.points_of("ann")
    ('bob', True, 40)
    >>> Game("cat", None, winner="cat").opponent("cat") is None  # a bye scores as a win
    True
    """

    first: str
    second: str | None  # None: a bye
    winner: str | None  # None: both lost (both were absent)
    first_points: int = 0
    second_points: int = 0

    @property
    def is_bye(self) -> bool:
        return self.second is None

    def involves(self, player: str) -> bool:
        return player in (self.first, self.second)

    def opponent(self, player: str) -> str | None:
        return self.second if player == self.first else self.first

    def won(self, player: str) -> bool:
        return self.winner == player

    def points_of(self, player: str) -> int:
        return self.first_points if player == self.first else self.second_points
