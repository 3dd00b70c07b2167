"""``ginrummy serve | analyze | settle | replay | verify | review | arena | bench | admin``.

Each sub-command lives with its layer and is imported only when used, so the engine
commands start fast and need nothing but the standard library.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Sequence

USAGE = """usage: ginrummy <command> [options]

commands:
  serve     run the web game (http://localhost:8000 by default)
  analyze   best melds, deadwood and best discards of a hand
  settle    score a knock: knocker's and defender's hands
  replay    print a recorded round or match move by move
  verify    check that every deal of a recorded match was fair (docs/fairness.md)
  review    judge each seat's decisions of a recorded match (docs/review.md)
  arena     play computer players against each other and print statistics
  admin     the operators' console: reports, a player's history, actions (civility)
  bench     measure: bench engine | bots | load | computer | faults | deploy | web | abuse |
            review | tournament | chromium

'ginrummy <command> --help' for the options of one command.
"""


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if not args or args[0] in ("-h", "--help", "help"):
        print(USAGE, end="")
        return 0
    command, rest = args[0], args[1:]
    if command == "serve":
        from ginrummy.server.main import main as serve

        return serve(rest)
    if command in ("analyze", "settle", "replay", "verify"):
        from ginrummy import tools

        return int(getattr(tools, command)(rest))
    if command == "review":
        from ginrummy.review.cli import main as review

        return review(rest)
    if command == "arena":
        from ginrummy.arena import main as arena

        return arena(rest)
    if command == "bench":
        return _bench(rest)
    if command == "admin":  # civility (issue 22, part 4)
        from ginrummy.server.civility.cli import main as admin

        return admin(rest)
    print(f"ginrummy: unknown command {command!r}\n\n{USAGE}", end="", file=sys.stderr)
    return 2


BENCHES = {
    "engine": "speed of the meld maths, the showdown and whole rounds",
    "bots": "decision time per computer level, and strong-vs-strong matches per second",
    "load": "many concurrent games against real server processes",
    "computer": "rooms against a (heavy) computer level beside people's games",
    "faults": "kill server instances mid-match, then audit every event log",
    "deploy": "restart every instance in turn under load, then audit every event log",
    "web": "what the home page costs a browser, cold and again (Chromium)",
    "chromium": "the computer players' decision times in Chromium, and the page while one thinks",
    "abuse": "real games at human pace while an attacker hammers the server",
    "review": "how long the review of a full 100-point match takes",
    "tournament": "speed of the tournament core (or a server) on a whole tournament",
}
"""``ginrummy bench NAME`` runs ``ginrummy.benchmarks.NAME.main`` (imported on demand)."""


def bench_usage() -> str:
    lines = [f"  {name:<12}{what}" for name, what in BENCHES.items()]
    return (
        "usage: ginrummy bench NAME [options]\n\nbenches (bench/RESULTS.md has their figures):\n"
        + "\n".join(lines)
        + "\n\n'ginrummy bench NAME --help' for the options of one.\n"
    )


def _bench(args: list[str]) -> int:
    what = args[0] if args else ""
    if what in ("-h", "--help", "help"):
        print(bench_usage(), end="")
        return 0
    if what not in BENCHES:
        print(bench_usage(), end="", file=sys.stderr)
        return 2
    module = importlib.import_module(f"ginrummy.benchmarks.{what}")
    code: int = module.main(args[1:])
    return code


if __name__ == "__main__":
    raise SystemExit(main())
