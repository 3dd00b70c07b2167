"""Rooms: the table core every kind of room is built on, the two-player kind, the registry.

The parts (docs/architecture.md): ``base`` (the table core: the one write path, seating,
presence, catch-up), ``log`` (snapshots and the fold), ``master`` (the commands),
``room`` (the two-player kind's hooks on the core), ``duties`` with ``timers``,
``driver`` and ``lease`` (what runs in time), ``presence``, ``follower``, ``chat``,
``outcome`` (results), ``fair`` (the fair deal's commitment and seeds), ``presenter``
(what a room shows), ``registry`` and ``lobby``; ``seats``, ``people``, ``context`` and ``errors``.
"""

from ginrummy.server.room.chat import chat_message, valid_chat
from ginrummy.server.room.errors import RoomError
from ginrummy.server.room.lobby import LOBBY_TOPIC
from ginrummy.server.room.log import Snapshot, carried, fold, replay
from ginrummy.server.room.outcome import outcome
from ginrummy.server.room.presenter import fair_frame, round_record
from ginrummy.server.room.registry import RoomManager
from ginrummy.server.room.room import Room
from ginrummy.server.room.seats import SeatInfo

__all__ = [
    "LOBBY_TOPIC",
    "Room",
    "RoomError",
    "RoomManager",
    "SeatInfo",
    "Snapshot",
    "carried",
    "chat_message",
    "fair_frame",
    "fold",
    "outcome",
    "replay",
    "round_record",
    "valid_chat",
]
