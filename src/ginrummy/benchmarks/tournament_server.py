"""``ginrummy bench tournament --server``: a whole tournament of simulated players
against one real server instance (SQLite, as ``bench load`` runs it).

Each player is its own identity (``POST /api/identity``) and a ``Contestant``: a
lobby socket (the tournament's page, then the tables': only ``matched``) and, per
match, a read of the room (``GET /api/rooms/<id>``, as the page at a table does) and
a room socket, thinking ``--think`` seconds ± 50% before each decision (human
pace). A creator makes the
tournament (``POST /api/tournaments``), the players join it through the API as people
do, it starts when full (or the creator starts it) and is played to the end.

Human pace: ``--think 1.2`` (each decision after 0.6 to 1.8 s) with the rules preset
``first-to-knock`` (a match is decided by its first scoring round; tournaments allow
any preset) plays a 6-round Swiss of 64 (``--rounds 6``) in about 11 minutes on the
2-core development machine: a round lasts as long as its slowest match.

The figure: for every round after the first, from the moment the round's last
result reached its players (the first view of the round's last match over, at
either player) to the moment each player's first deal of the next round reached it
(the first view of a dealt round in its next room): p50/p95/p99/max over every
(player, round), with per round its parts: up to the pairing (the notice of the new
round at the creator's lobby socket), the last player sent to its table (``matched``),
its room socket open, its ``welcome``, its seed sent, and the first and last deal.
Errors are every ``error`` frame, every socket the server dropped, every failed
request and every match not played out (a no-show);
any error, or a round that does not end within ``--round-deadline`` seconds (a
stall: what each pending match waits for is printed), exits non-zero.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import os
import shutil
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ginrummy.benchmarks.contestant import WS_MAX, Contestant, Tally, Visit
from ginrummy.benchmarks.load import (
    UNLIMITED,
    free_port,
    pct,
    proc_cpu_seconds,
    start_server,
    stop_all,
    wait_healthy,
)


async def _lag(worst: list[float]) -> None:
    """How late this process's event loop wakes (its own delay is in every figure)."""
    while True:
        t0 = time.perf_counter()
        await asyncio.sleep(0.05)
        worst.append(time.perf_counter() - t0 - 0.05)


class Stall(RuntimeError):
    """A round did not end in time (or the tournament did not start)."""


@dataclass
class Watch:
    """The tournament as the creator's lobby socket sees its notices."""

    tournament: str
    latest: dict[str, Any] = field(default_factory=dict)
    paired_at: dict[int, float] = field(default_factory=dict)  # round -> first seen
    done: asyncio.Event = field(default_factory=asyncio.Event)

    def take(self, t: dict[str, Any]) -> None:
        if t.get("id") != self.tournament or t["version"] < self.latest.get("version", 0):
            return
        self.latest = t
        now = time.perf_counter()
        for r in t["rounds"]:
            self.paired_at.setdefault(r["round"], now)
        if t["phase"] == "finished":
            self.done.set()

    @property
    def round(self) -> int:
        return len(self.latest.get("rounds") or ())

    async def follow(self, base: str, token: str) -> None:
        import websockets

        url = base.replace("http://", "ws://") + "/ws"
        while not self.done.is_set():
            try:
                async with websockets.connect(url, max_size=WS_MAX) as ws:
                    hello = {"type": "hello_lobby", "token": token, "lobby": False}
                    await ws.send(json.dumps({**hello, "tournament": self.tournament}))
                    async for raw in ws:
                        msg = json.loads(raw)
                        if msg.get("type") == "tournament":
                            self.take(msg["tournament"])
            except (websockets.ConnectionClosed, OSError):
                await asyncio.sleep(0.2)


async def _identity(http: Any, base: str) -> tuple[str, str]:
    r = await http.post(f"{base}/api/identity", json={})
    r.raise_for_status()
    body = r.json()
    return str(body["token"]), str(body["player"]["id"])


