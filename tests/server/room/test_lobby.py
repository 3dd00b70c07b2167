"""The lobby frame is made once per news for all of an instance's lobby sockets."""

from __future__ import annotations

from typing import Any

from ginrummy.server.pubsub.memory import MemoryBus
from ginrummy.server.room.lobby import Lobby


async def test_the_lobby_frame_is_made_once_per_news_and_again_after_each() -> None:
    lobby = Lobby(rooms=Any, store=Any, bus=MemoryBus(), quick_confirm=1.0)  # type: ignore[arg-type]
    made: list[int] = []

    def make() -> str:
        made.append(lobby.generation)
        return f"frame {len(made)}"

    assert [lobby.message(make) for _ in range(3)] == ["frame 1"] * 3  # three sockets, one frame
    await lobby.tell()
    assert [lobby.message(make) for _ in range(2)] == ["frame 2"] * 2
    assert made == [0, 1]
