"""Import boundaries of docs/design.md, checked by AST over the source tree, and the doctests.

The layer table is data: packages that do not exist yet are simply not checked, and
new modules of existing packages are picked up as they appear.
"""

from __future__ import annotations

import ast
import doctest
import importlib
import pkgutil
import sys
from pathlib import Path

import pytest

import ginrummy
import ginrummy.engine

PACKAGE_DIR = Path(ginrummy.__file__).parent
ENGINE_DIR = Path(ginrummy.engine.__file__).parent

# The engine is pure: no I/O, no clock, no global random state (docs/design.md, L0).
ENGINE_FORBIDDEN = {"asyncio", "json", "time", "logging", "os", "random", "socket", "threading"}
# L1 packages import only the engine (and themselves), never each other.
L1 = (
    "ginrummy.bots",
    "ginrummy.fairness",
    "ginrummy.hints",
    "ginrummy.protocol",
    "ginrummy.tournament",
)
# Of our own code, what each layer may import (besides its own package).
MAY_IMPORT: dict[str, tuple[str, ...]] = {
    "ginrummy.engine": (),
    **dict.fromkeys(L1, ("ginrummy.engine",)),
    "ginrummy.ratings": (),  # L1, pure maths: imports nothing of ours
}
# Only the CLI (and the server itself) may import the server, and the fault harness's audit,
# which audits the server's own event logs with the server's fold.
SERVER = "ginrummy.server"
SERVER_IMPORTERS = ("ginrummy.cli", "ginrummy.benchmarks.fault_audit", SERVER)


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE_DIR.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _imports(path: Path) -> list[tuple[int, str]]:
    """(line, absolute module name) of every import in the file, nested ones included."""
    module = _module_name(path)
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            out += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - node.level + 1]
                name = ".".join([*base, node.module] if node.module else base)
            else:
                name = node.module or ""
            out.append((node.lineno, name))
            # `from ginrummy import server` names a module too
            out += [(node.lineno, f"{name}.{alias.name}") for alias in node.names]
    return out


def _within(name: str, package: str) -> bool:
    return name == package or name.startswith(package + ".")


def _source_files(root: Path) -> list[Path]:
    return sorted(p for p in root.rglob("*.py") if "__pycache__" not in p.parts)


ENGINE_FILES = _source_files(ENGINE_DIR)
ALL_FILES = _source_files(PACKAGE_DIR)


def _ours(name: str) -> bool:
    return _within(name, "ginrummy")


@pytest.mark.parametrize("path", ENGINE_FILES, ids=lambda p: p.name)
def test_the_engine_imports_only_the_standard_library_and_itself(path):
    problems = []
    for line, name in _imports(path):
        top = name.split(".")[0]
        if _ours(name):
            if not _within(name, "ginrummy.engine"):
                problems.append(f"{path.name}:{line} imports {name} (outside the engine)")
        elif top in ENGINE_FORBIDDEN:
            problems.append(f"{path.name}:{line} imports {name} (no I/O, clock or global random)")
        elif top not in sys.stdlib_module_names and top != "__future__":
            # `from x import y` also yields "x.y"; only the top name matters here
            problems.append(f"{path.name}:{line} imports {name} (not the standard library)")
    assert problems == []


def _layer_of(module: str) -> str | None:
    for pkg in MAY_IMPORT:
        if _within(module, pkg):
            return pkg
    return None


def _layer_problems(path: Path) -> list[str]:
    module = _module_name(path)
    layer = _layer_of(module)
    problems = []
    for line, name in _imports(path):
        if not _ours(name) or name == "ginrummy":
            continue
        if _within(name, SERVER) and not any(_within(module, m) for m in SERVER_IMPORTERS):
            problems.append(f"{module}:{line} imports {name}: only the CLI may import the server")
        if layer is None:
            continue
        allowed = (layer, *MAY_IMPORT[layer])
        if not any(_within(name, pkg) for pkg in allowed):
            problems.append(f"{module}:{line} imports {name}: {layer} may import only {allowed}")
    return problems


@pytest.mark.parametrize("path", ALL_FILES, ids=_module_name)
def test_the_package_keeps_the_layers_of_design_md(path):
    assert _layer_problems(path) == []


def test_the_layer_check_catches_forbidden_imports(tmp_path, monkeypatch):
    # the checker itself can fail: relative, nested and `from ginrummy import x` imports
    root = tmp_path / "ginrummy"
    (root / "bots").mkdir(parents=True)
    bad = root / "bots" / "greedy.py"
    bad.write_text(
        "from ..server import room\n"
        "def f():\n    from ginrummy import hints\n"
        "from . import tables\nfrom ginrummy.engine import Card\n"
    )
    monkeypatch.setattr(sys.modules[__name__], "PACKAGE_DIR", root)
    assert _module_name(bad) == "ginrummy.bots.greedy"
    names = {name for _, name in _imports(bad)}
    assert {"ginrummy.server.room", "ginrummy.hints", "ginrummy.bots.tables"} <= names
    problems = _layer_problems(bad)
    assert any("ginrummy.server.room: only the CLI may import the server" in p for p in problems)
    assert any(":3 imports ginrummy.hints: ginrummy.bots may import only" in p for p in problems)
    assert not any("tables" in p or "import ginrummy.engine" in p for p in problems)


def _engine_modules():
    yield ginrummy.engine
    for info in pkgutil.iter_modules(ginrummy.engine.__path__, "ginrummy.engine."):
        yield importlib.import_module(info.name)


@pytest.mark.parametrize("module", list(_engine_modules()), ids=lambda m: m.__name__)
def test_engine_doctests_pass(module):
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0


def test_the_engine_has_doctests_to_run():
    attempted = sum(doctest.testmod(m).attempted for m in _engine_modules())
    assert attempted >= 10
