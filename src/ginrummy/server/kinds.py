"""The kinds of table a server plays, each registered once (``TableKind``).

A kind gives the table core what differs between games: how a room of it is rebuilt
from its log, how a socket binds to it, its entry among a person's games and the HTTP
routes that open and read one. Everything else (seating, versions, the log, publishing,
presence, duties, sockets, rebuilding after a broken write) is the core's, the same for
every kind. ``create_app(kinds=...)`` adds kinds beside the two built in here.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from starlette.routing import BaseRoute

from ginrummy.engine import Seat
from ginrummy.protocol.messages import Hello
from ginrummy.server.api import chouette as chouette_api
from ginrummy.server.chouette import KIND as CHOUETTE_NAME
from ginrummy.server.chouette import REBUILD as REBUILD_CHOUETTE
from ginrummy.server.chouette import presenter as chouette_presenter
from ginrummy.server.room import RoomManager
from ginrummy.server.room import presenter as room_presenter
from ginrummy.server.room.context import Rebuild
from ginrummy.server.room.registry import TWO_PLAYER as REBUILD_TWO_PLAYER
from ginrummy.server.sockets.chouette import ChouetteSocket
from ginrummy.server.sockets.frames import Connection
from ginrummy.server.sockets.room import RoomSocket


@dataclass(frozen=True, slots=True)
class TableKind:
    """One kind of table. ``name``: the kind its rooms are stored with; ``rebuild``:
    its replay and its room class; ``bind``: binds a socket's ``hello`` to a room of
    it (a seat or a spectator); ``game``: a room's entry in ``GET /api/me`` for the
    seat of that label; ``routes``: its HTTP API."""

    name: str
    rebuild: Rebuild[Any]
    bind: Callable[[Connection, Any, Hello], Awaitable[None]]
    game: Callable[[Any, str], dict[str, Any]]
    routes: tuple[BaseRoute, ...] = ()


class Kinds:
    """The kinds an app plays: ``default`` serves every stored kind no other claims
    (the two-player rooms, stored as ``solo`` or ``room``)."""

    def __init__(self, default: TableKind, others: Iterable[TableKind] = ()) -> None:
        self.default = default
        self._by_name = {kind.name: kind for kind in others}

    def of(self, room_kind: str) -> TableKind:
        return self._by_name.get(room_kind, self.default)

    @property
    def routes(self) -> list[BaseRoute]:
        return [r for kind in (self.default, *self._by_name.values()) for r in kind.routes]

    def register(self, rooms: RoomManager) -> None:
        """Tell the registry how each kind's rooms are rebuilt from their logs."""
        rooms.kinds.update({name: kind.rebuild for name, kind in self._by_name.items()})


TWO_PLAYER = TableKind(
    "room",
    REBUILD_TWO_PLAYER,
    RoomSocket.bind_to,
    lambda room, seat: room_presenter.game(room, Seat.parse(seat)),
)
"""Two-player rooms (their HTTP routes are the API's rooms, lobby and quick match)."""

CHOUETTE = TableKind(
    CHOUETTE_NAME,
    REBUILD_CHOUETTE,
    ChouetteSocket.bind_to,
    lambda room, seat: chouette_presenter.game(room, int(seat)),
    tuple(chouette_api.routes),
)
"""Chouette rooms: three to five players at one table (docs/rules.md §8)."""


def table_kinds(extra: Sequence[TableKind] = ()) -> Kinds:
    """The two built-in kinds and ``extra``."""
    return Kinds(TWO_PLAYER, (CHOUETTE, *extra))
