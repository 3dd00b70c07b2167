"""Typed errors of the engine. Every one is a ``ValueError`` that says what and why."""

from __future__ import annotations


class GinRummyError(ValueError):
    """Base class of every error the engine raises on bad input."""


class CardParseError(GinRummyError):
    """A text that does not name a card (``"1x"``), or a malformed list of cards."""


class DuplicateCardError(GinRummyError):
    """The same card appears twice where each card may appear once."""


class HandSizeError(GinRummyError):
    """A hand has the wrong number of cards for the operation asked for."""


class RulesError(GinRummyError):
    """A rules configuration that cannot work (unknown preset, impossible combination)."""


class ActionParseError(GinRummyError):
    """A text that does not name an action (``"discard"`` without a card, ``"fold"``)."""


class IllegalActionError(GinRummyError):
    """An action that ``legal_actions`` does not list for this state.

    Names the action, the phase and the reason, e.g.
    ``discard 7h is not legal in phase discard: 7h was just taken from the discard pile``.
    """

    def __init__(self, action: object, phase: str, reason: str) -> None:
        self.action = action
        self.phase = phase
        self.reason = reason
        super().__init__(f"{action} is not legal in phase {phase}: {reason}")


class NotAKnockError(GinRummyError):
    """A showdown was asked for a hand whose deadwood is above the knock limit."""


class RecordError(GinRummyError):
    """A round or match record that is malformed or does not replay."""


class RecordFieldError(RecordError):
    """A record field that is missing or of the wrong type; ``field`` names it
    (``fair.seeds.two``) so that a caller can say where it lies in a larger record."""

    def __init__(self, field: str, problem: str) -> None:
        self.field = field
        self.problem = problem
        super().__init__(f"{field}: {problem}")


class ChouetteError(GinRummyError):
    """A chouette table that cannot be (3 to 5 players, a different card drawn by each)
    or an event that names no player of the table (docs/rules.md §8)."""
