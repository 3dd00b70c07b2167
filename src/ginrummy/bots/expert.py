"""``expert``: the best player measured so far, and fast.

It plays the full heuristic at its best settings and never slips: it tracks every
public card, judges each discard by what it gives away, knocks by a table that
depends on the stock, and, as the stock runs out, values its hand more by deadwood
and less by the outs of its loose cards (a hand that will not have time to grow
should be cheap when the opponent knocks).

Sampling opponent hands (determinization) for the knock decision, inference of the
opponent's holdings and an exact expectation over the stock were tried and measured
no better than this in the arena (bench/RESULTS.md), at ten to a hundred times the
cost; they are not used. Every decision is a pure function of the view (the rng is not
even consulted), so the level is deterministic whatever the machine's speed.
"""

from __future__ import annotations

from ginrummy.bots.heuristic import Player, Style

EXPERT = Style(
    memory=True,
    potential=1.0,
    danger=6.0,
    infer=False,
    stock_gain=1.5,
    knock=((22, 10), (16, 6), (10, 4), (4, 3), (0, 10)),
    late_potential=0.3,
)


class Expert(Player):
    def __init__(self, style: Style = EXPERT) -> None:
        super().__init__(style)
