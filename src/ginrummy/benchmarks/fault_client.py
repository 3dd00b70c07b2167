"""One seat of a fault test (``ginrummy bench faults``, ``ginrummy bench deploy``): its
own WebSocket speaking only docs/protocol.md, reconnecting to any live instance when it
drops (after a 1012 from a draining instance too), with exponential backoff and jitter,
and resending the action it got no answer for.

That life is ``SeatClient``'s, written once; what differs by kind of table is a
subclass's: ``RoomClient`` holds a seat of a two-player room (a tournament's match
too), ``ChouetteClient`` a position at a chouette table (docs/protocol.md, "Chouette
rooms")."""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import time
from abc import ABC, abstractmethod
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ginrummy.benchmarks.fault_audit import Game, chouette_digest, public_text, view_digest
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


class SeatClient(ABC):
    """One player at a table: its own WebSocket, reconnecting to any live instance when
    it drops, resending its unanswered act; a subclass reads its kind's frames."""

    def __init__(self, harness: Harness, game: Game, token: str, home: int, seed: int) -> None:
        self.h, self.game, self.token, self.home = harness, game, token, home
        self.rng = random.Random(seed)
        self.jitter = random.Random(f"backoff {seed}")  # apart from the decisions
        self.seat = ""
        self.version = 0
        self.fresh = False  # take the next view even if not newer (after hello, a refusal)
        self.pending: tuple[int, str] | None = None  # an act sent, not yet answered
        self.sent_on: Mapping[str, Any] = {}  # the view the pending act was chosen on
        self.sent_at = 0.0  # when the pending act was first sent (monotonic)
        self.steps: list[tuple[str, float]] = []  # what befell the pending act, and when
        self.resending = False
        self.rehello = False  # the next view answers a hello on a new socket
        self.asked: tuple[object, ...] = ()  # the last between-rounds request sent
        self.waits = ""  # what the last view waited for, in short (for a stuck game)
        self.latest: Mapping[str, Any] = {}  # the last view frame taken
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
            self.seat = self.seat_of(msg)
            self.asked = ()
            self.welcomed.set()
        elif kind == "event":
            self._on_event(msg)
        elif kind == "error":
            await self._on_error(ws, msg)
        elif kind == "view":
            await self._on_view(ws, msg)

    # --- what a kind of table says its own way --------------------------------------

    @abstractmethod
    def seat_of(self, welcome: Mapping[str, Any]) -> str:
        """The seat label (as the log has it) a ``welcome`` binds this socket to."""

    @abstractmethod
    def applied_at(self, event: Mapping[str, Any], pending: tuple[int, str]) -> int | None:
        """The version an ``event`` frame says the pending act was applied at (None:
        the frame is not about it)."""

    @abstractmethod
    def digest(self, view: Mapping[str, Any]) -> str:
        """What a view frame's ``view`` says about the log (``fault_audit``)."""

    @abstractmethod
    def shows(self, pending: tuple[int, str], version: int, view: Mapping[str, Any]) -> bool:
        """The view of ``version`` has the pending act applied (its answer was lost)."""

    def over(self, view: Mapping[str, Any]) -> bool:
        """The table plays no more after ``view`` (a tournament's match once over)."""
        return False

    @abstractmethod
    def waiting(self, msg: Mapping[str, Any]) -> str:
        """What a view frame's table waits for, in short (said of a stuck game)."""

    @abstractmethod
    def choice(self, view: Mapping[str, Any]) -> str | None:
        """The act to play on ``view`` (None: not this seat's decision)."""

    @abstractmethod
    def ask(self, msg: Mapping[str, Any]) -> tuple[tuple[object, ...], str] | None:
        """Between rounds and matches, what to ask for on a view frame: ``(key, type)``
        with ``key`` naming what is asked for once (``self.asked``), or None."""

    # --- the life -------------------------------------------------------------------

    def _on_event(self, msg: Mapping[str, Any]) -> None:
        pending = self.pending
        if msg.get("kind") != "action" or pending is None:
            return
        version = self.applied_at(msg, pending)
        if version is None:
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
        elif code in ("stale_version", "unavailable") and self.latest and not self.h.stopping:
            # A readiness or a wish lost its write to the other instance's (stale_version)
            # or was not written (unavailable): whatever the latest view still asks for is
            # asked again. (That view may have come meanwhile, and found it asked.)
            await asyncio.sleep(0.2)
            self.asked = ()
            if self.decider is not None:
                self.decider.cancel()
            self.decider = asyncio.create_task(self._decide(ws, self.latest, self.version))

    async def _on_view(self, ws: Any, msg: Mapping[str, Any]) -> None:
        version = int(msg["version"])
        view = msg["view"]
        digest = self.digest(view)
        known = self.game.seen.setdefault((self.seat, version), digest)
        if known != digest:
            self.h.stats.violation(f"room {self.game.room}: two different views of {version}")
        if version < self.version:
            self.h.stats.violation(
                f"room {self.game.room}: seat {self.seat} was at {self.version}, now told {version}"
            )
        if version <= self.version and not self.fresh:
            return
        self.version, self.fresh, self.latest = version, False, msg
        self.waits = self.waiting(msg)
        if self.over(view):
            self.game.over = True
        if self.dropped_at is not None:
            self.h.stats.reconnect_s.append(time.monotonic() - self.dropped_at)
            self.dropped_at = None
        after_hello, self.rehello = self.rehello, False
        pending = self.pending
        if pending is not None and after_hello and self.shows(pending, version, view):
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
            if self.shows(pending, version, view):
                self._acked(version)  # the view with it applied (its event was skipped)
            else:
                return  # its answer (the event or an error) is on the way
        if not self.h.stopping:
            if self.decider is not None:
                self.decider.cancel()
            self.decider = asyncio.create_task(self._decide(ws, msg, version))

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

    async def _decide(self, ws: Any, msg: Mapping[str, Any], version: int) -> None:
        import websockets

        view = msg["view"]
        action = self.choice(view)
        if action is None:
            ask = self.ask(msg)
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
        self.pending, self.sent_at, self.sent_on = (version, action), time.monotonic(), view
        self.steps = []
        await self._send_act(ws, version, action)


