"""One seat of a fault test (``ginrummy bench faults``, ``ginrummy bench deploy``): its
own WebSocket speaking only docs/protocol.md, reconnecting to any live instance when it
drops (after a 1012 from a draining instance too), with exponential backoff and jitter,
and resending the action it got no answer for."""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import time
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ginrummy.benchmarks.fault_audit import Game, public_text, view_digest
from ginrummy.benchmarks.load import choose, round_ask

if TYPE_CHECKING:
    from ginrummy.benchmarks.faults import Harness

RECONNECT_LIMIT = 30.0  # seconds a seat may take to find a live instance
BACKOFF_BASE_S = 0.2  # the first wait after a drop: 0.1-0.2 s, then doubling...
BACKOFF_MAX_S = 5.0  # ...up to 2.5-5 s
# Codes a correct server never sends to these clients: each one is a violation.
BAD_CODES = {
    "illegal_action",
    "bad_action",
    "bad_message",
    "unknown_type",
    "hello_first",
    "unknown_room",
    "no_spectators",
    "not_a_player",
}


def retry_delay(attempt: int, rng: random.Random) -> float:
    """Seconds to wait before reconnect attempt ``attempt`` (0: the first after a drop):
    exponential, with half of it random so that the sockets of a restarted instance do
    not all come back in the same instant (the page's schedule: web/js/socket.js retryDelay).

    >>> [round(retry_delay(a, random.Random(1)), 3) for a in range(6)]
    [0.113, 0.227, 0.454, 0.907, 1.815, 2.836]
    """
    cap: float = min(BACKOFF_MAX_S, BACKOFF_BASE_S * 2.0**attempt)
    return cap / 2 + rng.uniform(0, cap / 2)


