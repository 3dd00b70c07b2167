"""The engine's command-line tools: ``analyze``, ``settle``, ``replay`` and ``verify``.

``replay`` reads round, match and chouette records (docs/rules.md §8).

Each prints JSON (or, for ``replay``, text) on stdout. Bad input: exit code 2 and one
line on stderr saying what is wrong; in batch mode (no hand argument, one input per
line on stdin) an ``{"error": ...}`` line instead, and the run goes on.
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any, NoReturn

from ginrummy.engine import (
    PRESETS,
    Card,
    GinRummyError,
    HandSizeError,
    MatchRecord,
    Phase,
    RoundRecord,
    Rules,
    Seat,
    best_arrangement,
    best_discards,
    load_record,
    parse_cards,
)
from ginrummy.engine import (
    settle as engine_settle,
)
from ginrummy.engine.actions import Action
from ginrummy.engine.chouette import ChouetteTable, Deal, Forfeit, Leave, Return
from ginrummy.engine.chouette_record import KIND as CHOUETTE
from ginrummy.engine.chouette_record import ChouetteRecord, replay_table_steps
from ginrummy.engine.match import MatchState
from ginrummy.engine.record import replay_match, replay_round_steps
from ginrummy.engine.round import RoundResult
from ginrummy.fairness import FieldError, verify_record
from ginrummy.protocol import encode_round_result


class _Parser(argparse.ArgumentParser):
    """argparse that exits with 2 and one line, as every bad input does."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: {message}\n")


def _cards(cards: Iterable[Card]) -> list[str]:
    return [str(c) for c in cards]


def _dump(obj: Any) -> None:
    sys.stdout.write(json.dumps(obj, ensure_ascii=False) + "\n")


def _fail(prog: str, message: str) -> int:
    sys.stderr.write(f"ginrummy {prog}: {message}\n")
    return 2


def _read_file(prog: str, name: str) -> str | None:
    """The text of the file ``name`` (``-``: standard input), or None once the failure
    is reported."""
    try:
        return sys.stdin.read() if name == "-" else Path(name).read_text("utf-8")
    except OSError as exc:
        _fail(prog, f"cannot read {name}: {exc.strerror}")
        return None


def _batch(handle: Callable[[str], dict[str, Any]]) -> int:
    for line in sys.stdin:
        if not line.strip():
            continue
        try:
            _dump(handle(line))
        except (GinRummyError, ValueError) as exc:
            _dump({"error": str(exc)})
        sys.stdout.flush()
    return 0


# --- analyze ----------------------------------------------------------------------------


def analyze_hand(text: str) -> dict[str, Any]:
    """Best arrangement of a 10- or 11-card hand; for 11 also the best discards.

    >>> analyze_hand("7h 8h 9h Tc Td Ts 2c 3d 4s Kh")["deadwood"]
    19
    """
    cards = parse_cards(text)
    if len(cards) not in (10, 11):
        raise HandSizeError(f"a hand to analyze has 10 or 11 cards, got {len(cards)}")
    arrangement = best_arrangement(cards)
    out: dict[str, Any] = {
        "deadwood": arrangement.deadwood,
        "melds": [_cards(m.cards) for m in arrangement.melds],
        "deadwood_cards": _cards(arrangement.unmatched),
    }
    if len(cards) == 11:
        options = best_discards(cards)
        best = options[0].deadwood
        out["best_discards"] = [
            {"card": str(o.card), "deadwood": o.deadwood} for o in options if o.deadwood == best
        ]
        out["discards"] = [{"card": str(o.card), "deadwood": o.deadwood} for o in options]
    return out


def analyze(argv: Sequence[str]) -> int:
    parser = _Parser(
        prog="ginrummy analyze",
        description="Best melds and deadwood of a 10- or 11-card hand (11: also best discards). "
        "Without a hand, reads one hand per line from stdin.",
    )
    parser.add_argument("hand", nargs="?", help='e.g. "7h 8h 9h Tc Td Ts 2c 3d 4s Kh"')
    args = parser.parse_args(argv)
    if args.hand is None:
        return _batch(analyze_hand)
    try:
        _dump(analyze_hand(args.hand))
    except GinRummyError as exc:
        return _fail("analyze", str(exc))
    return 0


# --- settle -----------------------------------------------------------------------------


def settle_hands(
    knocker: str, defender: str, preset: str = "standard", knock_limit: int | None = None
) -> dict[str, Any]:
    """Score a knock from the two hands (the knocker's after the knock discard)."""
    rules = Rules.preset(preset)
    k_cards, d_cards = parse_cards(knocker), parse_cards(defender)
    sd = engine_settle(k_cards, d_cards, rules, knock_limit=knock_limit)
    return {
        "result": sd.kind.value,
        "knocker_deadwood": sd.knocker_deadwood,
        "defender_deadwood": sd.defender_deadwood,
        "knocker_melds": [_cards(m.cards) for m in sd.knocker.melds],
        "knocker_deadwood_cards": _cards(sd.knocker.unmatched),
        "defender_melds": [_cards(m.cards) for m in sd.defender.melds],
        "defender_deadwood_cards": _cards(sd.defender_deadwood_cards),
        "layoffs": [{"card": str(lo.card), "onto": _cards(lo.onto.cards)} for lo in sd.layoffs],
        "winner": sd.winner.value,
        "points": sd.points,
        "bonus": sd.bonus,
    }


