"""Heavy computer levels think in worker processes, off the event loop.

A heavy level (``bots.Level.heavy``: ``master``) is CPU-bound Python for up to about
half a second a decision. In a thread it would hold the interpreter's lock and delay
every other room's move, so ``ThinkingPool`` sends its decisions to a
``ProcessPoolExecutor`` (``spawn`` start method: the server has threads, and a forked
child would copy their locks in whatever state they are).

- **Bounded**: at most ``bound`` decisions are in the pool at once (running or queued
  there); a caller beyond waits its turn on a semaphore, first come first served, and
  is never dropped.
- **Deterministic**: the worker gets the view and the generator's state, decides with
  ``bots.make_bot(level)`` as in-process play would, and sends back the action and the
  generator's new state, which the caller's generator takes: the same action, the
  same generator afterwards.
- **Healed**: a worker that dies breaks the executor (``BrokenProcessPool``); it is
  replaced by a new one (``restarts``) and every decision that was in it is asked
  again from the same view and state, ``tries`` times at most; then
  ``ThinkingFailed``.

The executor starts at the first heavy decision (an app that seats no heavy level
starts no process) and ``close`` stops it with its processes.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import random
import time
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import TypeVar

from ginrummy.bots import PortableRandom, make_bot
from ginrummy.engine import Action, SeatView
from ginrummy.server.metrics import Metrics

log = logging.getLogger("ginrummy.server.thinking")

START_METHOD = "spawn"
TRIES = 3
"""Times a decision is asked of the pool before it is given up (a worker died each time)."""

RngState = tuple[object, ...]
T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Carried:
    """A generator as sent to a worker: its class and state, or for a generator
    without a state (``SystemRandom``) a seed for a ``PortableRandom``."""

    kind: type[random.Random] | None
    state: RngState | None
    seed: int = 0

    @classmethod
    def of(cls, rng: random.Random) -> Carried:
        try:
            return cls(type(rng), rng.getstate())
        except NotImplementedError:  # the OS's generator: nothing to carry, a seed instead
            return cls(None, None, rng.getrandbits(64))

    def generator(self) -> random.Random:
        if self.kind is None or self.state is None:
            return PortableRandom(self.seed)
        rng = self.kind()
        rng.setstate(self.state)
        return rng

    def state_of(self, rng: random.Random) -> RngState | None:
        """``rng``'s state to send back (None when nothing was carried)."""
        return None if self.state is None else rng.getstate()


Decide = Callable[[str, SeatView, Carried], tuple[Action, "RngState | None"]]


def decide(level: str, view: SeatView, carried: Carried) -> tuple[Action, RngState | None]:
    """In a worker: the action of ``level`` for ``view`` and the generator's new state."""
    rng = carried.generator()
    action = make_bot(level)(view, rng)
    return action, carried.state_of(rng)


class ThinkingError(Exception):
    """A decision the pool could not make."""


class ThinkingFailed(ThinkingError):
    """The workers died ``tries`` times on one decision."""


class ThinkingClosed(ThinkingError):
    """The pool is closed (the server stops)."""


class ThinkingPool:
    """The worker processes of one server process and the bound on what waits for them."""

    def __init__(
        self,
        workers: int,
        bound: int,
        metrics: Metrics | None = None,
        *,
        work: Decide = decide,
        tries: int = TRIES,
        start_method: str = START_METHOD,
    ) -> None:
        """``work``: what a worker runs (a module-level function: it is pickled by
        name; tests give a slow or failing one)."""
        if workers < 1 or bound < 1 or tries < 1:
            raise ValueError("a thinking pool needs workers, bound and tries of at least 1")
        self.workers = workers
        self.bound = bound
        self.tries = tries
        self._work = work
        self._context = multiprocessing.get_context(start_method)
        self._metrics = metrics or Metrics(on=False)
        self._slots = asyncio.Semaphore(bound)
        self._executor: ProcessPoolExecutor | None = None
        self._retiring: set[asyncio.Task[None]] = set()  # broken executors being joined
        self._closed = False
        self.waiting = 0  # callers waiting for a slot
        self.busy = 0  # decisions in the pool
        self.restarts = 0  # executors replaced after a worker died

    @property
    def started(self) -> bool:
        """Whether the worker processes run (from the first heavy decision to ``close``)."""
        return self._executor is not None

    async def decide(self, level: str, view: SeatView, rng: random.Random) -> Action:
        """``make_bot(level)(view, rng)`` in a worker; ``rng`` advanced as it would be."""
        carried = Carried.of(rng)
        action, state = await self.run(f"{level} decision", self._work, level, view, carried)
        if state is not None:
            rng.setstate(state)
        return action

    async def run(self, what: str, work: Callable[..., T], *args: object) -> T:
        """``work(*args)`` in a worker, within the bound, asked again if a worker dies
        (``work`` and ``args`` pickle; ``what`` names it in the logs). For work of a
        heavy level other than one decision: a tournament's computers-only match."""
        await self._slot()
        try:
            return await self._submit(what, work, args)
        finally:
            self._slots.release()

    async def _slot(self) -> None:
        if self._closed:
            raise ThinkingClosed("the thinking pool is closed")
        start = time.perf_counter()
        self.waiting += 1
        self._metrics.thinking_waiting.inc()
        try:
            await self._slots.acquire()
        finally:
            self.waiting -= 1
            self._metrics.thinking_waiting.dec()
        self._metrics.thinking_wait.observe(time.perf_counter() - start)

    async def _submit(self, what: str, work: Callable[..., T], args: tuple[object, ...]) -> T:
        for attempt in range(1, self.tries + 1):
            executor = self._running()
            self.busy += 1
            self._metrics.thinking_busy.inc()
            try:
                future: Future[T] = executor.submit(work, *args)
                return await asyncio.wrap_future(future)
            except BrokenProcessPool:
                log.warning(
                    "a thinking worker died during a %s (try %d of %d)", what, attempt, self.tries
                )
                self._replace(executor)
            finally:
                self.busy -= 1
                self._metrics.thinking_busy.dec()
        raise ThinkingFailed(f"the thinking workers died {self.tries} times on a {what}")

    def _running(self) -> ProcessPoolExecutor:
        if self._closed:
            raise ThinkingClosed("the thinking pool is closed")
        if self._executor is None:
            self._executor = ProcessPoolExecutor(self.workers, mp_context=self._context)
            log.info("thinking pool started: %d worker processes", self.workers)
        return self._executor

    def _replace(self, broken: ProcessPoolExecutor) -> None:
        """A new executor for a broken one, once (its other callers find it replaced)."""
        if self._executor is not broken:
            return
        # Joined off the loop (its manager thread reaps the processes); ``close`` waits.
        retiring = asyncio.create_task(
            asyncio.to_thread(broken.shutdown, wait=True, cancel_futures=True)
        )
        self._retiring.add(retiring)
        retiring.add_done_callback(self._retiring.discard)
        self._executor = None
        self.restarts += 1
        self._metrics.thinking_restarts.inc()
        log.error("thinking pool broken by a dead worker: replaced (restart %d)", self.restarts)

    async def close(self) -> None:
        """Stop: no new decision; the running ones finish, then the processes end."""
        self._closed = True
        executor, self._executor = self._executor, None
        if executor is not None:
            await asyncio.to_thread(executor.shutdown, wait=True, cancel_futures=True)
            log.info("thinking pool stopped")
        if self._retiring:
            await asyncio.gather(*self._retiring)
