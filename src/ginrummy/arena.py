"""``ginrummy arena``: play computer players against each other and print statistics.

    ginrummy arena --a expert --b baseline --matches 400 --preset standard --seed 1

A player is a level (``random``, ``baseline``, ``beginner``, ``casual``, ``strong``,
``expert``), ``coach`` (always follows the tips coach), or ``cmd:<command line>``: an
external program speaking the bot protocol (docs/bot-protocol.md). Seats alternate
between matches, and matches ``2k`` and ``2k+1`` are dealt from the same card stream,
so luck of the deal evens out. Everything is derived from ``--seed``: the same seed
gives the same result, whatever ``--workers``. A progress bar goes to stderr; one
JSON object goes to stdout.

``--rule FIELD=VALUE`` overrides one field of the preset. An external bot that plays
another game's rules may answer ``"uncounted"`` when a rule differed in a way that
matters (docs/computer-players.md, "Anchors"); that match is reported, not counted.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import os
import random
import select
import shlex
import subprocess
import sys
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TextIO, TypeVar

from ginrummy.bots import PLAYABLE, PortableRandom, make_bot
from ginrummy.engine import (
    PRESETS,
    Action,
    MatchPhase,
    ResultKind,
    Rules,
    RulesError,
    Seat,
    SeatView,
    apply_match,
    deal,
    draw_first_dealer,
    new_match,
    shuffled_deck,
    view_for_seat,
)
from ginrummy.hints import advise
from ginrummy.protocol import ProtocolError, decode_action, encode_seat_view

Job_ = TypeVar("Job_")
Result = TypeVar("Result")

SIDES = ("a", "b")


class BotFailure(Exception):
    """An external bot timed out, crashed, or answered badly: it forfeits the match."""


class BotTimeout(BotFailure):
    """An external bot did not answer within the timeout."""


class Contestant:
    """One side of a match: gets views, returns actions."""

    def decide(self, view: SeatView) -> Action:
        raise NotImplementedError

    def close(self) -> None:
        """Called once when the match is over (or forfeited)."""


class Builtin(Contestant):
    def __init__(self, choose: Callable[[SeatView, random.Random], Action], rng: random.Random):
        self.choose = choose
        self.rng = rng

    def decide(self, view: SeatView) -> Action:
        return self.choose(view, self.rng)


class Coach(Contestant):
    """Follows the tips coach every time (it sees the own hand and the open discard only)."""

    def decide(self, view: SeatView) -> Action:
        return advise(view.hand, view.legal_actions, view.table.discard_top).action


class External(Contestant):
    """A program speaking JSON lines on stdin/stdout (docs/bot-protocol.md)."""

    def __init__(self, command: str, timeout: float) -> None:
        self.command = command
        self.timeout = timeout
        self.buffer = b""
        self.asked = 0
        self.uncounted: str | None = None  # the first rule difference the bot reported
        try:
            self.proc = subprocess.Popen(
                shlex.split(command),
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
            )
        except OSError as exc:
            raise BotFailure(f"cannot start {command!r}: {exc}") from None

    def send(self, message: dict[str, Any]) -> None:
        assert self.proc.stdin is not None
        try:
            self.proc.stdin.write(json.dumps(message).encode() + b"\n")
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError):
            raise BotFailure(f"crashed (exit code {self.proc.poll()})") from None

    def read_line(self) -> bytes:
        assert self.proc.stdout is not None
        fd = self.proc.stdout.fileno()
        deadline = time.monotonic() + self.timeout
        while b"\n" not in self.buffer:
            left = deadline - time.monotonic()
            if left <= 0:
                raise BotTimeout(f"timed out: no answer within {self.timeout:g} s")
            ready, _, _ = select.select([fd], [], [], left)
            if not ready:
                continue
            chunk = os.read(fd, 65536)
            if not chunk:
                code = self.proc.wait()
                raise BotFailure(f"crashed: exited with code {code} without answering")
            self.buffer += chunk
            if len(self.buffer) > 1 << 20:
                raise BotFailure("answered a line longer than 1 MiB")
        line, _, self.buffer = self.buffer.partition(b"\n")
        return line

    def decide(self, view: SeatView) -> Action:
        return self.ask(view, {"view": encode_seat_view(view)})

    def ask(self, view: SeatView, fields: Mapping[str, Any]) -> Action:
        """Send ``decide`` with ``fields`` (the encoded ``view`` and any more) and read
        one of ``view.legal_actions`` back."""
        self.asked += 1
        self.send({"type": "decide", "id": self.asked, **fields})
        line = self.read_line()
        try:
            answer = json.loads(line)
        except ValueError:
            raise BotFailure(f"answered something that is not JSON: {line[:80]!r}") from None
        if not isinstance(answer, dict) or "action" not in answer:
            raise BotFailure(f'answer must be an object with "action", got {line[:80]!r}')
        if answer.get("id", self.asked) != self.asked:
            raise BotFailure(f"answered id {answer.get('id')!r}, expected {self.asked}")
        differs = answer.get("uncounted")
        if differs is not None and self.uncounted is None:
            self.uncounted = str(differs)[:200] or "rules differ"
        try:
            action = decode_action(answer["action"])
        except ProtocolError as exc:
            raise BotFailure(f"answered an unreadable action: {exc}") from None
        if action not in view.legal_actions:
            legal = ", ".join(str(a) for a in view.legal_actions)
            raise BotFailure(f"answered an illegal action {action} (legal: {legal})")
        return action

    def close(self) -> None:
        with contextlib.suppress(BotFailure):
            self.send({"type": "bye"})
        try:
            if self.proc.stdin is not None:
                self.proc.stdin.close()
            self.proc.wait(timeout=2)
        except (OSError, subprocess.TimeoutExpired):
            self.proc.kill()
            self.proc.wait()
        if self.proc.stdout is not None:
            self.proc.stdout.close()


def check_player(spec: str) -> str:
    if spec == "coach" or spec in PLAYABLE:
        return spec
    if spec.startswith("cmd:") and spec[4:].strip():
        return spec
    raise argparse.ArgumentTypeError(
        f"unknown player {spec!r}: use one of {', '.join(PLAYABLE)}, coach, or cmd:<program>"
    )


def contestant(spec: str, rng: random.Random, timeout: float) -> Contestant:
    if spec == "coach":
        return Coach()
    if spec.startswith("cmd:"):
        return External(spec[4:].strip(), timeout)
    return Builtin(make_bot(spec), rng)


@dataclass(slots=True)
class MatchOutcome:
    """One match, from side a's and side b's point of view (index 0 = a)."""

    winner: int  # 0 = a, 1 = b
    rounds: int = 0
    voids: int = 0
    round_wins: list[int] = field(default_factory=lambda: [0, 0])
    gins: list[int] = field(default_factory=lambda: [0, 0])
    knocks: list[int] = field(default_factory=lambda: [0, 0])  # won by knocking
    undercuts: list[int] = field(default_factory=lambda: [0, 0])  # won by undercutting
    points: list[int] = field(default_factory=lambda: [0, 0])
    forfeit: int | None = None  # the side that forfeited
    error: str | None = None
    uncounted: str | None = None  # an external bot said a rule of its game differed


@dataclass(frozen=True, slots=True)
class Job:
    a: str
    b: str
    rules: Rules
    seed: int
    index: int
    timeout: float


def play_match(job: Job) -> MatchOutcome:
    """Play match ``job.index``: side a sits in seat one in even matches."""
    deck_rng = random.Random(f"{job.seed}:{job.index // 2}:deck")
    a_seat = Seat.ONE if job.index % 2 == 0 else Seat.TWO
    side_of = {a_seat: 0, a_seat.other: 1}
    specs = (job.a, job.b)
    players: dict[Seat, Contestant] = {}
    out = MatchOutcome(winner=0)
    starting = 0
    try:
        for seat, side in side_of.items():
            rng = PortableRandom(f"{job.seed}:{job.index}:{SIDES[side]}")
            starting = side
            players[seat] = contestant(specs[side], rng, job.timeout)
        match = new_match(job.rules, draw_first_dealer(deck_rng))
        while not match.is_over:
            if match.phase is MatchPhase.DEAL:
                match = deal(match, shuffled_deck(deck_rng))
                continue
            turn = match.turn
            assert turn is not None
            try:
                action = players[turn].decide(view_for_seat(match, turn))
            except BotFailure as exc:
                side = side_of[turn]
                out.forfeit, out.winner = side, 1 - side
                out.error = f"match {job.index}: {specs[side]} ({SIDES[side]}) {exc}"
                return out
            match = apply_match(match, action)
        assert match.result is not None
        out.winner = side_of[match.result.winner]
        for scored in match.rounds:
            result = scored.result
            out.rounds += 1
            if result.winner is None:
                out.voids += 1
                continue
            side = side_of[result.winner]
            out.round_wins[side] += 1
            out.points[side] += result.points
            if result.kind in (ResultKind.GIN, ResultKind.BIG_GIN):
                out.gins[side] += 1
            elif result.kind is ResultKind.UNDERCUT:
                out.undercuts[side] += 1
            else:
                out.knocks[side] += 1
        return out
    except BotFailure as exc:  # could not even start
        out.forfeit, out.winner = starting, 1 - starting
        out.error = f"match {job.index}: {specs[starting]} ({SIDES[starting]}) {exc}"
        return out
    finally:
        for seat, player in players.items():
            player.close()
            if isinstance(player, External) and player.uncounted and out.uncounted is None:
                side = side_of[seat]
                out.uncounted = (
                    f"match {job.index}: {specs[side]} ({SIDES[side]}) {player.uncounted}"
                )


def run(
    a: str,
    b: str,
    matches: int,
    rules: Rules,
    seed: int,
    workers: int = 1,
    timeout: float = 5.0,
    progress: TextIO | None = None,
) -> dict[str, Any]:
    """Play ``matches`` matches and summarise them (the arena's JSON object)."""
    jobs = [Job(a, b, rules, seed, i, timeout) for i in range(matches)]
    outcomes: list[MatchOutcome] = []
    bar = Progress(matches, progress)
    for outcome in pooled(play_match, jobs, workers):
        outcomes.append(outcome)
        bar.step()
    bar.done()
    return summarise(a, b, rules, seed, outcomes)


def pooled(play: Callable[[Job_], Result], jobs: list[Job_], workers: int) -> Iterator[Result]:
    """``play`` of each job in order, over ``workers`` processes (``play`` and the jobs
    must pickle: top-level functions and frozen dataclasses); the results do not depend
    on ``workers``, every job carries its own seed."""
    if workers <= 1 or len(jobs) <= 1:
        yield from map(play, jobs)
        return
    import multiprocessing

    ctx = multiprocessing.get_context("fork" if sys.platform != "win32" else "spawn")
    with ctx.Pool(workers) as pool:
        yield from pool.imap(play, jobs, chunksize=1)


class Progress:
    """A text progress bar on stderr (silent when ``stream`` is None)."""

    def __init__(self, total: int, stream: TextIO | None, unit: str = "matches") -> None:
        self.total, self.stream, self.count, self.unit = total, stream, 0, unit
        self.start = time.monotonic()

    def step(self) -> None:
        self.count += 1
        if self.stream is None:
            return
        width = 30
        filled = width * self.count // max(self.total, 1)
        rate = self.count / max(time.monotonic() - self.start, 1e-9)
        self.stream.write(
            f"\r[{'#' * filled}{'.' * (width - filled)}] {self.count}/{self.total}"
            f" {self.unit}, {rate:.1f}/s"
        )
        self.stream.flush()

    def done(self) -> None:
        if self.stream is not None:
            self.stream.write(f" in {time.monotonic() - self.start:.1f} s\n")
            self.stream.flush()


def wilson(wins: float, n: int, z: float = 1.959964) -> tuple[float, float]:
    """The 95% Wilson score interval of a win rate."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def elo(p: float) -> float:
    """Elo difference for a win rate (clamped so 0% and 100% stay finite)."""
    p = min(max(p, 0.5 / 1000), 1 - 0.5 / 1000)
    return -400 * math.log10(1 / p - 1)


def summarise(
    a: str, b: str, rules: Rules, seed: int, outcomes: Sequence[MatchOutcome]
) -> dict[str, Any]:
    # Forfeits and errors are told for every match (a bot that timed out in an uncounted
    # match still timed out); the results only for the matches that count.
    played = len(outcomes)
    uncounted = [o.uncounted for o in outcomes if o.uncounted]
    errors = [o.error for o in outcomes if o.error]
    forfeits = {s: sum(1 for o in outcomes if o.forfeit == i) for i, s in enumerate(SIDES)}
    outcomes = [o for o in outcomes if not o.uncounted]
    n = len(outcomes)

    def per_side(get: Callable[[MatchOutcome], list[int]]) -> dict[str, int]:
        return {s: sum(get(o)[i] for o in outcomes) for i, s in enumerate(SIDES)}

    wins = {s: sum(1 for o in outcomes if o.winner == i) for i, s in enumerate(SIDES)}
    rounds = sum(o.rounds for o in outcomes)
    points = per_side(lambda o: o.points)
    rate = wins["a"] / n if n else 0.0
    lo, hi = wilson(wins["a"], n)
    return {
        "a": a,
        "b": b,
        "preset": rules.name,
        "rules": rules.to_dict(),
        "seed": seed,
        "matches": n,
        "uncounted_matches": played - n,
        "uncounted": uncounted[:10],
        "match_wins": wins,
        "rounds": rounds,
        "round_wins": per_side(lambda o: o.round_wins),
        "gins": per_side(lambda o: o.gins),
        "knocks": per_side(lambda o: o.knocks),
        "undercuts": per_side(lambda o: o.undercuts),
        "void_rounds": sum(o.voids for o in outcomes),
        "mean_points_per_round": {
            s: round(points[s] / rounds, 3) if rounds else 0.0 for s in SIDES
        },
        "win_rate_a": round(rate, 4),
        "win_rate_a_ci95": [round(lo, 4), round(hi, 4)],
        "elo_diff_a": round(elo(rate), 1),
        "elo_diff_a_ci95": [round(elo(lo), 1), round(elo(hi), 1)],
        "forfeits": forfeits,
        "errors": errors[:10],
    }


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="ginrummy arena",
        description="Play computer players against each other; print one JSON object.",
    )
    players = ", ".join(PLAYABLE)
    p.add_argument("--a", required=True, type=check_player, help=f"{players}, coach, cmd:<prog>")
    p.add_argument("--b", required=True, type=check_player, help="the other side, same choices")
    p.add_argument("--matches", type=int, default=100, help="matches to play (default 100)")
    common_options(p)
    p.add_argument(
        "--rule",
        action="append",
        default=[],
        type=rule_override,
        metavar="FIELD=VALUE",
        help="override one field of the preset (docs/rules.md §4), e.g. eleven_card_deal=true",
    )
    p.add_argument(
        "--chouette",
        action="store_true",
        help="tables of three to five players instead; --chouette --help for their options",
    )
    return p


def rule_override(text: str) -> tuple[str, Any]:
    """``FIELD=VALUE`` with VALUE read as JSON (true, 10, null) or else as text."""
    key, sep, raw = text.partition("=")
    if not sep or not key.strip():
        raise argparse.ArgumentTypeError(f"expected FIELD=VALUE, got {text!r}")
    try:
        value = json.loads(raw)
    except ValueError:
        value = raw
    return key.strip(), value


def common_options(p: argparse.ArgumentParser) -> None:
    """The options both arenas (two players here, chouette tables) share."""
    p.add_argument(
        "--preset", default="standard", choices=sorted(PRESETS), help="rules (default standard)"
    )
    p.add_argument("--seed", type=int, default=1, help="everything derives from it")
    p.add_argument("--workers", type=int, default=1, help="processes (default 1)")
    p.add_argument(
        "--timeout", type=float, default=5.0, help="seconds per decision of an external bot"
    )
    p.add_argument("--quiet", action="store_true", help="no progress bar")


def main(argv: list[str]) -> int:
    if "--chouette" in argv:  # three to five players at one table: its own options
        from ginrummy.arena_chouette import main as chouette

        return chouette([a for a in argv if a != "--chouette"])
    args = parser().parse_args(argv)
    if args.matches < 1 or args.workers < 1:
        print("ginrummy arena: --matches and --workers must be at least 1", file=sys.stderr)
        return 2
    try:
        rules = Rules.preset(args.preset, **dict(args.rule))
    except RulesError as exc:
        print(f"ginrummy arena: {exc}", file=sys.stderr)
        return 2
    summary = run(
        args.a,
        args.b,
        args.matches,
        rules,
        args.seed,
        workers=args.workers,
        timeout=args.timeout,
        progress=None if args.quiet else sys.stderr,
    )
    print(json.dumps(summary, indent=2))
    for error in summary["errors"]:
        print(f"forfeit: {error}", file=sys.stderr)
    return 0
