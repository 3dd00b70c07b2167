"""The tournaments of a fault test (``ginrummy bench faults``): small knockouts of our
own clients, played one after the other while the instances are killed, each of their
matches a two-player room whose log is audited like any other; after the last fault
the tournament under way must reach its end with every match played out.

A tournament is followed over HTTP (``GET /api/tournaments/<id>`` on any live instance,
as a page that lost its lobby socket would): each newly paired match gets a
``TournamentClient`` for each of its two seats, on the players' home instances.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ginrummy.benchmarks.fault_audit import Game
from ginrummy.benchmarks.fault_client import TournamentClient

if TYPE_CHECKING:
    from ginrummy.benchmarks.faults import Harness

POLL_S = 0.25  # how often a tournament is read
REQUEST_LIMIT = 30.0  # seconds a request may take to find a live instance that answers
END_LIMIT = 120.0  # seconds the last tournament has to finish after the last fault


class Unanswered(RuntimeError):
    """No live instance answered a request within ``REQUEST_LIMIT``."""


@dataclass(frozen=True, slots=True)
class Entrant:
    token: str
    player: str  # the player id the tournament names
    home: int  # the instance its tables' sockets open to first


@dataclass
class Played:
    """One tournament of the series: its id, entrants, and the last state read."""

    tid: str
    entrants: dict[str, Entrant]  # by player id
    state: dict[str, Any] = field(default_factory=dict)
    rooms: set[str] = field(default_factory=set)  # the matches given clients

    @property
    def finished(self) -> bool:
        return self.state.get("phase") == "finished"


def _auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


class Tournaments:
    """Knockouts of ``players`` of our clients, one after the other until told to stop
    (or ``limit`` of them); their matches are games of the harness (kind
    ``tournament``)."""

    def __init__(self, harness: Harness, players: int, limit: int | None = None) -> None:
        self.h, self.players, self.limit = harness, players, limit
        self.played: list[Played] = []
        self.last = False  # finish the one under way, start no other
        self.task: asyncio.Task[None] | None = None
        self.seeds = 0
        self.faults = 0  # faults done while a tournament was under way (paired, unfinished)

    def fault(self) -> None:
        """A fault is done now: counted if a tournament is under way."""
        if self.played and self.played[-1].state.get("phase") == "running":
            self.faults += 1

    def start(self) -> None:
        self.task = asyncio.create_task(self._series())

    async def finish(self) -> None:
        """Let the tournament under way end (a violation if it does not in time, or if
        the series stopped on a request that failed)."""
        import httpx

        self.last = True
        if self.task is None:
            return
        try:
            await asyncio.wait_for(asyncio.shield(self.task), END_LIMIT)
        except TimeoutError:
            current = self.played[-1] if self.played else None
            state = {} if current is None else current.state
            self.h.stats.violation(
                f"tournament {current and current.tid} not finished {END_LIMIT:.0f} s after "
                f"the last fault: phase {state.get('phase')}, round {state.get('round')}"
            )
            self.task.cancel()
        except (Unanswered, httpx.HTTPError) as exc:
            self.h.stats.violation(f"tournaments stopped: {exc!r}")

    def summary(self) -> dict[str, Any]:
        finished = [p for p in self.played if p.finished]
        return {
            "started": len(self.played),
            "finished": len(finished),
            "rounds": sum(len(p.state.get("rounds", [])) for p in finished),
            "matches": sum(len(p.rooms) for p in self.played),
            "faults_mid_tournament": self.faults,
        }

    async def _series(self) -> None:
        import httpx

        async with httpx.AsyncClient(timeout=10) as http:
            while not self.last and not self.h.stopping and len(self.played) != self.limit:
                played = await self._open(http)
                self.played.append(played)
                await self._follow(http, played)
                self._check(played)

    async def _request(
        self,
        http: Any,
        method: str,
        path: str,
        token: str | None = None,
        home: int = 0,
        body: dict[str, Any] | None = None,
        missing: bool = False,
    ) -> dict[str, Any] | None:
        """``method path`` on the first instance that answers (``home`` first), retried
        while every instance is down or busy; None for a 404 if ``missing`` is allowed.
        A join retried after its answer was lost finds it done: ``already_joined`` is
        its answer too."""
        import httpx

        n = len(self.h.instances)
        deadline = time.monotonic() + REQUEST_LIMIT
        headers = None if token is None else _auth(token)
        while True:
            for index in sorted(range(n), key=lambda i: i != home):
                base = self.h.instances[index].base
                try:
                    r = await http.request(method, f"{base}{path}", json=body, headers=headers)
                except httpx.TransportError:
                    continue
                if r.status_code >= 500:
                    continue  # busy (other writers won), or unavailable: another go
                if r.status_code == 409 and r.json()["error"]["code"] == "already_joined":
                    return {}
                if r.status_code == 404 and missing:
                    return None
                r.raise_for_status()
                answer: dict[str, Any] = r.json()
                return answer
            if time.monotonic() > deadline:
                raise Unanswered(f"{method} {path}: no instance answered")
            await asyncio.sleep(0.2)

    async def _answer(self, http: Any, method: str, path: str, *args: Any, **kw: Any) -> Any:
        """``_request``'s answer, which only a 404 allowed as ``missing`` leaves out."""
        answer = await self._request(http, method, path, *args, **kw)
        assert answer is not None
        return answer

    async def _open(self, http: Any) -> Played:
        """A knockout of ``players`` fresh identities, its creator among them; full,
        so it starts."""
        n = len(self.h.instances)
        entrants: dict[str, Entrant] = {}
        for k in range(self.players):
            answer = await self._answer(http, "POST", "/api/identity", home=k % n, body={})
            entrant = Entrant(answer["token"], str(answer["player"]["id"]), k % n)
            entrants[entrant.player] = entrant
        creator, *others = entrants.values()
        settings = {
            "name": f"Faults {len(self.played) + 1}",
            "format": "knockout",
            "max_players": self.players,
            "rules_preset": "first-to-knock",  # a match is its first scoring round
            "third_place": False,
            "public": False,
            "join": True,
        }
        # Retried too: a creation whose answer was lost leaves a tournament that never
        # fills, and plays nothing.
        answer = await self._answer(
            http, "POST", "/api/tournaments", creator.token, creator.home, settings
        )
        tid = str(answer["tournament"]["id"])
        for entrant in others:
            path = f"/api/tournaments/{tid}/join"
            await self._request(http, "POST", path, entrant.token, entrant.home, {})
        return Played(tid, entrants)

    async def _follow(self, http: Any, played: Played) -> None:
        """Give each match paired clients, until the tournament is finished."""
        while not self.h.stopping:
            answer = await self._answer(http, "GET", f"/api/tournaments/{played.tid}")
            played.state = answer["tournament"]
            for r in played.state.get("rounds", []):
                for pairing in r["pairings"]:
                    room = pairing["room"]
                    if room is None or room in played.rooms:
                        continue
                    # A round is paired before its rooms are opened: a page that reads
                    # the pairing first finds its room a moment later.
                    if await self._request(http, "GET", f"/api/rooms/{room}", missing=True):
                        played.rooms.add(room)
                        self._seat(played, room, (pairing["first"], pairing["second"]))
            if played.finished:
                return
            await asyncio.sleep(POLL_S)

    def _seat(self, played: Played, room: str, players: tuple[str, str]) -> None:
        game = Game(room, "tournament", ("one", "two"))
        for player in players:
            entrant = played.entrants[player]
            self.seeds += 1
            seed = self.h.options.seed * 7919 + self.seeds
            client = TournamentClient(self.h, game, entrant.token, entrant.home, seed)
            game.clients.append(client)
            self.h.tasks.append(asyncio.create_task(client.run()))
        self.h.games.append(game)

    def _check(self, played: Played) -> None:
        """Every match of a finished tournament played out (none lost by a no-show: a
        table that did not resume in time)."""
        if played.state.get("finish") != "completed":
            self.h.stats.violation(
                f"tournament {played.tid} finished {played.state.get('finish')!r}"
            )
        for r in played.state.get("rounds", []):
            for pairing in r["pairings"]:
                result = pairing["result"]
                if pairing["room"] is not None and (result is None or result["reason"] != "played"):
                    self.h.stats.violation(
                        f"tournament {played.tid}: match {pairing['room']} ended {result}"
                    )
