"""The game server (L2): the only async and I/O code of the package.

An ASGI app (Starlette) with a JSON HTTP API, one WebSocket per seat, spectator or
lobby page, one authoritative master per room (two-player and chouette), tournaments,
an event-log store (memory, SQLite or PostgreSQL) and a bus (in-process or Redis).
Nothing imports this package except ``ginrummy.cli`` and the fault harness's audit
(``ginrummy.benchmarks.fault_audit``).
"""
