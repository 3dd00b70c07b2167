"""Signed-out tokens lose their open sockets at once, on every instance (docs/accounts.md,
"Devices").

A token is resolved at a socket's hello (``Connection.resolve``); what is revoked later
(a device signed out, an account closed by an operator, an identity deleted) is told on
the bus's ``revoked`` topic: ``{"kind": "revoked", "tokens": [<token hash>...],
"identity": <identity hash> | null}``. Every instance has one ``Revoker`` that hears the
topic and closes each of its sockets whose token is among ``tokens`` or whose token
resolved to ``identity`` (every device of it), with close code 4401 (``SIGNED_OUT``).

Only hashes travel: a token hash cannot be turned back into a token, and one that is
told here is revoked already (the store no longer resolves it). A notice lost while the
bus was away (Redis down) is not told again: the socket keeps its binding until it
reconnects, and its next hello and every HTTP call are refused (``bad_token``) as before.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Collection, Iterable, Iterator, Mapping
from typing import Any, Protocol

from starlette.applications import Starlette

from ginrummy.server.pubsub import Bus
from ginrummy.server.pubsub.listener import Listener

log = logging.getLogger("ginrummy.server.sockets")

TOPIC = "revoked"


class Revocable(Protocol):
    """An open socket as the revoker sees it (``sockets.frames.Connection``)."""

    def revoked_by(self, tokens: Collection[str], identity: str | None) -> bool:
        """Its token is one of ``tokens``, or resolved to ``identity``."""

    def sign_out(self) -> None:
        """Close with 4401 (signed out), after the message being answered."""


async def revoke(bus: Bus, *, tokens: Iterable[str] = (), identity: str | None = None) -> None:
    """Tell every instance that ``tokens`` (token hashes) or every token of ``identity``
    no longer sign in: their open sockets close."""
    notice = {"kind": "revoked", "tokens": sorted(set(tokens)), "identity": identity}
    await bus.publish(TOPIC, notice)


class Revoker:
    """One instance's open sockets, closed when the bus says their token was revoked."""

    def __init__(self) -> None:
        self._sockets: set[Revocable] = set()
        self._listener = Listener(TOPIC, self._heard)

    @contextlib.contextmanager
    def track(self, sock: Revocable) -> Iterator[None]:
        """Count ``sock`` among the open sockets while the block runs."""
        self._sockets.add(sock)
        try:
            yield
        finally:
            self._sockets.discard(sock)

    def apply(self, notice: object) -> int:
        """Sign out the sockets a ``revoked`` notice names; how many."""
        if not isinstance(notice, dict) or notice.get("kind") != "revoked":
            return 0  # a resync after an outage: nothing to tell (see the module's text)
        raw = notice.get("tokens")
        tokens = frozenset(t for t in raw if isinstance(t, str)) if isinstance(raw, list) else ()
        identity = notice.get("identity")
        identity = identity if isinstance(identity, str) and identity else None
        if not tokens and identity is None:
            return 0
        closed = 0
        for sock in list(self._sockets):
            if sock.revoked_by(tokens, identity):
                sock.sign_out()
                closed += 1
        if closed:
            log.info("signed out %d open socket(s) of a revoked token", closed)
        return closed

    def start(self, bus: Bus) -> None:
        """Hear the bus from now on (subscribed before this returns: nothing told after
        is missed)."""
        self._listener.start(bus)

    async def _heard(self, notice: Mapping[str, Any]) -> None:
        self.apply(dict(notice))

    async def close(self) -> None:
        await self._listener.close()


def revoker_of(app: Starlette) -> Revoker:
    revoker: Revoker = app.state.revoker
    return revoker
