"""The review may import the engine and the bots (like the arena); nothing imports
the review but the CLI, its benchmark (and, later, the server). Its doctests run here."""

from __future__ import annotations

import ast
import doctest
import importlib
import pkgutil
from pathlib import Path

import pytest

import ginrummy
import ginrummy.review

PACKAGE_DIR = Path(ginrummy.__file__).parent
REVIEW_DIR = Path(ginrummy.review.__file__).parent
ALLOWED = ("ginrummy.engine", "ginrummy.bots", "ginrummy.review")
IMPORTERS = ("ginrummy.cli", "ginrummy.benchmarks.review", "ginrummy.review", "ginrummy.server")


def _imported(path: Path) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(path.read_text("utf-8"))):
        if isinstance(node, ast.Import):
            names |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
            names |= {f"{node.module}.{a.name}" for a in node.names}
    return {n for n in names if n == "ginrummy" or n.startswith("ginrummy.")}


def _module(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE_DIR.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _within(name: str, packages: tuple[str, ...]) -> bool:
    return any(name == p or name.startswith(p + ".") for p in packages)


@pytest.mark.parametrize("path", sorted(REVIEW_DIR.glob("*.py")), ids=lambda p: p.name)
def test_the_review_imports_only_the_engine_the_bots_and_itself(path):
    bad = [n for n in _imported(path) if not _within(n, ALLOWED)]
    assert bad == []


def test_only_the_cli_imports_the_review():
    importers = [
        _module(path)
        for path in sorted(PACKAGE_DIR.rglob("*.py"))
        if any(_within(n, ("ginrummy.review",)) for n in _imported(path))
    ]
    assert importers and all(_within(m, IMPORTERS) for m in importers)


def _modules():
    yield ginrummy.review
    for info in pkgutil.iter_modules(ginrummy.review.__path__, "ginrummy.review."):
        yield importlib.import_module(info.name)


@pytest.mark.parametrize("module", list(_modules()), ids=lambda m: m.__name__)
def test_review_doctests_pass(module):
    assert doctest.testmod(module).failed == 0
