"""The store's parts keep to their own names (/work/shared/STYLE.md: no reaching into
another part's private names): a mixin module reads only the private attributes it
assigns or defines itself; what it needs of the store is public (``SqlStore.now``) or
answered by the store itself (``MemoryStore.close_account``)."""

from __future__ import annotations

import ast
import inspect
from types import ModuleType

import pytest

from ginrummy.server.store import memory_civility, sql_accounts


def _private_reads_not_its_own(module: ModuleType) -> set[str]:
    tree = ast.parse(inspect.getsource(module))
    own: set[str] = set()
    used: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            own.add(node.name)
        if (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id == "self"
            and node.attr.startswith("_")
        ):
            (own if isinstance(node.ctx, ast.Store) else used).add(node.attr)
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            used.add(node.target.id)  # a declared field is a claim on the store's names
    return {name for name in used if name.startswith("_") and name not in own}


@pytest.mark.parametrize("module", [memory_civility, sql_accounts])
def test_a_store_part_reads_no_other_parts_private_names(module: ModuleType) -> None:
    assert _private_reads_not_its_own(module) == set()
