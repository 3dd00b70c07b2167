"""The browser's verifier (web/js/fair/verify.js under Node) and the Python one agree on
1,000 records of short random games, valid and tampered; one node process for all."""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from ginrummy.fairness import report_dict

from .helpers import fair_match

RECORDS = 1_000
SCRIPT = Path(__file__).resolve().parents[1] / "js" / "fair_agree.mjs"

Tamper = Callable[[dict[str, Any], random.Random], None]


def _fair(record: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    return dict(record["rounds"][rng.randrange(len(record["rounds"]))]["fair"])


def _set(path: str, value: Callable[[random.Random], Any]) -> Tamper:
    """Sets ``fair.<path>`` of a random round; ``seeds.x`` paths reach into the seeds."""

    def tamper(record: dict[str, Any], rng: random.Random) -> None:
        rnd = record["rounds"][rng.randrange(len(record["rounds"]))]
        fair = rnd["fair"] = dict(rnd["fair"])
        if path.startswith("seeds."):
            fair["seeds"] = {**fair["seeds"], path[6:]: value(rng)}
        else:
            fair[path] = value(rng)

    return tamper


def _swap_cards(record: dict[str, Any], rng: random.Random) -> None:
    rnd = record["rounds"][rng.randrange(len(record["rounds"]))]
    cards = rnd["deck"].split()
    i, j = rng.sample(range(52), 2)
    cards[i], cards[j] = cards[j], cards[i]
    rnd["deck"] = " ".join(cards)


def _drop_fair(record: dict[str, Any], rng: random.Random) -> None:
    record["rounds"][rng.randrange(len(record["rounds"]))].pop("fair")


def _hex(rng: random.Random) -> str:
    return rng.randbytes(32).hex()


TAMPERS: dict[str, Tamper | None] = {
    "none": None,
    "commitment": _set("commitment", _hex),
    "server_seed": _set("server_seed", _hex),
    "unrevealed": _set("server_seed", lambda rng: None),
    "seed one": _set("seeds.one", _hex),
    "seed two": _set("seeds.two", _hex),
    "room": _set("room", lambda rng: rng.choice(["x", "Küche", ""])),
    "match": _set("match", lambda rng: rng.randrange(10, 50)),  # records use 1..4
    "round": _set("round", lambda rng: rng.randrange(4, 50)),
    "deck": _swap_cards,
    "short seed": _set("seeds.two", lambda rng: _hex(rng)[:62]),
    "upper-case seed": _set("seeds.one", lambda rng: _hex(rng).upper()),
    "number as text": _set("match", lambda rng: "1"),
    "version": _set("version", lambda rng: "gin-fair-v0"),
    "no fair block": _drop_fair,
}


def records() -> list[tuple[str, dict[str, Any]]]:
    rng = random.Random(12)
    out = []
    for i in range(RECORDS):
        record = fair_match(rng, rounds=rng.randrange(1, 4), number=rng.randrange(1, 5))
        name = "none" if i % 3 == 0 else rng.choice(list(TAMPERS))
        tamper = TAMPERS[name]
        if tamper is not None:
            tamper(record, rng)
        out.append((name, record))
    return out


def _essence(report: dict[str, Any]) -> tuple[Any, ...]:
    error = report["error"]
    rounds = tuple((r["round"], r["check"]) for r in report["rounds"])
    return report["ok"], None if error is None else error["field"], rounds


@pytest.mark.system  # a long differential run against Node (tests/conftest.py)
def test_the_browser_and_the_python_verifier_agree_on_1000_records(tmp_path):
    node = shutil.which("node")
    if node is None:
        if os.environ.get("CI") == "true":
            pytest.fail("node is required in CI for the client's JavaScript tests")
        pytest.skip("node is not installed")
    cases = records()
    path = tmp_path / "records.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for _, r in cases), encoding="utf-8")
    done = subprocess.run(
        [node, str(SCRIPT), str(path)], capture_output=True, text=True, timeout=300, check=False
    )
    assert done.returncode == 0, done.stderr
    js = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(js) == RECORDS
    disagree = [
        (name, _essence(report_dict(record)), _essence(theirs))
        for (name, record), theirs in zip(cases, js, strict=True)
        if _essence(report_dict(record)) != _essence(theirs)
    ]
    assert disagree == []
    # the sample holds every kind of record, and the tampered ones are all rejected
    kinds = Counter(name for name, _ in cases)
    assert set(kinds) == set(TAMPERS) and kinds["none"] >= RECORDS // 3
    verdicts = [(name, report_dict(record)["ok"]) for name, record in cases]
    assert all(ok == (name == "none") for name, ok in verdicts), "a tampered record passed"
