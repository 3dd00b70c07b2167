"""One simulated tournament player of ``ginrummy bench tournament --server``: what a
browser on the tournament page does, over the documented protocol only
(docs/protocol.md, Lobby and Tournaments).

A lobby socket (``hello_lobby`` with the player's token and ``lobby: false``) stays
open, as the page's: on the tournament's page until the first match it watches the
tournament (``tournament``: its frames); at the tables from then on only ``matched``
comes (the page at a tournament's table asks for nothing else), so the socket is
opened again once, without the tournament, when the first match takes the player to
its table. ``matched`` takes the player to the table of its next match; the
``tournament`` notices while on the page (and, after every (re)connection of the lobby
socket, one ``GET /api/tournaments/<id>``) are the fallback that finds a pending match
whose ``matched`` was missed: the newest notice is read ``FALLBACK_S`` after it came (a
page would show it at once; reading each of these tens of kilobytes at once, 64 times
over, would slow this one process down).

At the table the player first asks for the room (``GET /api/rooms/<id>`` with its
token, as the page does before it opens the room socket: main.js ``enterRoom``), then a
room socket says ``hello`` with the token,
sends its seed as soon as a deal is committed (as the browser does), and answers each
decision with a plain legal choice (``load.choose``) after a think time drawn
uniformly from ``think`` ± 50%. A socket that drops is opened again with the same
token (the seat is the identity's), with a short back-off, until the match is over.

Every time is ``time.perf_counter()`` of this process: all players of a run share it.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import time
from dataclasses import dataclass, field
from typing import Any

from ginrummy.benchmarks.load import SKIPPED, choose, round_ask, send_seed

WS_MAX = 2**23  # a 64-player tournament's view is tens of kilobytes
FALLBACK_S = 3.0  # a pending match seen in a notice, no ``matched`` this long: go anyway
GIVE_UP = 30  # failed (re)connections in a row before a player gives up a socket
EARLY = 50  # hellos 0.1 s apart to a room a notice named before it was open
NOTED = 20  # errors kept with what the player saw, for the report


@dataclass
class Visit:
    """What one player saw of one of its matches (perf_counter seconds)."""

    room: str
    sent_at: float  # when a notice first sent the player to this table
    how: str  # "matched", or "notice" (the fallback)
    opened_at: float | None = None  # the room socket first open (before the hello)
    welcome_at: float | None = None  # the first ``welcome`` (the server took the hello)
    seeded_at: float | None = None  # this player's seed sent
    dealt_at: float | None = None  # the first view of a dealt round
    over_at: float | None = None  # the first view of the match over
    connected: bool = False  # a room socket is open now


@dataclass
class Tally:
    """What went wrong, counted over all players."""

    errors: dict[str, int] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)  # the first errors, with context
    reconnects: int = 0  # room and lobby sockets opened again after a drop
    dropped: int = 0  # room sockets this bench closed on purpose (``drop``)
    room_reads: int = 0  # ``GET /api/rooms/<id>`` before a table's socket (answered 200)
    actions: int = 0

    def error(self, code: str, detail: str = "") -> None:
        self.errors[code] = self.errors.get(code, 0) + 1
        if len(self.notes) < NOTED:
            self.notes.append(f"{time.perf_counter():.3f} {code} {detail}".strip())


class Contestant:
    """One player: its lobby socket, and a room socket per match as it is paired."""

    def __init__(
        self,
        base: str,
        token: str,
        player_id: str,
        tournament: str,
        think: float,
        seed: int,
        tally: Tally,
        drop: float = 0.0,
    ) -> None:
        self.base, self.token, self.id, self.tournament = base, token, player_id, tournament
        self.ws_url = base.replace("http://", "ws://") + "/ws"
        self.think, self.tally, self.drop = think, tally, drop
        self.rng = random.Random(seed)
        self.visits: dict[str, Visit] = {}  # room -> visit, in the order played
        self._http: Any = None  # the run's HTTP client (``run``)
        self._table: asyncio.Task[None] | None = None
        self._pending: asyncio.Task[None] | None = None
        self._notice: str | None = None  # the newest tournament notice, not read yet
        self._fallback: asyncio.TimerHandle | None = None
        self._version = 0
        self._dropping = False  # this bench closed the room socket on purpose
        self._seat = ""
        self._asked: object = ()
        self._seeded: set[object] = set()

    # --- the lobby socket ------------------------------------------------------------

    async def run(self, http: Any) -> None:
        """Follow the tournament until cancelled; the lobby socket is opened again
        whenever it drops."""
        import websockets

        self._http = http
        failures = 0
        while True:
            try:
                async with websockets.connect(self.ws_url, max_size=WS_MAX) as ws:
                    watching = not self.visits  # on the tournament's page: its frames
                    await ws.send(json.dumps(self._hello_lobby(watching)))
                    await ws.recv()  # the first lobby message: now subscribed to notices
                    failures = 0
                    await self._look(http)  # what was paired while no socket listened
                    if await self._lobby_frames(ws, watching):
                        continue  # off to the first table: its page's socket wants only matched
            except (websockets.ConnectionClosed, OSError) as exc:
                self.tally.error(f"lobby_dropped:{type(exc).__name__}")
            failures += 1
            if failures > GIVE_UP:
                self.tally.error("lobby_gave_up")
                return
            self.tally.reconnects += 1
            await asyncio.sleep(min(2.0, 0.05 * 2**failures))

    def _hello_lobby(self, watching: bool) -> dict[str, Any]:
        tournament = self.tournament if watching else None
        return {
            "type": "hello_lobby",
            "token": self.token,
            "tournament": tournament,
            "lobby": False,
        }

    async def _lobby_frames(self, ws: Any, watching: bool) -> bool:
        """The lobby socket's frames until it closes (False), or until the page watching
        the tournament sent the player to its first table (True: it left that page)."""
        async for raw in ws:
            if watching and self.visits:
                return True
            if raw.startswith('{"type":"lobby"'):
                continue
            if raw.startswith('{"type":"tournament"'):
                self._notice = raw
                if self._fallback is None:
                    loop = asyncio.get_running_loop()
                    self._fallback = loop.call_later(FALLBACK_S, self._read_notice)
                continue
            msg = json.loads(raw)
            kind = msg.get("type")
            if kind == "matched":
                self.go(str(msg["room"]), "matched")
                if watching:
                    return True
            elif kind == "error":
                self.tally.error(f"lobby:{msg.get('code')}")
        return False

    async def _look(self, http: Any) -> None:
        r = await http.get(f"{self.base}/api/tournaments/{self.tournament}")
        if r.status_code != 200:
            self.tally.error(f"http_{r.status_code}")
            return
        self.follow(r.json()["tournament"])

    def _read_notice(self) -> None:
        self._fallback = None
        raw, self._notice = self._notice, None
        if raw is not None:
            self.follow(json.loads(raw)["tournament"])

    def follow(self, t: dict[str, Any]) -> None:
        """A view of the tournament: to the table of a pending match of this player's
        (its room is open by now: the notice came ``FALLBACK_S`` ago, or the socket
        has just opened)."""
        if t.get("id") != self.tournament or t.get("phase") != "running":
            return
        rounds = t.get("rounds") or []
        for p in rounds[-1]["pairings"] if rounds else ():
            room = p.get("room")
            if self.id in (p["first"], p["second"]) and room and not p["result"]:
                self.go(room, "notice")

    def go(self, room: str, how: str) -> None:
        """To the table of ``room`` (once): the previous table's socket is closed."""
        if room in self.visits:
            return
        self.visits[room] = visit = Visit(room, time.perf_counter(), how)
        if self._table is not None:
            self._table.cancel()
        self._table = asyncio.get_running_loop().create_task(self._visit(visit))

    async def stop(self) -> None:
        if self._fallback is not None:
            self._fallback.cancel()
        for task in (self._table, self._pending):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task

    # --- a room socket ----------------------------------------------------------------

    async def _visit(self, visit: Visit) -> None:
        """Play the match of ``visit``; after it, stay at the table until sent on."""
        import websockets

        await self._room_info(visit)
        failures = 0
        while True:
            self._dropping = False
            try:
                async with websockets.connect(self.ws_url, max_size=WS_MAX) as ws:
                    visit.connected, failures = True, 0
                    visit.opened_at = visit.opened_at or time.perf_counter()
                    self._version, self._asked = 0, ()  # the hello sends the full view
                    self._seat = ""
                    await ws.send(json.dumps(self._hello(visit)))
                    await self._room_frames(ws, visit)
            except (websockets.ConnectionClosed, OSError):
                pass
            finally:
                visit.connected = False
                if self._pending is not None:
                    self._pending.cancel()
            if visit.over_at is not None:
                return  # over: nothing to come back for
            if not self._dropping:
                self.tally.error("room_socket_lost", f"{self.id} in {visit}")
            failures += 1
            if failures > GIVE_UP:
                self.tally.error("room_gave_up")
                return
            self.tally.reconnects += 1
            await asyncio.sleep(min(2.0, 0.05 * 2**failures))

    async def _room_info(self, visit: Visit) -> None:
        """The room as the page reads it before its socket opens (once per table; a
        reconnecting socket does not read it again). A room not open yet (404) is left
        to the hello, which asks again (``EARLY``)."""
        import httpx

        url = f"{self.base}/api/rooms/{visit.room}"
        try:
            r = await self._http.get(url, headers={"Authorization": f"Bearer {self.token}"})
        except httpx.HTTPError as exc:
            self.tally.error("room_info_failed", f"{self.id} in {visit}: {exc!r}")
            return
        if r.status_code == 200:
            self.tally.room_reads += 1
        elif r.status_code != 404:
            self.tally.error(f"room_info_{r.status_code}", f"{self.id} in {visit}")

    def _hello(self, visit: Visit) -> dict[str, Any]:
        return {"type": "hello", "room": visit.room, "token": self.token}

    async def _room_frames(self, ws: Any, visit: Visit) -> None:
        tries = 0
        async for raw in ws:
            if raw.startswith(SKIPPED):
                continue  # the view that follows says all a player needs
            msg = json.loads(raw)
            kind = msg.get("type")
            if kind == "welcome":
                visit.welcome_at = visit.welcome_at or time.perf_counter()
                self._seat = msg.get("seat") or ""
                if not self._seat:
                    self.tally.error("not_seated")
            elif kind == "error":
                if msg.get("code") == "unknown_room" and not self._seat and tries < EARLY:
                    tries += 1  # sent by a notice before the room opened: ask again
                    await asyncio.sleep(0.1)
                    await ws.send(json.dumps(self._hello(visit)))
                    continue
                self.tally.error(str(msg.get("code")), f"{self.id} in {visit}: {msg}")
            elif kind == "view":
                await self._view(ws, visit, msg)

    async def _view(self, ws: Any, visit: Visit, msg: dict[str, Any]) -> None:
        version = int(msg["version"])
        if version <= self._version:
            return
        self._version = version
        now = time.perf_counter()
        view = msg["view"]
        phase = view["table"]["match_phase"]
        if visit.dealt_at is None and phase in ("round", "over"):
            visit.dealt_at = now
        if phase == "over":
            if visit.over_at is None:
                visit.over_at = now
            return
        if await send_seed(ws, self.rng, self._seeded, msg.get("fair")):
            visit.seeded_at = visit.seeded_at or time.perf_counter()
        me = (msg.get("players") or {}).get(self._seat) or {}
        self._pending = asyncio.get_running_loop().create_task(self._decide(ws, view, me, version))

    async def _decide(
        self, ws: Any, view: dict[str, Any], me: dict[str, Any], version: int
    ) -> None:
        import websockets

        with contextlib.suppress(websockets.ConnectionClosed):
            action = choose(view, self.rng)
            ask = None if action is not None else round_ask(view["table"], me, self._asked)
            if action is None and (ask is None or ask[1] != "next_round"):
                return  # nothing to decide (a tournament's room plays one match)
            if self.think:
                await asyncio.sleep(self.rng.uniform(self.think / 2, self.think * 1.5))
            if version != self._version:
                return  # something newer came while thinking: that decides
            if action is None:
                assert ask is not None
                self._asked = ask[0]
                await ws.send(json.dumps({"type": "next_round", "version": version}))
                return
            if self.drop and self.rng.random() < self.drop:
                self.tally.dropped += 1
                self._dropping = True
                await ws.close()  # the connection is lost: the player comes back
                return
            self.tally.actions += 1
            await ws.send(json.dumps({"type": "act", "version": version, "action": action}))
