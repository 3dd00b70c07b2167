"""The in-memory store: for tests and throw-away servers (``memory://``)."""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace

from ginrummy.server.store.base import (
    ROOM_CHAT,
    Account,
    Challenge,
    ChatLine,
    Clock,
    Device,
    Event,
    GameRef,
    Outcome,
    Passkey,
    Player,
    QuickEntry,
    ResultRow,
    RoomRow,
    SeatRow,
    StoreConflict,
    StoredRoom,
    StoredTournament,
    TournamentRow,
)
from ginrummy.server.store.memory_civility import MemoryCivility
from ginrummy.server.store.memory_friends import MemoryFriends
from ginrummy.server.store.memory_yourdata import MemoryYourData
from ginrummy.server.store.outcomes import settle


class MemoryStore(MemoryCivility, MemoryYourData, MemoryFriends):  # your data: memory_yourdata.py
    def __init__(self, now: Callable[[], float] = time.time) -> None:
        # The clock is passed in (the server's, as for the SQL store: what the store
        # records, leases, the quick match's staleness): tests move a fake one.
        self._now = now
        self._identities: set[str] = set()
        self._rooms: dict[str, RoomRow] = {}
        self._seats: dict[str, dict[str, SeatRow]] = {}
        self._events: dict[str, list[Event]] = {}
        self._clocks: dict[str, Clock] = {}
        self._players: dict[str, Player] = {}  # by id
        self._player_of: dict[str, str] = {}  # identity hash -> player id
        self._results: list[ResultRow] = []
        self._chat: dict[tuple[str, str], list[ChatLine]] = {}  # (room, channel) -> lines
        self._chat_seq: dict[str, int] = {}  # room -> its last line's seq
        self._quick: dict[str, QuickEntry] = {}  # identity hash -> entry, in arrival order
        self._confirmed: dict[str, float] = {}  # identity hash -> when its entry was confirmed
        self._leases: dict[str, tuple[str, float]] = {}  # key -> holder, expiry (monotonic)
        self._tournaments: dict[str, TournamentRow] = {}
        self._tournament_events: dict[str, list[Event]] = {}
        self._tournament_identities: dict[str, dict[str, str]] = {}
        self._accounts: dict[str, Account] = {}  # identity hash -> account
        self._devices: dict[str, Device] = {}  # device id -> device
        self._passkeys: dict[str, Passkey] = {}  # credential id -> passkey
        self._challenges: dict[str, Challenge] = {}
        self._codes: dict[str, tuple[str, float]] = {}  # code hash -> identity, expiry
        self._code_failures: dict[int, int] = {}  # minute -> failed code sign-ins
        self._civility_init()  # reports, blocks, sanctions, the audit log
        self._init_friends()

    async def open(self) -> None:
        return None

    async def close(self) -> None:
        return None

    async def add_identity(self, token_hash: str) -> None:
        self._identities.add(token_hash)

    async def has_identity(self, token_hash: str) -> bool:
        return token_hash in self._identities

    async def known_player(self, token_hash: str, fresh: Callable[[], Player]) -> Player | None:
        if token_hash not in self._identities:
            return None
        pid = self._player_of.get(token_hash)
        if pid is None:
            return await self.ensure_player(token_hash, fresh())  # its first use
        return self._players[pid]

    # -- accounts (base.Accounts) --------------------------------------------------------

    async def token_identity(self, token_hash: str) -> str | None:
        for device in self._devices.values():
            if device.token_hash == token_hash:
                return device.identity_hash
        known = token_hash in self._identities and token_hash not in self._accounts
        return token_hash if known else None

    async def create_account(self, account: Account, device: Device, passkey: Passkey) -> None:
        taken = any(a.key == account.key for a in self._accounts.values())
        if taken or account.identity_hash in self._accounts:
            raise StoreConflict(f"the name key {account.key!r} or the identity is taken")
        self._check_device(device)
        if passkey.credential_id in self._passkeys:
            raise StoreConflict("the credential is known")
        self._accounts[account.identity_hash] = account
        self._devices[device.id] = device
        self._passkeys[passkey.credential_id] = passkey
        pid = self._player_of.get(account.identity_hash)
        if pid is not None:
            self._players[pid] = replace(self._players[pid], name=account.name, account=True)

    async def account_of(self, identity_hash: str) -> Account | None:
        return self._accounts.get(identity_hash)

    async def account_by_key(self, key: str) -> Account | None:
        return next((a for a in self._accounts.values() if a.key == key), None)

    async def add_passkey(self, passkey: Passkey) -> None:
        if passkey.credential_id in self._passkeys:
            raise StoreConflict("the credential is known")
        self._passkeys[passkey.credential_id] = passkey

    async def passkey(self, credential_id: str) -> Passkey | None:
        return self._passkeys.get(credential_id)

    async def passkeys_of(self, identity_hash: str) -> list[Passkey]:
        own = [p for p in self._passkeys.values() if p.identity_hash == identity_hash]
        return sorted(own, key=lambda p: p.created)

    async def use_passkey(self, credential_id: str, seen: int, sign_count: int) -> bool:
        passkey = self._passkeys.get(credential_id)
        if passkey is None or passkey.sign_count != seen:
            return False
        self._passkeys[credential_id] = replace(passkey, sign_count=sign_count)
        return True

    async def add_device(self, device: Device) -> None:
        self._check_device(device)
        self._devices[device.id] = device

    def _check_device(self, device: Device) -> None:
        if device.id in self._devices or any(
            d.token_hash == device.token_hash for d in self._devices.values()
        ):
            raise StoreConflict("the device is known")

    async def devices_of(self, identity_hash: str) -> list[Device]:
        own = [d for d in self._devices.values() if d.identity_hash == identity_hash]
        return sorted(own, key=lambda d: (d.created, d.id))

    async def remove_device(self, identity_hash: str, device_id: str) -> bool:
        device = self._devices.get(device_id)
        if device is None or device.identity_hash != identity_hash:
            return False
        del self._devices[device_id]
        return True

    async def touch_device(self, token_hash: str, after: float) -> None:
        for key, device in self._devices.items():
            if device.token_hash == token_hash and device.last_seen <= after:
                self._devices[key] = replace(device, last_seen=self._now())

    async def put_challenge(self, challenge: Challenge) -> None:
        now = self._now()
        self._challenges = {k: c for k, c in self._challenges.items() if c.expires > now}
        if challenge.challenge in self._challenges:
            raise StoreConflict("the challenge exists")
        self._challenges[challenge.challenge] = challenge

    async def take_challenge(self, challenge: str) -> Challenge | None:
        taken = self._challenges.pop(challenge, None)
        return taken if taken is not None and taken.expires > self._now() else None

    async def put_code(self, code_hash: str, identity_hash: str, expires: float) -> None:
        now = self._now()
        self._codes = {k: c for k, c in self._codes.items() if c[1] > now}
        if code_hash in self._codes:
            raise StoreConflict("the code exists")
        self._codes = {k: c for k, c in self._codes.items() if c[0] != identity_hash}
        self._codes[code_hash] = (identity_hash, expires)

    async def take_code(self, code_hash: str) -> str | None:
        taken = self._codes.pop(code_hash, None)
        return taken[0] if taken is not None and taken[1] > self._now() else None

    async def code_failures(self, minute: int) -> int:
        return self._code_failures.get(minute, 0)

    async def count_code_failure(self, minute: int) -> int:
        self._code_failures = {m: n for m, n in self._code_failures.items() if m >= minute}
        self._code_failures[minute] = self._code_failures.get(minute, 0) + 1
        return self._code_failures[minute]

    # -- accounts and players, for civility's operators (civility.Civility) --------------

    async def player_identity(self, player_id: str) -> str | None:
        return next((h for h, p in self._player_of.items() if p == player_id), None)

    async def close_account(self, identity_hash: str) -> int:
        gone = [d.id for d in self._devices.values() if d.identity_hash == identity_hash]
        for device_id in gone:
            del self._devices[device_id]
        for credential, p in list(self._passkeys.items()):
            if p.identity_hash == identity_hash:
                del self._passkeys[credential]
        for code, (owner, _) in list(self._codes.items()):
            if owner == identity_hash:
                del self._codes[code]
        return len(gone)

    async def rename_account(self, identity_hash: str, name: str, key: str) -> None:
        if any(a.key == key and h != identity_hash for h, a in self._accounts.items()):
            raise StoreConflict("the name's key is another account's")
        account = self._accounts.get(identity_hash)
        if account is not None:
            self._accounts[identity_hash] = replace(account, name=name, key=key)
        player_id = self._player_of.get(identity_hash)
        if player_id is not None:
            self._players[player_id] = replace(self._players[player_id], name=name)

    # -- rooms -----------------------------------------------------------------------------

    async def create_room(
        self, room: RoomRow, seats: Sequence[SeatRow], events: Sequence[Event]
    ) -> None:
        if room.id in self._rooms:
            raise StoreConflict(f"room {room.id} exists")
        self._rooms[room.id] = room
        self._seats[room.id] = {s.seat: s for s in seats}
        self._events[room.id] = []
        self._append(room.id, events)

    async def claim_seat(self, room_id: str, seat: SeatRow, events: Sequence[Event]) -> None:
        seats = self._seats[room_id]
        if seat.seat in seats:
            raise StoreConflict(f"seat {seat.seat} of room {room_id} is taken")
        self._check(room_id, events)
        seats[seat.seat] = seat
        self._append(room_id, events)

    async def append_events(
        self, room_id: str, events: Sequence[Event], outcome: Outcome | None = None
    ) -> None:
        self._check(room_id, events)
        # No await from the read to the write: a match's outcome is settled from the
        # players as they are, atomically on the event loop (the store's only user).
        settled = None if outcome is None else settle(outcome, self._players)
        self._events[room_id].extend(events)
        if settled is not None:
            self._results.extend(settled.results)
            self._players.update((p.id, p) for p in settled.players)

    def _check(self, room_id: str, events: Sequence[Event]) -> None:
        log = self._events[room_id]
        for i, event in enumerate(events, len(log) + 1):
            if event.seq != i:
                raise StoreConflict(f"room {room_id}: event {event.seq} is not the next ({i})")

    def _append(self, room_id: str, events: Sequence[Event]) -> None:
        self._check(room_id, events)
        self._events[room_id].extend(events)

    async def load_room(self, room_id: str, after: int = 0) -> StoredRoom | None:
        room = self._rooms.get(room_id)
        if room is None:
            return None
        seats = tuple(sorted(self._seats[room_id].values(), key=lambda s: s.seat != "one"))
        events = tuple(e for e in self._events[room_id] if e.seq > after)
        return StoredRoom(room, seats, events, self._clocks.get(room_id))

    async def games_of(self, identity_hash: str, limit: int = 20) -> list[GameRef]:
        refs = [
            GameRef(room_id, s.seat, self._rooms[room_id].kind, self._rooms[room_id].created)
            for room_id, seats in self._seats.items()
            for s in seats.values()
            if s.identity_hash == identity_hash
        ]
        refs.sort(key=lambda r: r.created, reverse=True)
        return refs[:limit]

    async def listed_rooms(self, limit: int = 500) -> list[str]:
        rooms = [
            r
            for r in self._rooms.values()
            if r.options.get("visibility") == "public" or r.rules.get("move_timer_seconds")
        ]
        rooms.sort(key=lambda r: r.created, reverse=True)
        return [r.id for r in rooms[:limit]]

    async def save_clock(self, room_id: str, clock: Clock) -> None:
        self._clocks[room_id] = clock

    async def ensure_player(self, identity_hash: str, fresh: Player) -> Player:
        pid = self._player_of.get(identity_hash)
        if pid is None:
            self._player_of[identity_hash] = fresh.id
            self._players[fresh.id] = fresh
            return fresh
        return self._players[pid]

    async def player(self, player_id: str) -> Player | None:
        return self._players.get(player_id)

    async def rename_player(self, player_id: str, name: str) -> None:
        self._players[player_id] = replace(self._players[player_id], name=name)

    async def leaderboard(self, limit: int = 50) -> list[Player]:
        # accounts only (issue 22, part 1): a guest's rating is kept but not listed
        accounts = {self._player_of[h] for h in self._accounts if h in self._player_of}
        rated = [p for p in self._players.values() if p.rated_matches > 0 and p.id in accounts]
        rated.sort(key=lambda p: (-p.rating, p.id))
        return rated[:limit]

    async def results_of(self, player_id: str) -> list[ResultRow]:
        return sorted((r for r in self._results if r.player == player_id), key=lambda r: r.t)

    async def acquire_lease(self, room_id: str, holder: str, ttl_s: float) -> bool:
        now = self._now()
        current = self._leases.get(room_id)
        if current is not None and current[0] != holder and current[1] > now:
            return False
        self._leases[room_id] = (holder, now + ttl_s)
        return True

    async def release_lease(self, room_id: str, holder: str) -> None:
        current = self._leases.get(room_id)
        if current is not None and current[0] == holder:
            del self._leases[room_id]

    async def add_chat(
        self, room_id: str, line: ChatLine, keep: int, channel: str = ROOM_CHAT
    ) -> int:
        if room_id not in self._rooms:
            raise StoreConflict(f"room {room_id} does not exist")
        lines = self._chat.setdefault((room_id, channel), [])
        seq = self._chat_seq[room_id] = self._chat_seq.get(room_id, 0) + 1
        lines.append(replace(line, seq=seq))
        del lines[:-keep]
        return seq

    async def recent_chat(
        self, room_id: str, limit: int, channel: str = ROOM_CHAT
    ) -> list[ChatLine]:
        return self._chat.get((room_id, channel), [])[-limit:]

    def _live(self, e: QuickEntry, stale_after: float, now: float) -> bool:
        return e.room is not None or self._confirmed[e.identity_hash] > now - stale_after

    def _put(self, entry: QuickEntry, now: float) -> None:
        self._quick.pop(entry.identity_hash, None)
        self._quick[entry.identity_hash] = entry
        self._confirmed[entry.identity_hash] = now

    def _drop(self, identity_hash: str) -> None:
        del self._quick[identity_hash]
        del self._confirmed[identity_hash]

    def _sweep(self, stale_after: float, now: float) -> None:
        for e in list(self._quick.values()):
            if not self._live(e, 2 * stale_after, now):
                self._drop(e.identity_hash)

    async def quick_enter(self, entry: QuickEntry, stale_after: float) -> QuickEntry | None:
        now = self._now()
        if entry.identity_hash in self._quick:
            self._drop(entry.identity_hash)
        self._sweep(stale_after, now)
        waiting = (
            e
            for e in self._quick.values()
            if e.room is None
            and e.rules == entry.rules
            and e.player != entry.player
            and not self._blocked_either(e.player, entry.player)
            and self._live(e, stale_after, now)
        )
        other = min(waiting, key=lambda e: (e.since, e.identity_hash), default=None)
        if other is None:
            self._put(entry, now)
            return None
        self._drop(other.identity_hash)
        return other

    async def quick_save(self, entries: Sequence[QuickEntry], forget_before: float) -> None:
        for old in list(self._quick.values()):
            if old.room is not None and old.since < forget_before:
                self._drop(old.identity_hash)
        now = self._now()
        for entry in entries:
            self._put(entry, now)

    async def quick_confirm(self, identity_hashes: Sequence[str], stale_after: float) -> int:
        now = self._now()
        self._sweep(stale_after, now)  # first: what is deleted stays deleted
        for identity_hash in identity_hashes:
            entry = self._quick.get(identity_hash)
            if entry is not None and entry.room is None:
                self._confirmed[identity_hash] = now
        return await self.quick_waiting(stale_after)

    async def quick_release(self, identity_hash: str, stale_after: float) -> bool:
        now = self._now()
        entry = self._quick.get(identity_hash)
        if entry is None or entry.room is not None or not self._live(entry, stale_after, now):
            return False
        self._confirmed[identity_hash] = now - stale_after
        return True

    async def quick_leave(self, identity_hash: str) -> bool:
        entry = self._quick.get(identity_hash)
        if entry is None or entry.room is not None:
            return False
        self._drop(identity_hash)
        return True

    async def quick_entry(self, identity_hash: str, stale_after: float) -> QuickEntry | None:
        entry = self._quick.get(identity_hash)
        if entry is None or not self._live(entry, stale_after, self._now()):
            return None
        return entry

    async def quick_waiting(self, stale_after: float) -> int:
        now = self._now()
        return sum(e.room is None and self._live(e, stale_after, now) for e in self._quick.values())

    async def create_tournament(
        self, row: TournamentRow, events: Sequence[Event], identities: Mapping[str, str]
    ) -> None:
        if row.id in self._tournaments:
            raise StoreConflict(f"tournament {row.id} exists")
        _check_next(f"tournament {row.id}", [], events)
        self._tournaments[row.id] = row
        self._tournament_events[row.id] = list(events)
        self._tournament_identities[row.id] = dict(identities)

    async def append_tournament(
        self,
        tournament_id: str,
        events: Sequence[Event],
        phase: str,
        identities: Mapping[str, str] | None = None,
    ) -> None:
        log = self._tournament_events.get(tournament_id)
        if log is None:
            raise StoreConflict(f"tournament {tournament_id} does not exist")
        _check_next(f"tournament {tournament_id}", log, events)
        log.extend(events)
        self._tournaments[tournament_id] = replace(self._tournaments[tournament_id], phase=phase)
        self._tournament_identities[tournament_id].update(identities or {})

    async def load_tournament(self, tournament_id: str, after: int = 0) -> StoredTournament | None:
        row = self._tournaments.get(tournament_id)
        if row is None:
            return None
        return StoredTournament(
            row,
            tuple(e for e in self._tournament_events[tournament_id] if e.seq > after),
            dict(self._tournament_identities[tournament_id]),
        )

    async def live_tournaments(self, limit: int = 500) -> list[TournamentRow]:
        live = [t for t in self._tournaments.values() if t.phase != "finished"]
        live.sort(key=lambda t: (t.created, t.id), reverse=True)
        return live[:limit]

    async def player_tournaments(self, player: str, limit: int = 50) -> list[TournamentRow]:
        joined = [
            self._tournaments[t]
            for t, people in self._tournament_identities.items()
            if player in people
        ]
        joined.sort(key=lambda t: (t.created, t.id), reverse=True)
        return joined[:limit]


def _check_next(what: str, log: Sequence[Event], events: Sequence[Event]) -> None:
    for i, event in enumerate(events, len(log) + 1):
        if event.seq != i:
            raise StoreConflict(f"{what}: event {event.seq} is not the next ({i})")
