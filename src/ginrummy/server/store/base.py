"""The store interface: identities, rooms, seats and each room's append-only event log.

A room's state is never stored, only derived: replaying its events through the
engine rebuilds it exactly (docs/design.md principle 4). The interface is async and cut
into the protocols its users need (``EventLog``, ``Players``, ``Leases``, ``Chat``,
``QuickQueue``, ``Identities``, ``Tournaments``, ``Accounts``); ``Store`` combines them,
and the memory store and the one SQL store (SQLite or PostgreSQL, ``sql_store.py``)
implement it whole.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from ginrummy.server.store.civility import Civility
from ginrummy.server.store.friends import Friends
from ginrummy.server.store.yourdata import YourData


class StoreError(RuntimeError):
    """The store could not do what was asked (I/O, corrupt data)."""


class StoreConflict(StoreError):
    """A write lost a race: the seat is taken or the event sequence number exists."""


@dataclass(frozen=True, slots=True)
class RoomRow:
    id: str
    kind: str  # "solo" | "room"
    rules: Mapping[str, Any]  # Rules.to_dict()
    created: float  # Unix time
    options: Mapping[str, Any] = field(default_factory=dict)  # e.g. {"spectators": true}


@dataclass(frozen=True, slots=True)
class SeatRow:
    seat: str  # "one" | "two"
    identity_hash: str | None  # None for a computer seat
    name: str
    bot: str | None = None  # the computer level, or None for a person


@dataclass(frozen=True, slots=True)
class Event:
    """One entry of a room's log; ``seq`` counts from 1 and is the room's version."""

    seq: int
    kind: str  # "match" | "deal" | "action" | "ready" | "rematch" | "forfeit"
    payload: Mapping[str, Any]


@dataclass(frozen=True, slots=True)
class Clock:
    """The time left to the seat to move when the server stopped, at ``version``."""

    version: int
    remaining_ms: int


@dataclass(frozen=True, slots=True)
class StoredRoom:
    room: RoomRow
    seats: tuple[SeatRow, ...]
    events: tuple[Event, ...]
    clock: Clock | None = None


@dataclass(frozen=True, slots=True)
class Player:
    """The public face of a browser identity (its token hash stays in the store)."""

    id: str  # "p_" + 10 URL-safe characters
    name: str
    rating: float = 1500.0
    rd: float = 350.0
    volatility: float = 0.06
    rated_matches: int = 0
    abandons: int = 0
    created: float = 0.0
    account: bool = False  # an account's player: read from the store, never written


@dataclass(frozen=True, slots=True)
class ResultRow:
    """One person's finished match, written with the match's last event."""

    room: str
    match_seq: int  # seq of the room's "match" event: one match of a room
    player: str  # player id
    seat: str
    opponent: str | None  # the other person's player id, None against the computer
    bot: str | None  # the computer's level, None against a person
    rated: bool
    won: bool
    rounds: int
    gins: int  # rounds this seat won by gin or big gin
    undercuts_scored: int
    undercuts_suffered: int
    points: int  # this seat's total of round points
    margin: int  # own total minus the opponent's
    forfeit: str | None  # "timeout" | "abandoned" | "resigned" | None
    rating: float | None  # after the match, for rated matches (the store fills it in)
    rd: float | None
    t: float  # Unix time


@dataclass(frozen=True, slots=True)
class RatedMatch:
    """Who played whom in a rated match and how it ended: the store rates it."""

    one: str  # seat one's player id
    two: str  # seat two's player id
    score_one: float  # seat one's score: 1 won, 0 lost (0.5 a draw)

    def __post_init__(self) -> None:
        if self.one == self.two:
            raise ValueError(f"a rated match needs two players, got {self.one} twice")
        if not 0.0 <= self.score_one <= 1.0:
            raise ValueError(f"a score is between 0 and 1, got {self.score_one}")


@dataclass(frozen=True, slots=True)
class Outcome:
    """The facts of a match's end, written with its last event in one transaction.

    No rating is computed by the caller: the store locks the players' rows, reads
    their ratings there, rates ``rated`` (Glicko-2), writes the new ratings with
    ``rated_matches + 1`` and fills in the rated result rows' ``rating`` and ``rd``.
    So two instances ending matches of one player at once lose neither update.
    """

    results: tuple[ResultRow, ...] = ()  # their rating and rd are left None
    rated: RatedMatch | None = None
    abandons: tuple[str, ...] = ()  # player ids that get one more abandoned match

    def __post_init__(self) -> None:
        rated = {self.rated.one, self.rated.two} if self.rated is not None else set()
        for row in self.results:
            if row.rated != (row.player in rated):
                raise ValueError(
                    f"result of {row.player} says rated={row.rated}, the outcome rates {rated}"
                )

    @property
    def player_ids(self) -> tuple[str, ...]:
        """The players whose rows change, in the one order every writer locks them in
        (two matches ending at once never wait for each other in a circle)."""
        rated = (self.rated.one, self.rated.two) if self.rated is not None else ()
        return tuple(sorted({*rated, *self.abandons}))


@dataclass(frozen=True, slots=True)
class GameRef:
    """A seat an identity holds: for "my games" lists."""

    room: str
    seat: str
    kind: str
    created: float


@dataclass(frozen=True, slots=True)
class ChatLine:
    """One chat message of a room; ``seq`` counts from 1 per room (the wire ``id``)."""

    seq: int
    t: float  # Unix time
    seat: str | None  # None: a spectator
    player: str  # the sender's player id
    tag: str  # the sender's tag when it was said
    text: str | None  # exactly one of text and phrase is set
    phrase: str | None


@dataclass(frozen=True, slots=True)
class QuickEntry:
    """A person in the quick-match queue or, with ``room`` and ``seat``, just paired."""

    identity_hash: str
    player: str  # player id
    rules: Mapping[str, Any]  # Rules.to_dict() with the move timer: whom it pairs with
    since: float  # Unix time the wait began, or the pairing's time
    room: str | None = None
    seat: str | None = None


@dataclass(frozen=True, slots=True)
class TournamentRow:
    """A tournament as lists show it; its log (``Event``s) is the whole truth."""

    id: str
    name: str
    phase: str  # "open" | "running" | "finished", as of the last append
    public: bool
    created: float  # Unix time


@dataclass(frozen=True, slots=True)
class StoredTournament:
    row: TournamentRow
    events: tuple[Event, ...]
    # player id -> the identity hash of that person (computers have none): the rooms
    # of its matches bind both seats to these identities
    identities: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Account:
    """A named identity: the guest's own identity and player, upgraded in place
    (docs/accounts.md). ``key`` is the name's skeleton, unique among accounts."""

    identity_hash: str
    name: str  # as chosen and shown
    key: str  # accounts.names.name_key(name): what uniqueness compares
    created: float


