"""Redis pub/sub fan-out across server instances (``redis://host:port/db``).

Every instance delivers its own notices to its local subscribers at once (so a Redis
outage never holds up a single instance) and publishes them on Redis for the other
instances; a reader task pattern-subscribes to all room topics and delivers what other
instances published. Notices carry no hidden card and no state: the store holds the
truth and subscribers reload from it. So a lost notice costs freshness, never an
action: when the reader reconnects after an outage it hands every local subscriber a
``{"kind": "resync"}`` notice, and sockets resend the current view.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
from collections.abc import Mapping
from typing import Any

from redis import asyncio as aioredis
from redis.exceptions import RedisError

from ginrummy.server.pubsub.memory import MemoryBus, MemorySubscription

log = logging.getLogger("ginrummy.bus")

PREFIX = "ginrummy:room:"
RESYNC: Mapping[str, Any] = {"kind": "resync"}


class RedisBus:
    """A ``Bus`` over Redis pub/sub; local delivery goes through an in-process bus."""

    def __init__(self, url: str, *, reconnect_max: float = 1.0) -> None:
        self._url = url
        self._origin = secrets.token_hex(8)  # this instance; its own echoes are dropped
        self._local = MemoryBus()
        self._reconnect_max = reconnect_max
        self._client: aioredis.Redis = aioredis.Redis.from_url(
            url, socket_connect_timeout=0.5, socket_timeout=0.5, health_check_interval=2
        )
        self._reader: asyncio.Task[None] | None = None
        self._closed = False
        self._down = False  # a publish failed: skip Redis until the reader is back
        self.connected = asyncio.Event()  # the reader is subscribed (for readiness checks)

    def start(self) -> None:
        if self._reader is None:
            self._reader = asyncio.get_running_loop().create_task(self._read_forever())

    async def publish(self, topic: str, notice: Mapping[str, Any]) -> None:
        self.start()
        await self._local.publish(topic, notice)
        if self._down:
            return  # Redis is away: the reader's resync covers the other instances
        payload = json.dumps({"origin": self._origin, "notice": dict(notice)})
        try:
            try:
                await self._client.publish(PREFIX + topic, payload)
            except (RedisError, OSError):
                # A pooled connection may have died with a Redis server the reader has
                # already come back from: the retry takes a fresh one.
                await self._client.publish(PREFIX + topic, payload)
        except (RedisError, OSError) as exc:
            log.warning("redis publish failed (%s); live updates resume after reconnect", exc)
            # Skip Redis only until the reader is back (it resyncs then); while it is
            # subscribed, a skip would switch this instance's fan-out off for good.
            self._down = not self.connected.is_set()

    def subscribe(self, topic: str) -> MemorySubscription:
        self.start()
        return self._local.subscribe(topic)

    async def close(self) -> None:
        self._closed = True
        if self._reader is not None:
            self._reader.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._reader
        await self._local.close()
        await self._client.aclose()

    async def _read_forever(self) -> None:
        delay = 0.05
        had_connection = False
        while not self._closed:
            pubsub = self._client.pubsub(ignore_subscribe_messages=True)
            try:
                await pubsub.psubscribe(PREFIX + "*")
                if had_connection:
                    log.info("redis is back; asking every local socket to resync")
                    await self._resync_all()
                had_connection = True
                self._down = False
                self.connected.set()
                delay = 0.05
                while not self._closed:
                    message = await pubsub.get_message(timeout=1.0)
                    if message is not None:
                        await self._deliver(message)
            except (RedisError, OSError) as exc:
                if self.connected.is_set() or not had_connection:
                    log.warning("redis unavailable (%s); retrying", exc)
                self.connected.clear()
                self._down = True
                had_connection = True  # whatever came before, resync once it is back
                await asyncio.sleep(delay)
                delay = min(delay * 2, self._reconnect_max)
            finally:
                with contextlib.suppress(RedisError, OSError):
                    await pubsub.aclose()  # type: ignore[no-untyped-call]

    async def _deliver(self, message: Mapping[str, Any]) -> None:
        channel = message.get("channel")
        data = message.get("data")
        if isinstance(channel, bytes):
            channel = channel.decode()
        if not isinstance(channel, str) or not channel.startswith(PREFIX):
            return
        try:
            envelope = json.loads(data) if isinstance(data, (bytes, str)) else None
        except ValueError:
            envelope = None
        if not isinstance(envelope, dict) or not isinstance(envelope.get("notice"), dict):
            log.warning("dropped a malformed notice on %s", channel)
            return
        if envelope.get("origin") == self._origin:
            return  # already delivered locally
        await self._local.publish(channel[len(PREFIX) :], envelope["notice"])

    async def _resync_all(self) -> None:
        for topic in self._local.topics():
            await self._local.publish(topic, RESYNC)
