"""``ginrummy replay`` of a chouette record (docs/rules.md §8): every event, in order."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

import pytest

from engine.helpers import random_table
from ginrummy.cli import main
from ginrummy.engine import Action, Rules
from ginrummy.engine.chouette import ChouetteTable, Deal, Forfeit, Leave, NextMatch, Return
from ginrummy.engine.chouette_record import record_of_table


def _record(seed: int) -> tuple[dict[str, Any], ChouetteTable]:
    *_, table = random_table(Rules(target_score=40), random.Random(seed), 4, max_rounds=8)
    return record_of_table(table).to_dict(), table


def _replay(capsys: pytest.CaptureFixture[str], path: Path) -> tuple[int, str, str]:
    code = main(["replay", str(path)])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("seed", [3, 11])
def test_replay_prints_every_event_of_a_chouette_table(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, seed: int
) -> None:
    record, table = _record(seed)
    path = tmp_path / "chouette.json"
    path.write_text(json.dumps(record))
    code, out, err = _replay(capsys, path)
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert lines[0].startswith("Chouette, 4 players, rules standard; drawn: 0 ")
    events = table.events

    def count(kind: type) -> int:
        return sum(isinstance(e, kind) for e in events)

    moves = [line for line in lines if re.match(r"^ +\d+\. \d: ", line)]
    assert len(moves) == count(Action)
    assert [m.split(": ", 1)[1] for m in moves] == [str(e) for e in events if isinstance(e, Action)]
    assert sum(line.startswith("Round ") for line in lines) == count(Deal)
    assert sum(line.startswith("Match ") and "box" in line for line in lines) >= count(NextMatch)
    assert sum(" leaves" in line or " is back" in line for line in lines) == count(Leave) + count(
        Return
    )
    assert sum("forfeits the match" in line for line in lines) == count(Forfeit)
    settled = [line for line in lines if " over: " in line]
    assert len(settled) == len(table.settlements)
    if settled:
        ledger = [line for line in lines if line.startswith("  ledger: ")][-1]
        expected = ", ".join(f"{p} {v:+d}" for p, v in enumerate(table.ledger))
        assert ledger == f"  ledger: {expected}"


def test_replay_refuses_a_tampered_chouette_record(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    record, _ = _record(3)
    events = record["events"]
    assert isinstance(events, list)
    first_action = next(i for i, e in enumerate(events) if not e.startswith(("deal", "leave")))
    events[first_action] = "knock Ac"
    path = tmp_path / "tampered.json"
    path.write_text(json.dumps(record))
    code, out, err = _replay(capsys, path)
    assert code == 2 and out == ""
    assert f"event {first_action + 1} (knock Ac) does not replay" in err
    path.write_text(json.dumps({"kind": "chouette", "rules": {}}))
    code, out, err = _replay(capsys, path)
    assert code == 2 and "malformed chouette record" in err
