"""``ginrummy admin`` acts through the same console as the page, on the site's store,
and only as an operator named in the configuration."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from ginrummy import cli
from ginrummy.server.civility.console import Console, Operator
from ginrummy.server.civility.service import Civility
from ginrummy.server.store import Account, Device, Passkey, Player, Report, open_store


def _seed(url: str) -> None:
    async def seed() -> None:
        store = open_store(url)
        await store.open()
        await store.add_identity("h_bob")
        await store.ensure_player("h_bob", Player("p_bob0000000", "Bob"))
        await store.add_identity("h_opal")
        await store.ensure_player("h_opal", Player("p_opal000000", "Opal"))
        opal = Account("h_opal", "Opal", "opal", 1.0)
        device = Device("d_1", "t_opal", "h_opal", "Browser", 1.0, 1.0)
        await store.create_account(opal, device, Passkey("k_1", "h_opal", "key", 0, 1.0))
        await store.add_report(Report("r_1", 1.0, "p_ann", "p_bob0000000", "name", "player", None))
        await store.close()

    asyncio.run(seed())


def test_the_cli_lists_reports_and_acts_with_an_audit_entry(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    url = f"sqlite:///{tmp_path / 's.sqlite3'}"
    _seed(url)
    monkeypatch.setenv("GINRUMMY_OPERATORS", "p_opal000000, p_bob0000000")
    assert cli.main(["admin", "--store", url, "reports"]) == 0
    assert [r["id"] for r in json.loads(capsys.readouterr().out)] == ["r_1"]
    warn = ["warn", "p_bob0000000", "--reason", "x"]
    assert cli.main(["admin", "--store", url, "--as", "Opal", *warn]) == 2  # a name: no
    assert cli.main(["admin", "--store", url, "--as", "p_mallory000", *warn]) == 2
    # a listed id that is no account's player is no operator either
    assert cli.main(["admin", "--store", url, "--as", "p_bob0000000", *warn]) == 1
    capsys.readouterr()
    act = ["admin", "--store", url, "--as", "p_opal000000", "ban", "p_bob0000000"]
    assert cli.main([*act, "--minutes", "10", "--reason", "abandons", "--report", "r_1"]) == 0
    capsys.readouterr()
    assert cli.main(["admin", "--store", url, "history", "p_bob0000000"]) == 0
    history = json.loads(capsys.readouterr().out)
    assert [s["kind"] for s in history["sanctions"]] == ["ban"]
    assert history["reports"][0]["outcome"] == "ban"
    assert [(e["operator"], e["action"]) for e in history["audit"]] == [("p_opal000000", "ban")]
    assert history["audit"][0]["detail"]["operator_name"] == "Opal"
    assert cli.main(["admin", "--store", url, "reports"]) == 0
    assert json.loads(capsys.readouterr().out) == []


async def test_an_operators_rename_is_told_to_whoever_shows_names() -> None:
    # the server's console is given its rooms' and lobbies' renamed (shown live)
    store = open_store("memory://")
    await store.open()
    await store.add_identity("h_bob")
    await store.ensure_player("h_bob", Player("p_bob0000000", "Bob"))
    told: list[str] = []

    async def renamed(player_id: str) -> None:
        told.append(player_id)

    console = Console(Civility(store, lambda: 1.0), renamed)
    opal = Operator("p_opal000000", "Opal")
    await console.act(opal, "rename", "p_bob0000000", "offensive", name="Player 7")
    await console.act(opal, "warn", "p_bob0000000", "insults")
    assert told == ["p_bob0000000"]
    found = await store.player("p_bob0000000")
    assert found is not None and found.name == "Player 7"
    await store.close()
