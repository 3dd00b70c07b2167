"""Nothing imports the server except the command line and the fault harness that
audits its logs (docs/design.md, layers)."""

from __future__ import annotations

import ast
from pathlib import Path

import ginrummy

PACKAGE = Path(ginrummy.__file__).parent


def _imports(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
    return names


def test_only_the_cli_imports_the_server() -> None:
    offenders = []
    for path in PACKAGE.rglob("*.py"):
        rel = path.relative_to(PACKAGE)
        # The fault harness audits the server's own event logs with the server's fold.
        if rel.parts[0] == "server" or rel in (Path("cli.py"), Path("benchmarks/fault_audit.py")):
            continue
        if any(n == "ginrummy.server" or n.startswith("ginrummy.server.") for n in _imports(path)):
            offenders.append(str(rel))
    assert offenders == []
