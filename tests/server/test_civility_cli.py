"""``ginrummy admin`` acts through the same console as the page, on the site's store,
and only as an operator named in the configuration."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from ginrummy import cli
from ginrummy.server.store import Player, Report, open_store


def _seed(url: str) -> None:
    async def seed() -> None:
        store = open_store(url)
        await store.open()
        await store.add_identity("h_bob")
        await store.ensure_player("h_bob", Player("p_bob0000000", "Bob"))
        await store.add_report(Report("r_1", 1.0, "p_ann", "p_bob0000000", "name", "player", None))
        await store.close()

    asyncio.run(seed())


def test_the_cli_lists_reports_and_acts_with_an_audit_entry(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    url = f"sqlite:///{tmp_path / 's.sqlite3'}"
    _seed(url)
    monkeypatch.setenv("GINRUMMY_OPERATORS", "Opal")
    assert cli.main(["admin", "--store", url, "reports"]) == 0
    assert [r["id"] for r in json.loads(capsys.readouterr().out)] == ["r_1"]
    refused = ["admin", "--store", url, "--as", "Mallory", "warn", "p_bob0000000", "--reason", "x"]
    assert cli.main(refused) == 2
    act = ["admin", "--store", url, "--as", "Opal", "ban", "p_bob0000000", "--minutes", "10"]
    assert cli.main([*act, "--reason", "abandons", "--report", "r_1"]) == 0
    capsys.readouterr()
    assert cli.main(["admin", "--store", url, "history", "p_bob0000000"]) == 0
    history = json.loads(capsys.readouterr().out)
    assert [s["kind"] for s in history["sanctions"]] == ["ban"]
    assert history["reports"][0]["outcome"] == "ban"
    assert [(e["operator"], e["action"]) for e in history["audit"]] == [("Opal", "ban")]
    assert cli.main(["admin", "--store", url, "reports"]) == 0
    assert json.loads(capsys.readouterr().out) == []
