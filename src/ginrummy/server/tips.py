"""The tips coach (RULES.md §6) on the server: advice for a seat's current decision.

The coach (``ginrummy.hints.advise``) gets the seat's own hand, its legal actions and
the open discard card, nothing else.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field

from ginrummy.engine import SeatView
from ginrummy.hints import advise, render


class TipsUnavailable(RuntimeError):
    """The coach has nothing to say (no decision to take now)."""


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
