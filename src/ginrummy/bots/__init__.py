"""Computer players: ``choose(view, rng) -> action`` over a seat view, never a state.

>>> import random
>>> from ginrummy.bots import LEVELS, make_bot
>>> sorted(LEVELS)
['baseline', 'beginner', 'casual', 'expert', 'master', 'random', 'strong']
>>> LEVELS["casual"].names["de"]
'Gelegenheitsspieler'
>>> LEVELS["master"].heavy, LEVELS["casual"].heavy
(True, False)
>>> [key for key, level in LEVELS.items() if level.offered]  # the ladder, weakest first
['beginner', 'casual', 'strong', 'expert', 'master']
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from ginrummy.bots.base import Chooser
from ginrummy.bots.expert import Expert
from ginrummy.bots.heuristic import BEGINNER, CASUAL, STRONG, Player
from ginrummy.bots.master import Master
from ginrummy.bots.portable import PortableRandom
from ginrummy.bots.simple import choose_baseline, choose_random
from ginrummy.engine import Action, SeatView


@dataclass(frozen=True, slots=True)
class Level:
    """A level of play with its display names (``de``, ``en``) and its player."""

    key: str
    names: dict[str, str]
    choose: Chooser = field(repr=False)
    offered: bool = True  # shown in the UI; measuring sticks are not
    # Thinks for long (CPU-bound, up to ~0.5 s a decision): the server runs it in its
    # worker processes, off the event loop (server/thinking.py).
    heavy: bool = False


LEVELS: dict[str, Level] = {
    "beginner": Level("beginner", {"de": "Anfänger", "en": "Beginner"}, Player(BEGINNER)),
    "casual": Level("casual", {"de": "Gelegenheitsspieler", "en": "Casual"}, Player(CASUAL)),
    "strong": Level("strong", {"de": "Stark", "en": "Strong"}, Player(STRONG)),
    "expert": Level("expert", {"de": "Experte", "en": "Expert"}, Expert()),
    "random": Level("random", {"de": "Zufall", "en": "Random"}, choose_random, offered=False),
    "baseline": Level(
        "baseline", {"de": "Grundstrategie", "en": "Baseline"}, choose_baseline, offered=False
    ),
    "master": Level("master", {"de": "Meister", "en": "Master"}, Master(), heavy=True),
}
"""Every level by key; ``offered`` ones are for the UI, the others for measurement.
The offered ones come in the ladder's order, weakest first, ``master`` last:
``GET /api/levels`` and the menus list them so. Each has a browser port
(``web/js/bots``) that ``tests/conformance`` holds equal, and a server may seat any of
them."""

TRIALS: dict[str, Level] = {}
"""Levels in the making, in Python only: no browser port yet (so no conformance
check), never offered and not seated by the server; the arena and the benches play
them (docs/computer-players.md). None at the moment."""

PLAYABLE: dict[str, Level] = {**LEVELS, **TRIALS}
"""What ``make_bot`` knows: every level and every trial."""


def make_bot(level: str) -> Chooser:
    """The player of ``level``; raises ``KeyError`` naming the levels for an unknown one."""
    try:
        return PLAYABLE[level].choose
    except KeyError:
        raise KeyError(f"unknown level {level!r}; choose one of {', '.join(PLAYABLE)}") from None


def choose(level: str, view: SeatView, rng: random.Random) -> Action:
    """The action the player of ``level`` takes in ``view``."""
    return make_bot(level)(view, rng)


__all__ = [
    "LEVELS",
    "PLAYABLE",
    "TRIALS",
    "Chooser",
    "Level",
    "PortableRandom",
    "choose",
    "make_bot",
]
