"""The audit of a fault test: what the clients of one room sent, were told and saw
(``Game``), checked against the room's stored log replayed through the server's own
``fold`` (``check_log``)."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ginrummy.engine import GinRummyError, Seat, view_for_seat
from ginrummy.protocol import encode_seat_view
from ginrummy.server.room import Snapshot, fold
from ginrummy.server.store import Event, open_store

if TYPE_CHECKING:
    from ginrummy.benchmarks.fault_client import Client


def view_digest(view: Mapping[str, Any]) -> str:
    """What a view says about the log: the hand, the round's moves, the table."""
    table = view["table"]
    facts = [
        view["hand"],
        view["moves"],
        table["discard_pile"],
        table["scores"],
        table["match_phase"],
        len(table["rounds"]),
    ]
    return hashlib.blake2b(json.dumps(facts).encode(), digest_size=12).hexdigest()


def public_text(action: str) -> str:
    """An action as the move list shows it: a knock's or gin's card lies face down.

    >>> public_text("knock 7h"), public_text("discard 7h")
    ('knock', 'discard 7h')
    """
    kind, _, _ = action.partition(" ")
    return kind if kind in ("knock", "gin") else action


@dataclass
class Game:
    """What the clients of one room sent, were told and saw."""

    room: str
    kind: str  # "cross" (seats on two instances), "same" (one instance), "computer"
    people: tuple[str, ...]  # seat labels held by our clients
    sent: set[tuple[int, str, str]] = field(default_factory=set)  # (version, seat, action)
    acked: dict[int, tuple[str, str]] = field(default_factory=dict)  # seq -> (seat, action)
    seen: dict[tuple[str, int], str] = field(default_factory=dict)  # (seat, version) -> digest
    clients: list[Client] = field(default_factory=list)

    def version(self) -> int:
        return max((c.version for c in self.clients), default=0)


def check_log(game: Game, events: Sequence[Event]) -> list[str]:
    """Everything wrong with one room's log given what its clients saw; [] if sound."""
    where = f"room {game.room}"
    seqs = [e.seq for e in events]
    if seqs != list(range(1, len(events) + 1)):
        return [f"{where}: seq not contiguous from 1: {seqs[:5]}...{seqs[-5:]}"]
    out: list[str] = []
    wanted: dict[int, list[str]] = {}
    for seat, version in game.seen:
        wanted.setdefault(version, []).append(seat)
    snap = Snapshot(0, None)
    for event in events:
        try:
            snap = fold(snap, event)
        except (GinRummyError, KeyError, TypeError, ValueError) as exc:
            return [*out, f"{where}: event {event.seq} does not replay: {exc}"]
        for seat in wanted.pop(event.seq, []):
            if snap.match is None:
                continue
            told = game.seen[(seat, event.seq)]
            logged = view_digest(encode_seat_view(view_for_seat(snap.match, Seat.parse(seat))))
            if told != logged:
                out.append(f"{where}: seat {seat} saw version {event.seq} unlike the log's")
    for version, seats in sorted(wanted.items()):
        out.append(f"{where}: seat(s) {seats} saw version {version}, the log ends at {len(events)}")
    by_seq = {e.seq: e for e in events}
    for seq, (seat, action) in sorted(game.acked.items()):
        logged_at = by_seq.get(seq)
        if logged_at is None or logged_at.kind != "action" or logged_at.payload.get("seat") != seat:
            out.append(f"{where}: acknowledged {seat} {action!r} at {seq} is not in the log")
        elif logged_at.payload.get("action") != action:
            out.append(f"{where}: acknowledged {action!r} at {seq}, logged {logged_at.payload}")
    for event in events:
        seat = str(event.payload.get("seat"))
        if event.kind != "action" or seat not in game.people:
            continue  # a computer's move, a deal, a readiness...
        if (event.seq - 1, seat, str(event.payload.get("action"))) not in game.sent:
            out.append(f"{where}: logged {event.payload} at {event.seq} that no client sent")
    return out


def tally(game: Game, events: Sequence[Event]) -> tuple[int, int]:
    """How many acknowledged actions the log lacks (lost) and how many persons' actions
    it holds that no client sent on that version (applied twice, or made up)."""
    by_seq = {e.seq: e for e in events}
    lost = 0
    for seq, (seat, action) in game.acked.items():
        logged = by_seq.get(seq)
        if logged is None or logged.kind != "action":
            lost += 1
        else:
            lost += (logged.payload.get("seat"), logged.payload.get("action")) != (seat, action)
    extra = 0
    for event in events:
        seat = str(event.payload.get("seat"))
        if event.kind == "action" and seat in game.people:
            extra += (event.seq - 1, seat, str(event.payload.get("action"))) not in game.sent
    return lost, extra


async def audit_logs(
    store_url: str, games: Sequence[Game], violation: Callable[[str], None]
) -> dict[str, int]:
    """Read every game's room log from the store and check it against its clients
    (each problem to ``violation``); the counts of what was read."""
    store = open_store(store_url)
    await store.open()
    counts = {"events": 0, "actions": 0, "computer_moves": 0, "lost": 0, "duplicated": 0}
    try:
        for game in games:
            stored = await store.load_room(game.room)
            if stored is None:
                violation(f"room {game.room}: not in the store")
                continue
            for problem in check_log(game, stored.events):
                violation(problem)
            lost, duplicated = tally(game, stored.events)
            counts["lost"] += lost
            counts["duplicated"] += duplicated
            actions = [e for e in stored.events if e.kind == "action"]
            counts["events"] += len(stored.events)
            counts["actions"] += len(actions)
            counts["computer_moves"] += sum(
                e.payload.get("seat") not in game.people for e in actions
            )
    finally:
        await store.close()
    return counts
