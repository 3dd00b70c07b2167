"""`node src/ginrummy/web/js/engine/cli.mjs analyze|settle` keeps the contract of
`ginrummy analyze|settle`: the checks of tests/test_tools.py, run against the Node
command line, and the same bytes out for the same lines in."""

from __future__ import annotations

import io
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from typing import Any

import pytest

import test_tools

from . import harness

CLI = harness.ROOT / "src" / "ginrummy" / "web" / "js" / "engine" / "cli.mjs"


@pytest.fixture(autouse=True)
def _node() -> None:
    if shutil.which("node") is None:
        if os.environ.get("CI") == "true":
            pytest.fail("node is required in CI for the browser engine's command line")
        pytest.skip("node is not installed")


def node_run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    """tests/test_tools.py's ``run``, with the Node command line instead of ``main``;
    a test's stdin (monkeypatched to a StringIO) is fed to it."""
    stdin = sys.stdin.getvalue() if isinstance(sys.stdin, io.StringIO) else ""
    done = subprocess.run(
        ["node", str(CLI), *args], input=stdin, capture_output=True, text=True, check=False
    )
    return done.returncode, done.stdout, done.stderr


CASES: list[Callable[..., None]] = [
    test_tools.test_analyze_ten_cards,
    test_tools.test_analyze_eleven_cards_lists_best_discards,
    test_tools.test_settle_william_hill_example,
    test_tools.test_settle_undercut_and_presets,
    test_tools.test_settle_gin_has_no_layoffs,
    test_tools.test_settle_refuses_a_knock_above_the_limit,
    test_tools.test_settle_needs_both_hands,
]
BATCH_CASES: list[Callable[..., None]] = [
    test_tools.test_analyze_batch_reports_errors_and_goes_on,
    test_tools.test_settle_batch,
]
BAD_HANDS: list[Any] = list(
    test_tools.test_analyze_bad_input_exits_2_with_one_line.pytestmark[0].args[1]  # type: ignore[attr-defined]
)


@pytest.fixture
def with_node(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(test_tools, "run", node_run)


@pytest.mark.usefixtures("with_node")
@pytest.mark.parametrize("case", CASES, ids=lambda c: c.__name__)
def test_the_tools_checks_pass_with_node(
    case: Callable[..., None], capsys: pytest.CaptureFixture[str]
) -> None:
    case(capsys)


@pytest.mark.usefixtures("with_node")
@pytest.mark.parametrize("case", BATCH_CASES, ids=lambda c: c.__name__)
def test_the_tools_batch_checks_pass_with_node(
    case: Callable[..., None],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    case(capsys, monkeypatch)


@pytest.mark.usefixtures("with_node")
@pytest.mark.parametrize(("hand", "message"), BAD_HANDS)
def test_the_tools_bad_hand_checks_pass_with_node(
    capsys: pytest.CaptureFixture[str], hand: str, message: str
) -> None:
    test_tools.test_analyze_bad_input_exits_2_with_one_line(capsys, hand, message)


def _both(args: list[str], stdin: str = "") -> tuple[subprocess.CompletedProcess[str], ...]:
    python = [sys.executable, "-m", "ginrummy", *args]
    node = ["node", str(CLI), *args]
    return tuple(
        subprocess.run(cmd, input=stdin, capture_output=True, text=True, check=False)
        for cmd in (python, node)
    )


def test_batches_print_the_same_bytes_in_both() -> None:
    requests = list(harness.hand_requests(200, seed=11))
    analyze = "".join(r["hand"] + "\n" for r in requests if r["op"] == "analyze")
    analyze += "Ac 2c\nAc Ac 2c 3c 4c 5c 6c 7c 8c 9c\n1x\n"
    settle = "".join(json.dumps(r) + "\n" for r in requests if r["op"] == "settle")
    settle += 'nope\n[1]\n{"knocker": "Ac", "defender": 3}\n'
    settle += '{"knocker": "", "defender": "", "preset": 5}\n'
    for args, stdin in ((["analyze"], analyze), (["settle"], settle)):
        python, node = _both(args, stdin)
        assert (node.returncode, node.stdout) == (python.returncode, python.stdout)


@pytest.mark.parametrize(
    "args",
    [
        ["analyze", "7h 8h 9h Tc Td Ts 2c 3d 4s Kh"],
        ["analyze", "7h 8h 9h Tc Td Ts 2c 3d 4s 1x"],
        ["settle", "--knocker", "4c 4d 4h 7s 8s 9s Ac As 6c 2d", "--defender", "6s"],
        ["settle", "--knocker", "4c 4d 4h 7s 8s 9s Ac As 6c 2d", "--preset", "nope"],
    ],
)
def test_single_calls_print_the_same_and_exit_alike(args: list[str]) -> None:
    python, node = _both(args)
    assert (node.returncode, node.stdout) == (python.returncode, python.stdout)
    assert node.stderr.count("\n") == python.stderr.count("\n")
