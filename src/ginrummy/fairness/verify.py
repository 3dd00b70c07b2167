"""Checking a record's deals (docs/fairness.md, "Verifying a record").

``verify_fairness`` does exactly what the browser's verifier (web/js/fair/verify.js)
does: read each round's deck and fair block, then per round check the commitment, the
context and the deck. ``verify_record`` adds what needs the rules: the whole record
must load and replay, so the dealt hands, the upcard and every stock draw come from the
checked deck and every action was legal.
"""

from __future__ import annotations

import hashlib
import hmac
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from ginrummy.engine import FairBlock, RecordError, RecordFieldError, load_record
from ginrummy.engine.record import MatchRecord, replay_match, replay_round
from ginrummy.fairness.construction import (
    VERSION,
    DealContext,
    FairnessError,
    SeedError,
    deal_deck,
    parse_seed,
)

_CARD = re.compile(r"[A2-9TJQK][cdhs]")
_SAFE_INTEGER = 2**53 - 1  # JSON numbers a browser reads exactly


class FieldError(FairnessError):
    """A record field that is missing or malformed; ``field`` is its path in the record
    (``rounds[1].fair.seeds.two``: rounds count from 0 there, as in JSON)."""

    def __init__(self, field: str, problem: str) -> None:
        self.field = field
        self.problem = problem
        super().__init__(f"{field}: {problem}")


class Check(StrEnum):
    """The result of one round's check; anything but OK fails the round."""

    OK = "ok"
    UNREVEALED = "unrevealed"  # the server seed is not revealed (yet)
    COMMITMENT = "commitment"  # SHA-256 of the revealed seed is not the commitment
    CONTEXT = "context"  # round number, room or match do not fit the record
    DECK = "deck"  # the recorded deck is not the one the seeds make


@dataclass(frozen=True, slots=True)
class RoundVerdict:
    round: int  # from 1
    check: Check
    reason: str  # empty when the round checks

    @property
    def ok(self) -> bool:
        return self.check is Check.OK

    def line(self) -> str:
        if self.ok:
            return f"round {self.round}: OK"
        return f"round {self.round}: FAILED ({self.check.value}) {self.reason}"


@dataclass(frozen=True, slots=True)
class FairRound:
    """One round as the verifier reads it: the recorded deck and its fair block."""

    deck: tuple[str, ...]  # canonical card texts, top of the deal first
    fair: FairBlock
    server_seed: bytes | None
    context: DealContext


@dataclass(frozen=True, slots=True)
class Report:
    rounds: tuple[RoundVerdict, ...]
    replay_error: str | None  # None when the record replays

    @property
    def ok(self) -> bool:
        return self.replay_error is None and all(v.ok for v in self.rounds)

    def lines(self) -> list[str]:
        failed = self.replay_error
        replay = "replay: OK" if failed is None else f"replay: FAILED {failed}"
        return [*(v.line() for v in self.rounds), replay]


def read_rounds(data: object) -> tuple[tuple[FairRound, ...], bool]:
    """The rounds of a match or round record, and whether it is a match; ``FieldError``
    names the first malformed field."""
    if not isinstance(data, Mapping):
        raise FieldError("record", "a record is a JSON object")
    kind = data.get("kind")
    if kind == "round":
        return (_read_round(data, ""),), False
    if kind != "match":
        raise FieldError("kind", f"expected 'match' or 'round', got {kind!r}")
    rounds = data.get("rounds")
    if not isinstance(rounds, list) or not rounds:
        raise FieldError("rounds", "missing, not a list or empty")
    return tuple(_read_round(r, f"rounds[{i}].") for i, r in enumerate(rounds)), True


