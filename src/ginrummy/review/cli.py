"""``ginrummy review <record.json> [--seat one] [--json] [--samples N] [--seed S] ...``.

Prints the review of one seat, or of both without ``--seat``, as text (docs/review.md,
"The text summary"), or with ``--json`` as one JSON object (docs/review.md, "Output"),
and its progress on stderr. Bad input: exit code 2 and one line naming what is wrong.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import NoReturn

from ginrummy.engine import (
    GinRummyError,
    MatchRecord,
    RecordError,
    RoundRecord,
    Seat,
    load_record,
)
from ginrummy.review.cache import ReviewCache, cache_key
from ginrummy.review.report import review_match
from ginrummy.review.rollout import EVALUATORS, Budget
from ginrummy.review.textreport import text_report

PROG = "ginrummy review"


class _Parser(argparse.ArgumentParser):
    """argparse that exits with 2 and one line, as every bad input does."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: {message}\n")


def parser() -> argparse.ArgumentParser:
    defaults = Budget()
    p = _Parser(prog=PROG, description="Review the decisions of a recorded match.")
    p.add_argument("file", help="a JSON match record; - for stdin")
    p.add_argument(
        "--seat",
        choices=("one", "two"),
        help="the seat to review (default: both, one after the other)",
    )
    p.add_argument("--samples", type=int, default=defaults.samples, help="worlds per decision")
    p.add_argument("--screen", type=int, default=defaults.screen, help="worlds per choice first")
    p.add_argument("--keep", type=int, default=defaults.keep, help="choices played on all worlds")
    p.add_argument(
        "--confirm", type=int, default=defaults.confirm, help="more worlds for an apparent error"
    )
    p.add_argument(
        "--confirm-rounds",
        type=int,
        default=defaults.confirm_rounds,
        help="batches of --confirm worlds at most, while a verdict is not sure",
    )
    p.add_argument("--seed", type=int, default=0, help="the review derives from it")
    p.add_argument(
        "--evaluator",
        choices=tuple(EVALUATORS),
        default="expert",
        help="whose choice is shown beside the one played (the rollouts are the same)",
    )
    p.add_argument("--workers", type=int, default=1, help="processes (default 1)")
    p.add_argument("--cache", type=Path, help="a directory to keep reviews in")
    p.add_argument("--quiet", action="store_true", help="no progress on stderr")
    p.add_argument("--json", action="store_true", help="print the review as JSON instead of text")
    return p


def _fail(message: str) -> int:
    sys.stderr.write(f"{PROG}: {message}\n")
    return 2


def main(argv: Sequence[str]) -> int:
    try:
        args = parser().parse_args(argv)
    except SystemExit as exc:  # --help (0) or a bad option (2), already printed
        return int(exc.code or 0)
    if args.workers < 1:
        return _fail("--workers must be at least 1")
    try:
        budget = Budget(
            args.samples,
            min(args.screen, args.samples),
            args.keep,
            args.confirm,
            args.confirm_rounds,
        )
    except ValueError as exc:
        return _fail(f"--samples/--screen/--keep/--confirm/--confirm-rounds: {exc}")
    try:
        text = sys.stdin.read() if args.file == "-" else Path(args.file).read_text("utf-8")
    except OSError as exc:
        return _fail(f"cannot read {args.file}: {exc.strerror}")
    try:
        data = json.loads(text)
    except ValueError as exc:
        return _fail(f"bad JSON: {exc}")
    seats = [Seat.parse(args.seat)] if args.seat else list(Seat)
    evaluator = EVALUATORS[args.evaluator]
    reviews = []
    try:
        record = load_match(data)
        cache = ReviewCache(args.cache) if args.cache is not None else None
        for seat in seats:
            key = cache_key(record, seat, budget, args.seed, evaluator=evaluator)
            review = cache.get(key) if cache is not None else None
            if review is None:
                label = "" if args.seat else f"seat {seat.label}: "
                review = review_match(
                    record,
                    seat,
                    budget=budget,
                    seed=args.seed,
                    workers=args.workers,
                    evaluator=evaluator,
                    progress=None if args.quiet else _Bar(label),
                ).to_dict()
                if cache is not None:
                    cache.put(key, review)
            reviews.append(review)
    except GinRummyError as exc:  # a record that does not load or replay
        return _fail(str(exc))
    if args.json:
        # One seat: its review as it always was; both: the two in one object.
        out = reviews[0] if args.seat else {"format": 1, "kind": "reviews", "reviews": reviews}
        sys.stdout.write(json.dumps(out, ensure_ascii=False) + "\n")
    else:
        try:
            sys.stdout.write("\n".join(text_report(review) for review in reviews))
        except (KeyError, TypeError, ValueError) as exc:  # a cached file of another shape
            return _fail(f"the review cannot be printed as text ({exc!r}); try --json")
    return 0


def load_match(data: object) -> MatchRecord:
    """The match record in ``data``; a ``RecordError`` names the field at fault, with
    the round's place for a bad round (``rounds[2]: malformed round record: ...``)."""
    try:
        record = load_record(data)  # type: ignore[arg-type]  # load_record checks it
    except (RecordError, AttributeError) as exc:  # the engine's reader lets a round
        # that is not an object through as an AttributeError
        rounds = data.get("rounds") if isinstance(data, dict) else None
        for i, rnd in enumerate(rounds if isinstance(rounds, list) else []):
            if not isinstance(rnd, dict):
                raise RecordError(f"rounds[{i}]: not an object") from None
            try:
                RoundRecord.from_dict(rnd)
            except RecordError as bad:
                raise RecordError(f"rounds[{i}]: {bad}") from None
        raise RecordError(str(exc)) from None
    if not isinstance(record, MatchRecord):
        raise RecordError("kind: a review needs a match record, not a round record")
    return record


class _Bar:
    """Progress on stderr: decisions judged, of how many, and the time so far."""

    def __init__(self, label: str = "") -> None:
        self.start = time.monotonic()
        self.label = label

    def __call__(self, done: int, total: int) -> None:
        elapsed = time.monotonic() - self.start
        end = "\n" if done == total else ""
        sys.stderr.write(f"\r{PROG}: {self.label}{done}/{total} decisions, {elapsed:.1f} s{end}")
        sys.stderr.flush()
