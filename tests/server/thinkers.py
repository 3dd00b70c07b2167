"""Worker functions for ``ThinkingPool`` tests: module-level, so that a spawned worker
process finds them by name. Each writes its process id to ``<folder>/started-<pid>``
when it starts a decision and waits for ``<folder>/gate`` before it decides: a test
knows when a worker is busy and chooses when it ends."""

from __future__ import annotations

import os
import time
from pathlib import Path

from ginrummy.engine import Action, SeatView
from ginrummy.server.thinking import Carried, RngState, decide

GATE_WAIT = 30.0  # seconds a worker waits for its gate at most (a test that failed)


def gated(
    folder: str, level: str, view: SeatView, carried: Carried
) -> tuple[Action, RngState | None]:
    """``thinking.decide``, once the test opens the gate."""
    root = Path(folder)
    (root / f"started-{os.getpid()}").write_text(level)
    deadline = time.monotonic() + GATE_WAIT
    while not (root / "gate").exists() and time.monotonic() < deadline:
        time.sleep(0.005)
    return decide(level, view, carried)


def started(folder: Path) -> list[int]:
    """The ids of the workers that started a decision."""
    return sorted(int(p.name.removeprefix("started-")) for p in folder.glob("started-*"))