def _read_round(data: object, at: str) -> FairRound:
    if not isinstance(data, Mapping):
        raise FieldError(at.rstrip(".") or "record", "not an object")
    deck = _read_deck(data.get("deck"), at + "deck")
    try:
        fair = FairBlock.from_dict(data.get("fair"))
    except RecordFieldError as exc:
        raise FieldError(at + exc.field, exc.problem) from None
    if fair.version != VERSION:
        raise FieldError(at + "fair.version", f"unknown construction {fair.version!r}")
    _read_hex(fair.commitment, at + "fair.commitment")
    one = _read_hex(fair.seeds.one, at + "fair.seeds.one")
    two = _read_hex(fair.seeds.two, at + "fair.seeds.two")
    for name, value in (("match", fair.match), ("round", fair.round)):
        if value > _SAFE_INTEGER:
            raise FieldError(f"{at}fair.{name}", "above 2**53 - 1")
    revealed = fair.server_seed
    server = None if revealed is None else _read_hex(revealed, at + "fair.server_seed")
    context = DealContext(one, two, fair.room, fair.match, fair.round)
    return FairRound(deck, fair, server, context)


def _read_hex(text: str, field: str) -> bytes:
    try:
        return parse_seed(text, field)
    except SeedError as exc:
        raise FieldError(field, str(exc).removeprefix(field + ": ")) from None


def _read_deck(value: object, field: str) -> tuple[str, ...]:
    if not isinstance(value, str):
        raise FieldError(field, "missing or not a text")
    cards = tuple(value.split())
    bad = [c for c in cards if not _CARD.fullmatch(c)]
    if bad:
        raise FieldError(field, f"{bad[0]!r} is not a card in canonical notation (e.g. Td)")
    if len(cards) != 52 or len(set(cards)) != 52:
        raise FieldError(field, f"expected the 52 cards once each, got {len(cards)} cards")
    return cards


def check_round(rnd: FairRound, number: int | None, first: FairBlock) -> RoundVerdict:
    """One round's checks in order: revealed, commitment, context, deck."""
    fair = rnd.fair
    position = fair.round if number is None else number
    if rnd.server_seed is None:
        return RoundVerdict(position, Check.UNREVEALED, "the server seed is not revealed")
    digest = hashlib.sha256(rnd.server_seed).hexdigest()
    if not hmac.compare_digest(digest, fair.commitment):
        return RoundVerdict(
            position,
            Check.COMMITMENT,
            f"SHA-256 of the revealed server seed is {digest}, the commitment {fair.commitment}",
        )
    if fair.round != position or fair.room != first.room or fair.match != first.match:
        return RoundVerdict(
            position,
            Check.CONTEXT,
            f"made for room {fair.room!r}, match {fair.match}, round {fair.round}; "
            f"expected room {first.room!r}, match {first.match}, round {position}",
        )
    dealt = deal_deck(rnd.server_seed, rnd.context)
    for i, (want, got) in enumerate(zip((str(c) for c in dealt), rnd.deck, strict=True)):
        if want != got:
            return RoundVerdict(
                position, Check.DECK, f"card {i + 1} of the deck is {got}, the seeds give {want}"
            )
    return RoundVerdict(position, Check.OK, "")


def verify_fairness(data: object) -> tuple[RoundVerdict, ...]:
    """Each round's verdict; ``FieldError`` for a malformed record."""
    rounds, is_match = read_rounds(data)
    first = rounds[0].fair
    return tuple(
        check_round(rnd, n if is_match else None, first) for n, rnd in enumerate(rounds, 1)
    )


def verify_record(data: object) -> Report:
    """The fairness verdicts and the replay of the whole record (rules, dealers, actions).

    ``FieldError`` for a malformed record, including what the engine cannot load."""
    verdicts = verify_fairness(data)
    assert isinstance(data, Mapping)  # read_rounds checked it
    try:
        record = load_record(data)
    except RecordError as exc:
        raise FieldError("record", str(exc)) from None
    try:
        if isinstance(record, MatchRecord):
            replay_match(record)
        else:
            replay_round(*record)
    except RecordError as exc:
        return Report(verdicts, str(exc))
    return Report(verdicts, None)


def report_dict(data: object) -> dict[str, Any]:
    """``verify_fairness`` as the plain data the browser verifier returns."""
    try:
        verdicts: Sequence[RoundVerdict] = verify_fairness(data)
    except FieldError as exc:
        return {"ok": False, "error": {"field": exc.field, "message": str(exc)}, "rounds": []}
    return {
        "ok": all(v.ok for v in verdicts),
        "error": None,
        "rounds": [
            {"round": v.round, "check": v.check.value, "reason": v.reason} for v in verdicts
        ],
    }
