"""A tournament's log in the store: the core's events as numbered store events, read
back and folded (``rebuild``), written with optimistic concurrency.

The store keeps the log exactly as ``tournament.to_record`` spells it; ``seq`` counts
from 1, so a tournament's ``version`` (events folded) is its last ``seq``. Two writers
of the same version conflict in the store (``StoreConflict``): one wins, the other
reads the log again and decides anew (``Commands.run``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from ginrummy.server.store import Event as StoredEvent
from ginrummy.server.store import Store, StoredTournament, TournamentRow
from ginrummy.tournament import (
    Created,
    Event,
    LogError,
    Tournament,
    apply_events,
    from_record,
    rebuild,
    to_record,
)


class DamagedLog(RuntimeError):
    """A stored tournament log that does not fold."""


@dataclass(frozen=True, slots=True)
class Loaded:
    """A tournament as its log says, and the identities of its people."""

    id: str
    state: Tournament
    identities: Mapping[str, str] = field(default_factory=dict)  # player id -> identity hash

    @property
    def version(self) -> int:
        return self.state.version


def numbered(events: Sequence[Event], after: int) -> list[StoredEvent]:
    """The store's form of ``events``, numbered on from seq ``after``."""
    out = []
    for seq, event in enumerate(events, after + 1):
        kind, payload = to_record(event)
        out.append(StoredEvent(seq, kind, payload))
    return out


def fold_stored(tournament_id: str, stored: StoredTournament) -> Loaded:
    try:
        state = rebuild(from_record(e.kind, e.payload) for e in stored.events)
    except LogError as exc:
        raise DamagedLog(f"tournament {tournament_id}: the log does not fold: {exc}") from exc
    return Loaded(tournament_id, state, dict(stored.identities))


async def load(store: Store, tournament_id: str, kept: Loaded | None = None) -> Loaded | None:
    """The tournament rebuilt from its log, or None if there is none. With ``kept``
    (an earlier read of it), only the events past its version are read and folded on."""
    if kept is None:
        stored = await store.load_tournament(tournament_id)
        return None if stored is None else fold_stored(tournament_id, stored)
    stored = await store.load_tournament(tournament_id, after=kept.version)
    if stored is None:
        return None
    if stored.events and stored.events[0].seq != kept.version + 1:
        raise DamagedLog(f"tournament {tournament_id}: the log skips after {kept.version}")
    try:
        state = apply_events(kept.state, [from_record(e.kind, e.payload) for e in stored.events])
    except LogError as exc:
        raise DamagedLog(f"tournament {tournament_id}: the log does not fold: {exc}") from exc
    return Loaded(tournament_id, state, dict(stored.identities))


async def create(
    store: Store,
    tournament_id: str,
    created: Created,
    identities: Mapping[str, str],
    then: Sequence[Event] = (),
) -> Loaded:
    """Store a new tournament's log: ``created`` and the events ``then`` decided on it
    (the creator's join), in one write, so a refused or failed write leaves nothing."""
    events = (created, *then)
    state = rebuild(events)
    name, public = created.settings.name, created.settings.public
    row = TournamentRow(tournament_id, name, state.phase.value, public, created.at)
    await store.create_tournament(row, numbered(events, 0), identities)
    return Loaded(tournament_id, state, dict(identities))


async def append(
    store: Store,
    loaded: Loaded,
    events: Sequence[Event],
    identities: Mapping[str, str] | None = None,
) -> Loaded:
    """Append ``events`` after ``loaded``'s version; ``StoreConflict`` if another
    writer appended first (nothing of these is written then)."""
    state = apply_events(loaded.state, events)
    await store.append_tournament(
        loaded.id, numbered(events, loaded.version), state.phase.value, identities
    )
    return Loaded(loaded.id, state, {**loaded.identities, **(identities or {})})
