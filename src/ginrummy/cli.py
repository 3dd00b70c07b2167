"""``ginrummy serve | analyze | settle | replay | verify | review | arena | bench``.

Each sub-command lives with its layer and is imported only when used, so the engine
commands start fast and need nothing but the standard library.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

USAGE = """usage: ginrummy <command> [options]

commands:
  serve     run the web game (http://localhost:8000 by default)
  analyze   best melds, deadwood and best discards of a hand
  settle    score a knock: knocker's and defender's hands
  replay    print a recorded round or match move by move
  verify    check that every deal of a recorded match was fair (docs/fairness.md)
  review    judge one seat's decisions of a recorded match (docs/review.md)
  arena     play computer players against each other and print statistics
  bench     measure speed: bench engine | bots | load | faults | review

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
    print(f"ginrummy: unknown command {command!r}\n\n{USAGE}", end="", file=sys.stderr)
    return 2


def _bench(args: list[str]) -> int:
    what = args[0] if args else ""
    if what == "engine":
        from ginrummy.benchmarks.engine import main as bench_engine

        return bench_engine(args[1:])
    if what == "bots":
        from ginrummy.benchmarks.bots import main as bench_bots

        return bench_bots(args[1:])
    if what == "load":
        from ginrummy.benchmarks.load import main as bench_load

        return bench_load(args[1:])
    if what == "review":
        from ginrummy.benchmarks.review import main as bench_review

        return bench_review(args[1:])
    if what == "faults":
        from ginrummy.benchmarks.faults import main as bench_faults

        return bench_faults(args[1:])
    print("usage: ginrummy bench engine|bots|load|faults|review [options]", file=sys.stderr)
    return 2


if __name__ == "__main__":
    raise SystemExit(main())
