"""Records and replay: a round is (rules, deck order, dealer, actions); a match is its
rules, first dealer and rounds. Both convert to plain data (``to_dict``) that any JSON
library writes, and replay to identical states.

A round may carry a ``fair`` block: the data that proves its deck was dealt fairly
(docs/fairness.md). The engine only carries it; ``ginrummy.fairness`` checks it.
Records without it (older ones) load as before: the format stays 1.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from ginrummy.engine.actions import Action, parse_action
from ginrummy.engine.cards import Card, parse_card
from ginrummy.engine.errors import GinRummyError, RecordError, RecordFieldError
from ginrummy.engine.match import ForfeitReason, MatchPhase, MatchState, deal, forfeit, new_match
from ginrummy.engine.match import apply as apply_match
from ginrummy.engine.round import RoundState, new_round
from ginrummy.engine.round import apply as apply_round
from ginrummy.engine.rules import Rules
from ginrummy.engine.seats import Pair, Seat

FORMAT = 1


@dataclass(frozen=True, slots=True)
class FairBlock:
    """The fairness data of one deal, as recorded (docs/fairness.md): the construction's
    name, the server's commitment and (once the round is over) its seed, each seat's
    seed, and the room, match and round the deck was made for. Seeds and the commitment
    are hex texts; their length and encoding are checked by ``ginrummy.fairness``."""

    version: str
    commitment: str
    server_seed: str | None  # None until the server reveals it after the round
    seeds: Pair[str]
    room: str
    match: int
    round: int

    def to_dict(self) -> dict[str, Any]:
        return {
            "version": self.version,
            "commitment": self.commitment,
            "server_seed": self.server_seed,
            "seeds": {"one": self.seeds.one, "two": self.seeds.two},
            "room": self.room,
            "match": self.match,
            "round": self.round,
        }

    @classmethod
    def from_dict(cls, data: object) -> FairBlock:
        """Read a fair block; a missing or mistyped field raises ``RecordFieldError``
        naming it (``fair.seeds.two``)."""
        block = _object(data, "fair")
        seeds = _object(block.get("seeds"), "fair.seeds")
        seed = block.get("server_seed")
        return cls(
            version=_text(block, "version", "fair"),
            commitment=_text(block, "commitment", "fair"),
            server_seed=None if seed is None else _text(block, "server_seed", "fair"),
            seeds=Pair(_text(seeds, "one", "fair.seeds"), _text(seeds, "two", "fair.seeds")),
            room=_text(block, "room", "fair"),
            match=_number(block, "match"),
            round=_number(block, "round"),
        )


def _object(value: object, name: str) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise RecordFieldError(name, "missing or not an object")
    return value


def _text(data: Mapping[str, Any], key: str, where: str) -> str:
    value = data.get(key)
    if not isinstance(value, str):
        raise RecordFieldError(f"{where}.{key}", "missing or not a text")
    return value


def _number(data: Mapping[str, Any], key: str) -> int:
    value = data.get(key)
    # bool is an int in Python but not a number in the record
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise RecordFieldError(f"fair.{key}", "missing or not a whole number >= 0")
    return value


@dataclass(frozen=True, slots=True)
class RoundRecord:
    deck: tuple[Card, ...]
    dealer: Seat
    actions: tuple[Action, ...]
    fair: FairBlock | None = None  # absent in records made before fair deals

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "deck": " ".join(str(c) for c in self.deck),
            "dealer": self.dealer.label,
            "actions": [str(a) for a in self.actions],
        }
        if self.fair is not None:
            out["fair"] = self.fair.to_dict()
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> RoundRecord:
        try:
            fair = data.get("fair")
            return cls(
                deck=tuple(parse_card(t) for t in str(data["deck"]).split()),
                dealer=Seat.parse(str(data["dealer"])),
                actions=tuple(parse_action(a) for a in data["actions"]),
                fair=None if fair is None else FairBlock.from_dict(fair),
            )
        except (KeyError, TypeError) as exc:
            raise RecordError(f"malformed round record: missing or bad {exc}") from None
        except GinRummyError as exc:
            raise RecordError(f"malformed round record: {exc}") from None


@dataclass(frozen=True, slots=True)
class MatchRecord:
    rules: Rules
    first_dealer: Seat
    rounds: tuple[RoundRecord, ...]
    forfeit: tuple[Seat, ForfeitReason] | None = None  # who forfeited, and why

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "format": FORMAT,
            "kind": "match",
            "rules": self.rules.to_dict(),
            "first_dealer": self.first_dealer.label,
            "rounds": [r.to_dict() for r in self.rounds],
        }
        if self.forfeit is not None:
            out["forfeit"] = {"seat": self.forfeit[0].label, "reason": self.forfeit[1].value}
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> MatchRecord:
        try:
            rules = Rules.from_dict(dict(data["rules"]))
            first = Seat.parse(str(data["first_dealer"]))
            rounds = tuple(RoundRecord.from_dict(r) for r in data["rounds"])
            lost = data.get("forfeit")
            forfeit = (
                None
                if lost is None
                else (Seat.parse(str(lost["seat"])), ForfeitReason(lost["reason"]))
            )
        except (KeyError, TypeError) as exc:
            raise RecordError(f"malformed match record: missing or bad {exc}") from None
        except ValueError as exc:  # GinRummyError, or an unknown forfeit reason
            raise RecordError(f"malformed match record: {exc}") from None
        return cls(rules, first, rounds, forfeit)


def round_record_dict(rules: Rules, record: RoundRecord) -> dict[str, Any]:
    """A stand-alone round record (with its rules) as plain data."""
    return {"format": FORMAT, "kind": "round", "rules": rules.to_dict(), **record.to_dict()}


def load_record(data: Mapping[str, Any]) -> tuple[Rules, RoundRecord] | MatchRecord:
    """Read a stand-alone round record or a match record."""
    if not isinstance(data, Mapping):
        raise RecordError("a record is a JSON object")
    kind = data.get("kind")
    if kind == "match":
        return MatchRecord.from_dict(data)
    if kind == "round":
        try:
            rules = Rules.from_dict(dict(data["rules"]))
        except (KeyError, TypeError):
            raise RecordError("malformed round record: missing or bad 'rules'") from None
        except GinRummyError as exc:
            raise RecordError(f"malformed round record: {exc}") from None
        return rules, RoundRecord.from_dict(data)
    raise RecordError(f"unknown record kind {kind!r}; expected 'round' or 'match'")


def replay_round_steps(rules: Rules, record: RoundRecord) -> Iterator[RoundState]:
    """Every state of a recorded round, from the deal to the last action."""
    state = new_round(rules, record.deck, record.dealer)
    yield state
    for i, action in enumerate(record.actions, 1):
        try:
            state = apply_round(state, action)
        except GinRummyError as exc:
            raise RecordError(f"action {i} ({action}) does not replay: {exc}") from None
        yield state


def replay_round(rules: Rules, record: RoundRecord) -> RoundState:
    state = None
    for state in replay_round_steps(rules, record):  # noqa: B007
        pass
    assert state is not None
    return state


def replay_match(record: MatchRecord) -> MatchState:
    """Rebuild a match from its record; the dealers must be the ones the rules give."""
    match = new_match(record.rules, record.first_dealer)
    for n, rnd in enumerate(record.rounds, 1):
        if match.phase is not MatchPhase.DEAL:
            raise RecordError(f"round {n} is recorded but the match cannot deal it")
        if rnd.dealer is not match.next_dealer:
            raise RecordError(
                f"round {n}: recorded dealer {rnd.dealer.label}, the rules give "
                f"{match.next_dealer.label}"
            )
        try:
            match = deal(match, rnd.deck)
        except GinRummyError as exc:
            raise RecordError(f"round {n} does not deal: {exc}") from None
        for i, action in enumerate(rnd.actions, 1):
            try:
                match = apply_match(match, action)
            except GinRummyError as exc:
                raise RecordError(f"round {n}, action {i} ({action}): {exc}") from None
    if record.forfeit is not None:
        try:
            match = forfeit(match, *record.forfeit)
        except GinRummyError as exc:
            raise RecordError(f"the recorded forfeit does not apply: {exc}") from None
    return match


def record_of(match: MatchState) -> MatchRecord:
    """The record of a match so far: finished rounds and the one under way."""
    rounds = [RoundRecord(r.deck, r.dealer, r.actions) for r in match.played]
    if match.round is not None and match.round.result is None:
        # The round under way (or left unfinished by a forfeit).
        rnd = match.round
        rounds.append(RoundRecord(rnd.deck, rnd.dealer, rnd.actions))
    result = match.result
    lost = None
    if result is not None and result.forfeited_by is not None and result.forfeit is not None:
        lost = (result.forfeited_by, result.forfeit)
    return MatchRecord(match.rules, match.first_dealer, tuple(rounds), lost)
