"""The fair deal of a room's round (docs/fairness.md): the server's commitment, the
seats' seeds, the deck they make, and what a frame may show of them.

The order is the protocol: a ``commit`` event (the server's fresh seed, written but
never shown until the round is over), one ``seed`` event per seat (a person's as sent,
a computer's drawn by the server, a silent person's default after the seed timeout),
then the ``deal`` event with the deck ``deal_deck`` gives and the round's fair block.
Pure: no store, no socket.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from ginrummy.engine import FairBlock, MatchState, Pair, Seat, cards_text
from ginrummy.fairness import (
    DealContext,
    SeedError,
    commitment,
    deal_deck,
    default_seat_seed,
    fair_block,
    new_seed,
    parse_seed,
)
from ginrummy.server.room.seats import SeatInfo

SOURCES = ("sent", "computer", "default", "server")
"""Where a seat seed came from: sent by the seat, drawn by the server for a computer
seat, the default seed of a person silent until the timeout, or drawn by the server for
a seat without a stored identity hash (never in a served room: tests of the rooms give
seats made-up identities)."""
_NO_SEEDS: Pair[bytes | None] = Pair(None, None)
_NO_SOURCES: Pair[str | None] = Pair(None, None)


@dataclass(frozen=True, slots=True)
class Pending:
    """A round that is due: the server's seed (hidden until the round is over), the
    deal's context, and the seat seeds in so far with their sources."""

    server_seed: bytes
    room: str
    match: int
    round: int
    seeds: Pair[bytes | None] = _NO_SEEDS
    sources: Pair[str | None] = _NO_SOURCES

    @property
    def commitment(self) -> str:
        return commitment(self.server_seed)

    @property
    def complete(self) -> bool:
        return all(s is not None for s in self.seeds)

    def missing(self) -> list[Seat]:
        return [s for s in Seat if self.seeds[s] is None]

    def with_seed(self, seat: Seat, seed: bytes, source: str) -> Pending:
        return replace(
            self, seeds=self.seeds.replace(seat, seed), sources=self.sources.replace(seat, source)
        )

    def context(self) -> DealContext:
        one, two = self.seeds
        assert one is not None and two is not None, "the deal waits for both seat seeds"
        return DealContext(one, two, self.room, self.match, self.round)


def commit_payload(p: Pending) -> dict[str, Any]:
    """The ``commit`` event: written before it is told, its server seed never sent."""
    return {
        "room": p.room,
        "match": p.match,
        "round": p.round,
        "commitment": p.commitment,
        "server_seed": p.server_seed.hex(),
    }


def pending_of(payload: Mapping[str, Any]) -> Pending:
    """The round due after a ``commit`` event; ``SeedError`` if its seed is not the
    committed one's."""
    p = Pending(
        parse_seed(str(payload["server_seed"]), "server_seed"),
        str(payload["room"]),
        int(payload["match"]),
        int(payload["round"]),
    )
    if p.commitment != payload["commitment"]:
        raise SeedError("commit event: the server seed does not match its commitment")
    return p


def seed_payload(seat: Seat, p: Pending) -> dict[str, Any]:
    seed = p.seeds[seat]
    assert seed is not None
    return {"seat": seat.label, "seed": seed.hex(), "source": p.sources[seat]}


def with_seed_event(p: Pending, payload: Mapping[str, Any]) -> Pending:
    """The round due after a ``seed`` event."""
    seat = Seat.parse(str(payload["seat"]))
    if p.seeds[seat] is not None:
        raise SeedError(f"seed event: seat {seat.label} already has its seed")
    source = str(payload["source"])
    if source not in SOURCES:
        raise SeedError(f"seed event: unknown source {source!r}")
    return p.with_seed(seat, parse_seed(str(payload["seed"]), "seed"), source)


def deal_payload(p: Pending) -> dict[str, Any]:
    """The ``deal`` event: the deck of the construction and the round's fair block
    (revealed: the log is the server's; frames reveal it after the round)."""
    context = p.context()
    return {
        "deck": cards_text(deal_deck(p.server_seed, context)),
        "fair": fair_block(p.server_seed, context).to_dict(),
        "sources": {s.label: p.sources[s] for s in Seat},
    }


def seat_seed(seat: Seat, info: SeatInfo | None, p: Pending) -> tuple[bytes, str]:
    """A seed the server gives ``seat``: a computer's fresh one, a person's default."""
    if info is not None and info.bot is not None:
        return new_seed(), "computer"
    try:
        # The store keeps a token's SHA-256 as 64 hex digits (tokens.hash_token).
        identity = parse_seed((info and info.identity_hash) or "", "identity hash")
    except SeedError:
        return new_seed(), "server"
    return default_seat_seed(identity, p.room, p.match, p.round, seat), "default"


def read_seed(text: str) -> bytes:
    """A seat's seed as sent: 64 lowercase hex digits; ``SeedError`` otherwise."""
    return parse_seed(text, "seed")


def round_over(match: MatchState | None, dealt: int, number: int) -> bool:
    """Round ``number`` (from 1) of ``match``, of which ``dealt`` rounds were dealt, is
    dealt and over: its fair block may be revealed (two-player and chouette rooms)."""
    if match is None or not 1 <= number <= dealt:
        return False
    return match.is_over or number <= len(match.played)


def frame(
    pending: Pending | None, block: FairBlock | None, round_over: bool, seat: Seat | None
) -> dict[str, Any] | None:
    """What a view frame shows of the fair deal: ``seeding`` (the round due: commitment,
    who has sent a seed, your own), ``dealt`` (the round under way: commitment, your
    seed) or ``revealed`` (the round is over: the server seed and both seat seeds).
    The server seed and the other seat's seed never travel before the round is over."""
    if pending is not None:
        own = None if seat is None else pending.seeds[seat]
        return {
            "state": "seeding",
            "room": pending.room,
            "match": pending.match,
            "round": pending.round,
            "commitment": pending.commitment,
            "seeds_in": {s.label: pending.seeds[s] is not None for s in Seat},
            "your_seed": None if own is None else own.hex(),
        }
    if block is None:
        return None
    out: dict[str, Any] = {
        "state": "revealed" if round_over else "dealt",
        "room": block.room,
        "match": block.match,
        "round": block.round,
        "commitment": block.commitment,
        "your_seed": None if seat is None else block.seeds[seat],
    }
    if round_over:
        out["server_seed"] = block.server_seed
        out["seeds"] = {s.label: block.seeds[s] for s in Seat}
    return out
