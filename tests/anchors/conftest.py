"""What the anchors' arena tests share: the interpreter that has the outside library
(docs/computer-players.md, "Anchors"), with this checkout's package on its path."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def anchor_python(monkeypatch: pytest.MonkeyPatch) -> Callable[[str, str], str]:
    """``(module, install)``: the interpreter that imports ``module`` (the library),
    $GINRUMMY_ANCHORS_PYTHON else this one, with ``src`` put on its ``PYTHONPATH``; the
    test is skipped, saying ``install``, when it cannot import it."""

    def find(module: str, install: str) -> str:
        python = os.environ.get("GINRUMMY_ANCHORS_PYTHON", sys.executable)
        probe = subprocess.run([python, "-c", f"import {module}"], capture_output=True, check=False)
        if probe.returncode != 0:
            pytest.skip(f"{install} (docs/computer-players.md)")
        path = [str(ROOT / "src"), *filter(None, [os.environ.get("PYTHONPATH")])]
        monkeypatch.setenv("PYTHONPATH", os.pathsep.join(path))
        return python

    return find
