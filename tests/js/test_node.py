"""Runs the client's pure JavaScript tests (``node --test``) as part of the suite."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

HERE = Path(__file__).parent
ROOT = HERE.parents[1]


def test_client_modules_with_node() -> None:
    node = shutil.which("node")
    if node is None:
        if os.environ.get("CI") == "true":
            pytest.fail("node is required in CI for the client's JavaScript tests")
        pytest.skip("node is not installed")
    if not (ROOT / "node_modules" / "fast-check").is_dir():
        pytest.fail("the client's test tools are missing: run `make js-test` (it runs npm ci)")
    files = sorted(str(p) for p in HERE.glob("*.test.mjs"))
    assert files, "no JavaScript tests found"
    done = subprocess.run(
        # One file at a time: on a 2-core machine files run side by side starve the timed
        # device games (and the browser tests may be running too).
        [node, "--test", "--test-concurrency=1", *files],
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
