"""The differential conformance harness: the browser engine against the Python reference.

Seeded random matches are played by the Python engine under every preset and a range
of option sets; each match's record goes to ONE Node process per batch
(``tests/conformance/driver.mjs``), which replays it in the browser engine
(``src/ginrummy/web/js/engine/``) and answers, per step, a digest of the legal actions,
a canonical state and the three views as ``ginrummy.protocol`` encodes them. Random and
meld-dense hands go through ``analyze`` and ``settle`` on both sides. The first
divergence comes back as a minimal reproducible record: rules, decks, the action prefix
up to the step, and both sides' outputs of the part that differs.

Run a larger batch from the repository root::

    .venv/bin/python tests/conformance/harness.py --matches 20000 --hands 20000 --seed 1
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import shutil
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ginrummy.engine import (
    DECK,
    Action,
    ActionKind,
    Card,
    ForfeitReason,
    GinRummyError,
    MatchPhase,
    MatchState,
    Phase,
    Rules,
    Seat,
    Suit,
    apply_match,
    deal,
    draw_first_dealer,
    forfeit,
    match_legal_actions,
    new_match,
    parse_action,
    record_of,
    shuffled_deck,
    view_for_seat,
    view_for_spectator,
)
from ginrummy.engine.melds import deadwood_of_mask
from ginrummy.protocol import (
    encode_own_view,
    encode_public_view,
    encode_seat_view,
    encode_spectator_view,
    to_json,
)
from ginrummy.tools import analyze_hand, settle_hands

ROOT = Path(__file__).resolve().parents[2]
DRIVER = ROOT / "tests" / "conformance" / "driver.mjs"

# Every preset, and option sets that reach every rule branch: the 11-card deal, Big
# Gin, the alternative stock rule, the loser deals, the same dealer after a void, the
# knock limit at both ends. Target scores are low so that matches end.
OPTION_SETS: tuple[tuple[str, dict[str, Any]], ...] = (
    ("standard", {"target_score": 40}),
    ("oklahoma", {"target_score": 40}),
    ("classic", {"target_score": 40}),
    ("first-to-knock", {}),
    ("standard", {"target_score": 40, "eleven_card_deal": True, "big_gin_bonus": 31}),
    (
        "standard",
        {
            "target_score": 40,
            "stock_rule": "last_discard",
            "next_dealer": "loser",
            "after_void": "same",
        },
    ),
    ("oklahoma", {"target_score": 30, "stock_rule": "last_discard", "big_gin_bonus": 50}),
    ("standard", {"target_score": 60, "knock_limit": 30, "undercut_bonus": 10, "gin_bonus": 20}),
    ("classic", {"target_score": 30, "eleven_card_deal": True, "next_dealer": "loser"}),
    (
        "first-to-knock",
        {"stock_rule": "last_discard", "eleven_card_deal": True, "big_gin_bonus": 25},
    ),
    ("standard", {"target_score": 20, "knock_limit": 0, "after_void": "same"}),
)
MAX_ROUNDS = 4  # a match still running after this many rounds stops there
ENDINGS = {ActionKind.KNOCK, ActionKind.GIN, ActionKind.BIG_GIN}
PARTS = ("legal", "state", "one", "two", "spectator")


# --- the Python side --------------------------------------------------------------------


def canonical_state(m: MatchState) -> dict[str, Any]:
    """The state as plain data; tests/conformance/driver.mjs writes the same."""
    r = m.round
    return {
        "phase": m.phase.value,
        "first_dealer": m.first_dealer.label,
        "next_dealer": m.next_dealer.label,
        "scores": {"one": m.scores.one, "two": m.scores.two},
        "rounds_won": {"one": m.rounds_won.one, "two": m.rounds_won.two},
        "rounds": len(m.rounds),
        "played": len(m.played),
        "round": None
        if r is None
        else {
            "dealer": r.dealer.label,
            "phase": r.phase.value,
            "turn": r.turn.label,
            "deck": " ".join(str(c) for c in r.deck),
            "hands": {"one": _texts(r.hand(Seat.ONE)), "two": _texts(r.hand(Seat.TWO))},
            "stock": _texts(r.stock),
            "discard_pile": _texts(r.discard_pile),
            "first_upcard": _text(r.first_upcard),
            "knock_limit": r.knock_limit,
            "doubled": r.doubled,
            "upcard_passes": [s.label for s in r.upcard_passes],
            "taken": _text(r.taken),
            "stock_only": r.stock_only,
            "must_knock": r.must_knock,
            "knock_discard": _text(r.knock_discard),
            "history": [[s.label, str(a)] for s, a in r.history],
        },
    }


def _texts(cards: tuple[Card, ...]) -> list[str]:
    return [str(c) for c in cards]


def _text(card: Card | None) -> str | None:
    return None if card is None else str(card)


def parts(m: MatchState) -> dict[str, Any]:
    return {
        "legal": [str(a) for a in match_legal_actions(m)],
        "state": canonical_state(m),
        "one": encode_seat_view(view_for_seat(m, Seat.ONE)),
        "two": encode_seat_view(view_for_seat(m, Seat.TWO)),
        "spectator": encode_spectator_view(view_for_spectator(m)),
    }


def digest(m: MatchState) -> str:
    """The digest of :func:`parts`. The public part of the three views is encoded once:
    ``encode_seat_view`` is ``{**encode_own_view(v), **encode_public_view(v)}`` and the
    public part is the same for every viewer (the server shares it likewise); Node
    encodes each view whole, so its digests check that too."""
    spectator = view_for_spectator(m)
    public = encode_public_view(spectator)
    views = [{**encode_own_view(view_for_seat(m, seat)), **public} for seat in Seat]
    own_none = encode_own_view(None)
    legal = [str(a) for a in match_legal_actions(m)]
    text = to_json([legal, canonical_state(m), *views, {**own_none, **public}])
    return hashlib.sha256(text.encode()).hexdigest()[:16]


@dataclass(frozen=True, slots=True)
class PlayedMatch:
    seed: int
    record: dict[str, Any]  # MatchRecord.to_dict()
    digests: tuple[str, ...]  # one per step: the new match, each deal, action, forfeit


def play_match(seed: int) -> PlayedMatch:
    """A seeded random match. Choices are uniform, except that a knock, gin or a take of
    the last discard is chosen 70% of the times it is offered and a discard that leaves
    the least deadwood 70% of the times, and the stock is drawn more often than the pile:
    rounds then end by showdowns, not only by an empty stock."""
    rng = random.Random(seed)
    preset, overrides = OPTION_SETS[seed % len(OPTION_SETS)]
    m = new_match(Rules.preset(preset, **overrides), draw_first_dealer(rng))
    digests = [digest(m)]
    quit_at = rng.randrange(400) if rng.random() < 0.1 else -1  # a forfeit now and then
    while not m.is_over and len(m.rounds) < MAX_ROUNDS and len(digests) != quit_at:
        if m.phase is MatchPhase.DEAL:
            m = deal(m, shuffled_deck(rng))
        else:
            m = apply_match(m, _choose(m, rng))
        digests.append(digest(m))
    if len(digests) == quit_at and not m.is_over:
        m = forfeit(m, rng.choice(list(Seat)), rng.choice(list(ForfeitReason)))
        digests.append(digest(m))
    return PlayedMatch(seed, record_of(m).to_dict(), tuple(digests))


def _choose(m: MatchState, rng: random.Random) -> Action:
    legal = match_legal_actions(m)
    last_discard = m.round is not None and m.round.phase is Phase.LAST_DISCARD
    endings = [a for a in legal if a.kind in ENDINGS or (last_discard and a is not legal[-1])]
    if endings and rng.random() < 0.7:
        return rng.choice(endings)
    if len(legal) == 2 and legal[0].kind is ActionKind.DRAW_STOCK and rng.random() < 0.6:
        return legal[0]  # the stock, mostly: taking from the pile does not end a round
    discards = [a for a in legal if a.kind is ActionKind.DISCARD and a.card is not None]
    if discards and m.round is not None and rng.random() < 0.7:
        hand = m.round.hands[m.round.turn]
        return min(discards, key=lambda a: deadwood_of_mask(hand ^ a.card.bit))  # type: ignore[union-attr]
    return rng.choice(legal)


def meld_dense_hand(
    rng: random.Random, size: int, used: set[Card], near: list[Card] | None = None
) -> list[Card]:
    """A hand made mostly of runs and sets, then filled with random cards; ``near``:
    cards whose neighbours (same rank, or next in suit: possible layoffs) it likes."""
    hand: list[Card] = []

    def add(cards: list[Card]) -> None:
        for card in cards:
            if card not in used and len(hand) < size:
                hand.append(card)
                used.add(card)

    if near:
        around = sorted({n for c in near for n in _neighbours(c)} - used, key=lambda c: c.index)
        add(rng.sample(around, min(len(around), rng.randint(0, 4))))
    for _ in range(rng.randint(1, 5)):
        if rng.random() < 0.65:
            suit, length = rng.choice(list(Suit)), rng.randint(3, 6)
            start = rng.randint(1, 14 - length)
            add([Card(r, suit) for r in range(start, start + length)])
        else:
            rank = rng.randint(1, 13)
            add([Card(rank, s) for s in rng.sample(list(Suit), rng.randint(3, 4))])
    add(rng.sample([c for c in DECK if c not in used], size))
    return hand


def _neighbours(card: Card) -> list[Card]:
    same_rank = [Card(card.rank, s) for s in Suit if s is not card.suit]
    ranks = (card.rank - 2, card.rank - 1, card.rank + 1, card.rank + 2)
    return same_rank + [Card(r, card.suit) for r in ranks if 1 <= r <= 13]


def hand_requests(count: int, seed: int) -> Iterator[dict[str, Any]]:
    """analyze and settle requests over random and meld-dense hands; every 10th request
    a rules object or action texts, each mangled now and then."""
    rng = random.Random(seed)
    presets = ("standard", "oklahoma", "classic", "first-to-knock")
    for i in range(count):
        if i % 10 == 9:
            yield _rules_request(rng, i) if i % 20 == 9 else _parse_request(rng, i)
            continue
        used: set[Card] = set()
        dense = rng.random() < 0.7
        size = rng.choice((10, 11))
        hand = meld_dense_hand(rng, size, used) if dense else rng.sample(DECK, size)
        if i % 2 == 0:
            yield {"op": "analyze", "id": i, "hand": " ".join(map(str, hand))}
            continue
        knocker = meld_dense_hand(rng, 10 if rng.random() < 0.95 else 11, set())
        defender = meld_dense_hand(rng, 10, set(knocker), knocker if rng.random() < 0.5 else None)
        request: dict[str, Any] = {
            "op": "settle",
            "id": i,
            "knocker": " ".join(map(str, knocker)),
            "defender": " ".join(map(str, defender)),
            "preset": rng.choice(presets),
        }
        if rng.random() < 0.3:
            request["knock_limit"] = rng.randint(0, 30)
        yield request


# Per option: values that are fine alone, then values that are not.
_RULE_VALUES: dict[str, tuple[tuple[Any, ...], tuple[Any, ...]]] = {
    "target_score": ((None, 1, 50, 10_000), (0, 10_001, "100", 1.5, True)),
    "knock_limit": ((0, 10, 30), (31, -1, None)),
    "oklahoma": ((True, False), (1, None)),
    "spade_doubling": ((True, False), ("no",)),
    "gin_bonus": ((0, 25, 1000), (1001, False)),
    "big_gin_bonus": ((None, 0, 31), (1001,)),
    "box_bonus": ((0, 25), (-1,)),
    "game_bonus": ((0, 100), (1000.5,)),
    "shutout_bonus": ((0, 100), ("0",)),
    "eleven_card_deal": ((True, False), ("yes",)),
    "next_dealer": (("alternate", "loser"), ("winner", 1)),
    "after_void": (("next", "same"), (None,)),
    "stock_rule": (("void", "last_discard"), ("never",)),
    "move_timer_seconds": ((None, 5, 600), (4, 601)),
    "name": (("standard", "house"), ("", 7)),
    "colour": ((), ("red",)),
}


def _rules_request(rng: random.Random, i: int) -> dict[str, Any]:
    """A rules object: a few options, now and then a bad value or an unknown option;
    combinations such as Oklahoma with the 11-card deal come up by themselves."""
    rules: dict[str, Any] = {}
    for key in rng.sample(sorted(_RULE_VALUES), rng.randint(0, 5)):
        good, bad = _RULE_VALUES[key]
        if good and rng.random() < 0.9:
            rules[key] = rng.choice(good)
        elif rng.random() < 0.5:
            rules[key] = rng.choice(bad)
    return {"op": "rules", "id": i, "rules": rules}


_ACTION_WORDS = ("take", "pass", "draw stock", "draw discard", "discard", "knock", "gin", "big gin")
_CARD_TEXTS = ("7h", "Td", "10d", "7♥", "a♧", "QS", "1x", "11h", "", "K")


def _parse_request(rng: random.Random, i: int) -> dict[str, Any]:
    texts = []
    for _ in range(8):
        word = rng.choice(_ACTION_WORDS)
        card = rng.choice(_CARD_TEXTS) if rng.random() < 0.7 else ""
        spaced = f"  {word.upper() if rng.random() < 0.3 else word}   {card} "
        texts.append(spaced)
    return {"op": "parse", "id": i, "actions": texts}


_ERROR_CODES = {
    "CardParseError": "card_parse",
    "DuplicateCardError": "duplicate_card",
    "HandSizeError": "hand_size",
    "RulesError": "rules",
    "ActionParseError": "action_parse",
    "IllegalActionError": "illegal_action",
    "NotAKnockError": "not_a_knock",
    "RecordError": "record",
}


def _error(exc: GinRummyError) -> dict[str, str]:
    return {"error_code": _ERROR_CODES[type(exc).__name__], "message": str(exc)}


def _parsed(text: str) -> Any:
    try:
        return str(parse_action(text))
    except GinRummyError as exc:
        return _error(exc)


def expected_tool_output(request: dict[str, Any]) -> Any:
    """What the Python engine answers, or its error (class and message): ``analyze`` and
    ``settle`` as the command line prints them, rules as plain data, each action text
    read (or its error)."""
    try:
        if request["op"] == "analyze":
            return analyze_hand(request["hand"])
        if request["op"] == "settle":
            return settle_hands(
                request["knocker"],
                request["defender"],
                request["preset"],
                request.get("knock_limit"),
            )
        if request["op"] == "rules":
            return Rules.from_dict(request["rules"]).to_dict()
        return [_parsed(text) for text in request["actions"]]
    except GinRummyError as exc:
        return _error(exc)


# --- the Node side and the comparison ---------------------------------------------------


class NodeMissing(RuntimeError):
    """Node is not installed: the browser engine cannot be run."""


def run_node(requests: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every request through ONE Node process; one answer per request, in order."""
    node = shutil.which("node")
    if node is None:
        raise NodeMissing("node is not installed")
    text = "".join(json.dumps(r) + "\n" for r in requests)
    done = subprocess.run(
        [node, str(DRIVER)], input=text, capture_output=True, text=True, check=False
    )
    if done.returncode != 0:
        raise RuntimeError(f"the node driver failed ({done.returncode}): {done.stderr.strip()}")
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    if len(answers) != len(requests):
        raise RuntimeError(f"the node driver answered {len(answers)} of {len(requests)} requests")
    return answers