@dataclass(frozen=True, slots=True)
class Device:
    """A signed-in browser of an account: its own token, resolving to the account's
    identity. The browser that created the account is one too (its token's hash is the
    identity's own)."""

    id: str  # "d_" + random: names the device to its account (never the token)
    token_hash: str
    identity_hash: str
    label: str
    created: float
    last_seen: float


@dataclass(frozen=True, slots=True)
class Passkey:
    """A WebAuthn credential of an account: its public key and last sign count."""

    credential_id: str  # base64url, as the browser names it
    identity_hash: str
    public_key: str  # base64url of the COSE key
    sign_count: int
    created: float


@dataclass(frozen=True, slots=True)
class Challenge:
    """A WebAuthn challenge handed out and not yet answered: single use, short-lived.
    ``purpose`` is "register" (an account or one more passkey) or "sign_in"."""

    challenge: str  # base64url
    purpose: str
    identity_hash: str | None  # who asked (registration); None for a sign-in
    name: str | None  # the account's name asked for (a new account), else None
    expires: float


class Accounts(Protocol):
    """Accounts, their devices, passkeys, ceremonies' challenges and sign-in codes
    (docs/accounts.md). Every ``take_*`` deletes what it returns: a challenge or a code
    is used at most once, whichever instance asks."""

    async def token_identity(self, token_hash: str) -> str | None:
        """The identity a token's hash stands for: a device's account, or a guest
        identity itself; None for an unknown token or a signed-out device (an account's
        identity answers only through its devices)."""

    async def create_account(self, account: Account, device: Device, passkey: Passkey) -> None:
        """Make the guest identity an account with its first device and passkey, and
        give its player the account's name, in one transaction; ``StoreConflict`` (and
        nothing written) if the name's key, the identity or the credential is taken."""

    async def account_of(self, identity_hash: str) -> Account | None: ...

    async def account_by_key(self, key: str) -> Account | None: ...

    async def add_passkey(self, passkey: Passkey) -> None:
        """``StoreConflict`` if the credential is known."""

    async def passkey(self, credential_id: str) -> Passkey | None: ...

    async def passkeys_of(self, identity_hash: str) -> list[Passkey]: ...

    async def use_passkey(self, credential_id: str, seen: int, sign_count: int) -> bool:
        """Move the credential's sign count from ``seen`` to ``sign_count``; False if it
        is no longer ``seen`` (another sign-in used it meanwhile)."""

    async def add_device(self, device: Device) -> None: ...

    async def devices_of(self, identity_hash: str) -> list[Device]:
        """The account's signed-in devices, oldest first."""

    async def remove_device(self, identity_hash: str, device_id: str) -> bool:
        """Sign a device of the account out (its token stops resolving); False if the
        account has no such device."""

    async def touch_device(self, token_hash: str, after: float) -> None:
        """Record that the device was seen now, unless it was seen after ``after``."""

    async def put_challenge(self, challenge: Challenge) -> None:
        """Keep a new challenge; the expired ones are swept."""

    async def take_challenge(self, challenge: str) -> Challenge | None:
        """The challenge, deleted; None if unknown, used or expired."""

    async def put_code(self, code_hash: str, identity_hash: str, expires: float) -> None:
        """Keep a sign-in code (its hash) as the identity's only one: its older code, if
        any, is deleted; the expired ones are swept."""

    async def take_code(self, code_hash: str) -> str | None:
        """The identity of a live sign-in code, the code deleted; None otherwise."""

    async def code_failures(self, minute: int) -> int:
        """How many code sign-ins failed in ``minute`` (all instances together)."""

    async def count_code_failure(self, minute: int) -> int:
        """Count one failed code sign-in in ``minute``; its count now. Older minutes'
        counts are swept."""


