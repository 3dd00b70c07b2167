"""Tournaments driven through the commands, with the whole log kept."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from hypothesis import strategies as st

from ginrummy.tournament import (
    Entrant,
    Event,
    Settings,
    Tournament,
    apply_events,
    create,
    fold,
    join,
    no_show,
    record_result,
    withdraw,
)
from ginrummy.tournament.games import Pairing
from ginrummy.tournament.state import Phase


@dataclass
class Run:
    """A tournament and its log; ``do`` runs a command and keeps its events."""

    state: Tournament
    log: list[Event] = field(default_factory=list)

    def do(self, events: tuple[Event, ...]) -> None:
        self.log += events
        self.state = apply_events(self.state, events)


def entrants(n: int) -> list[Entrant]:
    """p1 .. pn with falling ratings: pk is seed k."""
    return [Entrant(f"p{k}", f"Player {k}", 2000 - 10 * k) for k in range(1, n + 1)]


def opened(settings: Settings, creator: str = "p1") -> Run:
    created = create(settings, creator, at=0)
    return Run(fold(None, created), [created])


def full(fmt: str, n: int, **options: Any) -> Run:
    """A tournament of n players that started when full."""
    run = opened(Settings("Cup", fmt, n, **options))
    for entrant in entrants(n):
        run.do(join(run.state, entrant, at=1))
    assert run.state.phase is Phase.RUNNING
    return run


Chooser = Callable[[Pairing], str]


def better_seed(run: Run) -> Chooser:
    seed = {p: i for i, p in enumerate(run.state.players)}
    return lambda p: min(p.players, key=seed.__getitem__)


def play_out(run: Run, winner: Chooser, rng: random.Random | None = None) -> None:
    """Play every pending match until the end: ``winner`` picks each winner; with an
    rng, some matches end by a no-show and some players withdraw instead."""
    at = 10.0
    while run.state.phase is Phase.RUNNING:
        current = run.state.current
        assert current is not None
        pairing = current.pending()[0]
        assert pairing.match_id is not None
        at += 1
        roll = rng.random() if rng else 1.0
        if rng and roll < 0.08:
            run.do(no_show(run.state, pairing.match_id, [rng.choice(pairing.players)], at=at))
        elif rng and roll < 0.12:
            run.do(withdraw(run.state, rng.choice(pairing.players), at=at))
        else:
            won = winner(pairing)
            points = (100, 40) if won == pairing.first else (40, 100)
            run.do(record_result(run.state, pairing.match_id, won, points, at=at))


def play_drawn(data: st.DataObject, run: Run) -> None:
    """Play to the end with Hypothesis drawing every match, result, no-show and withdrawal."""
    at = 200
    while run.state.phase is Phase.RUNNING:
        pairing = data.draw(st.sampled_from(run.state.current.pending()))
        roll = data.draw(st.integers(0, 9))
        at += 1
        if roll == 0:
            absent = data.draw(st.sampled_from([pairing.players[:1], pairing.players]))
            run.do(no_show(run.state, pairing.match_id, absent, at=at))
        elif roll == 1:
            run.do(withdraw(run.state, data.draw(st.sampled_from(pairing.players)), at=at))
        else:
            winner = data.draw(st.sampled_from(pairing.players))
            points = (data.draw(st.integers(0, 250)), data.draw(st.integers(0, 250)))
            run.do(record_result(run.state, pairing.match_id, winner, points, at=at))