def _truncate(record: dict[str, Any], steps: int) -> dict[str, Any]:
    """The record of a match's first ``steps`` steps after the new match."""
    rounds = []
    left = steps
    for rnd in record["rounds"]:
        if left == 0:
            break
        left -= 1  # the deal
        taken = rnd["actions"][:left]
        left -= len(taken)
        rounds.append({**rnd, "actions": taken})
    out = {**record, "rounds": rounds}
    out.pop("forfeit", None)
    if left > 0 and "forfeit" in record:
        out["forfeit"] = record["forfeit"]
    return out


def match_divergence(played: PlayedMatch, answer: dict[str, Any]) -> dict[str, Any] | None:
    """None if Node agrees at every step; otherwise the minimal reproducible record."""
    theirs = answer["steps"]
    for step, ours in enumerate(played.digests):
        if step < len(theirs) and theirs[step] == ours:
            continue
        record = _truncate(played.record, step)
        report: dict[str, Any] = {"seed": played.seed, "step": step, "record": record}
        if step >= len(theirs):
            report["node_error"] = answer["error"]
            return report
        python = _replay_parts(record)
        (detail,) = run_node([{"op": "detail", "id": 0, "record": record, "step": step}])
        node = detail["parts"]
        differing = [p for p in PARTS if python[p] != node[p]] or ["key order"]
        report["part"] = differing[0]
        report["python"] = python.get(differing[0], python)
        report["node"] = node.get(differing[0], node)
        return report
    if len(theirs) != len(played.digests) or answer["error"] is not None:
        return {"seed": played.seed, "record": played.record, "node_error": answer["error"]}
    return None