class Identities(Protocol):
    """Browser identities, known by their token's hash."""

    async def add_identity(self, token_hash: str) -> None: ...

    async def has_identity(self, token_hash: str) -> bool: ...

    async def known_player(self, token_hash: str, fresh: Callable[[], Player]) -> Player | None:
        """The player of a known identity, None if the store knows no such identity:
        ``has_identity`` and ``ensure_player`` in one round trip once the identity has
        its player (``fresh()`` is made and stored only while it has none)."""


class EventLog(Protocol):
    """Rooms, their seats and their append-only event logs."""

    async def create_room(
        self, room: RoomRow, seats: Sequence[SeatRow], events: Sequence[Event]
    ) -> None:
        """Write a new room with its first seats and events in one transaction."""

    async def claim_seat(self, room_id: str, seat: SeatRow, events: Sequence[Event]) -> None:
        """Take a free seat and append ``events`` atomically; ``StoreConflict`` if taken."""

    async def append_events(
        self, room_id: str, events: Sequence[Event], outcome: Outcome | None = None
    ) -> None:
        """Append to a room's log atomically; ``StoreConflict`` if a ``seq`` exists.

        ``outcome`` (at the end of a match) is settled in the same transaction: the
        result rows, the abandons and the rating of a rated match, computed from the
        players' ratings as they are at that commit (see ``Outcome``)."""

    async def load_room(self, room_id: str, after: int = 0) -> StoredRoom | None:
        """A room with its seats and its log in order, or None. ``after``: only the
        events past that seq (a room catching up reads what it lacks, not all)."""

    async def games_of(self, identity_hash: str, limit: int = 20) -> list[GameRef]:
        """The seats an identity holds, newest room first."""

    async def listed_rooms(self, limit: int = 500) -> list[str]:
        """Ids of public rooms and rooms with a move timer, newest first: the rooms a
        server loads at start (lobby, running timers)."""

    async def save_clock(self, room_id: str, clock: Clock) -> None:
        """Remember the time left to move (on shutdown), for ``load_room``."""


class Players(Protocol):
    """Players (the public face of identities), their ratings and their results."""

    async def ensure_player(self, identity_hash: str, fresh: Player) -> Player:
        """The identity's player; ``fresh`` is stored and returned if it has none yet."""

    async def player(self, player_id: str) -> Player | None: ...

    async def rename_player(self, player_id: str, name: str) -> None: ...

    async def leaderboard(self, limit: int = 50) -> list[Player]:
        """Accounts' players with a rated match, best rating first (guests are not
        listed: rated play counts accounts only)."""

    async def results_of(self, player_id: str) -> list[ResultRow]:
        """A player's finished matches, oldest first."""


class Leases(Protocol):
    """Which instance runs a room's computer moves and timers, or pairs a tournament
    (its key is ``"t:" + tournament id``): a lease names any key, not only a room."""

    async def acquire_lease(self, room_id: str, holder: str, ttl_s: float) -> bool:
        """Hold the room's lease for ``ttl_s`` seconds from now if it is free, expired or
        already ``holder``'s (a renewal); False while another holder's lease runs.

        Exactly one of several instances asking at once gets it: only the holder runs
        the room's computer moves and timers (docs/operations.md)."""

    async def release_lease(self, room_id: str, holder: str) -> None:
        """Give the room's lease up if ``holder`` has it (else do nothing)."""


