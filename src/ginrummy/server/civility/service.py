"""Civility's rules over the store: reports with server-gathered evidence, blocks, chat
mutes and timeouts, and play bans (docs/accounts.md, "Civility").

``blocked(a, b)`` is the one question every part that brings two people together asks
(quick match, tournament pairings, chat, and a friend's challenge): True if either
blocks the other. The clock and the makers of ids are passed in.
"""

from __future__ import annotations

import math
import secrets
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from ginrummy.server.civility.ladder import standing
from ginrummy.server.store import ROOM_CHAT, Report, Sanction, Store
from ginrummy.server.store.civility import PLACES, REASONS

HIDDEN_FOR_S = 5.0
"""Seconds a socket's list of the people its player blocks is kept: a block made on
another instance reaches this one's sockets within that time (here: at once)."""
EVIDENCE_LINES = 20  # the room's newest chat lines attached to a report
NOTE_LENGTH = 300
CHAT_KEPT = 50
"""The chat lines a room keeps (``room.chat.CHAT_HISTORY``; the room imports this module,
so the number is repeated): whoever wrote one of them counts as in the room."""


class CivilityError(Exception):
    """A refusal, with its wire code (docs/protocol.md, "Civility")."""

    def __init__(self, code: str, message: str) -> None:
        self.code = code
        self.message = message
        super().__init__(message)


@dataclass(frozen=True, slots=True)
class Lock:
    """Why and until when a player may not do something; ``until`` None: for good."""

    code: str  # "play_banned" | "muted" | "chat_timeout"
    reason: str
    until: float | None

    def left(self, now: float) -> int | None:
        """Whole seconds left (rounded up), None for good."""
        return None if self.until is None else max(1, math.ceil(self.until - now))


def new_id(prefix: str) -> str:
    return prefix + secrets.token_urlsafe(9)


