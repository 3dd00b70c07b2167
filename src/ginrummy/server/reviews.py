"""Match reviews as background jobs (docs/protocol.md, "Reviews"; docs/review.md).

A review takes seconds to minutes of CPU, so no request runs one: ``ReviewJobs.start``
hands it to a bounded pool of worker threads and answers at once with the job's state;
polling reads the same state. One job per review key (record, seat, budget, seed,
thresholds) at a time; a finished review is kept in a ``ReviewCache`` under the data
dir, so asking again costs nothing.

Worker threads share the interpreter with the event loop, which gets its turn at every
switch interval (5 ms): the server keeps answering while a review runs, a little
slower. The pool (``review_workers``, default 1) bounds how many reviews run at once.
"""

from __future__ import annotations

import logging
import threading
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ginrummy.engine import GinRummyError, MatchRecord, Seat
from ginrummy.review import Budget, review_match
from ginrummy.review.cache import ReviewCache, cache_key

log = logging.getLogger("ginrummy.server.reviews")

SEED = 0  # the server's reviews are all made with one seed: the same match, the same review
QUEUE_PER_WORKER = 8  # jobs waiting or running per worker before new ones are refused


class ReviewBusy(Exception):
    """Too many reviews are waiting; the caller should try again later."""


class Stopped(Exception):
    """The server is shutting down: the running review gives up."""


@dataclass(frozen=True, slots=True)
class JobState:
    """What a poll answers: ``state`` is queued, running, done or failed."""

    key: str
    seat: Seat
    state: str
    done: int
    total: int
    review: dict[str, Any] | None = None
    error: str | None = None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "job": self.key,
            "seat": self.seat.label,
            "state": self.state,
            "done": self.done,
            "total": self.total,
        }
        if self.review is not None:
            out["review"] = self.review
        if self.error is not None:
            out["error"] = self.error
        return out


class _Job:
    """One review in the pool; its fields are written by the worker thread."""

    def __init__(self, key: str, seat: Seat) -> None:
        self.key = key
        self.seat = seat
        self.lock = threading.Lock()
        self.state = "queued"
        self.done = 0
        self.total = 0
        self.error: str | None = None

    def snapshot(self) -> JobState:
        with self.lock:
            return JobState(
                self.key, self.seat, self.state, self.done, self.total, error=self.error
            )


class ReviewJobs:
    """The review pool of one server process."""

    def __init__(self, directory: Path, budget: Budget, workers: int = 1) -> None:
        if workers < 1:
            raise ValueError(f"a review pool needs at least one worker, got {workers}")
        self.cache = ReviewCache(directory)
        self.budget = budget
        self.workers = workers
        self.limit = workers * QUEUE_PER_WORKER  # jobs waiting or running at once
        self._pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="review")
        self._jobs: dict[str, _Job] = {}
        self._lock = threading.Lock()
        self._stopping = threading.Event()

    def key(self, record: MatchRecord, seat: Seat) -> str:
        return cache_key(record, seat, self.budget, SEED)

    def start(self, record: MatchRecord, seat: Seat) -> JobState:
        """The review of ``seat`` in ``record``: done from the cache, else the job that
        makes it (started now unless one is queued or running). Raises ``ReviewBusy``
        when the pool's queue is full."""
        key = self.key(record, seat)
        cached = self.cache.get(key)
        if cached is not None:
            return JobState(key, seat, "done", 1, 1, cached)
        with self._lock:
            job = self._jobs.get(key)
            if job is not None:
                return job.snapshot()
            waiting = self._waiting()
            if waiting >= self.limit:
                raise ReviewBusy(f"{waiting} reviews are waiting")
            job = _Job(key, seat)
            self._jobs[key] = job
        future = self._pool.submit(self._work, job, record)
        future.add_done_callback(lambda f: self._finished(job, f))
        log.info("review %s of seat %s queued", key[:12], seat.label)
        return job.snapshot()

    def running(self) -> int:
        """How many jobs are queued or running."""
        with self._lock:
            return self._waiting()

    def _waiting(self) -> int:
        return sum(1 for j in self._jobs.values() if j.snapshot().state in ("queued", "running"))

    def _work(self, job: _Job, record: MatchRecord) -> None:
        with job.lock:
            job.state = "running"

        def progress(done: int, total: int) -> None:
            if self._stopping.is_set():
                raise Stopped("the server is shutting down")
            with job.lock:
                job.done, job.total = done, total

        review = review_match(record, job.seat, budget=self.budget, seed=SEED, progress=progress)
        self.cache.put(job.key, review.to_dict())

    def _finished(self, job: _Job, future: Future[None]) -> None:
        if future.cancelled():  # dropped from the queue by close()
            with self._lock:
                self._jobs.pop(job.key, None)
            return
        error = future.exception()
        with self._lock:
            if error is None:
                # The cache has it now; a poll finds it there.
                self._jobs.pop(job.key, None)
                log.info("review %s of seat %s done", job.key[:12], job.seat.label)
                return
        with job.lock:
            job.state = "failed"
            job.error = str(error)
        if isinstance(error, Stopped):
            with self._lock:
                self._jobs.pop(job.key, None)
            log.info("review %s stopped: %s", job.key[:12], error)
        elif isinstance(error, GinRummyError | OSError):
            log.error("review %s of seat %s failed: %s", job.key[:12], job.seat.label, error)
        else:
            log.error("review %s crashed", job.key[:12], exc_info=error)

    def close(self) -> None:
        """Stop: waiting jobs are dropped, running ones give up at their next decision."""
        self._stopping.set()
        self._pool.shutdown(wait=True, cancel_futures=True)
