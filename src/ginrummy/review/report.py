"""A match review: every decision of one seat judged, per round and in a summary.

:func:`review_match` replays the record (``replay.decisions``), judges each decision
from the seat's view alone (``judgement.judge``), in this process or in a process
pool, and collects the result; ``Review.to_dict`` is the versioned JSON form
(docs/review.md, "Output").
"""

from __future__ import annotations

import math
import random
import sys
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from ginrummy.engine import Action, Card, MatchRecord, Seat, SeatView
from ginrummy.review.judgement import THRESHOLDS, Certainty, Judgement, Thresholds, judge
from ginrummy.review.replay import Decision, RoundEnd, decisions
from ginrummy.review.rollout import EXPERT, Budget, Evaluator
from ginrummy.review.summary import Summary, summarise
from ginrummy.review.texts import phrase

FORMAT = 1

Progress = Callable[[int, int], None]  # (decisions judged, decisions in all)


@dataclass(frozen=True, slots=True)
class Reviewed:
    decision: Decision
    judgement: Judgement


@dataclass(frozen=True, slots=True)
class ReviewedRound:
    number: int
    decisions: tuple[Reviewed, ...]
    end: RoundEnd | None  # None for a round cut short by a forfeit


@dataclass(frozen=True, slots=True)
class Review:
    seat: Seat
    budget: Budget
    seed: int
    thresholds: Thresholds
    rounds: tuple[ReviewedRound, ...]
    summary: Summary
    evaluator: str = EXPERT.name

    def to_dict(self) -> dict[str, Any]:
        t = self.thresholds
        return {
            "format": FORMAT,
            "kind": "review",
            "seat": self.seat.label,
            "samples": self.budget.samples,
            "screen": self.budget.screen,
            "keep": self.budget.keep,
            "confirm": self.budget.confirm,
            "confirm_rounds": self.budget.confirm_rounds,
            "seed": self.seed,
            "evaluator": self.evaluator,
            "thresholds": {
                "inaccuracy": t.inaccuracy,
                "mistake": t.mistake,
                "blunder": t.blunder,
                "z": round(t.z, 3),
                "level": t.level,
            },
            "rounds": [_round_dict(r, t) for r in self.rounds],
            "summary": self.summary.to_dict(),
        }


def review_match(
    record: MatchRecord,
    seat: Seat,
    *,
    budget: Budget | None = None,
    seed: int = 0,
    workers: int = 1,
    thresholds: Thresholds = THRESHOLDS,
    evaluator: Evaluator = EXPERT,
    progress: Progress | None = None,
) -> Review:
    """Review ``seat``'s decisions in ``record``; the same arguments give the same
    review whatever ``workers``. Raises ``RecordError`` for a record that does not
    replay."""
    budget = budget or Budget()
    items = list(decisions(record, seat))
    jobs = [
        _Job(d.view, d.played, d.round_number, d.index, budget, seed, thresholds, evaluator)
        for d in items
        if isinstance(d, Decision)
    ]
    judged: list[Judgement] = []
    for judgement in _run(jobs, workers):
        judged.append(judgement)
        if progress is not None:
            progress(len(judged), len(jobs))
    found = iter(judged)
    rounds: dict[int, tuple[list[Reviewed], list[RoundEnd]]] = {}
    for item in items:
        reviewed, ends = rounds.setdefault(item.round_number, ([], []))
        if isinstance(item, Decision):
            reviewed.append(Reviewed(item, next(found)))
        else:
            ends.append(item)
    out = tuple(
        ReviewedRound(n, tuple(reviewed), ends[0] if ends else None)
        for n, (reviewed, ends) in rounds.items()
    )
    summary = summarise((r.decision.turn, r.judgement) for rr in out for r in rr.decisions)
    return Review(seat, budget, seed, thresholds, out, summary, evaluator.name)


@dataclass(frozen=True, slots=True)
class _Job:
    """One decision to judge: a view and the action played, never a state."""

    view: SeatView
    played: Action
    round_number: int
    index: int
    budget: Budget
    seed: int
    thresholds: Thresholds
    evaluator: Evaluator


def _judge(job: _Job) -> Judgement:
    # Each decision has its own generator, so the result does not depend on the
    # order in which decisions are judged nor on how many processes judge them.
    rng = random.Random(f"review:{job.seed}:{job.round_number}:{job.index}")
    return judge(job.view, job.played, job.budget, rng, job.thresholds, job.evaluator)


def _run(jobs: Sequence[_Job], workers: int) -> Iterator[Judgement]:
    if workers <= 1 or len(jobs) <= 1:
        yield from map(_judge, jobs)
        return
    import multiprocessing

    ctx = multiprocessing.get_context("fork" if sys.platform != "win32" else "spawn")
    with ctx.Pool(workers) as pool:
        yield from pool.imap(_judge, jobs, chunksize=1)


# --- JSON ----------------------------------------------------------------------------


def _cards(cards: Sequence[Card]) -> list[str]:
    return [str(c) for c in cards]