class Civility:
    """One instance's door to civility: reads and writes the store, keeps a short-lived
    list of whom each player blocks for filtering chat per recipient."""

    def __init__(
        self,
        store: Store,
        now: Callable[[], float],
        make_id: Callable[[str], str] = new_id,
    ) -> None:
        self.store = store
        self.now = now
        self.make_id = make_id
        self._hidden: dict[str, tuple[float, frozenset[str]]] = {}

    # --- blocks -----------------------------------------------------------------------

    async def blocked(self, a: str, b: str) -> bool:
        """True if player ``a`` blocks ``b`` or ``b`` blocks ``a``: the two are never
        brought together (quick match, pairings where avoidable, challenges)."""
        return a != b and await self.store.blocked_either(a, b)

    async def block(self, blocker: str, blocked: str) -> None:
        if blocker == blocked:
            raise CivilityError("bad_request", "you cannot block yourself")
        if await self.store.player(blocked) is None:
            raise CivilityError("unknown_player", "there is no such player")
        await self.store.add_block(blocker, blocked, self.now())
        self._hidden.pop(blocker, None)

    async def unblock(self, blocker: str, blocked: str) -> bool:
        removed = await self.store.remove_block(blocker, blocked)
        self._hidden.pop(blocker, None)
        return removed

    async def hidden_for(self, player: str) -> frozenset[str]:
        """Whose chat ``player`` never sees (whom they block), as of a few seconds ago."""
        now = self.now()
        kept = self._hidden.get(player)
        if kept is not None and now - kept[0] < HIDDEN_FOR_S:
            return kept[1]
        hidden = frozenset(await self.store.blocks_of(player))
        self._hidden[player] = (now, hidden)
        return hidden

    def shows(self, hidden: frozenset[str], message: Mapping[str, Any]) -> bool:
        """A chat message (``chat_message``'s shape) passes a recipient's filter."""
        sender = message.get("from", {}).get("player")
        return sender not in hidden

    # --- chat -------------------------------------------------------------------------

    async def chat_lock(self, player: str) -> Lock | None:
        """The mute or chat timeout in force for ``player`` (a mute first), or None."""
        now = self.now()
        active = [s for s in await self.store.sanctions_of(player) if s.active(now)]
        for kind, code in (("mute", "muted"), ("chat_timeout", "chat_timeout")):
            held = [s for s in active if s.kind == kind]
            if held:
                until = (
                    None if any(s.until is None for s in held) else max(s.until or 0 for s in held)
                )
                return Lock(code, held[-1].reason, until)
        return None

    async def check_chat(self, player: str) -> None:
        """``muted`` or ``chat_timeout`` while one holds; nothing said is written."""
        lock = await self.chat_lock(player)
        if lock is None:
            return
        left = lock.left(self.now())
        how = "until an operator lifts it" if left is None else f"for {left} more seconds"
        what = "muted" if lock.code == "muted" else "in a chat timeout"
        raise CivilityError(lock.code, f"you are {what} {how}: {lock.reason}")

    # --- play bans --------------------------------------------------------------------

    async def play_lock(self, player: str) -> tuple[Lock | None, int]:
        """The lock on the quick match and rated play (an operator's ban, else the
        ladder's), and the standing offences."""
        now = self.now()
        bans = [
            s for s in await self.store.sanctions_of(player) if s.kind == "ban" and s.active(now)
        ]
        ladder = standing(await self.store.results_of(player), now)
        if bans:
            until = None if any(s.until is None for s in bans) else max(s.until or 0 for s in bans)
            return Lock("play_banned", bans[-1].reason, until), ladder.offences
        if ladder.locked_until is not None:
            return Lock("play_banned", ladder.reason or "", ladder.locked_until), ladder.offences
        return None, ladder.offences

    async def check_play(self, player: str) -> None:
        """``play_banned`` while a ban or the ladder locks rated play."""
        lock, _ = await self.play_lock(player)
        if lock is None:
            return
        left = lock.left(self.now())
        how = "until an operator lifts it" if left is None else f"for {left} more seconds"
        raise CivilityError(
            "play_banned", f"quick match and rated play are locked {how}: {lock.reason}"
        )

    async def conduct(self, player: str) -> dict[str, Any]:
        """What ``GET /api/me/conduct`` shows the player: play lock, warning, chat lock."""
        now = self.now()
        lock, offences = await self.play_lock(player)
        chat = await self.chat_lock(player)
        warnings = [
            {"reason": s.reason, "t": s.t}
            for s in await self.store.sanctions_of(player)
            if s.kind == "warn" and now - s.t < 7 * 86400
        ]
        return {
            "play": None if lock is None else _lock(lock, now),
            "offences": offences,
            "warned": lock is None and offences > 0,
            "chat": None if chat is None else _lock(chat, now),
            "warnings": warnings,
        }

    # --- reports ----------------------------------------------------------------------

    async def report(
        self, reporter: str, reported: str, reason: str, place: str, room: str | None, note: str
    ) -> Report:
        """A report by ``reporter`` (the caller, never a field): the evidence is what the
        server holds of that room (its facts and newest chat lines), gathered here."""
        if reason not in REASONS:
            raise CivilityError("bad_reason", f"reason must be one of {', '.join(REASONS)}")
        if place not in PLACES:
            raise CivilityError("bad_request", f"place must be one of {', '.join(PLACES)}")
        if reporter == reported:
            raise CivilityError("bad_request", "you cannot report yourself")
        if len(note) > NOTE_LENGTH:
            raise CivilityError("bad_request", f"a note is at most {NOTE_LENGTH} characters")
        target = await self.store.player(reported)
        if target is None:
            raise CivilityError("unknown_player", "there is no such player")
        if place != "player" and room is None:
            raise CivilityError("bad_request", "a report from a table or a chat names its room")
        evidence: dict[str, Any] = {"name": target.name, "abandons": target.abandons}
        if room is not None:
            await self._check_room(room, reporter, reported)
            evidence.update(await self._room_evidence(room, reported))
        report = Report(
            self.make_id("r_"),
            self.now(),
            reporter,
            reported,
            reason,
            place,
            room,
            evidence,
            note.strip(),
        )
        await self.store.add_report(report)
        return report

    async def _check_room(self, room_id: str, reporter: str, reported: str) -> None:
        """A report names a room both people were in: ``not_in_room`` unless the
        reported player holds a seat in it or wrote one of its kept chat lines, and the
        reporter holds a seat or may watch it (and so read its chat)."""
        stored = await self.store.load_room(room_id)
        if stored is None:
            raise CivilityError("unknown_room", "there is no such room")
        seated = {s.identity_hash for s in stored.seats if s.identity_hash is not None}
        lines = await self.store.recent_chat(room_id, CHAT_KEPT, ROOM_CHAT)
        if await self.store.player_identity(reported) not in seated and all(
            line.player != reported for line in lines
        ):
            raise CivilityError(
                "not_in_room", "the player you report neither sits nor chatted in that room"
            )
        watchable = bool(stored.room.options.get("spectators", True))
        if not watchable and await self.store.player_identity(reporter) not in seated:
            raise CivilityError("not_in_room", "you neither sit in that room nor may watch it")

    async def _room_evidence(self, room_id: str, reported: str) -> dict[str, Any]:
        stored = await self.store.load_room(room_id)
        if stored is None:
            raise CivilityError("unknown_room", "there is no such room")
        lines = await self.store.recent_chat(room_id, EVIDENCE_LINES, ROOM_CHAT)
        events = stored.events
        return {
            "room": {
                "id": room_id,
                "kind": stored.room.kind,
                "created": stored.room.created,
                "options": dict(stored.room.options),
                "seats": [{"seat": s.seat, "name": s.name, "bot": s.bot} for s in stored.seats],
                "events": len(events),
                "last_events": [e.kind for e in events[-10:]],
            },
            "chat": [
                {
                    "id": c.seq,
                    "t": c.t,
                    "player": c.player,
                    "tag": c.tag,
                    "text": c.text,
                    "phrase": c.phrase,
                }
                for c in lines
            ],
            "results": [
                {"room": r.room, "forfeit": r.forfeit, "won": r.won, "t": r.t}
                for r in await self.store.results_of(reported)
                if r.room == room_id
            ],
        }

    async def add_sanction(
        self, player: str, kind: str, reason: str, seconds: float | None, by: str
    ) -> Sanction:
        now = self.now()
        until = None if seconds is None else now + seconds
        sanction = Sanction(self.make_id("s_"), player, kind, reason, now, until, by)
        await self.store.add_sanction(sanction)
        return sanction


def _lock(lock: Lock, now: float) -> dict[str, Any]:
    return {
        "code": lock.code,
        "reason": lock.reason,
        "until": lock.until,
        "seconds_left": lock.left(now),
    }
