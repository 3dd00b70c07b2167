"""Layer boundaries (docs/design.md): bots, hints and fairness import only the engine and
the stdlib, tournaments the engine, rustworkx and the stdlib."""

from __future__ import annotations

import ast
import inspect
import sys
from pathlib import Path

import ginrummy
from ginrummy.hints import advise

PACKAGE = Path(ginrummy.__file__).parent


def imports(folder: str) -> set[str]:
    names: set[str] = set()
    for path in (PACKAGE / folder).rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                names.update(a.name for a in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                names.add(node.module)
    return names


def allowed(name: str, own: str) -> bool:
    top = name.split(".", maxsplit=1)[0]
    if top == "ginrummy":
        return name.startswith(("ginrummy.engine", f"ginrummy.{own}"))
    return top in sys.stdlib_module_names or top == "__future__"


def test_bots_import_only_the_engine_and_the_standard_library() -> None:
    bad = sorted(n for n in imports("bots") if not allowed(n, "bots"))
    assert not bad, bad


def test_bots_read_no_clock() -> None:
    """Decisions depend on the view and the rng only, never on the machine's speed."""
    assert not imports("bots") & {"time", "datetime"}


def test_hints_import_only_the_engine() -> None:
    bad = sorted(n for n in imports("hints") if not allowed(n, "hints"))
    assert not bad, bad


def test_fairness_imports_only_the_engine_and_reads_no_clock() -> None:
    names = imports("fairness")
    bad = sorted(n for n in names if not allowed(n, "fairness"))
    assert not bad, bad
    assert not names & {"time", "datetime", "random"}  # a deck depends on its seeds only


def test_tournaments_import_only_the_engine_rustworkx_and_the_standard_library() -> None:
    def fits(name: str) -> bool:
        return allowed(name, "tournament") or name.split(".", maxsplit=1)[0] == "rustworkx"

    bad = sorted(n for n in imports("tournament") if not fits(n))
    assert not bad, bad


def test_tournaments_read_no_clock_and_no_global_random() -> None:
    """Commands take the time as ``at``; seeding ties are broken by join order."""
    assert not imports("tournament") & {"time", "datetime", "random", "secrets"}


def test_coach_sees_only_the_own_hand_the_legal_actions_and_the_open_discard() -> None:
    assert list(inspect.signature(advise).parameters) == ["hand", "legal_actions", "discard"]
