"""The computer player on the server: a level name, a seat view, a random source.

The bot gets a ``SeatView`` only (docs/rules.md §5), never the state, so it cannot cheat.
Players come from ``ginrummy.bots`` by level; ``fallback_move`` is a simple legal
player used only if a bot fails, so that a game never hangs on the computer. A light
level thinks in a worker thread; a heavy one (``master``) in the server's worker
processes (``Thinker``: ``server/thinking.py``), where it delays no other room.
"""

from __future__ import annotations

import asyncio
import logging
import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

from ginrummy.bots import LEVELS, PLAYABLE, make_bot
from ginrummy.engine import Action, ActionKind, SeatView, best_arrangement
from ginrummy.server.metrics import Metrics

log = logging.getLogger("ginrummy.server.computer")

DEFAULT_LEVEL = "casual"
T = TypeVar("T")


class Thinker(Protocol):
    """Where heavy levels think (``thinking.ThinkingPool``)."""

    async def decide(self, level: str, view: SeatView, rng: random.Random) -> Action:
        """``make_bot(level)(view, rng)``, off the event loop and its thread."""
        ...

    async def run(self, what: str, work: Callable[..., T], *args: object) -> T:
        """``work(*args)`` where heavy levels think (a match of computers)."""
        ...


@dataclass(frozen=True, slots=True)
class Level:
    key: str
    de: str
    en: str


def levels() -> tuple[Level, ...]:
    """The levels the UI offers (measuring sticks such as ``random`` are not offered)."""
    return tuple(
        Level(lv.key, lv.names["de"], lv.names["en"]) for lv in LEVELS.values() if lv.offered
    )


def level_name(key: str) -> str:
    """The English name of level ``key`` (a computer seat's name); the key itself for a
    level not offered (a measuring stick such as ``random``)."""
    return next((lv.en for lv in levels() if lv.key == key), key)


def level_keys() -> tuple[str, ...]:
    """Every level a computer seat may have (the offered ones and the measuring sticks)."""
    return tuple(LEVELS)


def heavy(level: str) -> bool:
    """Whether ``level`` thinks in the worker processes (unknown levels do not)."""
    known = PLAYABLE.get(level)
    return known is not None and known.heavy


async def computer_move(
    level: str,
    view: SeatView,
    rng: random.Random,
    metrics: Metrics | None = None,
    thinker: Thinker | None = None,
) -> Action:
    """The computer's action for ``view`` (one of ``view.legal_actions``).

    Runs off the event loop, which must keep serving the other rooms while a strong
    bot thinks: a heavy level in ``thinker``'s worker processes (when there is one),
    any other in a worker thread. Its time (the waits for a thread or a worker
    included) goes to ``metrics`` by level.
    """
    start = time.perf_counter()
    try:
        if thinker is not None and heavy(level):
            action = await thinker.decide(level, view, rng)
        else:
            action = await asyncio.to_thread(make_bot(level), view, rng)
        if metrics is not None:
            metrics.decision(level).observe(time.perf_counter() - start)
    except Exception:
        log.exception("computer level %s failed; a simple move is played instead", level)
        return fallback_move(view, rng)
    if action not in view.legal_actions:
        log.error("computer level %s chose an illegal action; a simple move is played", level)
        return fallback_move(view, rng)
    return action


def fallback_move(view: SeatView, rng: random.Random) -> Action:
    """A simple legal player: gin or knock when it may, otherwise keep the melds.

    Takes the first upcard only if that lowers its deadwood, always draws from the
    stock, discards its highest unmatched card.
    """
    legal = view.legal_actions
    if not legal:
        raise ValueError("the computer was asked to move without a legal action")
    by_kind: dict[ActionKind, list[Action]] = {}
    for action in legal:
        by_kind.setdefault(action.kind, []).append(action)
    if ActionKind.BIG_GIN in by_kind:
        return by_kind[ActionKind.BIG_GIN][0]
    if ActionKind.GIN in by_kind:
        return by_kind[ActionKind.GIN][0]
    if ActionKind.KNOCK in by_kind:
        return min(by_kind[ActionKind.KNOCK], key=lambda a: _deadwood_without(view, a))
    if ActionKind.TAKE in by_kind:
        upcard = view.table.discard_top
        if upcard is not None and _lowers_deadwood(view, upcard):
            return by_kind[ActionKind.TAKE][0]
    if ActionKind.PASS in by_kind:
        return by_kind[ActionKind.PASS][0]
    if ActionKind.DRAW_STOCK in by_kind:
        return by_kind[ActionKind.DRAW_STOCK][0]
    discards = by_kind.get(ActionKind.DISCARD, [])
    if discards:
        unmatched = set(view.arrangement.unmatched)
        loose = [a for a in discards if a.card in unmatched]
        pool = loose or discards
        return max(pool, key=lambda a: (a.card.value if a.card else 0, str(a)))
    return legal[rng.randrange(len(legal))]


def _deadwood_without(view: SeatView, action: Action) -> int:
    return best_arrangement([c for c in view.hand if c != action.card]).deadwood


def _lowers_deadwood(view: SeatView, card: Any) -> bool:
    with_card = [*view.hand, card]
    best = min(
        best_arrangement([c for c in with_card if c != out]).deadwood
        for out in view.hand  # the taken card may not be discarded right away
    )
    return best < view.arrangement.deadwood
