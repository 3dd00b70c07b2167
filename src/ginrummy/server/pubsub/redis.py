"""Redis pub/sub fan-out across server instances (``redis://host:port/db``).

Every instance delivers its own notices to its local subscribers at once (so a Redis
outage never holds up a single instance) and publishes them on Redis for the other
instances; a reader task pattern-subscribes to all room topics and delivers what other
instances published. Notices carry no hidden card and no state: the store holds the
truth and subscribers reload from it. So a lost notice costs freshness, never an
action: when the reader reconnects after an outage it hands every local subscriber a
``{"kind": "resync"}`` notice, and sockets resend the current view.

Publishing goes through one writer task and one connection: notices queue in order
and each burst leaves as one pipeline, so a busy instance neither opens a connection
per concurrent publish nor waits a round trip per notice. That queue is bounded too
(``OUTBOX_LIMIT``): while Redis is too slow to take more, notices are dropped like those
of a failed publish, and their rooms get a resync.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
from collections.abc import Callable, Mapping
from typing import Any

from redis import asyncio as aioredis
from redis.exceptions import RedisError

from ginrummy.server.pubsub.base import QUEUE_LIMIT, RESYNC
from ginrummy.server.pubsub.memory import MemoryBus, MemorySubscription

log = logging.getLogger("ginrummy.bus")

PREFIX = "ginrummy:room:"
OUTBOX_LIMIT = 10_000  # notices waiting for Redis at most
BATCH = 500  # notices per pipeline at most
RETRY_S = 0.5  # how soon owed resyncs are sent again
CLOSE_FLUSH_S = 1.0  # how long closing may take to send what is queued


class RedisBus:
    """A ``Bus`` over Redis pub/sub; local delivery goes through an in-process bus."""

    def __init__(
        self,
        url: str,
        *,
        reconnect_max: float = 1.0,
        queue_limit: int = QUEUE_LIMIT,
        on_reconnect: Callable[[], None] | None = None,
    ) -> None:
        """``on_reconnect``: called each time the reader is back after an outage."""
        self._url = url
        self._on_reconnect = on_reconnect
        self._origin = secrets.token_hex(8)  # this instance; its own echoes are dropped
        self._local = MemoryBus(queue_limit)
        self._reconnect_max = reconnect_max
        self._client: aioredis.Redis = aioredis.Redis.from_url(
            url, socket_connect_timeout=0.5, socket_timeout=0.5, health_check_interval=2
        )
        self._reader: asyncio.Task[None] | None = None
        self._writer: asyncio.Task[None] | None = None
        self._outbox: asyncio.Queue[tuple[str, str]] = asyncio.Queue(OUTBOX_LIMIT)
        self._lost: set[str] = set()  # topics whose notices a failed publish dropped
        self._sending = False  # the writer holds a batch it has not finished sending
        self._closed = False
        self._down = False  # a publish failed: skip Redis until the reader is back
        self.connected = asyncio.Event()  # the reader is subscribed (for readiness checks)

    def start(self) -> None:
        if self._reader is None:
            loop = asyncio.get_running_loop()
            self._reader = loop.create_task(self._read_forever())
            self._writer = loop.create_task(self._write_forever())

    async def publish(self, topic: str, notice: Mapping[str, Any]) -> None:
        self.start()
        await self._local.publish(topic, notice)
        if self._down:
            # Redis is away: the other instances hear of this room by a resync later.
            self._lost.add(topic)
            return
        payload = json.dumps({"origin": self._origin, "notice": dict(notice)})
        try:
            self._outbox.put_nowait((topic, payload))
        except asyncio.QueueFull:
            if topic not in self._lost:
                log.warning("redis cannot keep up; notices of %s wait for a resync", topic)
            self._lost.add(topic)

    async def _write_forever(self) -> None:
        """Send queued notices, a burst per pipeline, in the order they were published."""
        while True:
            if self._lost and not self._down:
                # Resyncs are owed: send them even if no new notice comes.
                try:
                    batch = [await asyncio.wait_for(self._outbox.get(), RETRY_S)]
                except TimeoutError:
                    batch = []
            elif self._lost:
                await asyncio.sleep(RETRY_S)  # until the reader is back
                continue
            else:
                batch = [await self._outbox.get()]
            while not self._outbox.empty() and len(batch) < BATCH:
                batch.append(self._outbox.get_nowait())
            self._sending = True
            try:
                await self._send(batch)
            finally:
                self._sending = False

    async def _send(self, batch: list[tuple[str, str]]) -> None:
        owed = set(self._lost)
        if owed:
            # Notices of these rooms were dropped: the other instances' sockets may have
            # missed them (their readers stayed subscribed), so tell those rooms now.
            resync = json.dumps({"origin": self._origin, "notice": dict(RESYNC)})
            batch = [(topic, resync) for topic in sorted(owed)] + batch
        for attempt in (1, 2):
            try:
                pipe = self._client.pipeline(transaction=False)
                for topic, payload in batch:
                    pipe.publish(PREFIX + topic, payload)
                await pipe.execute()
                self._lost -= owed
                return
            except (RedisError, OSError) as exc:
                # The first failure may be a pooled connection that died with a Redis
                # server the reader has already come back from: retry on a fresh one.
                if attempt == 2:
                    log.warning(
                        "redis publish of %d notices failed (%s); their rooms resync later",
                        len(batch),
                        exc,
                    )
        self._lost.update(topic for topic, _ in batch)
        # With the reader away too, wait for it: its reconnect resyncs the local sockets,
        # and the owed resyncs go out for the other instances' sockets.
        self._down = not self.connected.is_set()

    def subscribe(
        self,
        topic: str,
        *,
        limit: int | None = None,
        on_overflow: Callable[[], None] | None = None,
    ) -> MemorySubscription:
        self.start()
        return self._local.subscribe(topic, limit=limit, on_overflow=on_overflow)

    async def _drained(self) -> None:
        """Until the writer has sent what is queued and what it holds (or Redis is away)."""
        while (self._sending or not self._outbox.empty()) and not self._down:
            await asyncio.sleep(0.01)

    async def close(self) -> None:
        self._closed = True
        if self._writer is not None and not self._writer.done():
            # A batch the writer holds would be lost by cancelling it mid-send (a short
            # process such as ``ginrummy admin close`` publishes and closes at once).
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._drained(), CLOSE_FLUSH_S)
        if self._writer is not None:
            self._writer.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._writer
        # What is still queued (an orderly stop's goodbyes) leaves now, briefly.
        queued = []
        while not self._outbox.empty():
            queued.append(self._outbox.get_nowait())
        if queued and not self._down:
            try:
                await asyncio.wait_for(self._send(queued), CLOSE_FLUSH_S)
            except TimeoutError:
                log.warning("redis: %d notices not sent before closing", len(queued))
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
                    if self._on_reconnect is not None:
                        self._on_reconnect()
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
                    await pubsub.aclose()

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