class RoomClient(SeatClient):
    """A seat of a two-player room; ``one_match``: a tournament's, which plays its one
    match (``new_match`` is refused there)."""

    one_match = False

    def seat_of(self, welcome: Mapping[str, Any]) -> str:
        return str(welcome.get("seat") or "")

    def applied_at(self, event: Mapping[str, Any], pending: tuple[int, str]) -> int | None:
        version = int(event["version"])
        return version if event.get("seat") == self.seat and version == pending[0] + 1 else None

    def digest(self, view: Mapping[str, Any]) -> str:
        return view_digest(view)

    def over(self, view: Mapping[str, Any]) -> bool:
        return self.one_match and view["table"]["match_phase"] == "over"

    def waiting(self, msg: Mapping[str, Any]) -> str:
        table = msg["view"]["table"]
        return f"{table['match_phase']} {table.get('round_phase')}, {table['turn']} to move"

    def shows(self, pending: tuple[int, str], version: int, view: Mapping[str, Any]) -> bool:
        """The view of ``version`` is the one right after the pending act, applied."""
        mine = {"seat": self.seat, "action": public_text(pending[1])}
        return version == pending[0] + 1 and view["moves"][-1:] == [mine]

    def choice(self, view: Mapping[str, Any]) -> str | None:
        return choose(dict(view), self.rng)

    def ask(self, msg: Mapping[str, Any]) -> tuple[tuple[object, ...], str] | None:
        me = (msg.get("players") or {}).get(self.seat) or {}
        ask = round_ask(msg["view"]["table"], me, self.asked)
        if ask is not None and ask[1] == "new_match" and self.one_match:
            return None
        return ask


class TournamentClient(RoomClient):
    """A seat of a tournament's match."""

    one_match = True


class ChouetteClient(SeatClient):
    """A position at a chouette table: it acts when it is the box or the captain on
    turn (its seat view lists legal actions), says ``next_round`` between rounds when
    it plays the next one and ``next_match`` after a settled match; it gives no advice.

    A chouette room applies an act sent on a view followed only by readiness or
    presence (``ChouetteRoom.same_decision``): the act is answered by the position's
    next ``action`` event, whatever its version."""

    def seat_of(self, welcome: Mapping[str, Any]) -> str:
        return str(welcome.get("position"))

    def applied_at(self, event: Mapping[str, Any], pending: tuple[int, str]) -> int | None:
        version = int(event["version"])
        mine = str(event.get("position")) == self.seat
        return version if mine and version > pending[0] else None

    def digest(self, view: Mapping[str, Any]) -> str:
        return chouette_digest(view)

    def waiting(self, msg: Mapping[str, Any]) -> str:
        info, table = msg["view"]["chouette"], msg["view"]["view"]["table"]
        players = [p or {} for p in msg.get("players") or []]
        ready = [p.get("ready") for p in players]
        wishes = [p.get("next_match") for p in players]
        return (
            f"{info['phase']} {table['match_phase']} {table.get('round_phase')}, box "
            f"{info['box']} captain {info['captain']} turn {info['turn']} absent "
            f"{info['absent']} ready {ready} next match {wishes}"
        )

    def shows(self, pending: tuple[int, str], version: int, view: Mapping[str, Any]) -> bool:
        """The view of ``version`` is the one right after the pending act, applied: one
        event later, the round's moves are those it was chosen on and that act. (One
        applied after a readiness or presence event is resent and refused instead: only
        its event tells its version.)"""
        before, now = self.sent_on["view"], view["view"]
        mine = {"seat": before["seat"], "action": public_text(pending[1])}
        return version == pending[0] + 1 and now["moves"] == [*before["moves"], mine]

    def choice(self, view: Mapping[str, Any]) -> str | None:
        return choose(dict(view["view"]), self.rng)

    def ask(self, msg: Mapping[str, Any]) -> tuple[tuple[object, ...], str] | None:
        return chouette_ask(msg["view"], msg.get("players") or [], int(self.seat), self.asked)


def chouette_ask(
    view: Mapping[str, Any], players: list[Any], position: int, asked: object
) -> tuple[tuple[object, ...], str] | None:
    """What a position with no move asks for at a chouette table: ``next_match`` after a
    settled match, ``next_round`` after a round it (box or captain) plays the next of;
    ``key`` names the match and round so that it asks once (``asked``: the last key).

    >>> view = {"chouette": {"number": 1, "phase": "settled", "box": 0, "captain": 1},
    ...         "view": {"table": {"match_phase": "over", "rounds": [{}]}}}
    >>> chouette_ask(view, [{"next_match": False}], 0, ())
    ((1, 'settled', 'over', 1), 'next_match')
    """
    info, table = view["chouette"], view["view"]["table"]
    me = players[position] if position < len(players) else None
    key = (info["number"], info["phase"], table["match_phase"], len(table["rounds"]))
    if key == asked or me is None:
        return None
    if info["phase"] == "settled" and not me.get("next_match"):
        return key, "next_match"
    between = info["phase"] == "match" and table["match_phase"] == "deal" and table["rounds"]
    plays = position in (info["box"], info["captain"])
    if between and plays and not me.get("ready"):
        return key, "next_round"
    return None