def _replay_parts(record: dict[str, Any]) -> dict[str, Any]:
    from ginrummy.engine import replay_match
    from ginrummy.engine.record import MatchRecord

    return parts(replay_match(MatchRecord.from_dict(record)))


@dataclass(frozen=True, slots=True)
class Report:
    matches: int
    steps: int
    hands: int
    divergence: dict[str, Any] | None

    def __str__(self) -> str:
        head = f"{self.matches} matches ({self.steps} steps) and {self.hands} hands"
        if self.divergence is None:
            return f"{head}: both engines agree"
        return f"{head}: first divergence\n{json.dumps(self.divergence, indent=1)}"


def run(matches: int, hands: int, seed: int = 0) -> Report:
    """Play ``matches`` matches and ``hands`` tool requests through both engines."""
    played = [play_match(seed * 1_000_003 + i) for i in range(matches)]
    tools = list(hand_requests(hands, seed))
    requests = [{"op": "match", "id": i, "record": p.record} for i, p in enumerate(played)]
    answers = run_node(requests + tools)
    steps = sum(len(p.digests) for p in played)
    for p, answer in zip(played, answers, strict=False):
        found = match_divergence(p, answer)
        if found is not None:
            return Report(matches, steps, hands, found)
    for request, answer in zip(tools, answers[len(played) :], strict=True):
        want = expected_tool_output(request)
        if answer["out"] != want:
            found = {"request": request, "python": want, "node": answer["out"]}
            return Report(matches, steps, hands, found)
    return Report(matches, steps, hands, None)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=2000)
    parser.add_argument("--hands", type=int, default=4000)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    report = run(args.matches, args.hands, args.seed)
    print(report)
    return 0 if report.divergence is None else 1


if __name__ == "__main__":
    sys.exit(main())
