"""The game server (L2): the only async and I/O code of the package.

An ASGI app (Starlette) with a JSON HTTP API, one WebSocket per seat or spectator,
one authoritative master per room, an event-log store and an in-process bus.
Nothing imports this package except ``ginrummy.cli``.
"""