ROOM_CHAT = ""
"""The chat channel of everyone in a room (other channels have a smaller audience)."""


class Chat(Protocol):
    """Each room's newest chat lines, by channel: ``ROOM_CHAT`` is read by every socket
    of the room; any other name by an audience its room picks (a chouette team's is
    ``team:<match>``, docs/protocol.md "Chouette rooms"). Lines are numbered per room
    across its channels."""

    async def add_chat(
        self, room_id: str, line: ChatLine, keep: int, channel: str = ROOM_CHAT
    ) -> int:
        """Append ``line`` to the room's ``channel`` and return its ``seq``, numbered
        here (the given one is ignored) so that lines said on two instances never share
        one. Only the newest ``keep`` lines of the channel are kept."""

    async def recent_chat(
        self, room_id: str, limit: int, channel: str = ROOM_CHAT
    ) -> list[ChatLine]:
        """The newest ``limit`` lines of the room's ``channel``, oldest first."""


class QuickQueue(Protocol):
    """The quick-match queue, shared by every instance.

    A waiting entry lives while some instance confirms it (a lobby socket of its person
    is open there): unconfirmed for ``stale_after`` seconds it is stale (never paired,
    not counted, not shown), for twice that it is deleted. Every store reads the clock
    it was given (the server's), never the database's (docs/operations.md).
    """

    async def quick_enter(self, entry: QuickEntry, stale_after: float) -> QuickEntry | None:
        """Pair or wait, atomically across instances: take the oldest live waiting entry
        with the same rules (another player's, and never one of whom either blocks the
        other: civility) out of the queue and return it; if there
        is none, ``entry`` waits, confirmed now. Either way the identity's previous entry
        is replaced, and the waiting entries stale for ``2 * stale_after`` are deleted."""

    async def quick_save(self, entries: Sequence[QuickEntry], forget_before: float) -> None:
        """Write ``entries`` as their identities' entries, confirmed now (pairings, with
        ``room`` and ``seat``, for status reads; or a waiting entry put back), and forget
        pairings made before ``forget_before``."""

    async def quick_confirm(self, identity_hashes: Sequence[str], stale_after: float) -> int:
        """Confirm the waiting entries of these identities now (stale ones come back),
        delete the waiting entries stale for ``2 * stale_after``; return how many live
        entries wait."""

    async def quick_release(self, identity_hash: str, stale_after: float) -> bool:
        """Make the identity's waiting entry stale at once (its last lobby socket on an
        instance closed): it lives on only if another instance confirms it again. False
        if it had no live waiting entry."""

    async def quick_leave(self, identity_hash: str) -> bool:
        """Take the identity out of the queue; False if it was not waiting."""

    async def quick_entry(self, identity_hash: str, stale_after: float) -> QuickEntry | None:
        """The identity's entry, paired or waiting (a stale waiting one is None)."""

    async def quick_waiting(self, stale_after: float) -> int:
        """How many people wait in the quick-match queue (live entries)."""


class Tournaments(Protocol):
    """Tournaments and their append-only event logs (docs/tournaments.md)."""

    async def create_tournament(
        self, row: TournamentRow, events: Sequence[Event], identities: Mapping[str, str]
    ) -> None:
        """Write a new tournament with its first events; ``StoreConflict`` if it exists."""

    async def append_tournament(
        self,
        tournament_id: str,
        events: Sequence[Event],
        phase: str,
        identities: Mapping[str, str] | None = None,
    ) -> None:
        """Append to a tournament's log atomically, set its phase and remember the
        identities of new players; ``StoreConflict`` if a ``seq`` exists (another
        writer won: optimistic concurrency, as for rooms)."""

    async def load_tournament(self, tournament_id: str, after: int = 0) -> StoredTournament | None:
        """A tournament with its log in order (only the events past seq ``after``: the
        caller has folded those), or None."""

    async def live_tournaments(self, limit: int = 500) -> list[TournamentRow]:
        """Open and running tournaments, public and private, newest first."""

    async def player_tournaments(self, player: str, limit: int = 50) -> list[TournamentRow]:
        """The tournaments ``player`` (a public player id) joined as a person, newest
        first (their identity is kept beside the log; they may have left since)."""


class Store(
    Identities,
    EventLog,
    Players,
    Leases,
    Chat,
    QuickQueue,
    Tournaments,
    Accounts,
    Civility,  # civility (issue 22, part 3): store/civility.py
    YourData,  # your data (issue 22, part 5): store/yourdata.py
    Friends,
    Protocol,
):
    """All of it, as one server instance opens it (``open_store``)."""

    async def open(self) -> None:
        """Connect and create (or upgrade) the schema if needed."""

    async def close(self) -> None: ...