def _settle_line(line: str) -> dict[str, Any]:
    try:
        data = json.loads(line)
    except ValueError:
        raise ValueError("not a JSON line") from None
    if not isinstance(data, dict):
        raise ValueError('expected {"knocker": "...", "defender": "...", "preset": "..."}')
    knocker, defender = data.get("knocker"), data.get("defender")
    preset = data.get("preset", "standard")
    limit = data.get("knock_limit")
    if not isinstance(knocker, str) or not isinstance(defender, str):
        raise ValueError('"knocker" and "defender" must be texts of cards')
    if not isinstance(preset, str):
        raise ValueError('"preset" must be a text')
    if limit is not None and (not isinstance(limit, int) or isinstance(limit, bool)):
        raise ValueError('"knock_limit" must be a whole number')
    return settle_hands(knocker, defender, preset, limit)


def settle(argv: Sequence[str]) -> int:
    parser = _Parser(
        prog="ginrummy settle",
        description="Score a knock. Without hands, reads JSON lines "
        '{"knocker": "...", "defender": "...", "preset": "standard"} from stdin.',
    )
    parser.add_argument("--knocker", help="the knocker's 10 cards after the knock discard")
    parser.add_argument("--defender", help="the defender's 10 cards")
    parser.add_argument("--preset", default="standard", choices=sorted(PRESETS))
    parser.add_argument("--knock-limit", type=int, help="override (e.g. Oklahoma's upcard)")
    args = parser.parse_args(argv)
    if args.knocker is None and args.defender is None:
        return _batch(_settle_line)
    if args.knocker is None or args.defender is None:
        return _fail("settle", "give both --knocker and --defender (or neither, for batch mode)")
    try:
        _dump(settle_hands(args.knocker, args.defender, args.preset, args.knock_limit))
    except GinRummyError as exc:
        return _fail("settle", str(exc))
    return 0


# --- replay -----------------------------------------------------------------------------


def _result_lines(result: RoundResult) -> list[str]:
    data = encode_round_result(result)
    sd = data["showdown"]
    if sd is None:
        return ["  void round: no score"]
    lines = [
        f"  {data['kind']} by {data['knocker']}: knocker melds "
        + " | ".join(" ".join(m) for m in sd["knocker_melds"])
        + f"; deadwood {' '.join(sd['knocker_deadwood_cards']) or '-'} = {sd['knocker_deadwood']}",
        "  defender melds "
        + (" | ".join(" ".join(m) for m in sd["defender_melds"]) or "-")
        + "; layoffs "
        + (", ".join(f"{lo['card']} on {' '.join(lo['onto'])}" for lo in sd["layoffs"]) or "-")
        + f"; deadwood {' '.join(sd['defender_deadwood_cards']) or '-'}"
        + f" = {sd['defender_deadwood']}",
    ]
    calc = f"{sd['base_points']}"
    if sd["bonus"]:
        calc += f" + {sd['bonus']} bonus"
    if sd["multiplier"] != 1:
        calc = f"({calc}) x {sd['multiplier']}"
    lines.append(f"  {data['winner']} scores {calc} = {data['points']}")
    return lines


def _print_round(rules: Rules, record: RoundRecord, number: int | None) -> RoundResult | None:
    title = f"Round {number}" if number is not None else "Round"
    state = None
    for i, state in enumerate(replay_round_steps(rules, record)):
        if i == 0:
            print(f"{title}: dealer {record.dealer.label}, knock limit {state.knock_limit}")
            for seat in Seat:
                print(f"  {seat.label} is dealt: {' '.join(str(c) for c in state.hand(seat))}")
            if state.first_upcard is not None:
                print(f"  first upcard: {state.first_upcard}")
            continue
        seat, action = state.history[-1]
        print(f"  {i:>3}. {seat.label}: {action}")
    assert state is not None
    if state.phase is not Phase.OVER or state.result is None:
        print("  (round not finished)")
        return None
    for line in _result_lines(state.result):
        print(line)
    return state.result


