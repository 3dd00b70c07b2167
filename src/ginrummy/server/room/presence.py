"""Who is connected to a room, on this instance and on the others.

Each instance counts its own sockets per seat (``online``) and tells the others in
every presence notice: on a change, then every presence interval while it has sockets
of the room (renewals), and zeros when it stops in an orderly way. Counts not renewed
within ``PRESENCE_LIFETIME`` intervals (a dead instance) stop counting.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Hashable, Mapping
from typing import Any

from ginrummy.engine import Seat

log = logging.getLogger("ginrummy.server.room")

PRESENCE_LIFETIME = 3  # presence intervals another instance's socket counts last unrenewed
PRESENCE_SETTLE = 1.5  # presence intervals a loaded room listens before any grace period


def _count(value: object) -> int:
    """A socket count from a notice (anything else counts as none)."""
    return value if isinstance(value, int) and value > 0 else 0


SEATS: Mapping[Hashable, str] = {seat: seat.label for seat in Seat}
"""A two-player room's counted keys and their labels."""


class Presence:
    """The socket counts of one room: this instance's and the other live instances'.
    Counted per key: the two seats, or a chouette room's positions (``keys``)."""

    def __init__(
        self,
        room_id: str,
        instance_id: str,
        settle_s: float = 0.0,
        keys: Mapping[Hashable, str] = SEATS,
        monotonic: Callable[[], float] = time.monotonic,
    ) -> None:
        """``keys``: what is counted (each seat or position) and its label in notices;
        ``monotonic``: the clock of the counts' lifetimes (a test's own)."""
        self._now = monotonic
        self._room_id = room_id
        self.instance_id = instance_id
        self._labels = dict(keys)
        self._keys = tuple(keys)
        self.online: dict[Any, int] = dict.fromkeys(self._keys, 0)  # this instance's sockets
        self.watchers = 0  # this instance's spectator sockets
        # Other instances' sockets of this room: seat counts, spectators, valid until.
        self.remote: dict[str, tuple[dict[Any, int], int, float]] = {}
        # No grace period starts before (monotonic): by then every instance with a
        # socket of a just loaded room has told its counts.
        self.settled_at = monotonic() + settle_s

    @property
    def settled(self) -> bool:
        return self._now() >= self.settled_at

    def connect(self, seat: Hashable) -> bool:
        """A socket of ``seat`` opened here; True if it is the first."""
        self.online[seat] += 1
        return self.online[seat] == 1

    def disconnect(self, seat: Hashable) -> bool:
        """A socket of ``seat`` closed here; True if it was the last."""
        self.online[seat] = max(0, self.online[seat] - 1)
        return self.online[seat] == 0

    def watch(self, delta: int) -> None:
        self.watchers = max(0, self.watchers + delta)

    def anywhere(self, seat: Hashable) -> int:
        """Sockets of ``seat`` on this instance and on the other live instances."""
        now = self._now()
        remote = sum(c[seat] for c, _, until in self.remote.values() if until > now)
        return self.online[seat] + remote

    @property
    def watching(self) -> int:
        """Spectator sockets on this instance and on the other live instances."""
        now = self._now()
        return self.watchers + sum(w for _, w, until in self.remote.values() if until > now)

    @property
    def has_sockets(self) -> bool:
        """This instance has a socket of the room (a seat's or a spectator's)."""
        return self.watchers > 0 or any(self.online.values())

    def notice(
        self, version: int, seat: Hashable | None, ttl: float, *, renew: bool, gone: bool
    ) -> dict[str, Any]:
        """A presence notice with this instance's counts (zeros if ``gone``) and the
        room's ``version`` here: a follower that is behind it reads the log, so a room
        notice lost on the way is made good within one presence interval."""
        return {
            "kind": "presence",
            "version": version,
            "seat": None if seat is None else self._labels[seat],
            "instance": self.instance_id,
            "online": {self._labels[s]: 0 if gone else self.online[s] for s in self._keys},
            "watchers": 0 if gone else self.watchers,
            "ttl": ttl,
            "renew": renew,
        }

    def take(self, notice: Mapping[str, Any]) -> bool:
        """Remember another instance's counts from a presence notice (taking one twice
        changes nothing). False if the notice is this instance's own or malformed."""
        instance, online, ttl = notice.get("instance"), notice.get("online"), notice.get("ttl")
        if not isinstance(instance, str) or instance == self.instance_id:
            return False
        if not isinstance(online, Mapping) or not isinstance(ttl, int | float):
            log.warning("room %s: a presence notice without counts: %s", self._room_id, notice)
            return False
        counts = {s: _count(online.get(self._labels[s])) for s in self._keys}
        watchers = _count(notice.get("watchers"))
        if any(counts.values()) or watchers:
            self.remote[instance] = (counts, watchers, self._now() + ttl)
        elif self.remote.pop(instance, None) is not None:
            log.info("room %s: instance %s has no socket of it left", self._room_id, instance)
        return True

    def expire(self) -> list[str]:
        """Forget the counts not renewed in time; the instances they were from."""
        now = self._now()
        expired = [i for i, (_, _, until) in self.remote.items() if until <= now]
        for instance in expired:
            del self.remote[instance]
            log.warning(
                "room %s: instance %s stopped telling its sockets; they no longer count",
                self._room_id,
                instance,
            )
        return expired
