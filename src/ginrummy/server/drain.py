"""The drain of a stopping instance, for rolling restarts (docs/operations.md, "Rolling
restarts"): what a SIGTERM does before uvicorn stops the process.

On the first SIGTERM (or SIGINT) the instance stops being ready (``/api/ready``
answers 503 saying it drains), refuses new sockets (HTTP 503), lets every open socket
finish the message it is answering and closes it with 1012 (service restart: the client
reconnects, through the load balancer to another instance). Once its sockets are gone,
uvicorn stops: its last connections, then the app's lifespan, where each room finishes
the change it is making before its tasks stop and its lease is given up. All of it within
``Settings.drain_s`` seconds (``GINRUMMY_DRAIN_S``, ``--drain-s``): what still runs then
ends at once, and so does the process on a second signal. Neither loses anything a client
was told: a client is told of a change only once the store has it ("write before you
tell", docs/design.md), and the next instance replays the log.

uvicorn's own shutdown stops listening at once (a load balancer then sees a refused
connection, not a "draining" answer) and takes a second SIGTERM as the first; hence
``DrainingServer``, uvicorn's ``Server`` with its ``handle_exit`` (the signal handler
uvicorn installs), ``startup``, ``should_exit`` and ``config.timeout_graceful_shutdown``
used as uvicorn 0.50 to <1 defines them.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import signal
import socket
import time
from collections.abc import Callable, Iterator
from types import FrameType
from typing import Protocol

import uvicorn
from starlette.applications import Starlette

log = logging.getLogger("ginrummy.server.drain")

SHUTDOWN_RESERVE_S = 3.0
"""Seconds of the grace period kept for uvicorn's own shutdown and the app's lifespan
(rooms, leases, store) after the sockets: at most a quarter of it."""
SPREAD_S = 10.0
"""Seconds over which the open sockets are told to restart, one after the other: a
thousand sockets closed in one instant come back to the other instances in one
instant, and their hellos (each a room read from the store) queued for seconds. Over
5 s, the longest wait for a move at 1,000 games was 5.0–5.7 s; over 8.5 s (the
default grace period's cap, below), 2.4 s (bench/RESULTS.md, "Rolling restarts"). At
most half the sockets' budget."""
OVERRUN_EXIT = 1  # the exit status when the grace period ran out


class Restartable(Protocol):
    """An open socket as the drain sees it (``sockets.frames.Connection``)."""

    def restart(self) -> None:
        """Finish the message being answered, then close with 1012 (service restart)."""


class Drain:
    """One instance's drain: whether it has begun, the sockets it must close, and how
    much of the grace period is left for each step (``clock``: monotonic seconds).

    >>> drain = Drain(20.0, clock=lambda: 100.0)
    >>> drain.draining, drain.sockets_budget()
    (False, 17.0)
    """

    def __init__(self, grace_s: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.grace_s = grace_s
        self.reserve_s = min(SHUTDOWN_RESERVE_S, grace_s / 4)
        self._clock = clock
        self.began: float | None = None  # when (clock) the drain began
        self._sockets: set[Restartable] = set()
        self._none_open = asyncio.Event()
        self._none_open.set()

    @property
    def draining(self) -> bool:
        return self.began is not None

    @property
    def open_sockets(self) -> int:
        return len(self._sockets)

    def begin(self) -> bool:
        """Stop being ready, tell the open sockets to restart (the first at once, the
        others spread over ``spread_s``); False if begun already."""
        if self.began is not None:
            return False
        self.began = self._clock()
        socks = list(self._sockets)
        step = self.spread_s() / len(socks) if socks else 0.0
        for n, sock in enumerate(socks):
            if n == 0 or step <= 0:
                sock.restart()
            else:
                asyncio.get_running_loop().call_later(n * step, sock.restart)
        return True

    def spread_s(self) -> float:
        """Seconds over which the open sockets are told to restart."""
        return min(SPREAD_S, self.sockets_budget() / 2)

    @contextlib.contextmanager
    def track(self, sock: Restartable) -> Iterator[None]:
        """Count ``sock`` as open while the block runs (one opened as the drain began
        is told to restart at once)."""
        self._sockets.add(sock)
        self._none_open.clear()
        if self.began is not None:
            sock.restart()
        try:
            yield
        finally:
            self._sockets.discard(sock)
            if not self._sockets:
                self._none_open.set()

    def left(self) -> float:
        """Seconds left of the grace period (all of it before the drain begins)."""
        if self.began is None:
            return self.grace_s
        return max(0.0, self.grace_s - (self._clock() - self.began))

    def sockets_budget(self) -> float:
        """Seconds the open sockets have left to close: the grace period left, less the
        reserve for the shutdown after them."""
        return max(0.0, self.left() - self.reserve_s)

    async def sockets_closed(self) -> bool:
        """Wait until no socket is open, at most ``sockets_budget``; True if none is."""
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(self.sockets_budget()):
                await self._none_open.wait()
        return not self._sockets


def drain_of(app: Starlette) -> Drain:
    """The app's drain (``create_app`` makes it)."""
    drain: Drain = app.state.drain
    return drain


def exit_now(status: int) -> None:
    """End the process at once: no shutdown, as after ``kill -9``, but with the log
    written out. Nothing a client was told is lost (it is in the store already)."""
    for handler in logging.getLogger().handlers:
        handler.flush()
    os._exit(status)


class DrainingServer(uvicorn.Server):
    """uvicorn's server, which drains (``Drain``) on the first SIGTERM or SIGINT before
    it stops, within the grace period, and ends at once on the second."""

    def __init__(self, config: uvicorn.Config, drain: Drain) -> None:
        super().__init__(config)
        self.drain = drain
        self._loop: asyncio.AbstractEventLoop | None = None
        self._signalled = False
        self._finishing: asyncio.Task[None] | None = None

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        self._loop = asyncio.get_running_loop()
        await super().startup(sockets)

    def handle_exit(self, sig: int, frame: FrameType | None) -> None:
        # A signal handler: it runs in the main thread between two steps of the loop.
        if self._loop is None or not self.started:
            super().handle_exit(sig, frame)  # not serving yet: uvicorn's own stop
        elif self._signalled:
            log.warning("%s during the drain: exiting now", signal.Signals(sig).name)
            exit_now(128 + sig)
        else:
            self._signalled = True
            self._loop.call_soon_threadsafe(self._begin, signal.Signals(sig).name)

    def _begin(self, why: str) -> None:
        if not self.drain.begin():
            return
        log.warning(
            "%s: draining %d sockets, %g s at most (a second signal exits now)",
            why,
            self.drain.open_sockets,
            self.drain.grace_s,
        )
        assert self._loop is not None
        self._loop.call_later(self.drain.grace_s, self._overrun)
        self._finishing = asyncio.create_task(self._finish())

    async def _finish(self) -> None:
        """Once the sockets are closed (or their time is up), let uvicorn stop: its own
        connections get what is left of the grace period before the reserve."""
        if await self.drain.sockets_closed():
            log.info("drain: every socket closed; stopping")
        else:
            log.warning("drain: %d sockets still open; stopping", self.drain.open_sockets)
        self.config.timeout_graceful_shutdown = max(1, int(self.drain.sockets_budget()))
        self.should_exit = True

    def _overrun(self) -> None:
        log.error("drain: the grace period (%g s) is over: exiting now", self.drain.grace_s)
        exit_now(OVERRUN_EXIT)
