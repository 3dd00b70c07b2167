"""The review as text for a person: first the seat's summary (its counts, how many of
them sure, the average loss and its worst decisions), then per round the decisions
worth mentioning (the errors, and those that looked like errors but could not be told
from none), each with the move, the better move and the loss with its interval, and
the counts (docs/review.md, "The text summary").

It reads the review's JSON form (``Review.to_dict``), so a review from the cache
prints as well as a fresh one.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ginrummy.review.summary import GRADED
from ginrummy.review.texts import GRADES

_ENDS = {
    "knock": "{knocker} knocked",
    "gin": "{knocker} went gin",
    "big_gin": "{knocker} went big gin",
    "undercut": "{knocker} knocked and was undercut",
}


def mentioned(decision: Mapping[str, Any]) -> bool:
    """Whether a decision is worth a line: an error, or an unsure one."""
    return decision["grade"] in {g.value for g in GRADED} or decision.get("certainty") == "unsure"


def counts_line(counts: Mapping[str, int], unclear: int) -> str:
    """``"1 inaccuracy, 0 mistakes, 2 blunders; 1 unclear"``."""
    parts = []
    for grade in GRADED:
        one, many = GRADES[grade.value]["en"]
        n = counts.get(grade.value, 0)
        parts.append(f"{n} {one if n == 1 else many}")
    return ", ".join(parts) + (f"; {unclear} unclear" if unclear else "")


def text_report(review: Mapping[str, Any]) -> str:
    """The review ``review`` (its JSON form) as lines of English text."""
    t = review["thresholds"]
    level = round(100 * float(t.get("level", 0.9)))
    judged = [
        d for r in review["rounds"] for d in r["decisions"] if d["grade"] != "forced"
    ]  # fmt: skip
    total = sum(len(r["decisions"]) for r in review["rounds"])
    rounds = len(review["rounds"])
    lines = [
        f"Review of seat {review['seat']}: {rounds} round{'' if rounds == 1 else 's'}, "
        f"{total} decisions "
        f"({len(judged)} with a choice), evaluated by {review.get('evaluator', 'expert')}, "
        f"seed {review['seed']}.",
        f"A loss is in expected round points against the best choice, with its {level}% "
        "interval (for all the choices that looked better together). "
        f"Inaccuracy from {_num(t['inaccuracy'])}, mistake from "
        f"{_num(t['mistake'])}, blunder from {_num(t['blunder'])}; sure: the whole "
        "interval agrees; likely: the estimate does; unclear: it cannot be told from no "
        "loss (graded good).",
    ]
    lines.append("")
    lines.extend(_seat_summary(review, judged))
    for rnd in review["rounds"]:
        lines.append("")
        lines.append(f"Round {rnd['number']}: {_end(rnd['end'])}")
        counts = {g.value: 0 for g in GRADED}
        unclear = 0
        rows = []
        for d in rnd["decisions"]:
            if not mentioned(d):
                continue
            if d["grade"] in counts:
                counts[d["grade"]] += 1
            else:
                unclear += 1
            rows.append(_row(d))
        lines.extend(_columns(rows))
        lines.append(f"  {counts_line(counts, unclear)}")
    return "\n".join(lines) + "\n"


WORST = 5  # decisions in the list of the worst


def _seat_summary(review: Mapping[str, Any], judged: Sequence[Mapping[str, Any]]) -> list[str]:
    """The seat's counts, its summary sentence, the average loss and the worst
    decisions (by the estimated loss, errors and unclear ones alike)."""
    summary = review["summary"]
    unclear = int(summary.get("unclear", 0))
    lines = [
        f"Seat {review['seat']}: {counts_line(summary['counts'], 0)} "
        f"(sure: {counts_line(summary.get('sure', {}), 0)})"
        + (f"; {unclear} unclear." if unclear else "."),
        summary["text"]["en"],
    ]
    if judged:
        average = sum(float(d["loss"]) for d in judged) / len(judged)
        errors = sum(summary["counts"].values())
        lines.append(
            f"Average loss {_num(average)} points a decision with a choice; "
            f"{_num(summary['points_lost'])} points lost by the {errors} "
            f"error{'' if errors == 1 else 's'}."
        )
    worst = sorted(
        (
            (n, d)
            for rnd in review["rounds"]
            for n, d in [(rnd["number"], d) for d in rnd["decisions"]]
            if mentioned(d)
        ),
        key=lambda nd: -_estimate(nd[1]),
    )[:WORST]
    if worst:
        lines.append("Worst decisions:")
        lines.extend(_columns([[f"round {n}", *_row(d)] for n, d in worst]))
    return lines


def _estimate(d: Mapping[str, Any]) -> float:
    estimate = d.get("estimate")
    return float(d["loss"] if estimate is None else estimate)


def _row(d: Mapping[str, Any]) -> list[str]:
    estimate = _estimate(d)
    error, interval = d.get("error"), d.get("interval")
    loss = f"loses {_num(estimate)}"
    if error is not None:
        loss += f" ± {_num(error)}"
    if interval and None not in interval:
        loss += f" ({_num(interval[0])} to {_num(interval[1])})"
    certainty = d.get("certainty")
    if certainty == "unsure":
        verdict = "unclear (graded good)"
    else:
        verdict = d["grade"] + (f" ({certainty})" if certainty else "")
    return [f"turn {d['turn']}", d["played"], f"better: {d['best']}", loss, verdict]


def _columns(rows: Sequence[list[str]]) -> list[str]:
    if not rows:
        return ["  no decision worth mentioning"]
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]) - 1)]
    return [
        "  " + "  ".join([*(c.ljust(w) for c, w in zip(r, widths, strict=False)), r[-1]])
        for r in rows
    ]


def _end(end: Mapping[str, Any] | None) -> str:
    if end is None:
        return "cut short by a forfeit"
    scores = ", ".join(f"{seat} {score}" for seat, score in end["scores"].items())
    if end["winner"] is None:
        return f"void (score {scores})"
    how = _ENDS.get(end["result"], "{knocker} ended the round").format(knocker=end["knocker"])
    return f"{how}; {end['winner']} scored {end['points']} (score {scores})"


def _num(x: float) -> str:
    text = f"{x:.1f}"
    return "0.0" if text == "-0.0" else text