def _round_dict(rnd: ReviewedRound, thresholds: Thresholds) -> dict[str, Any]:
    seen = 0
    decisions_out = []
    series = []
    for r in rnd.decisions:
        decisions_out.append(_decision_dict(r, seen, thresholds))
        seen = len(r.decision.view.moves)
        j = r.judgement
        value = None if not j.choices[0].points else j.value_of(j.played).mean
        series.append(
            {
                "index": r.decision.index,
                "turn": r.decision.turn,
                "value": None if value is None else round(value, 2),
            }
        )
    return {
        "number": rnd.number,
        "decisions": decisions_out,
        "series": series,
        "end": None if rnd.end is None else _end_dict(rnd.end.view),
    }


def _view_dict(view: SeatView, seen: int) -> dict[str, Any]:
    table = view.table
    return {
        "phase": None if table.round_phase is None else table.round_phase.value,
        "hand": _cards(view.hand),
        "deadwood": view.deadwood,
        "taken": None if view.taken is None else str(view.taken),
        "discard_pile": _cards(table.discard_pile),
        "stock_size": table.stock_size,
        "opponent_known": _cards(view.opponent_known),
        "scores": {s.label: table.scores[s] for s in Seat},
        "moves_since": [
            {"seat": m.seat.label, "move": str(m)} for m in view.moves[seen:]
        ],  # the public moves since the seat's previous decision
    }


def _decision_dict(r: Reviewed, seen: int, thresholds: Thresholds) -> dict[str, Any]:
    d, j = r.decision, r.judgement
    out: dict[str, Any] = {
        "index": d.index,
        "turn": d.turn,
        "view": _view_dict(d.view, seen),
        "played": str(j.played),
        "expert": str(j.expert),
        "best": str(j.best),
        "choices": [
            {"action": str(c.action), "value": round(c.mean, 2), "worlds": len(c.points)}
            for c in j.choices
        ],
        "loss": round(j.loss, 2),
        "error": _finite(j.error),
        "grade": j.grade.value,
        "pattern": None if j.pattern is None else j.pattern.value,
        "note": None,
        # How sure the grade is, and the loss's interval over the worlds that gave
        # the verdict (docs/review.md, "Grades and how sure they are").
        "certainty": None if j.certainty is None else j.certainty.value,
        "estimate": None if j.measured is None else round(j.measured.estimate, 2),
        "interval": None
        if j.measured is None
        else [_finite(j.measured.low), _finite(j.measured.high)],
        "loss_worlds": None if j.measured is None else j.measured.worlds,
        # The choices that looked better, against which the loss was measured on
        # fresh worlds (the interval holds for all of them together); 1 unconfirmed.
        "rivals": None if j.measured is None else j.measured.rivals,
        "verdict": _verdict(j, thresholds),
    }
    if j.pattern is not None:
        params = {
            "grade": j.grade.value,
            "played": str(j.played),
            "best": str(j.best),
            "loss": round(j.loss, 1),
            "pattern": j.pattern.value,
        }
        out["note"] = phrase("decision", params)
    return out


def _verdict(j: Judgement, thresholds: Thresholds) -> dict[str, Any] | None:
    """How sure the grade is, in words (``texts.py``, ``verdict_*``), from the same
    numbers as ``estimate``, ``error``, ``interval`` and ``loss_worlds``."""
    m, certainty = j.measured, j.certainty
    if m is None or certainty is None:
        return None
    if certainty is Certainty.UNSURE:
        key = "verdict_unsure"
    else:
        key = f"verdict_{certainty.value}_{'error' if j.grade.is_error else 'good'}"
    if j.rival_doubt:
        key = "verdict_likely_good_rival"  # the doubt is another rival's interval
    params: dict[str, str | int | float] = {
        "estimate": round(m.estimate, 1) + 0.0,  # + 0.0: no -0.0
        "worlds": m.worlds,
        "level": round(100 * m.level),
    }
    if math.isfinite(m.low) and math.isfinite(m.high):
        params |= {
            "error": round(m.error, 1) + 0.0,
            "low": round(m.low, 1) + 0.0,
            "high": round(m.high, 1) + 0.0,
        }
    if j.grade.is_error:
        params["band"] = j.grade.value
    else:
        params["start"] = float(thresholds.inaccuracy)
    return phrase(key, params)


def _finite(x: float) -> float | None:
    """``x`` rounded for JSON, which has no infinity (a loss measured on one world)."""
    return round(x, 2) if math.isfinite(x) else None


def _end_dict(view: SeatView) -> dict[str, Any]:
    table = view.table
    result = table.round_result
    assert result is not None
    return {
        "result": result.kind.value,
        "knocker": None if result.knocker is None else result.knocker.label,
        "winner": None if result.winner is None else result.winner.label,
        "points": result.points,
        "hands": {s.label: _cards(result.hands[s]) for s in Seat},
        "scores": {s.label: table.scores[s] for s in Seat},
    }