def _auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _settings(args: argparse.Namespace) -> dict[str, Any]:
    body: dict[str, Any] = {
        "name": f"Bench {args.format} {args.players}",
        "format": args.format,
        "max_players": args.players,
        "rules_preset": args.rules,
        "grace_seconds": args.grace,
    }
    if args.target_score is not None:
        body["target_score"] = args.target_score
    if args.rounds is not None:
        body["rounds"] = args.rounds
    return body


async def _set_up(
    http: Any, base: str, args: argparse.Namespace, tally: Tally
) -> tuple[str, str, list[Contestant]]:
    """The creator and the players; the tournament; the players' lobby sockets open
    (as on the tournament page) before they join. Answers (tournament, creator's token,
    players)."""
    creator, _ = await _identity(http, base)
    r = await http.post(f"{base}/api/tournaments", json=_settings(args), headers=_auth(creator))
    r.raise_for_status()
    tid = str(r.json()["tournament"]["id"])
    people = [await _identity(http, base) for _ in range(args.players)]
    players = [
        Contestant(base, token, pid, tid, args.think, args.seed * 1000 + n, tally, args.drop)
        for n, (token, pid) in enumerate(people)
    ]
    return tid, creator, players


async def _join_all(
    http: Any, base: str, tid: str, creator: str, players: list[Contestant], tally: Tally
) -> None:
    for p in players:
        r = await http.post(f"{base}/api/tournaments/{tid}/join", headers=_auth(p.token))
        if r.status_code != 200:
            tally.error(f"join_{r.json()['error']['code']}")
    r = await http.get(f"{base}/api/tournaments/{tid}")
    if r.json()["tournament"]["phase"] == "open":  # not full: the creator starts it
        r = await http.post(f"{base}/api/tournaments/{tid}/start", headers=_auth(creator))
        if r.status_code != 200:
            tally.error(f"start_{r.json()['error']['code']}")


async def _stall_report(http: Any, base: str, watch: Watch, players: list[Contestant]) -> str:
    """What each pending match of the current round waits for."""
    t = watch.latest
    lines = [f"round {watch.round} of tournament {watch.tournament} did not end in time:"]
    by_id = {p.id: p for p in players}
    for p in t["rounds"][-1]["pairings"] if t.get("rounds") else ():
        if p["result"] is not None or p["room"] is None:
            continue
        room = p["room"]
        info = (await http.get(f"{base}/api/rooms/{room}")).json()
        seen = []
        for who in (p["first"], p["second"]):
            visit = by_id[who].visits.get(room) if who in by_id else None
            seen.append(f"{who}: " + _visit_text(visit))
        lines.append(
            f"  board {p['board']} room {room}: status {info.get('status')!r},"
            f" seats {json.dumps(info.get('seats'))[:300]}; " + "; ".join(seen)
        )
    return "\n".join(lines)


def _visit_text(visit: Visit | None) -> str:
    if visit is None:
        return "never sent to this room"
    state = "over" if visit.over_at else "dealt" if visit.dealt_at else "not dealt"
    return f"sent by {visit.how}, {'connected' if visit.connected else 'NOT connected'}, {state}"


async def _play_out(
    http: Any, base: str, args: argparse.Namespace, watch: Watch, players: list[Contestant]
) -> None:
    """Wait for the end, a round at a time, each within ``--round-deadline``."""
    seen_round, since = 0, time.monotonic()
    while not watch.done.is_set():
        await asyncio.sleep(0.5)
        if watch.round != seen_round:
            seen_round, since = watch.round, time.monotonic()
            print(f"bench tournament: round {seen_round} paired", file=sys.stderr)
        if time.monotonic() - since > args.round_deadline:
            raise Stall(await _stall_report(http, base, watch, players))


def _ms(seconds: float | None) -> float | None:
    return None if seconds is None else round(1000 * seconds, 1)


