"""The memory store's "your data" calls (``yourdata.YourData``), with the same promises
as the SQL store's (``tests/server/test_store_yourdata.py``)."""

from __future__ import annotations

from dataclasses import replace

from ginrummy.server.store.base import (
    Account,
    Challenge,
    ChatLine,
    Device,
    Event,
    Passkey,
    Player,
    QuickEntry,
    SeatRow,
)
from ginrummy.server.store.civility import Report
from ginrummy.server.store.friends import Follow, MatchChallenge, Social, Whereabouts
from ginrummy.server.store.yourdata import (
    PLACEHOLDER,
    Erasure,
    SaidLine,
    renames,
    scrub,
    tag_of,
)


class MemoryYourData:
    """``yourdata.YourData`` in memory; ``MemoryStore`` is one (it owns the records).

    The erasure reads and writes with no ``await`` in between: one step of the event
    loop, as atomic as the SQL store's transaction."""

    _identities: set[str]
    _accounts: dict[str, Account]
    _devices: dict[str, Device]
    _passkeys: dict[str, Passkey]
    _codes: dict[str, tuple[str, float]]
    _challenges: dict[str, Challenge]
    _players: dict[str, Player]
    _player_of: dict[str, str]
    _seats: dict[str, dict[str, SeatRow]]
    _chat: dict[tuple[str, str], list[ChatLine]]
    _quick: dict[str, QuickEntry]
    _confirmed: dict[str, float]
    _tournament_events: dict[str, list[Event]]
    _tournament_identities: dict[str, dict[str, str]]
    _reports: dict[str, Report]
    _blocks: dict[tuple[str, str], float]
    _follows: dict[tuple[str, str], Follow]
    _social: dict[str, Social]
    _match_challenges: dict[str, MatchChallenge]
    _whereabouts: dict[tuple[str, str], tuple[Whereabouts, float]]

    async def reports_by(self, reporter: str) -> list[Report]:
        return sorted(
            (r for r in self._reports.values() if r.reporter == reporter), key=lambda r: (r.t, r.id)
        )

    async def chat_by(self, player: str) -> list[SaidLine]:
        said = [
            SaidLine(room, channel, line)
            for (room, channel), lines in self._chat.items()
            for line in lines
            if line.player == player
        ]
        return sorted(said, key=lambda s: (s.line.t, s.room, s.line.seq))

    async def match_challenges_by(self, player: str) -> list[MatchChallenge]:
        own = [c for c in self._match_challenges.values() if player in (c.sender, c.receiver)]
        return sorted(own, key=lambda c: (c.created, c.id))

    async def erase_identity(self, erasure: Erasure) -> bool:
        h, label, tomb = erasure.identity_hash, erasure.label, erasure.tombstone
        if h not in self._identities:
            return False
        pid = self._player_of.get(h)
        names = {
            s.name for seats in self._seats.values() for s in seats.values() if s.identity_hash == h
        }
        if pid is not None:
            names.add(self._players[pid].name)
        if h in self._accounts:
            names.add(self._accounts[h].name)
        if pid is not None:  # names it had when it chatted (a guest may rename)
            names.update(
                line.tag.rpartition("#")[0]
                for lines in self._chat.values()
                for line in lines
                if line.player == pid
            )
        renamed = renames(names, label, pid)
        # secrets: devices, passkeys, codes, challenges, the account, the identity
        for device_id in [d.id for d in self._devices.values() if d.identity_hash == h]:
            del self._devices[device_id]
        for cid in [c for c, p in self._passkeys.items() if p.identity_hash == h]:
            del self._passkeys[cid]
        for code in [c for c, (owner, _) in self._codes.items() if owner == h]:
            del self._codes[code]
        for c in [c for c, ch in self._challenges.items() if ch.identity_hash == h]:
            del self._challenges[c]
        self._accounts.pop(h, None)
        self._identities.discard(h)
        self._quick.pop(h, None)
        self._confirmed.pop(h, None)
        # names: seats, the player, tournaments' identities and logs
        for seats in self._seats.values():
            for key, s in list(seats.items()):
                if s.identity_hash == h:
                    seats[key] = replace(s, identity_hash=tomb, name=label)
        if pid is not None:
            del self._player_of[h]
            self._player_of[tomb] = pid
            self._players[pid] = replace(self._players[pid], name=label, account=False)
        for tid, people in self._tournament_identities.items():
            if pid is not None and people.get(pid) == h:
                people[pid] = tomb
                log = self._tournament_events[tid]
                log[:] = [replace(e, payload=scrub(e.payload, renamed)) for e in log]
        if pid is None:
            return True
        # what the player wrote and did: chat lines, blocks, reports
        for lines in self._chat.values():
            for i, line in enumerate(lines):
                if line.player == pid:
                    tag = tag_of(label, pid)
                    lines[i] = replace(line, tag=tag, text=PLACEHOLDER, phrase=None)
        for pair in [p for p in self._blocks if p[0] == pid]:
            del self._blocks[pair]
        # their friends' part: follows both ways, switches, whereabouts, challenges
        for pair in [p for p in self._follows if pid in p]:
            del self._follows[pair]
        self._social.pop(pid, None)
        for seen in [k for k in self._whereabouts if k[0] == pid]:
            del self._whereabouts[seen]
        for c in [c.id for c in self._match_challenges.values() if pid in (c.sender, c.receiver)]:
            del self._match_challenges[c]
        for rid, r in list(self._reports.items()):  # any report's evidence may name them
            note = "" if r.reporter == pid else r.note
            self._reports[rid] = replace(r, note=note, evidence=scrub(r.evidence, renamed, pid))
        return True