class Client:
    """One seat: its own WebSocket, reconnecting to any live instance when it drops."""

    def __init__(self, harness: Harness, game: Game, token: str, home: int, seed: int) -> None:
        self.h, self.game, self.token, self.home = harness, game, token, home
        self.rng = random.Random(seed)
        self.jitter = random.Random(f"backoff {seed}")  # apart from the decisions
        self.seat = ""
        self.version = 0
        self.fresh = False  # take the next view even if not newer (after hello, a refusal)
        self.pending: tuple[int, str] | None = None  # an act sent, not yet answered
        self.sent_at = 0.0  # when the pending act was first sent (monotonic)
        self.steps: list[tuple[str, float]] = []  # what befell the pending act, and when
        self.resending = False
        self.rehello = False  # the next view answers a hello on a new socket
        self.asked: tuple[object, ...] = ()  # the last between-rounds request sent
        self.at = home  # the instance it is (or was last) connected to
        self.prefer = home
        self.moving = False  # a planned move back home, not a fault
        self.dropped_at: float | None = None
        self.ws: Any = None
        self.decider: asyncio.Task[None] | None = None
        self.welcomed = asyncio.Event()

    async def run(self) -> None:
        import websockets

        while not self.h.stopping:
            ws = await self._connect()
            if ws is None:
                return
            try:
                async for raw in ws:
                    await self._on(ws, json.loads(raw))
            except websockets.ConnectionClosed:
                pass
            finally:
                self.ws, self.resending = None, False  # an unanswered resend goes again
                if self.decider is not None:
                    self.decider.cancel()
            if self.h.stopping:
                return
            if self.moving:
                self.moving = False
            else:
                code = ws.close_code if ws.close_code is not None else 1006
                self.h.stats.close_codes[code] = self.h.stats.close_codes.get(code, 0) + 1
                self.dropped_at = time.monotonic()
                self.h.stats.drops += 1
                self._step(f"closed {code}")

    async def move_home(self) -> None:
        """Close the socket on purpose and reconnect to the home instance."""
        if self.ws is not None and self.at != self.home:
            self.prefer, self.moving = self.home, True
            self.h.stats.moved_home += 1
            await self.ws.close()

    async def _connect(self) -> Any:
        import websockets

        n = len(self.h.instances)
        if self.dropped_at is not None:
            # Any other instance, as a load balancer spreads them (a random one, not the
            # first alive: the sockets of a restarted instance share the rest evenly);
            # the one that failed last.
            order = self.jitter.sample(range(n), n)
            order.sort(key=lambda i: i == self.at)
        else:
            order = sorted(range(n), key=lambda i: i != self.prefer)  # home first
        deadline = time.monotonic() + RECONNECT_LIMIT
        attempt = 0
        if self.dropped_at is not None and not self.moving:
            await asyncio.sleep(retry_delay(attempt, self.jitter))
            attempt += 1
        while not self.h.stopping:
            for index in order:
                try:
                    ws = await websockets.connect(
                        self.h.instances[index].ws_url, max_size=2**20, open_timeout=3
                    )
                except (OSError, TimeoutError, websockets.InvalidHandshake) as exc:
                    self._refused(exc)
                    self._step(f"refused by {index}")
                    continue
                self._step(f"open to {index}")
                self.at, self.prefer, self.ws = index, self.home, ws
                self.fresh = self.rehello = True
                hello = {"type": "hello", "room": self.game.room, "token": self.token}
                await ws.send(json.dumps(hello))
                return ws
            if time.monotonic() > deadline:
                self.h.stats.violation(f"room {self.game.room}: a seat found no live instance")
                return None
            await asyncio.sleep(retry_delay(attempt, self.jitter))
            attempt += 1
        return None

    def _refused(self, exc: Exception) -> None:
        """Count a connection attempt that failed, by why (a draining instance: HTTP 503)."""
        import websockets

        if isinstance(exc, websockets.InvalidStatus):
            why = f"http {exc.response.status_code}"
        elif isinstance(exc, TimeoutError):
            why = "timeout"
        elif isinstance(exc, OSError):
            why = "connection refused"
        else:
            why = type(exc).__name__
        self.h.stats.refused[why] = self.h.stats.refused.get(why, 0) + 1

    async def _on(self, ws: Any, msg: dict[str, Any]) -> None:
        kind = msg.get("type")
        if kind == "welcome":
            self._step("welcome")
            self.seat = msg.get("seat") or ""
            self.asked = ()
            self.welcomed.set()
        elif kind == "event":
            self._on_event(msg)
        elif kind == "error":
            await self._on_error(ws, msg)
        elif kind == "view":
            await self._on_view(ws, msg)

    def _on_event(self, msg: Mapping[str, Any]) -> None:
        pending = self.pending
        if msg.get("kind") != "action" or msg.get("seat") != self.seat or pending is None:
            return
        version = int(msg["version"])
        if version != pending[0] + 1:
            return
        if msg.get("action") != public_text(pending[1]):
            self.h.stats.violation(
                f"room {self.game.room}: sent {pending[1]!r}, told {msg.get('action')!r}"
            )
        self._acked(version)

    def _acked(self, version: int) -> None:
        assert self.pending is not None
        self.game.acked[version] = (self.seat, self.pending[1])
        self.h.stats.acked += 1
        self._answered()
        if self.resending:
            self.h.stats.resent_applied += 1
        self.pending, self.resending = None, False

    async def _on_error(self, ws: Any, msg: Mapping[str, Any]) -> None:
        import websockets

        code = str(msg.get("code"))
        self.h.stats.errors[code] = self.h.stats.errors.get(code, 0) + 1
        self._step(f"error {code}")
        if code in BAD_CODES:
            self.h.stats.violation(f"room {self.game.room}: error {code}: {msg.get('message')}")
        if code in ("stale_version", "not_your_turn", *BAD_CODES) and self.pending is not None:
            if self.resending:
                self.h.stats.resent_stale += 1
            self._answered()
            self.pending, self.resending, self.fresh = None, False, True
        elif code == "unavailable" and self.rehello:
            # The hello itself was refused (the room could not be read yet): say it again
            # after a backoff rather than wait unbound for the server's 4408.
            await asyncio.sleep(retry_delay(1, self.jitter))
            hello = {"type": "hello", "room": self.game.room, "token": self.token}
            with contextlib.suppress(websockets.ConnectionClosed):
                await ws.send(json.dumps(hello))
        elif code == "unavailable" and self.pending is not None:
            await asyncio.sleep(0.2)
            await self._send_act(ws, *self.pending)

    async def _on_view(self, ws: Any, msg: Mapping[str, Any]) -> None:
        version = int(msg["version"])
        view = msg["view"]
        digest = view_digest(view)
        known = self.game.seen.setdefault((self.seat, version), digest)
        if known != digest:
            self.h.stats.violation(f"room {self.game.room}: two different views of {version}")
        if version < self.version:
            self.h.stats.violation(
                f"room {self.game.room}: seat {self.seat} was at {self.version}, now told {version}"
            )
        if version <= self.version and not self.fresh:
            return
        self.version, self.fresh = version, False
        if self.dropped_at is not None:
            self.h.stats.reconnect_s.append(time.monotonic() - self.dropped_at)
            self.dropped_at = None
        after_hello, self.rehello = self.rehello, False
        pending = self.pending
        if pending is not None and after_hello and self._shows(pending, version, view):
            self._acked(version)  # applied before the socket dropped, its answer lost
            pending = None
        if pending is not None and after_hello:
            # No answer came before the socket dropped: send it again, as it was.
            self.resending = True
            self.h.stats.resent += 1
            self._step("view, resent")
            await self._send_act(ws, *pending)
            return
        if pending is not None:
            if self._shows(pending, version, view):
                self._acked(version)  # the view with it applied (its event was skipped)
            else:
                return  # its answer (the event or an error) is on the way
        if not self.h.stopping:
            if self.decider is not None:
                self.decider.cancel()
            me = (msg.get("players") or {}).get(self.seat) or {}
            self.decider = asyncio.create_task(self._decide(ws, view, me, version))

    def _shows(self, pending: tuple[int, str], version: int, view: Mapping[str, Any]) -> bool:
        """The view of ``version`` is the one right after the pending act, applied."""
        mine = {"seat": self.seat, "action": public_text(pending[1])}
        return version == pending[0] + 1 and view["moves"][-1:] == [mine]

    def _step(self, what: str) -> None:
        """Note what befell the pending act (nothing pending: nothing to note)."""
        if self.pending is not None:
            self.steps.append((what, time.monotonic()))

    def _answered(self) -> None:
        """The pending act got its answer: how long the player waited for it, and the
        steps of the wait (``Stats.slowest`` keeps those of the longest)."""
        now = time.monotonic()
        self.h.stats.waits.append((self.sent_at, now - self.sent_at))
        self.h.stats.timeline(self.sent_at, now, self.steps)
        self.steps = []

    async def _send_act(self, ws: Any, version: int, action: str) -> None:
        import websockets

        with contextlib.suppress(websockets.ConnectionClosed):
            await ws.send(json.dumps({"type": "act", "version": version, "action": action}))

    async def _decide(
        self, ws: Any, view: Mapping[str, Any], me: Mapping[str, Any], version: int
    ) -> None:
        import websockets

        action = choose(dict(view), self.rng)
        if action is None:
            ask = round_ask(view["table"], me, self.asked)
            if ask is not None:
                self.asked, kind = ask
                with contextlib.suppress(websockets.ConnectionClosed):
                    await ws.send(json.dumps({"type": kind, "version": version}))
            return
        if self.h.options.think:
            think = self.h.options.think
            await asyncio.sleep(self.rng.uniform(think / 2, think * 1.5))
        if version != self.version or self.h.stopping or self.pending is not None:
            return
        # Recorded before it leaves: it may be applied even if the socket dies now.
        self.game.sent.add((version, self.seat, action))
        self.pending, self.sent_at = (version, action), time.monotonic()
        self.steps = []
        await self._send_act(ws, version, action)