def _gaps(final: dict[str, Any], watch: Watch, players: list[Contestant]) -> dict[str, Any]:
    """The gaps from each round's last result to the next round's deals."""
    over: dict[str, float] = {}  # room -> the first view of its match over
    for p in players:
        for room, v in p.visits.items():
            if v.over_at is not None:
                over[room] = min(over.get(room, v.over_at), v.over_at)
    samples: list[float] = []
    rows = []
    rounds = final["rounds"]
    for prev, now in itertools.pairwise(rounds):
        ended = [over.get(p["room"]) for p in prev["pairings"] if p["room"] is not None]
        if not ended or None in ended:
            continue  # counted as an error: a match nobody saw end
        last = max(e for e in ended if e is not None)
        rooms = {p["room"] for p in now["pairings"] if p["room"] is not None}
        visits = [v for p in players for room, v in p.visits.items() if room in rooms]
        dealt = [v.dealt_at - last for v in visits if v.dealt_at is not None]
        sent = [v.sent_at - last for v in visits]
        opened = [v.opened_at - last for v in visits if v.opened_at is not None]
        welcome = [v.welcome_at - last for v in visits if v.welcome_at is not None]
        seeded = [v.seeded_at - last for v in visits if v.seeded_at is not None]
        samples += dealt
        paired = watch.paired_at.get(now["round"])
        rows.append(
            {
                "round": now["round"],
                "to_paired_ms": None if paired is None else round(1000 * (paired - last), 1),
                "to_last_sent_ms": _ms(max(sent, default=None)),
                "to_last_open_ms": _ms(max(opened, default=None)),
                "to_last_welcome_ms": _ms(max(welcome, default=None)),
                "to_last_seed_ms": _ms(max(seeded, default=None)),
                "to_first_deal_ms": round(1000 * min(dealt), 1) if dealt else None,
                "to_last_deal_ms": round(1000 * max(dealt), 1) if dealt else None,
            }
        )
    return {
        "samples": len(samples),
        "p50": pct(samples, 0.50),
        "p95": pct(samples, 0.95),
        "p99": pct(samples, 0.99),
        "max": pct(samples, 1.0),
        "rounds": rows,
    }


def _audit(final: dict[str, Any], players: list[Contestant], tally: Tally) -> None:
    """Errors the result shows: not completed, a match not played out, one not seen."""
    if final.get("finish") != "completed":
        tally.error(f"finish_{final.get('finish')}")
    seen = {room for p in players for room, v in p.visits.items() if v.over_at is not None}
    for r in final["rounds"]:
        for p in r["pairings"]:
            result = p["result"]
            if p["room"] is None:
                continue
            if result is None or result["reason"] != "played":
                tally.error(f"result_{None if result is None else result['reason']}")
            elif p["room"] not in seen:
                tally.error("end_not_seen")


def _matches(players: list[Contestant]) -> dict[str, float]:
    """How long the matches took, from the first deal to the end (seconds)."""
    spans: dict[str, float] = {}
    for p in players:
        for room, v in p.visits.items():
            if v.dealt_at is not None and v.over_at is not None:
                spans[room] = max(spans.get(room, 0.0), v.over_at - v.dealt_at)
    values = sorted(spans.values())
    if not values:
        return {"count": 0}
    return {
        "count": len(values),
        "mean_s": round(sum(values) / len(values), 1),
        "max_s": round(values[-1], 1),
    }


