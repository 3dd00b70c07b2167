"""``ginrummy admin``: the operators' console on the command line (docs/operations.md).

It opens the site's store (``DATABASE_URL``, else the SQLite file under the data
directory, or ``--store``) and acts through the same ``Console`` as the ``/admin``
page, recording ``--as PLAYER_ID`` (an operator's player id, named in
``GINRUMMY_OPERATORS``) and that player's name in the audit log. Whoever can run it can
read the database anyway: the check of the id is for an honest audit log, not a lock.

``close`` then tells the bus (``GINRUMMY_BUS``/``REDIS_URL``, as the server has it) so
that every instance closes the account's open sockets, as the page's close does. With
the in-process bus (``memory://``, one instance and no Redis) there is no other process
to tell: those sockets stay until they reconnect, and every call they make is refused.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import time
from collections.abc import Sequence
from typing import Any

from ginrummy.server.civility.console import Console, operator_by_id
from ginrummy.server.civility.service import Civility, CivilityError
from ginrummy.server.pubsub import open_bus
from ginrummy.server.settings import Settings
from ginrummy.server.sockets.revoke import revoke
from ginrummy.server.store import Store, open_store

ACTIONS = {
    "dismiss": "dismiss an open report (TARGET: its id)",
    "warn": "warn a player (TARGET: a player id)",
    "chat-timeout": "keep a player out of chat for --minutes",
    "mute": "mute a player (for --minutes, or for good)",
    "ban": "lock a player's quick match and rated play for --minutes",
    "rename": "give a player the name --name",
    "close": "close a player's account (every device signed out)",
}


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="ginrummy admin", description=__doc__.split("\n\n")[0])
    p.add_argument("--store", help="the store's URL (default: the server's settings)")
    p.add_argument(
        "--as",
        dest="operator",
        metavar="PLAYER_ID",
        help="the operator acting: a player id named in GINRUMMY_OPERATORS",
    )
    sub = p.add_subparsers(dest="command", required=True)
    sub.add_parser("reports", help="list the open reports with their evidence")
    history = sub.add_parser("history", help="a player's reports, sanctions and audit entries")
    history.add_argument("player")
    sub.add_parser("audit", help="the newest audit log entries")
    for name, what in ACTIONS.items():
        action = sub.add_parser(name, help=what)
        action.add_argument("target")
        action.add_argument("--reason", required=True, help="why (written to the audit log)")
        action.add_argument("--minutes", type=int, help="how long (chat-timeout, mute, ban)")
        action.add_argument("--name", help="the new name (rename)")
        action.add_argument("--report", help="the report this answers (closed with it)")
    return p


def main(argv: Sequence[str]) -> int:
    args = parser().parse_args(list(argv))
    settings = Settings.from_env()
    if args.command in ACTIONS and args.operator not in settings.operators:
        print("ginrummy admin: --as must be a player id in GINRUMMY_OPERATORS", file=sys.stderr)
        return 2
    try:
        url = args.store or settings.store_url
        answer = asyncio.run(_run(args, url, settings.operators, settings.bus_url))
    except CivilityError as exc:
        print(f"ginrummy admin: {exc.code}: {exc.message}", file=sys.stderr)
        return 1
    print(json.dumps(answer, indent=2, ensure_ascii=False))
    return 0


async def _run(
    args: argparse.Namespace, url: str, operators: Sequence[str], bus_url: str = "memory://"
) -> Any:
    store = open_store(url, now=time.time)
    await store.open()
    try:
        answer = await _answer(args, store, operators)
        if args.command == "close":
            await _sign_out(store, args.target, bus_url)
        return answer
    finally:
        await store.close()


async def _sign_out(store: Store, player_id: str, bus_url: str) -> None:
    """Tell every instance that the closed account's open sockets close (see the
    module's text); the notice has left when this returns (the bus's close sends what
    it holds)."""
    if bus_url.split(":", 1)[0].lower() == "memory":
        return  # no other process hears an in-process bus
    identity = await store.player_identity(player_id)
    if identity is None:
        return
    bus = open_bus(bus_url)
    try:
        await revoke(bus, identity=identity)
    finally:
        await bus.close()


async def _answer(args: argparse.Namespace, store: Store, operators: Sequence[str]) -> Any:
    civility = Civility(store, time.time)
    console = Console(civility)
    if args.command == "reports":
        return await console.open_reports()
    if args.command == "history":
        return await console.history(args.player)
    if args.command == "audit":
        return await console.audit()
    operator = await operator_by_id(civility, args.operator, operators)
    if operator is None:
        raise CivilityError("not_operator", "--as names no account's player")
    return await console.act(
        operator,
        args.command.replace("-", "_"),
        args.target,
        args.reason,
        args.minutes,
        args.name,
        args.report,
    )
