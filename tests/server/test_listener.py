"""A bus topic heard for an instance's life (server/pubsub/listener.py): every notice
handed on in order, a failing one logged and the listening goes on, closing unsubscribes."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from typing import Any

import pytest

from ginrummy.server.pubsub.listener import Listener
from ginrummy.server.pubsub.memory import MemoryBus


async def test_a_failing_notice_is_logged_and_the_next_is_heard(
    caplog: pytest.LogCaptureFixture,
) -> None:
    bus = MemoryBus()
    heard: list[int] = []
    done = asyncio.Event()

    async def handle(notice: Mapping[str, Any]) -> None:
        if notice["n"] == 1:
            raise ValueError("a bad notice")
        heard.append(notice["n"])
        if notice["n"] == 3:
            done.set()

    listener = Listener("topic", handle)
    listener.start(bus)
    for n in (0, 1, 2, 3):
        await bus.publish("topic", {"n": n})
    await asyncio.wait_for(done.wait(), 5)
    assert heard == [0, 2, 3]
    assert "a notice on the topic topic failed" in caplog.text
    await listener.close()
    await bus.publish("topic", {"n": 4})  # nobody hears it any more
    await asyncio.sleep(0)
    assert heard == [0, 2, 3]
    await listener.close()  # twice is harmless
