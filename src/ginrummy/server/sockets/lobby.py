"""A socket bound to the lobby (docs/protocol.md, "Lobby"): the open tables, running
matches and tournaments on every change (unless ``hello_lobby`` said ``lobby: false``),
``matched`` for its person (a quick match, a tournament's next round), and the
``tournament`` frames of the one tournament it watches (``hello_lobby``'s
``tournament``: a tournament's page; docs/protocol.md, Tournaments).

A 64-player tournament's frame is tens of kilobytes and changes with every result: sent
to every lobby socket, the pages that do not show it (the lobby, the players at their
tables) received megabytes per round, and the server and the players' devices spent
their time on them just when the next round was being dealt (bench/RESULTS.md)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Mapping
from typing import Any

from ginrummy.protocol import ClientMessage, to_json
from ginrummy.protocol.messages import HelloLobby, sent
from ginrummy.server.api.lobby import lobby_body
from ginrummy.server.pubsub import Bus, Subscription
from ginrummy.server.quick import player_topic
from ginrummy.server.room import LOBBY_TOPIC, RoomError
from ginrummy.server.sockets import whereabouts
from ginrummy.server.sockets.frames import Connection, Identity
from ginrummy.server.store import StoreError
from ginrummy.server.tournaments.service import topic_of

log = logging.getLogger("ginrummy.server.sockets")


class LobbySocket:
    """The binding of a connection to the lobby (``hello_lobby``)."""

    def __init__(
        self,
        conn: Connection,
        identity: Identity,
        tournament: str | None = None,
        lobby: bool = True,
        table: str | None = None,
        feed: bool = False,
    ) -> None:
        self.conn = conn
        self.identity = identity
        self.tournament = tournament  # the tournament whose frames it gets, if any
        self.table = table  # the tournament table whose page it serves, if any
        self.listings = lobby  # it gets the lobby's listings as they change
        self.feed = feed  # a page's feed of friends and challenges: no listings, no queue
        self.ticket: int | None = None  # where its person is, for their friends
        self.queued = False  # told the quick match this identity has a lobby socket
        self.tasks: list[asyncio.Task[None]] = []
        self.subs: list[Subscription] = []

    @classmethod
    async def hello(cls, conn: Connection, hello: HelloLobby) -> None:
        identity = await Identity.of(conn.rooms, await conn.resolve(sent(hello.token)))
        feed = sent(hello.feed) is True
        listings = sent(hello.lobby) is not False and not feed
        socket = cls(
            conn,
            identity,
            sent(hello.tournament),
            lobby=listings,
            table=sent(hello.table),
            feed=feed,
        )
        await conn.bind(socket)

    @property
    def told(self) -> bool:
        return True

    @property
    def version(self) -> int | None:
        return None

    @property
    def kind(self) -> str:
        return "lobby"

    async def handle(self, msg: ClientMessage) -> None:
        raise RoomError("hello_first", "send 'hello' with the room first")

    def _subscribe(self, bus: Bus, topic: str) -> Subscription:
        sub = bus.subscribe(
            topic, limit=self.conn.settings.socket_queue, on_overflow=self.conn.fell_behind
        )
        self.subs.append(sub)
        return sub

    async def start(self) -> None:
        rooms = self.conn.rooms
        try:
            if self.listings:
                # Told once this instance's lobby has taken in a change made on any instance.
                news = self._subscribe(rooms.lobby_news, LOBBY_TOPIC)
                self.tasks.append(asyncio.create_task(self._forward_lobby(news)))
            if self.tournament is not None:
                tournaments = self.conn.ws.app.state.tournaments
                changes = self._subscribe(tournaments.news, topic_of(self.tournament))
                self.tasks.append(asyncio.create_task(self._forward_tournaments(changes)))
            token_hash, player = self.identity.token_hash, self.identity.player
            if token_hash is not None and player is not None:
                if not self.feed:  # a feed socket keeps nobody in the quick-match queue
                    self.conn.quick.socket_opened(token_hash)
                    self.queued = True
                own = self._subscribe(rooms.bus, player_topic(player.id))
                self.tasks.append(asyncio.create_task(self._forward_matched(own, token_hash)))
            first = self._lobby_message()
        except BaseException:
            await self.close()  # nothing left subscribed for a socket that is not bound
            raise
        await self.conn.send(first)
        # Subscribed first: nothing falls in between.
        await self._send_tournament()
        await self._send_next_table()
        place = "lobby" if self.listings else "online"
        self.ticket = await whereabouts.arrive(self.conn, self.identity, place, None)

    async def close(self) -> None:
        for task in self.tasks:
            task.cancel()
        for task in self.tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task
        for sub in self.subs:
            sub.close()
        self.tasks, self.subs = [], []
        ticket, self.ticket = self.ticket, None
        await whereabouts.leave(self.conn, ticket)
        if self.queued and self.identity.token_hash is not None:
            self.queued = False
            await self.conn.quick.socket_closed(self.identity.token_hash)

    def _lobby_message(self) -> str:
        state = self.conn.ws.app.state
        return self.conn.rooms.lobby_message(
            lambda: to_json({"type": "lobby", "lobby": lobby_body(state)})
        )

    async def _forward_tournaments(self, sub: Subscription) -> None:
        """Every change of the watched tournament, if public or if this person plays in
        it or created it: its whole view, as this instance read it last."""
        tournaments = self.conn.ws.app.state.tournaments
        me = self.identity.player.id if self.identity.player is not None else None
        while True:
            notice = await sub.get()
            tid = notice.get("id")
            shown = tournaments.shown(tid) if isinstance(tid, str) else None
            if shown is None:
                continue
            view, frame = shown
            if _may_watch(view, me):
                await self.conn.send(frame)

    async def _send_tournament(self) -> None:
        """The watched tournament as it is now. The page reads it over HTTP as its socket
        opens; a change between that read and the subscription would otherwise never
        reach it (the last change of a finished tournament: no frame follows). Never
        raises for a store that cannot be read: the page has its HTTP answer."""
        if self.tournament is None:
            return
        tournaments = self.conn.ws.app.state.tournaments
        try:
            shown = await tournaments.current(self.tournament)
        except StoreError as exc:
            log.warning("tournament %s: cannot read it for a socket: %s", self.tournament, exc)
            return
        me = self.identity.player.id if self.identity.player is not None else None
        if shown is not None and _may_watch(shown[0], me):
            await self.conn.send(shown[1])

    async def _forward_lobby(self, sub: Subscription) -> None:
        """Send the lobby on every change, at most once per ``lobby_interval``."""
        while True:
            await sub.get()
            await asyncio.sleep(self.conn.settings.lobby_interval)
            while not sub.empty():
                await sub.get()  # changes meanwhile are in the one message below
            await self.conn.send(self._lobby_message())

    async def _forward_matched(self, sub: Subscription, token_hash: str) -> None:
        while True:
            notice = await sub.get()
            if notice.get("kind") == "matched":
                await self.conn.send(
                    {"type": "matched", "room": notice["room"], "seat": notice["seat"]}
                )
            elif notice.get("kind") == "friends":  # docs/accounts.md, "Friends"
                await self.conn.send({"type": "friends"})
            elif notice.get("kind") == "challenge":
                await self.conn.send({"type": "challenge", "challenge": notice["challenge"]})
            elif notice.get("kind") == "resync":
                # The bus may have lost the 'matched' notice: the store knows the pairing.
                await self._send_next_table()
                try:
                    status = await self.conn.quick.status(token_hash)
                except StoreError as exc:
                    log.warning("cannot check a quick match after a resync: %s", exc)
                    continue
                if status["status"] == "matched":
                    await self.conn.send(
                        {"type": "matched", "room": status["room"], "seat": status["seat"]}
                    )

    async def _send_next_table(self) -> None:
        """At a tournament's table: ``matched`` for the person's table of the current
        round if it is another one (paired while this socket was away or its notice lost).
        Never raises for a store or room that cannot be read: it runs in ``start``, after
        the socket is bound, and in the task that forwards ``matched``."""
        player = self.identity.player
        if self.table is None or player is None:
            return
        tournaments = self.conn.ws.app.state.tournaments
        try:
            found = await tournaments.table_of(self.table, player.id)
        except (StoreError, RoomError) as exc:  # a later (re)connect or resync asks again
            log.warning("room %s: cannot look up the next tournament table: %s", self.table, exc)
            return
        if found is not None:
            room, seat = found
            await self.conn.send({"type": "matched", "room": room, "seat": seat})


def _may_watch(tournament: Mapping[str, Any], player: str | None) -> bool:
    """A public tournament, or one ``player`` plays in or created."""
    people = {tournament["creator"], *(e["id"] for e in tournament["entrants"])}
    return bool(tournament["settings"]["public"]) or (player is not None and player in people)
