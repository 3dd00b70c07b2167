"""A chouette room's log folds to the engine's table (server/chouette/log.py), and the
decision a snapshot waits for is counted as the events are folded: a partner leaving or
coming back, a seat taken or a readiness leave it as it was."""

from __future__ import annotations

import random

import pytest

from engine.helpers import random_table
from ginrummy.engine import Action, Rules
from ginrummy.engine.chouette import (
    ChouetteEvent,
    Deal,
    Forfeit,
    Leave,
    NextMatch,
    Return,
    apply,
)
from ginrummy.server.chouette.log import Snap, fold_all, replay
from ginrummy.server.store import Event

KINDS: dict[type, str] = {
    Action: "action",
    Deal: "deal",
    Leave: "leave",
    Return: "return",
    Forfeit: "forfeit",
    NextMatch: "next_match",
}


def recount(snap: Snap) -> tuple[int, int] | None:
    """The decision counted afresh from every event of the table."""
    table = snap.table
    if table is None:
        return None
    return table.number, sum(1 for e in table.events if not isinstance(e, Leave | Return))


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_the_decision_is_counted_as_the_log_folds(seed: int) -> None:
    rng = random.Random(seed)
    rules = Rules(target_score=40)
    tables = list(random_table(rules, rng, 3 + seed % 3, 6))
    opened = tables[0]
    drawn = " ".join(str(c) for c in opened.drawn)
    events = [Event(1, "chouette", {"rules": rules.to_dict(), "drawn": drawn})]

    def add(kind: str, payload: dict[str, object]) -> None:
        events.append(Event(len(events) + 1, kind, payload))

    last = tables[-1]
    away = next(p for p in range(last.players) if p not in last.absent)
    happened: list[ChouetteEvent] = [*last.events, Leave(away), Return(away)]
    for e in happened:
        if rng.random() < 0.1:  # bookkeeping between the table's events
            add(rng.choice(["seat", "ready", "next_wish"]), {"position": 0})
        add(KINDS[type(e)], {"event": str(e)})
    snaps = fold_all(Snap(0, None), events)
    assert snaps[-1].table == apply(apply(last, Leave(away)), Return(away))
    assert replay(events) == snaps[-1]
    for before, after in zip((Snap(0, None), *snaps), snaps, strict=False):
        assert after.decision == recount(after)
        if events[after.version - 1].kind in ("leave", "return", "seat", "ready", "next_wish"):
            assert after.decision == before.decision  # the same decision: it keeps its time
