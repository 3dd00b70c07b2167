"""The store's calls for "your data" (docs/accounts.md, "Your data"): what a person
exports beyond the other protocols' reads, and the erasure of an identity.

An erasure is one transaction: the person's secrets (devices, passkeys, sign-in codes,
challenges, the identity's token hash) are deleted, their name is replaced by an
anonymous label wherever the store keeps it (their player, their seats, the tags of
their chat lines, report evidence, tournament logs' entrants), the chat lines they wrote
are replaced by a placeholder, the blocks they made are deleted and their reports keep
only the facts (the note, their own words, is erased). Their friends' part goes: their
follows both ways, their privacy switches, their whereabouts and the challenges to a
match they sent or received (a room an accepted one opened stays, as any room). Room
event logs hold no names and are not touched: every game stays replayable. Others'
result rows name players by id, and the player id stays (now with the anonymous label).

>>> scrub({"name": "Ann", "seats": [{"seat": "Ann", "name": "Ann"}]}, {"Ann": "Deleted 7f3a"})
{'name': 'Deleted 7f3a', 'seats': [{'seat': 'Ann', 'name': 'Deleted 7f3a'}]}
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from ginrummy.server.store.civility import Report
from ginrummy.server.store.friends import MatchChallenge

if TYPE_CHECKING:  # base imports this module (its Store protocol includes YourData)
    from ginrummy.server.store.base import ChatLine

PLACEHOLDER = "[deleted]"
"""What an erased person's chat lines say instead (the line stays, so a room's chat
history keeps its numbering)."""


@dataclass(frozen=True, slots=True)
class SaidLine:
    """A chat line as the export lists it: where it was said, and the line."""

    room: str
    channel: str
    line: ChatLine


@dataclass(frozen=True, slots=True)
class Erasure:
    """What erasing an identity writes: the anonymous ``label`` its names become, and
    ``tombstone``, the identity hash its seats and player keep (not a token's hash: no
    token resolves to it, and a seat with it is still a person's seat)."""

    identity_hash: str
    label: str  # e.g. "Deleted player 7f3a"
    tombstone: str  # e.g. "deleted:p_abc..."


def tag_of(name: str, player_id: str) -> str:
    """A player's tag, as ``players.tag`` spells it."""
    return f"{name}#{player_id[2:6]}"


def renames(names: set[str], label: str, player_id: str | None) -> dict[str, str]:
    """Each name (and its tag) the person went by -> the label (and its tag)."""
    names = names - {""}
    out = dict.fromkeys(names, label)
    if player_id is not None:
        out.update({tag_of(n, player_id): tag_of(label, player_id) for n in names})
    return out


NAME_KEYS = frozenset({"name", "tag"})
"""The keys under which stored JSON (report evidence, tournament entrants) holds a
person's name or tag: only their values are compared with the names to erase."""


def scrub(value: Any, renamed: Mapping[str, str], player_id: str | None = None) -> Any:
    """``value`` (decoded JSON) with every name or tag (``NAME_KEYS``) equal to a renamed
    one replaced, and the text of every chat line of ``player_id`` (a mapping with its
    ``player``, ``tag`` and ``text``) replaced by the placeholder."""
    if isinstance(value, list):
        return [scrub(v, renamed, player_id) for v in value]
    if isinstance(value, Mapping):
        out = {
            k: renamed.get(v, v)
            if k in NAME_KEYS and isinstance(v, str)
            else scrub(v, renamed, player_id)
            for k, v in value.items()
        }
        if player_id is not None and out.get("player") == player_id and "tag" in out:
            if "text" in out:
                out["text"] = PLACEHOLDER
            if "phrase" in out:
                out["phrase"] = None
        return out
    return value


class YourData(Protocol):
    """Reads for the export, and the erasure (docs/accounts.md, "Your data")."""

    async def reports_by(self, reporter: str) -> list[Report]:
        """The reports ``reporter`` (a player id) made, oldest first."""

    async def chat_by(self, player: str) -> list[SaidLine]:
        """The chat lines ``player`` wrote that the store still keeps, oldest first."""

    async def match_challenges_by(self, player: str) -> list[MatchChallenge]:
        """Every challenge to a match ``player`` sent or received, in any state and
        expired or not, oldest first."""

    async def erase_identity(self, erasure: Erasure) -> bool:
        """Erase the identity as the module says, in one transaction; False (nothing
        changed) if the store knows no such identity (erased already)."""