def _print_match(record: MatchRecord) -> MatchState:
    match = replay_match(record)  # validates dealers and every action first
    print(f"Match, rules {record.rules.name}, first dealer {record.first_dealer.label}")
    for n, rnd in enumerate(record.rounds, 1):
        _print_round(record.rules, rnd, n)
        if n <= len(match.rounds):
            scores = match.rounds[n - 1].scores
            print(f"  scores: one {scores.one}, two {scores.two}")
    if match.result is not None:
        r = match.result
        print(f"Match over: {r.winner.label} wins")
        for seat in Seat:
            print(
                f"  {seat.label}: rounds {r.round_points[seat]} + box {r.box_bonus[seat]}"
                f" + game {r.game_bonus[seat]} + shutout {r.shutout_bonus[seat]}"
                f" = {r.totals[seat]}"
            )
    return match


def replay(argv: Sequence[str]) -> int:
    parser = _Parser(
        prog="ginrummy replay", description="Print a recorded round, match or chouette table."
    )
    parser.add_argument("file", help="a JSON record (round, match or chouette); - for stdin")
    args = parser.parse_args(argv)
    text = _read_file("replay", args.file)
    if text is None:
        return 2
    try:
        data = json.loads(text)
        if isinstance(data, dict) and data.get("kind") == CHOUETTE:
            _print_chouette(ChouetteRecord.from_dict(data))
            return 0
        loaded = load_record(data)
        if isinstance(loaded, MatchRecord):
            _print_match(loaded)
        else:
            rules, rnd = loaded
            _print_round(rules, rnd, None)
    except ValueError as exc:  # JSON errors and every GinRummyError
        return _fail("replay", str(exc) if isinstance(exc, GinRummyError) else f"bad JSON: {exc}")
    return 0


def _print_chouette(record: ChouetteRecord) -> ChouetteTable:
    """A chouette table (docs/rules.md §8) event by event: deals, moves by position,
    round results, leaves and returns, forfeits, settlements and the ledger."""
    states = list(replay_table_steps(record))  # every event replays before a line is printed
    drawn = ", ".join(f"{p} {c}" for p, c in enumerate(record.drawn))
    print(f"Chouette, {len(record.drawn)} players, rules {record.rules.name}; drawn: {drawn}")
    print(_chouette_match_line(states[0]))
    for before, after in itertools.pairwise(states):
        for line in _chouette_event_lines(before, after):
            print(line)
    return states[-1]


def _chouette_match_line(t: ChouetteTable) -> str:
    team = " ".join(str(m) for m in t.order)
    return f"Match {t.number}: box {t.box} (seat one), team {team} (seat two)"


def _chouette_event_lines(before: ChouetteTable, after: ChouetteTable) -> list[str]:
    event = after.events[-1]
    lines: list[str] = []
    if isinstance(event, Deal):
        rnd = after.match.round
        assert rnd is not None
        lines.append(
            f"Round {after.match.round_number}: box {after.box} against captain"
            f" {after.captain}, dealer {rnd.dealer.label}, knock limit {rnd.knock_limit}"
        )
        lines += [f"  {s.label} is dealt: {' '.join(map(str, rnd.hand(s)))}" for s in Seat]
        if rnd.first_upcard is not None:
            lines.append(f"  first upcard: {rnd.first_upcard}")
    elif isinstance(event, Action):
        rnd = after.match.round
        moves = len(rnd.history) if rnd is not None else 0
        lines.append(f"  {moves:>3}. {before.turn}: {event}")
    elif isinstance(event, Forfeit):
        lines.append(f"  {event.position} forfeits the match ({event.reason.value})")
    elif isinstance(event, Leave | Return):
        lines.append(f"  {event.position} {'leaves' if isinstance(event, Leave) else 'is back'}")
    else:
        lines.append(_chouette_match_line(after))
    if len(after.match.rounds) > len(before.match.rounds):
        scored = after.match.rounds[-1]
        lines += _result_lines(scored.result)
        lines.append(f"  scores: box {scored.scores.one}, team {scored.scores.two}")
    if len(after.settlements) > len(before.settlements):
        s = after.settlements[-1]
        won = "the box wins" if s.result.winner is Seat.ONE else "the team wins"
        pays = "each partner pays the box" if s.result.winner is Seat.ONE else "the box pays each"
        lines.append(f"Match {s.number} over: {won}; {pays} {s.value}")
        lines.append("  ledger: " + ", ".join(f"{p} {v:+d}" for p, v in enumerate(after.ledger)))
    return lines


# --- verify -----------------------------------------------------------------------------


def verify(argv: Sequence[str]) -> int:
    """Check every deal of a record (docs/fairness.md): exit 0 when all check, 1 naming
    each failed round and why, 2 for input that is not a well-formed record."""
    parser = _Parser(
        prog="ginrummy verify", description="Check that every deal of a record was fair."
    )
    parser.add_argument("file", help="a JSON record (match or round) with fair blocks; - for stdin")
    args = parser.parse_args(argv)
    text = _read_file("verify", args.file)
    if text is None:
        return 2
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        return _fail("verify", f"bad JSON: {exc}")
    try:
        report = verify_record(data)
    except FieldError as exc:
        return _fail("verify", str(exc))
    for line in report.lines():
        print(line)
    return 0 if report.ok else 1
