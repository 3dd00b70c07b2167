"""Reviews are worth keeping: the same record, seat and settings give the same review,
so a review is stored under a key derived from exactly these (and the output format).

>>> from ginrummy.engine import MatchRecord, Rules, Seat
>>> from ginrummy.review.rollout import EXPERT, Budget, Evaluator
>>> record = MatchRecord(Rules.preset("standard"), Seat.ONE, ())
>>> len(cache_key(record, Seat.ONE, Budget(), 0))
64
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
from dataclasses import asdict
from pathlib import Path
from typing import Any

from ginrummy.engine import MatchRecord, Seat
from ginrummy.review.judgement import THRESHOLDS, Thresholds
from ginrummy.review.report import FORMAT
from ginrummy.review.rollout import EXPERT, Budget, Evaluator

log = logging.getLogger(__name__)

# The judging method's revision: a review kept by an earlier method is judged again
# (2: every rival confirmed on the fresh worlds, verdicts in words; docs/review.md).
METHOD = 2


def cache_key(
    record: MatchRecord,
    seat: Seat,
    budget: Budget,
    seed: int,
    thresholds: Thresholds = THRESHOLDS,
    evaluator: Evaluator = EXPERT,
) -> str:
    """The SHA-256 (hex) of everything a review depends on."""
    data = {
        "format": FORMAT,
        "method": METHOD,
        "record": record.to_dict(),
        "seat": seat.label,
        "budget": asdict(budget),
        "seed": seed,
        "thresholds": asdict(thresholds),
        "evaluator": evaluator.name,
    }
    text = json.dumps(data, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


class ReviewCache:
    """Reviews as JSON files in ``directory``, one per key."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory

    def _path(self, key: str) -> Path:
        return self.directory / f"{key}.json"

    def get(self, key: str) -> dict[str, Any] | None:
        """The stored review, or None when there is none (or it cannot be read)."""
        path = self._path(key)
        try:
            data = json.loads(path.read_text("utf-8"))
        except FileNotFoundError:
            return None
        except (OSError, ValueError) as exc:
            log.warning("review cache: ignoring unreadable %s: %s", path, exc)
            return None
        return data if isinstance(data, dict) else None

    def put(self, key: str, review: dict[str, Any]) -> None:
        """Store ``review``; written to a temporary file and renamed, so a reader
        never sees half a review."""
        self.directory.mkdir(parents=True, exist_ok=True)
        path = self._path(key)
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_text(json.dumps(review, ensure_ascii=False), "utf-8")
        tmp.replace(path)
