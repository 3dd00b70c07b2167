"""Runs the client's pure JavaScript tests (``node --test``) as part of the suite."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

HERE = Path(__file__).parent
ROOT = HERE.parents[1]


FILES = sorted(HERE.glob("*.test.mjs"))


def test_the_client_has_javascript_tests() -> None:
    assert len(FILES) > 10, "the client's JavaScript tests are missing"


# A test a file, so that pytest-xdist spreads them over its workers.
@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_client_modules_with_node(path: Path) -> None:
    node = shutil.which("node")
    if node is None:
        if os.environ.get("CI") == "true":
            pytest.fail("node is required in CI for the client's JavaScript tests")
        pytest.skip("node is not installed")
    if not (ROOT / "node_modules" / "fast-check").is_dir():
        pytest.fail("the client's test tools are missing: run `make js-test` (it runs npm ci)")
    done = subprocess.run(
        [node, "--test", str(path)],
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
