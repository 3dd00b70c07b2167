"""A socket whose client went away just as the server closes it (a restart's drain)
ends quietly: no exception reaches uvicorn ("Exception in ASGI application")."""

from __future__ import annotations

import asyncio
from typing import Any, cast

from starlette.websockets import WebSocketDisconnect, WebSocketState

from ginrummy.server.metrics import Metrics
from ginrummy.server.settings import Settings
from ginrummy.server.sockets.frames import Connection


class GoneWhileClosing:
    """A WebSocket whose client leaves as the close frame is sent."""

    application_state = WebSocketState.CONNECTED
    client_state = WebSocketState.CONNECTED

    def __init__(self) -> None:
        self.closes: list[int] = []

    async def receive(self) -> dict[str, object]:
        await asyncio.Event().wait()  # the client says nothing
        raise AssertionError("unreachable")

    async def close(self, code: int = 1000, reason: str | None = None) -> None:
        self.closes.append(code)
        raise WebSocketDisconnect(code=1006)


async def test_a_client_gone_during_the_close_ends_the_socket_quietly() -> None:
    ws = GoneWhileClosing()
    unused: Any = None  # rooms, quick match, limits: a socket that never says hello
    conn = Connection(
        cast(Any, ws), unused, unused, Settings(), {}, unused, "127.0.0.1", Metrics(on=False)
    )
    serving = asyncio.create_task(conn.serve())
    await asyncio.sleep(0)
    conn.restart()
    await asyncio.wait_for(serving, 5)  # returns; raised before the fix
    assert ws.closes == [1012]
