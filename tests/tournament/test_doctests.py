"""The examples in the tournament package's docstrings run."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import ginrummy.tournament

MODULES = [
    ginrummy.tournament,
    *(
        importlib.import_module(info.name)
        for info in pkgutil.iter_modules(ginrummy.tournament.__path__, "ginrummy.tournament.")
    ),
]


@pytest.mark.parametrize("module", MODULES, ids=lambda m: m.__name__)
def test_doctests_pass(module):
    assert doctest.testmod(module, optionflags=doctest.ELLIPSIS).failed == 0


def test_there_are_doctests_to_run():
    assert sum(doctest.testmod(m).attempted for m in MODULES) >= 10