async def run(args: argparse.Namespace) -> dict[str, Any]:
    import httpx

    env = {**os.environ, **UNLIMITED}
    data_dir = Path(tempfile.mkdtemp(prefix="ginrummy-tournament-"))
    port = free_port()
    proc = start_server(port, data_dir, env)
    base = f"http://127.0.0.1:{port}"
    tally = Tally()
    tasks: list[asyncio.Task[None]] = []
    players: list[Contestant] = []
    stall: str | None = None
    load_before = os.getloadavg()
    lags: list[float] = []
    try:
        async with httpx.AsyncClient(timeout=30) as http:
            await wait_healthy(http, base, time.monotonic() + 30)
            tid, creator, players = await _set_up(http, base, args, tally)
            watch = Watch(tid)
            tasks.append(asyncio.create_task(watch.follow(base, creator)))
            tasks.append(asyncio.create_task(_lag(lags)))
            tasks += [asyncio.create_task(p.run(http)) for p in players]
            await asyncio.sleep(0.5)  # the lobby sockets open
            cpu0, own0, t0 = proc_cpu_seconds(proc.pid), time.process_time(), time.perf_counter()
            await _join_all(http, base, tid, creator, players, tally)
            try:
                await _play_out(http, base, args, watch, players)
            except Stall as exc:
                stall = str(exc)
                tally.error("stall")
            elapsed = time.perf_counter() - t0
            cpu, own = proc_cpu_seconds(proc.pid) - cpu0, time.process_time() - own0
            final = (await http.get(f"{base}/api/tournaments/{tid}")).json()["tournament"]
            for p in players:
                await p.stop()
    finally:
        await stop_all(asyncio.Event(), tasks, [proc])
        shutil.rmtree(data_dir, ignore_errors=True)
    if stall is None:
        _audit(final, players, tally)
    costs = Costs(elapsed, cpu, own, load_before, lags)
    return _report(args, final, watch, players, tally, costs, stall)


@dataclass(frozen=True)
class Costs:
    """The run's duration (s), the server's and this process's CPU seconds in it, the
    load average before it and this process's event-loop lags (s)."""

    elapsed: float
    server_cpu: float
    own_cpu: float
    load_before: tuple[float, float, float]
    lags: list[float]


def _pace(args: argparse.Namespace) -> str:
    think = f"each decision after {args.think / 2:g} to {args.think * 1.5:g} s (uniform)"
    if args.rules == "first-to-knock":
        return f"{think}; first-to-knock: a match is its first scoring round"
    target = "the preset's target score" if args.target_score is None else args.target_score
    return f"{think}; {args.rules} to {target}"


def _report(
    args: argparse.Namespace,
    final: dict[str, Any],
    watch: Watch,
    players: list[Contestant],
    tally: Tally,
    costs: Costs,
    stall: str | None,
) -> dict[str, Any]:
    elapsed, lags = costs.elapsed, costs.lags
    return {
        "mode": "server",
        "format": args.format,
        "players": args.players,
        "rounds": len(final["rounds"]),
        "finish": final.get("finish"),
        "rules": args.rules,
        "target_score": final["settings"]["target_score"],
        "think_s": args.think,
        "pace": _pace(args),
        "store": "sqlite",
        "instances": 1,
        "duration_s": round(elapsed, 1),
        "last_result_to_next_deal_ms": _gaps(final, watch, players),
        "matches": _matches(players),
        "errors": sum(tally.errors.values()),
        "error_codes": tally.errors,
        "reconnects": tally.reconnects,
        "dropped_on_purpose": tally.dropped,
        "room_reads": tally.room_reads,
        "actions": tally.actions,
        "server_cpu_percent": round(100 * costs.server_cpu / elapsed, 1),
        "loadgen_cpu_percent": round(100 * costs.own_cpu / elapsed, 1),
        "loadgen_loop_lag_ms": {"p99": pct(lags, 0.99), "max": pct(lags, 1.0)},
        "load_average_before": [round(x, 2) for x in costs.load_before],
        "load_average_after": [round(x, 2) for x in os.getloadavg()],
        "stall": stall,
        "first_errors": tally.notes,
    }


def add_arguments(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("--server: a tournament against a real server")
    group.add_argument("--server", action="store_true", help="play it against a server")
    group.add_argument("--think", type=float, default=1.2, help="mean think time (s), ±50%%")
    group.add_argument("--rules", default="first-to-knock", help="the rules preset")
    group.add_argument("--target-score", type=int, default=None, help="default: the preset's")
    group.add_argument("--rounds", type=int, default=None, help="Swiss rounds (default: core's)")
    group.add_argument("--grace", type=int, default=120, help="no-show grace period (s)")
    group.add_argument("--round-deadline", type=float, default=600.0, help="stall after (s)")
    group.add_argument(
        "--drop", type=float, default=0.0, help="chance a player's socket drops per move"
    )
