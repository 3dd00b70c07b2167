"""The tips coach (docs/rules.md §6) on the server: advice for a seat's current decision,
and when a seat socket may have it (``TipsState``).

The coach (``ginrummy.hints.advise``) gets the seat's own hand, its legal actions and
the open discard card, nothing else.
"""

from __future__ import annotations

import asyncio
from collections.abc import Hashable
from dataclasses import dataclass, field, replace
from typing import Any

from ginrummy.engine import SeatView
from ginrummy.hints import advise, render

TIPS_PER_SWITCH = 3
"""Own decisions the tips accompany once switched on (docs/rules.md §6)."""


class TipsError(Exception):
    """A refused ``tip`` or ``tips`` message; ``code`` is the wire error code."""

    code = "tips_unavailable"


class TipsUnavailable(TipsError):
    """The coach has nothing to say (no decision to take now)."""

    code = "tips_unavailable"


class TipsNotAllowed(TipsError):
    """No tips here: a rated or public match, or a spectator."""

    code = "tips_not_allowed"


class TipsOff(TipsError):
    """Tips are switched off, or their three decisions are used up."""

    code = "tips_off"


@dataclass(frozen=True, slots=True)
class TipsState:
    """One seat socket's tips: off unless switched on; then they accompany the next
    ``TIPS_PER_SWITCH`` decisions, and end with the round at the latest. A new socket
    (a page reload) starts off.

    >>> on = TipsState(allowed=True).switched(True, round_key="r1")
    >>> (on.on, on.left, on.decided().decided().decided().on)
    (True, 3, False)
    >>> on.in_round("r2").on
    False
    """

    allowed: bool
    on: bool = False
    left: int = 0  # decisions still accompanied (0 whenever off)
    round: Hashable = None  # the round they were switched on in (see ``in_round``)

    def switched(self, on: bool, round_key: Hashable) -> TipsState:
        """On (a fresh three, unless already on) or off; refused where not allowed."""
        if not self.allowed:
            raise TipsNotAllowed("tips are off in rated and public matches and for spectators")
        if not on:
            return TipsState(self.allowed)
        if self.on:
            return self
        return replace(self, on=True, left=TIPS_PER_SWITCH, round=round_key)

    def decided(self) -> TipsState:
        """After one of the seat's own decisions was accepted."""
        if not self.on:
            return self
        if self.left <= 1:
            return TipsState(self.allowed)
        return replace(self, left=self.left - 1)

    def in_round(self, round_key: Hashable) -> TipsState:
        """Off once the round they were switched on in has ended."""
        if self.on and round_key != self.round:
            return TipsState(self.allowed)
        return self

    def check(self) -> None:
        """Raise why a tip may not be given now (``TipsNotAllowed``, ``TipsOff``)."""
        if not self.allowed:
            raise TipsNotAllowed("tips are off in rated and public matches and for spectators")
        if not self.on:
            raise TipsOff("switch tips on first; they end after three decisions or the round")

    def message(self) -> dict[str, Any]:
        return {"type": "tips", "allowed": self.allowed, "on": self.on, "left": self.left}


@dataclass(frozen=True, slots=True)
class Tip:
    action: str  # the recommended action's text, e.g. "discard Kc"
    key: str  # a message key the client translates
    params: dict[str, str | int] = field(default_factory=dict)
    texts: dict[str, str] = field(default_factory=dict)  # by language: "de", "en"


async def tip_for(view: SeatView) -> Tip:
    """The coach's advice for ``view``; ``TipsUnavailable`` when there is no decision."""
    if not view.legal_actions:
        raise TipsUnavailable("there is no decision to advise on right now")
    tip = await asyncio.to_thread(advise, view.hand, view.legal_actions, view.table.discard_top)
    texts = {lang: render(tip, lang) for lang in ("de", "en")}
    return Tip(str(tip.action), tip.key, dict(tip.params), texts)
